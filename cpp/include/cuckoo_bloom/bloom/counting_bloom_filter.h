// Counting Bloom filter: the classic filter with a 4-bit counter in place of
// each bit, so keys can be removed.
//
// Sized like the classic filter (m counters, k probes, same double hashing),
// at 4x the memory. A counter that reaches 15 is saturated: it is never
// decremented again, because after saturation the true number of keys on it
// is unknown and decrementing could reach 0 while a key still needs it. That
// is what makes remove() unable to cause a false negative for keys that were
// added (removing a key that was never added can: see docs/SECURITY.md).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "cuckoo_bloom/bloom/word_array_filter.h"

namespace cuckoo_bloom {

using CountingBloomFilterOptions = FilterOptions;

// The parameter block (docs/FORMAT.md): counterCount u64, hashCount u32,
// counterBits u8 (always 4, CountingBloomFilter::kCounterBits), 3 reserved bytes.
struct CountingBloomFilterParams {
  uint64_t counterCount = 0;
  uint32_t hashCount = 0;
  uint8_t counterBits = 4;
  CUCKOO_BLOOM_PARAMS_FIELDS(3, counterCount, hashCount, counterBits)
};

class CountingBloomFilter : public WordArrayFilter<CountingBloomFilter, CountingBloomFilterParams> {
 public:
  using KeyedFilter::add;
  using KeyedFilter::has;
  using KeyedFilter::remove;
  using KeyedFilter::positions;
  static constexpr uint32_t kCounterBits = 4;
  static constexpr uint32_t kCounterMax = 15;
  static constexpr uint32_t kCountersPerWord = 64 / kCounterBits;
  // Registry facts (core/type_facts.h): from a pipe, a scalable cuckoo filter
  // grows instead (the growing type with removal).
  static constexpr FilterType kGrowingStandIn = FilterType::ScalableCuckoo;
  static constexpr EstimateSource kEstimateSource = EstimateSource::CountersNonZero;

  static Result<CountingBloomFilter> create(const CountingBloomFilterOptions& options);
  static Result<CountingBloomFilter> fromBlob(const DecodedBlob& blob, const Params& params);

  void add(const KeyHash& hash);
  bool has(const KeyHash& hash) const;
  // Removes one occurrence. NotFound (and no change) when the key is not present.
  Status remove(const KeyHash& hash);
  // The counter indexes a key maps to, in probe order; for inspection and visualisation.
  std::vector<uint64_t> positions(const KeyHash& hash) const;

  // add() calls minus successful remove() calls.
  uint64_t counterCount() const { return params_.counterCount; }
  uint32_t hashCount() const { return params_.hashCount; }
  // (non-zero counters / m)^k.
  double estimatedFalsePositiveRate() const;
  uint64_t saturatedCounterCount() const;
  template <typename Visit>
  void parameters(Visit&& visit) const {
    visit("counterCount", static_cast<double>(counterCount()));
    visit("counterBits", kCounterBits);
    visit("hashCount", hashCount());
  }

 private:
  friend WordArrayFilter;
  // Reads counters for visualisations (inspect/bloom_inspector.h).
  friend struct BloomInspector;
  CountingBloomFilter() = default;
  // Counter i is nibble (i % 16) of word (i / 16), low nibble first.
  static uint32_t readCounter(const uint64_t* words, uint64_t index) {
    return static_cast<uint32_t>((words[index >> 4] >> ((index & 15) * 4)) & 0xF);
  }
};

}  // namespace cuckoo_bloom
