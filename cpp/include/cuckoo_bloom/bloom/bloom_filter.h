// Classic Bloom filter: m bits, k probes by double hashing.
//
// Sizing: the smallest m (and its k) whose expected rate at n keys meets the
// target (bloom_sizing.h), which for large n is the textbook optimum
// (Bloom 1970)  m = -n ln(e) / (ln 2)^2 bits,  k = (m / n) ln 2 probes,
// and for small n is larger (the textbook m missed 0.1% by 24x at n = 1).
// It never gives a false negative: add() only ever sets bits.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "cuckoo_bloom/bloom/word_array_filter.h"

namespace cuckoo_bloom {

using BloomFilterOptions = FilterOptions;

// The parameter block (docs/FORMAT.md): bitCount u64, hashCount u32, 4 reserved bytes.
struct BloomFilterParams {
  uint64_t bitCount = 0;
  uint32_t hashCount = 0;
  CUCKOO_BLOOM_PARAMS_FIELDS(4, bitCount, hashCount)
};

class BloomFilter : public WordArrayFilter<BloomFilter, BloomFilterParams> {
 public:
  using KeyedFilter::add;
  using KeyedFilter::has;
  using KeyedFilter::positions;
  // Registry facts (core/type_facts.h): from a pipe, a scalable Bloom filter grows instead.
  static constexpr FilterType kGrowingStandIn = FilterType::ScalableBloom;
  static constexpr EstimateSource kEstimateSource = EstimateSource::BitsSet;

  static Result<BloomFilter> create(const BloomFilterOptions& options);
  static Result<BloomFilter> fromBlob(const DecodedBlob& blob, const Params& params);

  // The textbook bit and probe counts for (capacity, rate), where the sizing
  // search starts (create() uses bloomSizingFor); exposed for tests and docs.
  static uint64_t optimalBitCount(uint64_t capacity, double falsePositiveRate);
  static uint32_t optimalHashCount(uint64_t bitCount, uint64_t capacity);

  void add(const KeyHash& hash);
  bool has(const KeyHash& hash) const;
  // The bit indexes a key maps to, in probe order; for inspection and visualisation.
  std::vector<uint64_t> positions(const KeyHash& hash) const;


  // Sets this filter to the union of both (keys of either are then found).
  // Requires equal bit count, probe count and seed.
  Status unionWith(const BloomFilter& other);

  // count(): keys added, every add() counted (a repeat too; addIfNew counts
  // distinct keys up to false positives). Bytes written before this counted
  // only adds that set a new bit; they read as they are.
  uint64_t bitCount() const { return params_.bitCount; }
  uint32_t hashCount() const { return params_.hashCount; }
  // (set bits / m)^k plus the double-hashing term for count() keys
  // (bloom_sizing.h): the rate for a random absent key given this filter.
  double estimatedFalsePositiveRate() const;
  uint64_t setBitCount() const { return popcount(); }
  // The type's parameters by name, for `info` and the JS getters.
  template <typename Visit>
  void parameters(Visit&& visit) const {
    visit("bitCount", static_cast<double>(bitCount()));
    visit("hashCount", hashCount());
    visit("setBitCount", static_cast<double>(setBitCount()));
  }

 private:
  friend WordArrayFilter;
  BloomFilter() = default;
};

}  // namespace cuckoo_bloom
