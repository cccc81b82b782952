// Parquet's split-block Bloom filter (SBBF), bit for bit as apache/parquet-format
// BloomFilter.md defines it, so a filter read from a Parquet file answers as the
// engine that wrote it (DuckDB, Spark, arrow-rs, parquet-go) and a filter built
// here can be written into one. A registry type (filter_types.h) like the others.
//
// The bitset is numBlocks blocks of 256 bits, each eight 32-bit little-endian
// words. A value is hashed once, h = XXH64(the value's plain-encoded bytes,
// seed), seed 0 in every Parquet file; the block is ((h >> 32) * numBlocks) >> 32
// and, with key = uint32(h), word i of that block gets bit (key * SALT[i]) >> 27.
// The hash is this type's registry fact (kHashAlgorithm): the library's other
// types hash with XXH3.
//
// The table is held as 64-bit words, spec word 2j in the low half of word j:
// little-endian, those are the spec's bytes, so the library's payload is the
// spec bitset itself (bitset() and fromBitset() are that payload).
//
// It is not the library's BlockedBloomFilter: that one uses 512-bit blocks of
// 64-bit words and the library's seeded XXH3 hash; this one must use the
// spec's hash, block size and salts to agree with files on disk.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "cuckoo_bloom/bloom/blocked_bloom_filter.h"

namespace cuckoo_bloom {

struct SplitBlockBloomFilterOptions {
  uint64_t capacity = 0;           // distinct values expected
  double falsePositiveRate = 0.0;  // target rate, in (0, 1)
  uint64_t seed = 0;               // 0: the spec's (any other is not a Parquet filter)
  uint64_t byteCount = 0;          // the bitset's bytes; 0: sized from capacity and rate
};

// The parameter block (docs/FORMAT.md): blockCount u64 (here a power of two),
// the blocked Bloom filter's block.
using SplitBlockBloomFilterParams = BlockedBloomFilterParams;

class SplitBlockBloomFilter : public WordArrayFilter<SplitBlockBloomFilter, SplitBlockBloomFilterParams> {
 public:
  static constexpr uint32_t kWordsPerBlock = 8;
  static constexpr uint32_t kBytesPerBlock = kWordsPerBlock * 4;  // 256 bits
  // The spec's bounds on numBytes (parquet-mr's and arrow-rs's too): one block
  // at least, 128 MiB at most; the length is a power of two.
  static constexpr uint64_t kMinBytes = kBytesPerBlock;
  static constexpr uint64_t kMaxBytes = uint64_t{128} << 20;
  // The spec's eight odd salt constants, one per word of a block.
  static constexpr uint32_t kSalt[kWordsPerBlock] = {0x47b6137bu, 0x44974d91u, 0x8824ad5bu, 0xa2b7289du,
                                                     0x705495c7u, 0x2df1424bu, 0x9efc4947u, 0x5c6bfb31u};

  // Registry facts (core/type_facts.h): the spec's hash; the estimate reads the
  // bits set; its own option is the explicit byte count (a power of two in
  // [kMinBytes, kMaxBytes], which create() checks beyond this range).
  static constexpr HashAlgorithm kHashAlgorithm = HashAlgorithm::Xxh64;
  static constexpr EstimateSource kEstimateSource = EstimateSource::BitsSet;
  static constexpr OptionId kOptions[] = {OptionId::ByteCount};
  static constexpr OptionLimit kOptionLimits[] = {
      {OptionId::ByteCount, static_cast<double>(kMinBytes), true, static_cast<double>(kMaxBytes), true, true,
       kNoDefault}};

  // Sized from (capacity, rate) as the spec does (BloomFilter.md, "Sizing"):
  //   bitsPerValue c = -8 / ln(1 - f^(1/8)),  numBytes = ceil(capacity * c / 8),
  // then raised to the next power of two and clamped to [kMinBytes, kMaxBytes]
  // (the same rule as parquet-mr's optimalNumOfBits and arrow-rs's
  // optimal_num_of_bytes). The formula ignores the uneven load of blocks, so
  // the true rate can pass the target when the rounding leaves little room
  // (100,000 values at 1%: 128 KiB, 1.02% measured). Where the writers clamp
  // at 128 MiB (a higher rate than asked), create() refuses: InvalidArgument.
  // With byteCount set, exactly that many bytes (capacity and rate are still
  // checked, and recorded as what it was sized for).
  static Result<SplitBlockBloomFilter> create(const SplitBlockBloomFilterOptions& options);
  static Result<SplitBlockBloomFilter> createFrom(const CoreFilterOptions& options);
  // An empty filter of exactly `byteCount` bytes (a power of two in bounds),
  // seed 0: the way to build a filter byte-identical to one an engine wrote.
  // Its header records capacity byteCount (8 bits per value) and that size's
  // spec rate, as nothing says what it was sized for.
  static Result<SplitBlockBloomFilter> withByteCount(uint64_t byteCount);
  // A filter over a spec bitset (a Parquet file's filter after its header),
  // seed 0: its length must be a power of two within the bounds (Corrupt).
  static Result<SplitBlockBloomFilter> fromBitset(const uint8_t* bytes, size_t length);
  static Result<SplitBlockBloomFilter> fromBlob(const DecodedBlob& blob, const Params& params);

  // The spec's byte count for (capacity, rate), before any range check.
  static uint64_t byteCountFor(uint64_t capacity, double falsePositiveRate);
  // The spec's rule-of-thumb rate at `bitsPerValue` bits per distinct value,
  // f = (1 - e^(-8/c))^8: the inverse of the sizing formula. It ignores the
  // uneven load of blocks, so the true rate is a little higher.
  static double specFalsePositiveRate(double bitsPerValue);
  // The exact expected rate with an average of `valuesPerBlock` values per block.
  static double expectedFalsePositiveRate(double valuesPerBlock);

  // The spec's hash of a value's bytes: XXH64 with seed 0.
  static uint64_t hashBytes(const uint8_t* bytes, size_t length);
  // The spec's plain encodings of the common physical types, hashed.
  static uint64_t hashInt32(int32_t value);
  static uint64_t hashInt64(int64_t value);
  static uint64_t hashDouble(double value);

  // A value's bytes, hashed with the filter's seed (hashOf: the spec's hash at seed 0).
  using KeyedFilter::add;
  using KeyedFilter::has;
  using KeyedFilter::positions;
  void add(const KeyHash& hash) {
    addHash(hash.low);
    ++header_.itemCount;
  }
  bool has(const KeyHash& hash) const { return hasHash(hash.low); }
  // On a 64-bit hash already computed (XXH64 of the plain bytes).
  void addHash(uint64_t hash);
  bool hasHash(uint64_t hash) const;
  Status unionWith(const SplitBlockBloomFilter& other);
  // The 8 bit indexes a key sets (one per spec word of its block, counted in
  // the bitset from its first byte's lowest bit), for inspection.
  std::vector<uint64_t> positions(const KeyHash& hash) const;

  uint64_t blockCount() const { return params_.blockCount; }
  // The spec bitset: the words in little-endian order, numBytes long.
  std::vector<uint8_t> bitset() const;
  // Replaces the bits with a spec bitset of this filter's byte count
  // (Corrupt for another length); count() becomes 0, as it is unknown.
  Status loadBitset(const uint8_t* bytes, size_t length);
  // Mean over blocks of the product over words of (set bits in word / 32).
  double estimatedFalsePositiveRate() const;
  template <typename Visit>
  void parameters(Visit&& visit) const {
    visit("blockCount", static_cast<double>(blockCount()));
    visit("bitCount", static_cast<double>(blockCount() * kBytesPerBlock * 8));
  }

 private:
  friend WordArrayFilter;
  SplitBlockBloomFilter() = default;
  static Result<SplitBlockBloomFilter> allocateBytes(const SplitBlockBloomFilterOptions& options, uint64_t byteCount);
};

}  // namespace cuckoo_bloom
