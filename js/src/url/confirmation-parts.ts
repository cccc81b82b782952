// The exact companion split by hash prefix (docs/URL-BLOCKLISTS.md, "Confirming
// in parts"): an index attached up front, parts fetched through the caller's
// callback only when a "maybe" needs them, each checked against the index and
// kept. What UrlBlocklist and UrlBlocklistReader share (url-list.ts); each
// reads the index in its own module (exact-set.ts, reader/reader-confirmation.ts).
import { FilterError } from '../errors.js';
import { describeValue } from '../keys/keys.js';
import { checkUrlOnce, type FirstReported, type UrlCheck } from './check-url.js';
import type { ConfirmationIndex, ExactSet } from './confirmation.js';
import type { ExpressionDepth } from './expressions.js';

/**
 * Fetches one part of a split companion: its number and its file name as the
 * CLI writes it (`<filter>.confirm.parts/<name>`, `confirmationPartName`).
 * Resolves to the part's bytes; a rejection reaches the caller of `confirm` as is.
 */
export type FetchConfirmationPart = (part: number, name: string) => Promise<Uint8Array | ArrayBuffer>;

/** The file name of part `part` (the CLI's `<filter>.confirm.parts/<name>`): at least 4 decimal digits, '0007'. */
export function confirmationPartName(part: number): string {
  return String(part).padStart(4, '0');
}

/** What a split companion has cost so far. */
export interface ConfirmationPartsStatus {
  /** Parts of the split. */
  partCount: number;
  /** Parts fetched, checked and kept. */
  partsLoaded: number;
  /** Bytes the callback returned for them. */
  bytesFetched: number;
}

// Thrown through check-url.ts's rule when an expression's part is not loaded:
// the rule must then not conclude (clear would be a guess), so the sync check
// answers `possible` and `confirm` fetches the part and asks again.
class PartNotLoaded extends Error {
  constructor(readonly part: number) {
    super(`part ${part} is not loaded`);
  }
}

export class ConfirmationParts {
  readonly #index: ConfirmationIndex;
  readonly #fetchPart: FetchConfirmationPart;
  readonly #loaded = new Map<number, ExactSet>();
  // One fetch per part, even when several confirms ask for it at once.
  readonly #pending = new Map<number, Promise<void>>();
  #bytesFetched = 0;

  constructor(index: ConfirmationIndex, fetchPart: unknown) {
    if (typeof fetchPart !== 'function') {
      throw new FilterError('INVALID_ARGUMENT', `attachConfirmationParts: fetchPart must be a function (part, name) => Promise<bytes>, got ${describeValue(fetchPart)}`);
    }
    this.#index = index;
    this.#fetchPart = fetchPart as FetchConfirmationPart;
  }

  /** Whether the list holds `expression`; throws PartNotLoaded when its part is not loaded yet. */
  holds(expression: string): boolean {
    const part = this.#index.partOf(expression);
    const set = this.#loaded.get(part);
    if (set === undefined) throw new PartNotLoaded(part);
    return set.holds(expression);
  }

  /**
   * The rule of check-url.ts over the loaded parts: `listed` or `clear` when
   * every part it needed is loaded, else `possible` (never `clear` on a guess).
   */
  checkLoaded(url: string, depth: ExpressionDepth, firstReported: FirstReported): UrlCheck {
    try {
      return checkUrlOnce(url, depth, firstReported, (expression) => this.holds(expression));
    } catch (error) {
      if (!(error instanceof PartNotLoaded)) throw error;
      return checkUrlOnce(url, depth, firstReported, null);
    }
  }

  /**
   * The rule, fetching each part it needs (in order: a confirmed expression
   * stops it, so a listed URL usually costs one part).
   */
  async confirm(url: string, depth: ExpressionDepth, firstReported: FirstReported): Promise<UrlCheck> {
    for (;;) {
      try {
        return checkUrlOnce(url, depth, firstReported, (expression) => this.holds(expression));
      } catch (error) {
        if (!(error instanceof PartNotLoaded)) throw error;
        await this.load(error.part);
      }
    }
  }

  /** Fetches, checks and keeps part `part` (once; a failed fetch or check keeps nothing, a later call tries again). */
  load(part: number): Promise<void> {
    if (this.#loaded.has(part)) return Promise.resolve();
    let pending = this.#pending.get(part);
    if (pending === undefined) {
      pending = this.#fetchAndRead(part).finally(() => this.#pending.delete(part));
      this.#pending.set(part, pending);
    }
    return pending;
  }

  async #fetchAndRead(part: number): Promise<void> {
    const fetched: unknown = await this.#fetchPart(part, confirmationPartName(part));
    const bytes = fetched instanceof ArrayBuffer ? new Uint8Array(fetched) : fetched;
    if (!(bytes instanceof Uint8Array)) {
      throw new FilterError('INVALID_ARGUMENT', `fetchPart(${part}) must resolve to a Uint8Array or an ArrayBuffer, got ${describeValue(fetched)}`);
    }
    this.#bytesFetched += bytes.length;
    const set = this.#index.readPart(part, bytes);
    if (this.#loaded.has(part)) {
      set.free();
      return;
    }
    this.#loaded.set(part, set);
  }

  get status(): ConfirmationPartsStatus {
    return { partCount: this.#index.partCount, partsLoaded: this.#loaded.size, bytesFetched: this.#bytesFetched };
  }

  get index(): ConfirmationIndex {
    return this.#index;
  }

  free(): void {
    for (const set of this.#loaded.values()) set.free();
    this.#loaded.clear();
    this.#index.free();
  }
}
