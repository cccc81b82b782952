/**
 * cuckoo-bloom-wasm: Bloom, cuckoo and related filters (FILTER_TYPES lists every type)
 * compiled from one C++ core to WebAssembly. Call `await init()` once, then
 * create filters. See README.md for examples and, for the bytes, https://github.com/cuckoo-bloom-wasm/cuckoo-bloom-wasm/blob/main/docs/FORMAT.md.
 * `cuckoo-bloom-wasm/inline` (the wasm embedded) and `cuckoo-bloom-wasm/small`
 * (a smaller wasm build) export the same API.
 *
 * @module cuckoo-bloom-wasm
 */
export { init, isInitialized, type InitOptions } from './runtime/init.js';
export type { WasmSource } from './runtime/wasm-source.js';
export { FilterError, type FilterErrorCode } from './errors.js';
export type { Key, OwnedBytes } from './keys/keys.js';
export { KeyBatch } from './keys/key-batch.js';
export type { FilterOptions } from './options.js';
export { Filter, type FilterTypeName, type HasManyOptions, type SerializedBytes } from './core/filter-base.js';
export { BloomFilter, type BloomFilterOptions } from './bloom/bloom.js';
export { BlockedBloomFilter, type BlockedBloomFilterOptions } from './bloom/blocked-bloom.js';
export { CountingBloomFilter, type CountingBloomFilterOptions } from './bloom/counting-bloom.js';
export { CuckooFilter, type CuckooFilterOptions, type CuckooKick } from './cuckoo/cuckoo.js';
export { BinaryFuseFilter, type BinaryFuseFilterOptions } from './fuse/binary-fuse.js';
export { ScalableBloomFilter, type ScalableBloomFilterOptions } from './chains/scalable-bloom.js';
export { ScalableCuckooFilter, type ScalableCuckooFilterOptions } from './chains/scalable-cuckoo.js';
export { ExpandableFilter, type ExpandableFilterOptions } from './expandable/expandable.js';
export type { GrowthOptions } from './chains/scalable-options.js';
export { ExpiringBloomFilter, type ExpiringBloomFilterOptions, type Clock } from './chains/expiring-bloom.js';
export {
  CuckooIndex,
  type CuckooIndexOptions,
  type CuckooIndexStats,
  type IndexValue,
  type IndexRecordStore,
} from './exact-index/cuckoo-index.js';
export { deserialize, serializedType, type AnyFilter, type SerializedType } from './deserialize.js';
export {
  DEFAULT_FILTER_TYPES,
  FILTER_TYPE_ALIASES,
  FILTER_TYPES,
  filterType,
  findFilterType,
  filterTypeNames,
  tryAddKey,
  type EstimateSource,
  type FilterGrowth,
  type FilterTypeAlias,
  type FilterTypeEntry,
  type FilterTypeOrAlias,
  type OptionLimit,
} from './registry.js';
export {
  UrlBlocklist,
  type BlocklistFilterType,
  type ConfirmationFacts,
  type ListDeltaFacts,
  type ListChangeLines,
  type UrlBlocklistOptions,
  type UrlBlocklistReport,
  type UrlCheck,
  type UrlVerdict,
} from './url/url-blocklist.js';
export * from './url/index.js';
export {
  checkConfirmationPart,
  type ConfirmationIndexFacts,
  describeConfirmationIndex,
  splitConfirmation,
  type SplitConfirmation,
} from './url/exact-set.js';
export { confirmationPartName, type ConfirmationPartsStatus, type FetchConfirmationPart } from './url/confirmation-parts.js';
export { applyPatch } from './patch/apply-patch.js';
export { diffFilters } from './patch/diff-filters.js';

/**
 * @internal Not part of the API (it may change in any release): lets this
 * package's other entry points (`cuckoo-bloom-wasm/redis`) use this entry's
 * wasm instance, so one `init()` serves both and errors are one FilterError class.
 */
export { getRuntime as internalRuntime } from './runtime/init.js';
export { RibbonFilter, type RibbonFilterOptions } from './ribbon/ribbon.js';
export { SplitBlockBloomFilter, type SplitBlockBloomFilterOptions } from './parquet/split-block-bloom.js';
