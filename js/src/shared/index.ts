/**
 * `cuckoo-bloom-wasm/shared`: Bloom, blocked Bloom, counting Bloom and cuckoo
 * filters in one shared WebAssembly memory, used by many threads at once
 * (Node worker_threads, browser Web Workers) without a copy per thread, over
 * core.shared.wasm (bindings/shared.cpp: atomics, a -pthread build).
 * `filter.handle()` is posted to a worker, `attach(handle)` there gives the
 * same filter. Browsers need a cross-origin isolated page (COOP/COEP headers).
 *
 * @module cuckoo-bloom-wasm/shared
 */
export { init, isInitialized, type SharedInitOptions } from './shared-init.js';
export type { WasmSource } from '../runtime/wasm-source.js';
export { FilterError, type FilterErrorCode } from '../errors.js';
export type { HasManyOptions } from '../core/filter-base.js';
export type { Key } from '../keys/keys.js';
export type { FilterOptions } from '../options.js';
export { SharedFilter } from './shared-filter.js';
export type { SharedFilterHandle, SharedFilterType, SharedWasmMemory, SharedWasmModule } from './shared-handle.js';
export {
  attach,
  SharedBloomFilter,
  SharedBlockedBloomFilter,
  SharedCountingBloomFilter,
  SharedCuckooFilter,
  type SharedCuckooFilterOptions,
  type SharedFilterOf,
} from './shared-filters.js';
