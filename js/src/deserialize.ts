import { BlockedBloomFilter } from './blocked-bloom.js';
import { BloomFilter } from './bloom.js';
import { CountingBloomFilter } from './counting-bloom.js';
import { CuckooFilter } from './cuckoo.js';
import { FilterError } from './errors.js';
import { withBytesInWasm } from './filter-base.js';
import { getRuntime } from './init.js';

const URL_BLOCKLIST_TYPE = 16;
const TYPE_NAMES: Record<number, SerializedType> = {
  1: 'bloom',
  2: 'blocked-bloom',
  3: 'counting-bloom',
  4: 'cuckoo',
  16: 'url-blocklist',
};

export type SerializedType = 'bloom' | 'blocked-bloom' | 'counting-bloom' | 'cuckoo' | 'url-blocklist';

/**
 * The type named in serialized bytes, without validating them (null when
 * they do not start like a filter). Use it to pick a reader; the reader
 * still checks everything.
 */
export function serializedType(bytes: Uint8Array): SerializedType | null {
  const type = withBytesInWasm(bytes, (pointer, length) => getRuntime().module.filterTypeOf(pointer, length));
  return TYPE_NAMES[type] ?? null;
}

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
  if (type === URL_BLOCKLIST_TYPE) {
    throw new FilterError('WRONG_TYPE', 'these bytes are a URL blocklist: read them with UrlBlocklist.deserialize()');
  }
  // No magic, too short, or a type id this build does not know: the full
  // validation names the problem precisely (CORRUPT, UNSUPPORTED_VERSION or WRONG_TYPE).
  return BloomFilter.deserialize(bytes);
}
