// Parquet split-block Bloom filters: read the ones engines write into Parquet files.
// Not in a package entry yet (tests/parquet bundles it from source). Skipping the row
// groups that cannot hold a key, before fetching them:
//
//   const read = async (offset, length) => new Uint8Array(await (await fetch(url, {
//     headers: { Range: `bytes=${offset}-${offset + length - 1}` } })).arrayBuffer());
//   const filters = await fetchParquetBloomFilters(read, fileLength);
//   const rowGroups = filters.filter((f) => f.column === 'user_id' && f.filter.has('u-42')).map((f) => f.rowGroup);
export { FilterError, type FilterErrorCode } from '../errors.js';
export { readParquetBloomFilters, fetchParquetBloomFilters, type ParquetColumnBloomFilter, type ParquetRangeReader } from './read-filters.js';
export { readBloomFilterPlaces, parseFileMetaData, PHYSICAL_TYPES, type ColumnChunkBloomPlace, type ParquetPhysicalType } from './footer.js';
export { readBloomFilterHeader, type BloomFilterHeader } from './bloom-filter-header.js';
export { ParquetBloomFilter, MIN_BITSET_BYTES, MAX_BITSET_BYTES } from './split-block-filter.js';
export { plainEncode, type ParquetValue } from './plain-encoding.js';
export { xxhash64 } from './xxhash64.js';
