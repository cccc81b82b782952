// The exact companion of a URL blocklist ("confirmation", docs/URL-BLOCKLISTS.md;
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
export function requireBuiltFor(set: ExactSet, blocklist: BlocklistChecksum): void {
  const built = set.blocklistChecksum;
  if (built.low !== blocklist.low || built.high !== blocklist.high) {
    throw new FilterError(
      'INVALID_ARGUMENT',
      `this confirmation was built for other blocklist bytes (checksum ${hex(built)}, this blocklist's is ${hex(blocklist)}): ` +
        'use the confirmation built with this filter (the CLI writes it beside the filter as <filter>.confirm)',
    );
  }
}
