// The one list of filter types: every place that lists types (the FilterType
// enum, each class's kType, type names, the registry of create/read
// functions, the bindings, the typed tests, the fuzz targets) is generated
// from this list, so a type is described once and an unknown name or id is
// an error everywhere.
//
//   X(Enumerator, id, "name", Class)
//
// Ids are stable forever (they are stored in the byte format). 1-15 are
// single-part filters (their payload is their own table); composite types
// (16 and up: a payload of nested blobs) are listed here when they are
// filters of their own (17, 18: growing chains), else in format.h (16).
//
// Adding a type: docs/ARCHITECTURE.md, "Adding a filter type".
#pragma once

#define CUCKOO_BLOOM_FILTER_TYPES(X)                              \
  X(Bloom, 1, "bloom", BloomFilter)                               \
  X(BlockedBloom, 2, "blocked-bloom", BlockedBloomFilter)         \
  X(CountingBloom, 3, "counting-bloom", CountingBloomFilter)      \
  X(Cuckoo, 4, "cuckoo", CuckooFilter)                            \
  X(BinaryFuse, 5, "binary-fuse", BinaryFuseFilter)               \
  X(ScalableBloom, 17, "scalable-bloom", ScalableBloomFilter)     \
  X(ScalableCuckoo, 18, "scalable-cuckoo", ScalableCuckooFilter)  \
  X(ExpiringBloom, 19, "expiring-bloom", ExpiringBloomFilter)
