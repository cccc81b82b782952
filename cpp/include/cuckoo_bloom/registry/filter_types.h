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
// filters of their own (17, 18: growing chains; 19: expiring), else in
// format.h (16).
//
// Each class's header is included at the end of this file, in the section
// only filter_classes.h opens: the list is read by format.h, which every
// class header includes, so the classes cannot come with it. A type's line
// and its header are still written in one file, here.
//
// Adding a type: docs/ARCHITECTURE.md, "Adding a filter type".
#ifndef CUCKOO_BLOOM_FILTER_TYPES_LIST
#define CUCKOO_BLOOM_FILTER_TYPES_LIST

#define CUCKOO_BLOOM_FILTER_TYPES(X)                              \
  X(Bloom, 1, "bloom", BloomFilter)                               \
  X(BlockedBloom, 2, "blocked-bloom", BlockedBloomFilter)         \
  X(CountingBloom, 3, "counting-bloom", CountingBloomFilter)      \
  X(Cuckoo, 4, "cuckoo", CuckooFilter)                            \
  X(BinaryFuse, 5, "binary-fuse", BinaryFuseFilter)               \
  X(Expandable, 6, "expandable", ExpandableFilter)                \
  X(Ribbon, 7, "ribbon", RibbonFilter)                            \
  X(SplitBlockBloom, 8, "split-block-bloom", SplitBlockBloomFilter) \
  X(ScalableBloom, 17, "scalable-bloom", ScalableBloomFilter)     \
  X(ScalableCuckoo, 18, "scalable-cuckoo", ScalableCuckooFilter)  \
  X(ExpiringBloom, 19, "expiring-bloom", ExpiringBloomFilter)

#endif  // CUCKOO_BLOOM_FILTER_TYPES_LIST

// The classes of the list (opened by filter_classes.h, once).
#if defined(CUCKOO_BLOOM_WANT_FILTER_CLASSES) && !defined(CUCKOO_BLOOM_FILTER_CLASSES_INCLUDED)
#define CUCKOO_BLOOM_FILTER_CLASSES_INCLUDED
#include "cuckoo_bloom/bloom/blocked_bloom_filter.h"
#include "cuckoo_bloom/bloom/bloom_filter.h"
#include "cuckoo_bloom/bloom/counting_bloom_filter.h"
#include "cuckoo_bloom/chains/expiring_bloom_filter.h"
#include "cuckoo_bloom/chains/scalable_bloom_filter.h"
#include "cuckoo_bloom/chains/scalable_cuckoo_filter.h"
#include "cuckoo_bloom/cuckoo/cuckoo_filter.h"
#include "cuckoo_bloom/expandable/expandable_filter.h"
#include "cuckoo_bloom/fuse/binary_fuse_filter.h"
#include "cuckoo_bloom/parquet/split_block_bloom_filter.h"
#include "cuckoo_bloom/ribbon/ribbon_filter.h"
#endif
