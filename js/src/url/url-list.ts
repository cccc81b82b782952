// What UrlBlocklist (the full package) and UrlBlocklistReader (`cuckoo-bloom-wasm/reader`)
// share: the URL rule (check-url.ts) over a filter of expressions, and the list's numbers.
import type { ExpressionDepth } from './expressions.js';
import { checkUrlOnce, type UrlCheck } from './check-url.js';
import { type BlocklistChecksum, type ConfirmationIndex, type ExactSet, fullModuleIndexReader, requireBuiltFor } from './confirmation.js';
import { ConfirmationParts, type ConfirmationPartsStatus } from './confirmation-parts.js';
import { WasmOwner } from '../core/wasm-owner.js';
import { lookupsPerUrl, urlRateOf } from './url-rate.js';
import { DeltaChain } from './delta-chain.js';
import { FilterError } from '../errors.js';

/** What a URL list needs of the filter holding its expressions. */
interface ExpressionFilter {
  has(expression: string): boolean;
  readonly type: string;
  readonly falsePositiveRate: number;
  readonly byteLength: number;
  free(): void;
}

export abstract class UrlList<Filter extends ExpressionFilter> extends WasmOwner {
  // Private fields: `Object.keys(list)` and structuredClone see no internals.
  readonly #filter: Filter;
  #entries: number;
  #depth: ExpressionDepth;
  // The exact companion, once attached: check() then says listed or clear, never possible.
  #confirmation: ExactSet | null = null;
  // The companion split by hash prefix, once attached: parts fetched as a "maybe" needs them (confirm).
  #parts: ConfirmationParts | null = null;
  // The exception set (https://github.com/cuckoo-bloom-wasm/cuckoo-bloom-wasm/blob/main/docs/FORMAT.md, type 16 scheme 3) and its bytes: expressions the
  // filter reports that are never a hit (never-match hosts, public suffixes).
  #exceptions: { set: ExactSet; bytes: Uint8Array } | null = null;
  // The deltas applied since the base (delta-chain.ts): the URL rule asks them first.
  readonly #deltas = new DeltaChain();
  // Set by free(): applyDelta touches no filter memory, so it checks this itself.
  #freed = false;

  protected constructor(filter: Filter, entries: number, depth: ExpressionDepth) {
    super('URL blocklist', 'serialize() it and read the bytes back (UrlBlocklist.deserialize, UrlBlocklistReader.deserialize)');
    this.#filter = filter;
    this.#entries = entries;
    this.#depth = depth;
  }

  /** The filter holding the expressions. */
  protected get expressionFilter(): Filter {
    return this.#filter;
  }

  /**
   * Counts one more stored expression, which needs URLs checked to `depth` at
   * least. An attached companion does not hold it, so it is dropped: its "not
   * listed" would now be wrong for this entry.
   */
  protected countStored(depth: ExpressionDepth): void {
    this.#entries++;
    this.#depth = depth;
    this.#dropConfirmation();
  }

  #dropConfirmation(): void {
    this.#confirmation?.free();
    this.#confirmation = null;
    this.#parts?.free();
    this.#parts = null;
  }

  /** The exception set, or null. */
  protected get exceptions(): ExactSet | null {
    return this.#exceptions?.set ?? null;
  }
  /** Its bytes (a type-33 blob), as the blocklist's bytes carry them, or null. */
  protected get exceptionBlob(): Uint8Array | null {
    return this.#exceptions?.bytes ?? null;
  }
  /** Replaces the exception set (null: none); frees the one before. */
  protected setExceptions(set: ExactSet | null, bytes: Uint8Array | null): void {
    this.#exceptions?.set.free();
    this.#exceptions = set === null || bytes === null ? null : { set, bytes };
  }

  /**
   * The first of `expressions[from..]` the filter reports and the exception
   * set does not hold, or -1: one crossing into this list's module (check-url.ts).
   */
  protected abstract firstReported(expressions: readonly string[], from: number): number;

  /**
   * Counts one stored expression fewer (removed from the filter). An attached
   * companion still holds it, so it is dropped: its `listed` would now be wrong.
   */
  protected countRemoved(): void {
    this.#entries--;
    this.#dropConfirmation();
  }

  /** The attached companion, if any (what `check` confirms with). */
  protected get attachedConfirmation(): ExactSet | null {
    return this.#confirmation;
  }

  /** Reads companion bytes in this list's module. */
  protected abstract readConfirmation(bytes: Uint8Array | ArrayBuffer): ExactSet;
  /** Reads a split companion's index in this list's module (the full package's unless overridden). */
  protected readConfirmationIndex(bytes: Uint8Array | ArrayBuffer): ConfirmationIndex {
    return fullModuleIndexReader()(bytes);
  }
  /** The trailing checksum of this list's bytes (what a companion is bound to). */
  protected abstract blocklistChecksum(): BlocklistChecksum;

  /**
   * The first of the URL's expressions the filter reports, or null when none
   * is (the URL is certainly not listed). The filter alone: a match is
   * "possibly listed" whether or not a companion is attached (`check` confirms).
   * @throws FilterError `INVALID_ARGUMENT` for a non-string or a URL that cannot be parsed, `FREED`.
   */
  match(url: string): string | null {
    return checkUrlOnce(url, this.#depth, (expressions, from) => this.firstReported(expressions, from), null, this.#changes()).match;
  }

  /** The chain for the URL rule, or null when no delta is applied (the rule's plain path). */
  #changes(): DeltaChain | null {
    return this.#deltas.length === 0 ? null : this.#deltas;
  }

  /**
   * Applies a list delta (`UrlBlocklist.listDelta`, the CLI's `update`/`diff`
   * with `--output x.delta`): the next version of this list, as the expressions
   * it adds and removes (https://github.com/cuckoo-bloom-wasm/cuckoo-bloom-wasm/blob/main/docs/URL-BLOCKLISTS.md, "Updates by delta"). From then
   * on `match` and `check` answer for that version: an added expression is
   * `listed`, a removed one no longer lists, and the rest is the base's (filter,
   * then companion; a companion of the base bytes still attaches). Deltas apply
   * in order, each only to the exact version it was made from.
   *
   * ```ts
   * const list = UrlBlocklistReader.deserialize(base);
   * list.attachConfirmation(companion);
   * for (const delta of deltas) list.applyDelta(delta); // oldest first
   * list.check('https://worse.example/').verdict;       // 'listed' if a delta added it
   * ```
   * @throws FilterError `INVALID_ARGUMENT` (not bytes; a delta of another
   *   version: made from another base, out of order, or applied already;
   *   nothing changes), `CORRUPT` (damaged), `UNSUPPORTED_VERSION`, `FREED`.
   */
  applyDelta(delta: Uint8Array | ArrayBuffer): void {
    if (this.#freed) throw new FilterError('FREED', 'this URL blocklist was freed');
    const effect = this.#deltas.apply(delta, this.baseIdentity(), (bytes) => this.readConfirmation(bytes));
    this.#entries = effect.entries;
    this.#depth = {
      hostLabels: Math.max(this.#depth.hostLabels, effect.depth.hostLabels),
      pathDepth: Math.max(this.#depth.pathDepth, effect.depth.pathDepth),
    };
  }

  /** Deltas applied since the base (`applyDelta`). */
  get deltaCount(): number {
    return this.#deltas.length;
  }

  /**
   * The identity of the version this list answers for (16 hex digits): its
   * bytes' trailing checksum, or after `applyDelta` the last delta's. The next
   * delta must name it as its base.
   */
  get versionIdentity(): string {
    return this.#deltas.identity(this.baseIdentity());
  }

  /** The base bytes' trailing checksum as 16 hex digits (what a first delta names). */
  protected baseIdentity(): string {
    const { low, high } = this.blocklistChecksum();
    return high.toString(16).padStart(8, '0') + low.toString(16).padStart(8, '0');
  }

  /**
   * The verdict on a URL (`listed`, `possible` or `clear`: see `UrlVerdict`),
   * the expression behind it, what confirmed it, the canonical URL and every
   * expression checked. `listed` needs the companion (`attachConfirmation`).
   * @throws FilterError as `match`.
   */
  check(url: string): UrlCheck {
    const confirmation = this.#confirmation;
    if (confirmation === null && this.#parts !== null) {
      return this.#parts.checkLoaded(url, this.#depth, (expressions, from) => this.firstReported(expressions, from), this.#changes());
    }
    return checkUrlOnce(
      url,
      this.#depth,
      (expressions, from) => this.firstReported(expressions, from),
      confirmation === null ? null : (expression) => confirmation.holds(expression),
      this.#changes(),
    );
  }

  /**
   * Attaches the exact companion built with this list (`UrlBlocklist#confirmation()`,
   * the CLI's `<filter>.confirm`): from then on `check` says `listed` only for
   * confirmed expressions, and `clear` for the filter's false positives.
   * Replaces one attached before; dropped when an entry is added after.
   * @throws FilterError `CORRUPT` (damaged bytes), `WRONG_TYPE` (not a companion),
   *   `UNSUPPORTED_VERSION`, `INVALID_ARGUMENT` (not bytes, or a companion of other blocklist bytes).
   */
  attachConfirmation(bytes: Uint8Array | ArrayBuffer): void {
    const set = this.readConfirmation(bytes);
    try {
      requireBuiltFor(set, this.blocklistChecksum());
    } catch (error) {
      set.free();
      throw error;
    }
    this.#dropConfirmation();
    this.#confirmation = set;
  }

  /**
   * Attaches the exact companion split by hash prefix (https://github.com/cuckoo-bloom-wasm/cuckoo-bloom-wasm/blob/main/docs/URL-BLOCKLISTS.md,
   * "Confirming in parts"): its index (the CLI's `<filter>.confirm.index`) and a
   * callback that fetches one part (`<filter>.confirm.parts/<name>`). Then
   * `confirm(url)` fetches only the part(s) a "maybe" needs, checks each against
   * the index and keeps it; `check` confirms with the parts loaded so far and
   * says `possible` (never `clear`) when a part it needs is not loaded yet.
   * Replaces a companion attached before; dropped when an entry is added or removed after.
   * @throws FilterError `CORRUPT` (damaged index), `WRONG_TYPE` (not an index),
   *   `UNSUPPORTED_VERSION`, `INVALID_ARGUMENT` (not bytes, fetchPart not a function,
   *   or an index of other blocklist bytes).
   */
  attachConfirmationParts(index: Uint8Array | ArrayBuffer, fetchPart: (part: number, name: string) => Promise<Uint8Array | ArrayBuffer>): void {
    const read = this.readConfirmationIndex(index);
    let parts: ConfirmationParts;
    try {
      requireBuiltFor(read, this.blocklistChecksum());
      parts = new ConfirmationParts(read, fetchPart);
    } catch (error) {
      read.free();
      throw error;
    }
    this.#dropConfirmation();
    this.#parts = parts;
  }

  /**
   * The verdict on a URL, fetching what confirms it: with a split companion
   * attached, the part(s) its reported expressions fall in (one small fetch
   * for most "maybe"s; none for a URL the filter does not report); otherwise
   * `check(url)`.
   * @throws FilterError as `check`; `CORRUPT` / `WRONG_TYPE` / `INVALID_ARGUMENT`
   *   for a fetched part that is not the one the index names (nothing is kept, no verdict given);
   *   a rejection of `fetchPart` as is.
   */
  async confirm(url: string): Promise<UrlCheck> {
    const parts = this.#parts;
    if (this.#confirmation !== null || parts === null) return this.check(url);
    return parts.confirm(url, this.#depth, (expressions, from) => this.firstReported(expressions, from), this.#changes());
  }

  /** With a split companion attached: its parts, those loaded and the bytes fetched; else null. */
  get confirmationParts(): ConfirmationPartsStatus | null {
    return this.#parts?.status ?? null;
  }

  /**
   * Expressions in the exception set: ones the filter reports that are never
   * a hit (a build's never-match hosts and the Public Suffix List's suffixes;
   * https://github.com/cuckoo-bloom-wasm/cuckoo-bloom-wasm/blob/main/docs/URL-BLOCKLISTS.md, "Never-match hosts"). 0 for none.
   */
  get exceptionCount(): number {
    return this.#exceptions?.set.count ?? 0;
  }
  /** Bytes the exception set adds to the blocklist's bytes (0 for none). */
  get exceptionBytes(): number {
    return this.#exceptions?.bytes.length ?? 0;
  }

  /** Whether a companion is attached (`check` can say `listed`). */
  get hasConfirmation(): boolean {
    return this.#confirmation !== null;
  }

  /** The filter holding the expressions (for inspection; use `match` to query URLs). */
  get filter(): Filter {
    return this.expressionFilter;
  }
  /**
   * How deep URLs are checked: host suffixes of up to `hostLabels` labels and
   * path prefixes of up to `pathDepth` directories, the most any stored entry
   * needs (the exact host and path are always checked). Blocklists written
   * before depths were recorded read with Safe Browsing's 5 and 3.
   */
  get expressionDepth(): ExpressionDepth {
    return this.#depth;
  }
  /** Expressions stored (the distinct expressions of the list). */
  get entryCount(): number {
    return this.#entries;
  }
  /** The filter type's name ('binary-fuse', 'bloom', ...). */
  get type(): Filter['type'] {
    return this.expressionFilter.type;
  }
  /**
   * Target false-positive rate per URL: the most an unlisted URL is reported
   * (`match` not null) at the recorded depths, 1 - (1 - p)^L for the filter's
   * per-lookup rate p and the L lookups a URL makes at most (url-rate.ts).
   */
  get falsePositiveRate(): number {
    return urlRateOf(this.expressionFilter.falsePositiveRate, this.#depth);
  }
  /** Target false-positive rate of one filter lookup (one expression checked): the filter's own rate. */
  get lookupFalsePositiveRate(): number {
    return this.expressionFilter.falsePositiveRate;
  }
  /** The most filter lookups one URL makes at the recorded depths (`falsePositiveRate` is per URL through them). */
  get lookupsPerUrl(): number {
    return lookupsPerUrl(this.#depth);
  }
  /** Bytes of the filter's in-memory table (the expressions' filter, not the list's text). */
  get byteLength(): number {
    return this.expressionFilter.byteLength;
  }
  /** Releases the filter's (and an attached companion's) wasm memory now (later calls throw FREED). */
  free(): void {
    this.#dropConfirmation();
    this.setExceptions(null, null);
    this.#deltas.free();
    this.#freed = true;
    this.expressionFilter.free();
  }
  /** `String(list)`: its type, entries, rate and size on one line. */
  toString(): string {
    // The class's own: a class shipped in the reader bundle (which renames classes) sets its static name.
    const name = this.constructor.name;
    let filter: string;
    try {
      filter =
        `type: '${this.type}', entries: ${this.entryCount}, falsePositiveRate: ${Number(this.falsePositiveRate.toPrecision(3))}, ` +
        `byteLength: ${this.byteLength}`;
    } catch {
      return `${name} { freed }`;
    }
    return `${name} { ${filter} }`;
  }
}
