// Parquet split-block Bloom filters: read the ones engines write into Parquet files.
export { FilterError, type FilterErrorCode } from '../errors.js';
export { readParquetBloomFilters, fetchParquetBloomFilters, type ParquetColumnBloomFilter, type ParquetRangeReader } from './read-filters.js';
export { readBloomFilterPlaces, parseFileMetaData, PHYSICAL_TYPES, type ColumnChunkBloomPlace, type ParquetPhysicalType } from './footer.js';
export { readBloomFilterHeader, type BloomFilterHeader } from './bloom-filter-header.js';
export { ParquetBloomFilter, MIN_BITSET_BYTES, MAX_BITSET_BYTES } from './split-block-filter.js';
export { plainEncode, type ParquetValue } from './plain-encoding.js';
export { xxhash64 } from './xxhash64.js';
