/**
 * cuckoo-bloom-wasm: Bloom, blocked Bloom, counting Bloom, cuckoo and binary fuse filters
 * compiled from one C++ core to WebAssembly. Call `await init()` once, then
 * create filters. See README.md for examples and docs/FORMAT.md for the bytes.
 * `cuckoo-bloom-wasm/inline` (the wasm embedded) and `cuckoo-bloom-wasm/small`
 * (a smaller wasm build) export the same API.
 *
 * @module cuckoo-bloom-wasm
 */
export { init, isInitialized, type InitOptions, type WasmSource } from './init.js';
export { FilterError, type FilterErrorCode } from './errors.js';
export type { Key, OwnedBytes } from './keys.js';
export { KeyBatch } from './key-batch.js';
export type { FilterOptions } from './options.js';
export { Filter, type FilterTypeName, type HasManyOptions, type SerializedBytes } from './filter-base.js';
export { BloomFilter, type BloomFilterOptions } from './bloom.js';
export { BlockedBloomFilter, type BlockedBloomFilterOptions } from './blocked-bloom.js';
export { CountingBloomFilter, type CountingBloomFilterOptions } from './counting-bloom.js';
export { CuckooFilter, type CuckooFilterOptions, type CuckooKick } from './cuckoo.js';
export { BinaryFuseFilter, type BinaryFuseFilterOptions } from './binary-fuse.js';
export { ScalableBloomFilter, type ScalableBloomFilterOptions } from './scalable-bloom.js';
export { ScalableCuckooFilter, type ScalableCuckooFilterOptions } from './scalable-cuckoo.js';
export type { GrowthOptions } from './scalable-options.js';
export { ExpiringBloomFilter, type ExpiringBloomFilterOptions, type Clock } from './expiring-bloom.js';
export {
  CuckooIndex,
  type CuckooIndexOptions,
  type CuckooIndexStats,
  type IndexValue,
  type IndexRecordStore,
} from './cuckoo-index.js';
export { deserialize, serializedType, type AnyFilter, type SerializedType } from './deserialize.js';
export {
  FILTER_TYPE_ALIASES,
  FILTER_TYPES,
  filterType,
  findFilterType,
  filterTypeNames,
  tryAddKey,
  type FilterTypeAlias,
  type FilterTypeEntry,
  type FilterTypeOrAlias,
} from './registry.js';
export {
  UrlBlocklist,
  type BlocklistFilterType,
  type UrlBlocklistOptions,
  type UrlBlocklistReport,
  type UrlCheck,
} from './url-blocklist.js';
export * from './url/index.js';

/**
 * @internal Not part of the API (it may change in any release): lets this
 * package's other entry points (`cuckoo-bloom-wasm/redis`) use this entry's
 * wasm instance, so one `init()` serves both and errors are one FilterError class.
 */
export { getRuntime as internalRuntime } from './init.js';
