// Split-block Bloom filter: every key touches one 64-byte block (a cache
// line), setting one bit in each of the block's 8 words (k = 8).
//
// Blocking concentrates keys: a block receives Poisson(lambda) keys, lambda =
// n / blockCount, and a query's rate is the average over that distribution:
//   FPR(lambda) = sum_j Pois(j; lambda) * (1 - (1 - 1/64)^j)^8.
// Sizing picks the smallest block count with FPR(n / blockCount) at or under
// kSizingMargin * target, so the measured rate stays at or under the target
// (the margin absorbs the sampling noise of a measurement over 1M probes).
// That costs roughly 10-20% more bits per key than the classic filter at 1%
// and more at 0.1% (docs/FILTERS.md has the measured table).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "cuckoo_bloom/bloom/word_array_filter.h"

namespace cuckoo_bloom {

using BlockedBloomFilterOptions = FilterOptions;

// The parameter block (docs/FORMAT.md): blockCount u64.
struct BlockedBloomFilterParams {
  uint64_t blockCount = 0;
  CUCKOO_BLOOM_PARAMS_FIELDS(0, blockCount)
};

class BlockedBloomFilter : public WordArrayFilter<BlockedBloomFilter, BlockedBloomFilterParams> {
 public:
  using KeyedFilter::add;
  using KeyedFilter::has;
  using KeyedFilter::positions;
  static constexpr uint32_t kWordsPerBlock = 8;
  static constexpr uint32_t kBytesPerBlock = kWordsPerBlock * 8;
  static constexpr double kSizingMargin = 0.9;
  // Registry facts (core/type_facts.h): from a pipe, a scalable Bloom filter grows instead.
  static constexpr FilterType kGrowingStandIn = FilterType::ScalableBloom;
  static constexpr EstimateSource kEstimateSource = EstimateSource::BitsSet;

  static Result<BlockedBloomFilter> create(const BlockedBloomFilterOptions& options);
  static Result<BlockedBloomFilter> fromBlob(const DecodedBlob& blob, const Params& params);

  // Expected false-positive rate with an average of `keysPerBlock` keys per block.
  static double expectedFalsePositiveRate(double keysPerBlock);
  // Smallest block count meeting the target for `capacity` keys (see above).
  static uint64_t blockCountFor(uint64_t capacity, double falsePositiveRate);

  void add(const KeyHash& hash);
  bool has(const KeyHash& hash) const;
  // The 8 bit indexes a key maps to (one per word of its block), for inspection.
  std::vector<uint64_t> positions(const KeyHash& hash) const;


  Status unionWith(const BlockedBloomFilter& other);

  uint64_t blockCount() const { return params_.blockCount; }
  uint64_t bitCount() const { return params_.blockCount * kWordsPerBlock * 64; }
  // Mean over blocks of the product over words of (set bits in word / 64).
  double estimatedFalsePositiveRate() const;
  template <typename Visit>
  void parameters(Visit&& visit) const {
    visit("blockCount", static_cast<double>(blockCount()));
    visit("bitCount", static_cast<double>(bitCount()));
  }

 private:
  friend WordArrayFilter;
  BlockedBloomFilter() = default;
};

}  // namespace cuckoo_bloom
