// The spec's hash as a function of the parquet entry (its name since the pure-TS
// version): the wasm SplitBlockBloomFilter's, taken through the main entry so
// the bundle shares its module.
import { SplitBlockBloomFilter } from '../index.js';

/**
 * The spec's hash of a value's plain-encoded bytes: XXH64 with seed 0, in wasm
 * (call `init()` first). What `ParquetBloomFilter.addHash` takes.
 * @throws FilterError `INVALID_ARGUMENT` unless `bytes` is an attached Uint8Array.
 */
export function xxhash64(bytes: Uint8Array): bigint {
  return SplitBlockBloomFilter.xxhash64(bytes);
}
