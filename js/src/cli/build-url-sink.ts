/**
 * `build --urls` with a dynamic type: list lines into a URL blocklist, every
 * expression of every entry line handed to the blocklist, whatever its filter
 * answers for it (issue #40). The blocklist's exact companion must hold every
 * expression of the list: a line skipped because the filter already answered
 * "maybe" for it (a repeat, or a false positive of the lines before) left its
 * expression out of `<output>.confirm`, and `query` then answered `clear` for
 * a listed URL. The blocklist itself knows what is new (UrlBlocklist keeps
 * each expression once in its companion and leaves a Bloom filter's bits as
 * they are for one it already reports).
 *
 * Lines are parsed and counted by sinks.ts's UrlListSink, whose rule for
 * skipping a line the filter reports present is what went wrong: it is given
 * a view of the blocklist whose filter never reports one, so it hands over
 * every expression. (Dropping that rule from UrlListSink itself would make
 * this view unnecessary.)
 */
import type { ListFormat, ListParseOptions, UrlBlocklist } from '../index.js';
import { FilterFullError, type Sink, type SinkCounts, UrlListSink } from './sinks.js';

export class BlocklistSink implements Sink {
  readonly #lines: UrlListSink;
  readonly #blocklist: UrlBlocklist;
  readonly #entriesBefore: number;

  constructor(blocklist: UrlBlocklist, format: ListFormat, parseOptions: ListParseOptions = {}) {
    this.#blocklist = blocklist;
    this.#entriesBefore = blocklist.entryCount;
    // What UrlListSink reads of a blocklist: its filter's type and `has`, and `addLine`.
    const storesEverything = {
      filter: { type: blocklist.filter.type, has: (): boolean => false },
      addLine: (expression: string, expressionFormat: ListFormat) => blocklist.addLine(expression, expressionFormat),
    };
    this.#lines = new UrlListSink(storesEverything as unknown as UrlBlocklist, format, parseOptions);
  }

  /**
   * The line counts. `stored` and `alreadyPresent` are exact once `settle()`
   * ran: the distinct expressions added, and the repeats of ones read before.
   */
  get counts(): SinkCounts {
    return this.#lines.counts;
  }

  addLines(lines: readonly Uint8Array[]): void {
    try {
      this.#lines.addLines(lines);
    } catch (error) {
      // Its count of what was stored is every expression handed over: the blocklist's is the distinct ones.
      if (error instanceof FilterFullError) throw new FilterFullError(error.line, this.#stored(), error.cause);
      throw error;
    }
  }

  /**
   * After the last line: `stored` is the distinct expressions the list
   * added, `alreadyPresent` the repeats (an expression read before, on this
   * line or an earlier one). Counted once, at the end: the blocklist counts
   * its distinct expressions from its companion's hashes.
   */
  settle(): void {
    const counts = this.#lines.counts;
    counts.stored = this.#stored();
    counts.alreadyPresent = counts.candidates - counts.stored;
  }

  #stored(): number {
    return this.#blocklist.entryCount - this.#entriesBefore;
  }
}
