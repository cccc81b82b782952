// The exact companion of a URL blocklist ("confirmation", https://github.com/cuckoo-bloom-wasm/cuckoo-bloom-wasm/blob/main/docs/URL-BLOCKLISTS.md;
// bytes: https://github.com/cuckoo-bloom-wasm/cuckoo-bloom-wasm/blob/main/docs/FORMAT.md, type 33): what UrlBlocklist and UrlBlocklistReader share.
// Each reads the bytes with its own module (exact-set.ts, reader/reader-confirmation.ts).
import { FilterError } from '../errors.js';

/** A companion read from bytes: which expressions the list holds, exactly. */
export interface ExactSet {
  /** Whether a listed expression has this one's 64-bit hash: wrong only on a 64-bit collision. */
  holds(expression: string): boolean;
  /** Distinct expressions held. */
  readonly count: number;
  /** The trailing checksum of the blocklist bytes it was built with (u32 halves). */
  readonly blocklistChecksum: BlocklistChecksum;
  /** @internal What its module's first-hit export takes for it (an address or a handle; 0 once freed). */
  readonly address: number;
  free(): void;
}

/** A blocklist file's trailing checksum (XXH3-64, https://github.com/cuckoo-bloom-wasm/cuckoo-bloom-wasm/blob/main/docs/FORMAT.md) as two u32 halves. */
export interface BlocklistChecksum {
  low: number;
  high: number;
}

/** The checksum a blob ends in: its last 8 bytes, little-endian. */
export function blocklistChecksumOf(bytes: Uint8Array): BlocklistChecksum {
  const at = bytes.length - 8;
  const word = (offset: number): number =>
    (bytes[offset]! | (bytes[offset + 1]! << 8) | (bytes[offset + 2]! << 16) | (bytes[offset + 3]! << 24)) >>> 0;
  return { low: word(at), high: word(at + 4) };
}

function hex({ low, high }: BlocklistChecksum): string {
  return high.toString(16).padStart(8, '0') + low.toString(16).padStart(8, '0');
}

/**
 * Refuses a companion built for other blocklist bytes: its "not listed" would
 * then be wrong for an expression only this list holds (a listed URL reported
 * clear), so a companion is only ever paired with the filter it was built with.
 * @throws FilterError `INVALID_ARGUMENT`.
 */
export function requireBuiltFor(set: Pick<ExactSet, 'blocklistChecksum'>, blocklist: BlocklistChecksum): void {
  const built = set.blocklistChecksum;
  if (built.low !== blocklist.low || built.high !== blocklist.high) {
    throw new FilterError(
      'INVALID_ARGUMENT',
      `this confirmation was built for other blocklist bytes (checksum ${hex(built)}, this blocklist's is ${hex(blocklist)}): ` +
        'use the confirmation built with this filter (the CLI writes it beside the filter as <filter>.confirm)',
    );
  }
}

/**
 * The index of a companion split by hash prefix (https://github.com/cuckoo-bloom-wasm/cuckoo-bloom-wasm/blob/main/docs/URL-BLOCKLISTS.md,
 * "Confirming in parts"; bytes: https://github.com/cuckoo-bloom-wasm/cuckoo-bloom-wasm/blob/main/docs/FORMAT.md, type 34), read in a module:
 * which part an expression's hash falls in, and each part's bytes checked against it.
 */
export interface ConfirmationIndex {
  /** Parts of the split. */
  readonly partCount: number;
  /** Distinct expressions held by all parts together. */
  readonly count: number;
  /** The trailing checksum of the blocklist bytes it was built with. */
  readonly blocklistChecksum: BlocklistChecksum;
  /** The part holding this expression's hash, if the list holds it. */
  partOf(expression: string): number;
  /** Bytes of part `part`, as the index records them. */
  partBytes(part: number): number;
  /**
   * Reads bytes as part `part`: taken only if they are exactly the part the
   * index names (its size and checksum, its range, seed and blocklist).
   * @throws FilterError `CORRUPT` (damaged, another part's, another build's or list's),
   *   `WRONG_TYPE`, `UNSUPPORTED_VERSION`, `INVALID_ARGUMENT` (no such part, not bytes), `OUT_OF_MEMORY`.
   */
  readPart(part: number, bytes: Uint8Array): ExactSet;
  free(): void;
}

// The index reader of the full package's module: registered by exact-set.ts
// when it loads, so UrlList (shared with the reader entry, which passes its own)
// reads an index without importing the full module's code.
let fullIndexReader: ((bytes: Uint8Array | ArrayBuffer) => ConfirmationIndex) | null = null;

/** @internal Registers the full module's index reader (exact-set.ts). */
export function registerConfirmationIndexReader(reader: (bytes: Uint8Array | ArrayBuffer) => ConfirmationIndex): void {
  fullIndexReader = reader;
}

/** @internal The full module's index reader; NOT_INITIALIZED-like LOAD_FAILED when none registered. */
export function fullModuleIndexReader(): (bytes: Uint8Array | ArrayBuffer) => ConfirmationIndex {
  if (fullIndexReader === null) {
    throw new FilterError('LOAD_FAILED', 'no reader of split companions is loaded in this module');
  }
  return fullIndexReader;
}
