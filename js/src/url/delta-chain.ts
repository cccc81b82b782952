// The deltas applied to one blocklist, oldest first (https://github.com/cuckoo-bloom-wasm/cuckoo-bloom-wasm/blob/main/docs/URL-BLOCKLISTS.md,
// "Updates by delta"): what UrlBlocklist and UrlBlocklistReader share. An
// expression's standing is decided newest delta first: added there, it is
// listed (an exact set: certain, but for a 64-bit hash collision); removed
// there, this expression lists nothing, whatever the base's filter says;
// named in no delta, the base decides (filter, then companion). So a listed
// entry is never clear, and clear stays certain with the companion.
import { FilterError } from '../errors.js';
import { bytesArgument } from '../patch/patch-format.js';
import type { ExactSet } from './confirmation.js';
import { type ExpressionDepth } from './expressions.js';
import { readDelta } from './list-delta-format.js';
import { readScreen } from './delta-screen.js';

/** What a delta says of one expression: `added` (listed), `removed` (not listed by it), or null (the base decides). */
export type DeltaStanding = 'added' | 'removed' | null;

/** What the URL rule asks of the chain (check-url.ts). */
export interface ListChanges {
  standingOf(expression: string): DeltaStanding;
}

interface AppliedDelta {
  identity: string;
  /** False: certainly in neither set (delta-screen.ts). */
  mayHold: (expression: string) => boolean;
  added: ExactSet;
  removed: ExactSet;
  byteLength: number;
}

/** What a list gains from one applied delta. */
export interface DeltaEffect {
  entries: number;
  depth: ExpressionDepth;
}

export class DeltaChain implements ListChanges {
  readonly #deltas: AppliedDelta[] = [];

  /** Deltas applied. */
  get length(): number {
    return this.#deltas.length;
  }

  /** Bytes of the deltas applied. */
  get byteLength(): number {
    return this.#deltas.reduce((sum, delta) => sum + delta.byteLength, 0);
  }

  /** The identity of the version the chain makes (16 hex digits): the base's when empty. */
  identity(baseIdentity: string): string {
    return this.#deltas.at(-1)?.identity ?? baseIdentity;
  }

  standingOf(expression: string): DeltaStanding {
    for (let i = this.#deltas.length - 1; i >= 0; i--) {
      const delta = this.#deltas[i]!;
      if (!delta.mayHold(expression)) continue;
      if (delta.added.holds(expression)) return 'added';
      if (delta.removed.holds(expression)) return 'removed';
    }
    return null;
  }

  /**
   * Checks `input` against the version the chain makes now, reads its sets with
   * `readSet` (the list's module) and appends it. Nothing changes on a throw.
   * @throws FilterError `INVALID_ARGUMENT` (not bytes; a delta of another
   *   version: the wrong base, out of order, or applied already), `CORRUPT`,
   *   `UNSUPPORTED_VERSION`, and what `readSet` throws.
   */
  apply(input: unknown, baseIdentity: string, readSet: (bytes: Uint8Array) => ExactSet): DeltaEffect {
    const header = readDelta(bytesArgument(input, 'applyDelta: the delta'));
    const current = this.identity(baseIdentity);
    const expected = this.#deltas.length + 1;
    if (this.#deltas.some((delta) => delta.identity === header.identity) || header.identity === baseIdentity) {
      throw mismatch(`delta ${header.sequence} (${header.identity}) is applied already: this list is at delta ${this.#deltas.length}`);
    }
    if (header.base !== current || header.sequence !== expected) {
      const why =
        header.sequence > expected
          ? `it is delta ${header.sequence}, and this list needs delta ${expected} first (out of order)`
          : header.sequence < expected
            ? `it is delta ${header.sequence}, and this list is at delta ${this.#deltas.length} already`
            : `it applies to version ${header.base}, and this list is at version ${current} (another base)`;
      throw mismatch(`this delta does not apply to this list: ${why}`);
    }
    const mayHold = readScreen(header.screen);
    if (mayHold === null) throw new FilterError('CORRUPT', 'corrupt list delta: its screen is not one');
    const added = readSet(header.added);
    let removed: ExactSet;
    try {
      removed = readSet(header.removed);
    } catch (error) {
      added.free();
      throw error;
    }
    // Each set is bound to the version the delta applies to (list-delta.ts):
    // a set copied in from another delta (its checksum recomputed) is refused.
    if (!boundTo(added, header.base) || !boundTo(removed, header.base)) {
      added.free();
      removed.free();
      throw new FilterError('CORRUPT', `corrupt list delta: its sets are not bound to the version it names (${header.base}): parts of another delta`);
    }
    this.#deltas.push({ identity: header.identity, mayHold, added, removed, byteLength: header.byteLength });
    return { entries: header.entries, depth: header.depth };
  }

  free(): void {
    for (const delta of this.#deltas) {
      delta.added.free();
      delta.removed.free();
    }
    this.#deltas.length = 0;
  }
}

function boundTo(set: ExactSet, identity: string): boolean {
  const { low, high } = set.blocklistChecksum;
  return high.toString(16).padStart(8, '0') + low.toString(16).padStart(8, '0') === identity;
}

function mismatch(message: string): FilterError {
  return new FilterError('INVALID_ARGUMENT', `${message}; nothing was changed: apply the deltas in order from the list's base, or fetch the whole list`);
}
