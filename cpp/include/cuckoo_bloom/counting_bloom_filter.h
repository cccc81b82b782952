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

#include "cuckoo_bloom/format.h"
#include "cuckoo_bloom/status.h"
#include "cuckoo_bloom/word_buffer.h"

namespace cuckoo_bloom {

struct CountingBloomFilterOptions {
  uint64_t capacity = 0;
  double falsePositiveRate = 0.0;
  uint64_t seed = 0;
};

class CountingBloomFilter {
 public:
  static constexpr uint32_t kCounterBits = 4;
  static constexpr uint32_t kCounterMax = 15;
  static constexpr uint32_t kCountersPerWord = 64 / kCounterBits;

  static Result<CountingBloomFilter> create(const CountingBloomFilterOptions& options);
  static Result<CountingBloomFilter> deserialize(const uint8_t* data, size_t length);

  void add(const uint8_t* key, size_t length);
  bool has(const uint8_t* key, size_t length) const;
  // The bit (or counter) indexes a key maps to, in probe order; for
  // inspection and visualisation.
  std::vector<uint64_t> positions(const uint8_t* key, size_t length) const;
  // Removes one occurrence. NotFound (and no change) when the key is not present.
  Status remove(const uint8_t* key, size_t length);
  void add(std::string_view key) { add(reinterpret_cast<const uint8_t*>(key.data()), key.size()); }
  bool has(std::string_view key) const {
    return has(reinterpret_cast<const uint8_t*>(key.data()), key.size());
  }
  Status remove(std::string_view key) {
    return remove(reinterpret_cast<const uint8_t*>(key.data()), key.size());
  }
  void clear();

  // add() calls minus successful remove() calls.
  uint64_t count() const { return itemCount_; }
  uint64_t counterCount() const { return counterCount_; }
  uint32_t hashCount() const { return hashCount_; }
  uint64_t seed() const { return seed_; }
  uint64_t capacity() const { return capacity_; }
  double targetFalsePositiveRate() const { return targetFalsePositiveRate_; }
  // (non-zero counters / m)^k.
  double estimatedFalsePositiveRate() const;
  uint32_t counterAt(uint64_t index) const;
  uint64_t saturatedCounterCount() const;
  size_t byteLength() const { return counters_.size() * sizeof(uint64_t); }

  std::vector<uint8_t> serialize() const;

 private:
  CountingBloomFilter() = default;
  WordBuffer counters_;
  uint64_t counterCount_ = 0;
  uint32_t hashCount_ = 0;
  uint64_t seed_ = 0;
  uint64_t itemCount_ = 0;
  uint64_t capacity_ = 0;
  double targetFalsePositiveRate_ = 0.0;
};

}  // namespace cuckoo_bloom
