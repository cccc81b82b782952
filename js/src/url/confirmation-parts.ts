// The exact companion split by hash prefix (https://github.com/cuckoo-bloom-wasm/cuckoo-bloom-wasm/blob/main/docs/URL-BLOCKLISTS.md, "Confirming
// in parts"): an index attached up front, parts fetched through the caller's
// callback only when a "maybe" needs them, each checked against the index and
// kept. What UrlBlocklist and UrlBlocklistReader share (url-list.ts); each
// reads the index in its own module (exact-set.ts, reader/reader-confirmation.ts).
import { FilterError } from '../errors.js';
import { describeValue } from '../keys/keys.js';
import { checkUrlOnce, type FirstReported, type UrlCheck } from './check-url.js';
import type { ConfirmationIndex, ExactSet } from './confirmation.js';
import type { ExpressionDepth } from './expressions.js';
import type { ListChanges } from './delta-chain.js';

/**
 * Fetches one part of a split companion: its number and its file name as the
 * CLI writes it (`<filter>.confirm.parts/<name>`, `confirmationPartName`).
 * Resolves to the part's bytes; a rejection reaches the caller of `confirm` as is.
 * One that has not settled after 30 s is given up:
 * `confirm` rejects with `UNAVAILABLE`, and the next `confirm` fetches again.
 */
export type FetchConfirmationPart = (part: number, name: string) => Promise<Uint8Array | ArrayBuffer>;

/** The file name of part `part` (the CLI's `<filter>.confirm.parts/<name>`): at least 4 decimal digits, '0007'. */
export function confirmationPartName(part: number): string {
  return String(part).padStart(4, '0');
}

/**
 * How long one part's fetch may take before `confirm` gives up on it
 * (`UNAVAILABLE`): a callback that never settles must not hang every later
 * `confirm` of its part (they share one fetch). A part is a few KB: 30 s is
 * far past a slow mobile request, and the next `confirm` tries again.
 */
export const PART_FETCH_TIMEOUT_MS = 30_000;

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
  checkLoaded(url: string, depth: ExpressionDepth, firstReported: FirstReported, changes: ListChanges | null = null): UrlCheck {
    try {
      return checkUrlOnce(url, depth, firstReported, (expression) => this.holds(expression), changes);
    } catch (error) {
      if (!(error instanceof PartNotLoaded)) throw error;
      return checkUrlOnce(url, depth, firstReported, null, changes);
    }
  }

  /**
   * The rule, fetching each part it needs (in order: a confirmed expression
   * stops it, so a listed URL usually costs one part). `changes`: the deltas
   * applied since the base (delta-chain.ts), asked first as `check` asks them;
   * without them a delta's added entry would be `clear` here.
   */
  async confirm(url: string, depth: ExpressionDepth, firstReported: FirstReported, changes: ListChanges | null = null): Promise<UrlCheck> {
    for (;;) {
      try {
        return checkUrlOnce(url, depth, firstReported, (expression) => this.holds(expression), changes);
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
    const fetched: unknown = await withTimeout(
      this.#fetchPart(part, confirmationPartName(part)),
      PART_FETCH_TIMEOUT_MS,
      () => new FilterError('UNAVAILABLE', `fetchPart(${part}) did not settle in ${PART_FETCH_TIMEOUT_MS / 1000} s: no verdict given; the next confirm fetches it again`),
    );
    const bytes = fetched instanceof ArrayBuffer ? new Uint8Array(fetched) : fetched;
    if (!(bytes instanceof Uint8Array)) {
      throw new FilterError('INVALID_ARGUMENT', `fetchPart(${part}) must resolve to a Uint8Array or an ArrayBuffer, got ${describeValue(fetched)}`);
    }
    this.#bytesFetched += bytes.length;
    // The index records each part's size: bytes of another size are refused
    // here, before readPart copies them into wasm memory (which never shrinks:
    // a callback returning 1 GiB would otherwise keep 1 GiB of it).
    const expected = this.#index.partBytes(part) >>> 0;
    if (bytes.length !== expected) {
      throw new FilterError('CORRUPT', `these bytes are not part ${part} of this split: the index records ${expected} bytes, fetchPart returned ${bytes.length}`);
    }
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

/** `promise`, or a rejection with `timedOut()` once `ms` pass first (the timer is cleared when it settles). */
function withTimeout<T>(promise: Promise<T> | T, ms: number, timedOut: () => Error): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(timedOut()), ms);
  });
  return Promise.race([Promise.resolve(promise), expired]).finally(() => clearTimeout(timer));
}
