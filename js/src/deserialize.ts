import { BlockedBloomFilter } from './blocked-bloom.js';
import { BloomFilter } from './bloom.js';
import { CountingBloomFilter } from './counting-bloom.js';
import { CuckooFilter } from './cuckoo.js';
import { withBytesInWasm } from './filter-base.js';
import { getRuntime } from './init.js';

export type AnyFilter = BloomFilter | BlockedBloomFilter | CountingBloomFilter | CuckooFilter;

const readers: Record<number, (bytes: Uint8Array) => AnyFilter> = {
  1: (bytes) => BloomFilter.deserialize(bytes),
  2: (bytes) => BlockedBloomFilter.deserialize(bytes),
  3: (bytes) => CountingBloomFilter.deserialize(bytes),
  4: (bytes) => CuckooFilter.deserialize(bytes),
};

/**
 * Reads serialized bytes of any filter type; check the result with
 * `instanceof` or its `type`.
 * @throws FilterError `CORRUPT` (not a filter, truncated, bad checksum),
 *   `UNSUPPORTED_VERSION`, `WRONG_TYPE` (a type this build does not know),
 *   `INVALID_ARGUMENT` (not a Uint8Array), `NOT_INITIALIZED`.
 */
export function deserialize(bytes: Uint8Array): AnyFilter {
  const type = withBytesInWasm(bytes, (pointer, length) => getRuntime().module.filterTypeOf(pointer, length));
  const read = readers[type];
  if (read !== undefined) return read(bytes);
  // No magic, too short, or a type id this build does not know: the full
  // validation names the problem precisely (CORRUPT, UNSUPPORTED_VERSION or WRONG_TYPE).
  return BloomFilter.deserialize(bytes);
}
