/**
 * Where `build` puts the lines it reads: a plain filter (one key per
 * non-empty line) or a URL blocklist (list lines parsed into expressions).
 * Both take lines a batch at a time and keep only counters and the first few
 * unparseable lines, so memory does not grow with the input.
 */
import {
  type AnyFilter,
  tryAddKey,
  FilterError,
  filterType,
  type ListFormat,
  parseListLine,
  type UrlBlocklist,
} from '../index.js';

/** Unparseable lines kept with their text; the rest are only counted. */
export const MAX_REPORTED_ERRORS = 10;

export interface LineProblem {
  line: number;
  text: string;
  reason: string;
}

export interface SinkCounts {
  /** Lines read. */
  lines: number;
  /** Keys (non-empty lines), or the expressions of the list's entry lines. */
  candidates: number;
  /** Keys or expressions added to the filter. */
  stored: number;
  /** Keys or expressions not added because the filter already reported them present (repeats, or false positives). */
  alreadyPresent: number;
  /** Empty lines (keys), or blank/comment/header lines (lists). */
  skipped: number;
  /** Lines that could not be read (lists only). */
  errorCount: number;
  /** The first MAX_REPORTED_ERRORS of them. */
  errors: LineProblem[];
}

/** A cuckoo filter had no room for a key (the library said FULL): where, and how much was stored before. */
export class FilterFullError extends Error {
  readonly line: number;
  readonly stored: number;

  constructor(line: number, stored: number, cause: unknown) {
    super(`filter full at line ${line}`, { cause });
    this.name = 'FilterFullError';
    this.line = line;
    this.stored = stored;
  }
}

export interface Sink {
  readonly counts: SinkCounts;
  addLines(lines: readonly string[]): void;
}

function emptyCounts(): SinkCounts {
  return { lines: 0, candidates: 0, stored: 0, alreadyPresent: 0, skipped: 0, errorCount: 0, errors: [] };
}

/**
 * Whether a key the filter already reports present is skipped rather than
 * added again: only for filters without removal (Bloom, blocked Bloom), where
 * adding it would change no bit, so skipping only lets us count repeats.
 * A filter with removal (counting Bloom, cuckoo) stores every key of the
 * input: a key skipped because it was a false positive would depend on
 * another key's bits or fingerprint, and removing that key would make it a
 * false negative.
 */
export function skipsRepeats(filter: AnyFilter): boolean {
  return !filterType(filter.type).supportsRemove;
}

/**
 * Adds a key; false when a cuckoo filter has no room for it. A key refused
 * while the filter reports it present (its fingerprint already fills both
 * buckets: 2 x bucketSize copies) is found all the same, and counts as present.
 */
function storeKey(filter: AnyFilter, key: string): 'stored' | 'present' | 'full' {
  if (tryAddKey(filter, key)) return 'stored';
  return filter.has(key) ? 'present' : 'full';
}

/** One key per non-empty line. */
export class KeySink implements Sink {
  readonly counts = emptyCounts();
  readonly #filter: AnyFilter;
  readonly #skipRepeats: boolean;

  constructor(filter: AnyFilter) {
    this.#filter = filter;
    this.#skipRepeats = skipsRepeats(filter);
  }

  addLines(lines: readonly string[]): void {
    const counts = this.counts;
    const filter = this.#filter;
    const skipRepeats = this.#skipRepeats;
    for (const line of lines) {
      counts.lines++;
      if (line === '') {
        counts.skipped++;
        continue;
      }
      counts.candidates++;
      const outcome = skipRepeats && filter.has(line) ? 'present' : storeKey(filter, line);
      if (outcome === 'stored') counts.stored++;
      else if (outcome === 'present') counts.alreadyPresent++;
      else throw new FilterFullError(counts.lines, counts.stored, null);
    }
  }
}

/** List lines into a URL blocklist; unparseable lines are counted and the first ones kept. */
export class UrlListSink implements Sink {
  readonly counts = emptyCounts();
  readonly #blocklist: UrlBlocklist;
  readonly #format: ListFormat;
  readonly #skipRepeats: boolean;

  constructor(blocklist: UrlBlocklist, format: ListFormat) {
    this.#blocklist = blocklist;
    this.#format = format;
    this.#skipRepeats = skipsRepeats(blocklist.filter);
  }

  addLines(lines: readonly string[]): void {
    const counts = this.counts;
    const filter = this.#blocklist.filter;
    for (const line of lines) {
      counts.lines++;
      const parsed = parseListLine(line, this.#format);
      if (parsed.kind === 'skip') {
        counts.skipped++;
      } else if (parsed.kind === 'error') {
        counts.errorCount++;
        if (counts.errors.length < MAX_REPORTED_ERRORS) {
          counts.errors.push({ line: counts.lines, text: line, reason: parsed.reason });
        }
      } else {
        const all = parsed.expressions.length;
        const fresh = this.#skipRepeats ? parsed.expressions.filter((expression) => !filter.has(expression)).length : all;
        counts.candidates += all;
        counts.alreadyPresent += all - fresh;
        if (fresh === 0) continue;
        try {
          this.#blocklist.addLine(line, this.#format);
        } catch (error) {
          if (error instanceof FilterError && error.code === 'FULL') {
            throw new FilterFullError(counts.lines, counts.stored, error);
          }
          throw error;
        }
        counts.stored += fresh;
      }
    }
  }
}

/**
 * For a static filter type (binary fuse), which is built once from the whole
 * input: keeps every distinct key (or every list line with entries, and the
 * distinct expressions) until the input ends, counting as the other sinks
 * do; repeats are counted as already present. Memory grows with the input.
 */
export class CollectingSink implements Sink {
  readonly counts = emptyCounts();
  /** List lines that have entries (URL lists only). */
  readonly entryLines: string[] = [];
  readonly #distinct = new Set<string>();
  readonly #urls: boolean;
  readonly #format: ListFormat;

  constructor(urls: boolean, format: ListFormat) {
    this.#urls = urls;
    this.#format = format;
  }

  /** The distinct keys (or expressions) read so far. */
  get distinct(): ReadonlySet<string> {
    return this.#distinct;
  }

  addLines(lines: readonly string[]): void {
    const counts = this.counts;
    for (const line of lines) {
      counts.lines++;
      if (!this.#urls) {
        if (line === '') {
          counts.skipped++;
          continue;
        }
        this.#collect([line]);
        continue;
      }
      const parsed = parseListLine(line, this.#format);
      if (parsed.kind === 'skip') {
        counts.skipped++;
      } else if (parsed.kind === 'error') {
        counts.errorCount++;
        if (counts.errors.length < MAX_REPORTED_ERRORS) counts.errors.push({ line: counts.lines, text: line, reason: parsed.reason });
      } else {
        this.#collect(parsed.expressions);
        this.entryLines.push(line);
      }
    }
  }

  #collect(keys: readonly string[]): void {
    const counts = this.counts;
    for (const key of keys) {
      counts.candidates++;
      if (this.#distinct.has(key)) {
        counts.alreadyPresent++;
      } else {
        this.#distinct.add(key);
        counts.stored++;
      }
    }
  }
}

/** What the sizing pass counts per line: a key per non-empty line, or a list line's expressions. */
export function candidateCounter(urls: boolean, format: ListFormat): (line: string) => number {
  if (!urls) return (line) => (line === '' ? 0 : 1);
  return (line) => {
    const parsed = parseListLine(line, format);
    return parsed.kind === 'entry' ? parsed.expressions.length : 0;
  };
}
