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

#include "cuckoo_bloom/filter_support.h"

namespace cuckoo_bloom {

using CountingBloomFilterOptions = SharedFilterOptions;

class CountingBloomFilter : public KeyedFilter<CountingBloomFilter> {
 public:
  using KeyedFilter::add;
  using KeyedFilter::has;
  using KeyedFilter::remove;
  using KeyedFilter::positions;
  static constexpr FilterType kType = FilterType::CountingBloom;
  static constexpr bool kSupportsRemove = true;
  static constexpr bool kSupportsUnion = false;
  static constexpr uint32_t kCounterBits = 4;
  static constexpr uint32_t kCounterMax = 15;
  static constexpr uint32_t kCountersPerWord = 64 / kCounterBits;

  // The parameter block (docs/FORMAT.md): counterCount u64, hashCount u32,
  // counterBits u8 (always 4), 3 reserved bytes.
  struct Params {
    uint64_t counterCount = 0;
    uint32_t hashCount = 0;
    uint8_t counterBits = kCounterBits;
    template <typename Fields>
    void fields(Fields& f) {
      f(counterCount);
      f(hashCount);
      f(counterBits);
      f.reserved(3);
    }
  };

  static Result<CountingBloomFilter> create(const CountingBloomFilterOptions& options);
  static Result<CountingBloomFilter> createFrom(const FilterOptions& options) { return createFromSharedOptions<CountingBloomFilter>(options); }
  static Result<CountingBloomFilter> deserialize(const uint8_t* data, size_t length) {
    return readFilter<CountingBloomFilter>(data, length);
  }
  static Result<CountingBloomFilter> fromBlob(const DecodedBlob& blob, const Params& params);

  void add(const KeyHash& hash);
  bool has(const KeyHash& hash) const;
  // Removes one occurrence. NotFound (and no change) when the key is not present.
  Status remove(const KeyHash& hash);
  // The counter indexes a key maps to, in probe order; for inspection and visualisation.
  std::vector<uint64_t> positions(const KeyHash& hash) const;

  void clear();

  // add() calls minus successful remove() calls.
  uint64_t counterCount() const { return params_.counterCount; }
  uint32_t hashCount() const { return params_.hashCount; }
  // (non-zero counters / m)^k.
  double estimatedFalsePositiveRate() const;
  // The value of counter `index` (0 for an index past the end).
  uint32_t counterAt(uint64_t index) const;
  uint64_t saturatedCounterCount() const;
  size_t byteLength() const { return counters_.size() * sizeof(uint64_t); }
  template <typename Visit>
  void parameters(Visit&& visit) const {
    visit("counterCount", static_cast<double>(counterCount()));
    visit("counterBits", kCounterBits);
    visit("hashCount", hashCount());
  }

  // What the byte format holds (KeyedFilter serializes from it): the
  // header, the parameter block and the payload words.
  template <typename Visit>
  auto visitBlob(Visit&& visit) const {
    return visit(header_, encodeParams(params_), counters_.data(), counters_.size());
  }

 private:
  CountingBloomFilter() = default;
  Params params_;
  WordBuffer counters_;
};

}  // namespace cuckoo_bloom
