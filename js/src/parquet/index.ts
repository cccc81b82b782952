/**
 * cuckoo-bloom-wasm/parquet: read the split-block Bloom filters Parquet engines
 * (DuckDB, Spark, arrow-rs, parquet-go) write per column chunk, and ask them
 * whether a row group may hold a value before fetching it. A column chunk without
 * a filter gets one that answers true, so the pattern below never skips it. Each filter is the
 * package's {@link SplitBlockBloomFilter} (wasm), so call `init()` first.
 * See https://github.com/cuckoo-bloom-wasm/cuckoo-bloom-wasm/blob/main/docs/PARQUET.md.
 *
 *   await init();
 *   const read = async (offset, length) => new Uint8Array(await (await fetch(url, {
 *     headers: { Range: `bytes=${offset}-${offset + length - 1}` } })).arrayBuffer());
 *   const filters = await fetchParquetBloomFilters(read, fileLength);
 *   const rowGroups = filters.filter((f) => f.column === 'user_id' && f.filter.has('u-42')).map((f) => f.rowGroup);
 *
 * @module cuckoo-bloom-wasm/parquet
 */
export { readParquetBloomFilters, fetchParquetBloomFilters, type ParquetColumnBloomFilter, type ParquetRangeReader, type FetchParquetOptions } from './read-filters.js';
export { readBloomFilterPlaces, parseFileMetaData, PHYSICAL_TYPES, columnName, type ColumnChunkBloomPlace, type ParquetPhysicalType } from './footer.js';
export type { ParquetLogicalType, ParquetTimeUnit } from './footer-schema.js';
export { readBloomFilterHeader, type BloomFilterHeader } from './bloom-filter-header.js';
export { ParquetBloomFilter, MIN_BITSET_BYTES, MAX_BITSET_BYTES } from './split-block-filter.js';
export { plainEncode, type ParquetValue } from './plain-encoding.js';
// The main entry's: every entry has init(), and one FilterError class.
export { init, isInitialized, FilterError, type FilterErrorCode, SplitBlockBloomFilter, type SplitBlockBloomFilterOptions } from '../index.js';
export { xxhash64 } from './xxhash64.js';
