// Classic Bloom filter: m bits, k probes by double hashing.
//
// Sizing (Bloom 1970; the optimum for a target rate e at n keys):
//   m = -n ln(e) / (ln 2)^2 bits,   k = (m / n) ln 2 probes (rounded, >= 1).
// It never gives a false negative: add() only ever sets bits.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "cuckoo_bloom/format.h"
#include "cuckoo_bloom/status.h"
#include "cuckoo_bloom/word_buffer.h"

namespace cuckoo_bloom {

struct BloomFilterOptions {
  uint64_t capacity = 0;           // keys the filter is sized for (>= 1)
  double falsePositiveRate = 0.0;  // target rate in (0, 1)
  uint64_t seed = 0;               // hash seed; filters to be unioned need the same seed
};

class BloomFilter {
 public:
  static Result<BloomFilter> create(const BloomFilterOptions& options);
  static Result<BloomFilter> deserialize(const uint8_t* data, size_t length);

  // Optimal bit and probe counts for (capacity, rate); exposed for tests and docs.
  static uint64_t optimalBitCount(uint64_t capacity, double falsePositiveRate);
  static uint32_t optimalHashCount(uint64_t bitCount, uint64_t capacity);

  void add(const uint8_t* key, size_t length);
  bool has(const uint8_t* key, size_t length) const;
  // The bit (or counter) indexes a key maps to, in probe order; for
  // inspection and visualisation.
  std::vector<uint64_t> positions(const uint8_t* key, size_t length) const;
  void add(std::string_view key) { add(reinterpret_cast<const uint8_t*>(key.data()), key.size()); }
  bool has(std::string_view key) const {
    return has(reinterpret_cast<const uint8_t*>(key.data()), key.size());
  }

  // Sets this filter to the union of both (keys of either are then found).
  // Requires equal bit count, probe count and seed.
  Status unionWith(const BloomFilter& other);
  void clear();

  // Keys whose add() set at least one new bit (a repeated key is not counted again).
  uint64_t count() const { return itemCount_; }
  uint64_t bitCount() const { return bitCount_; }
  uint32_t hashCount() const { return hashCount_; }
  uint64_t seed() const { return seed_; }
  uint64_t capacity() const { return capacity_; }
  double targetFalsePositiveRate() const { return targetFalsePositiveRate_; }
  // (set bits / m)^k: the rate for a random absent key given this exact filter.
  double estimatedFalsePositiveRate() const;
  uint64_t setBitCount() const;
  size_t byteLength() const { return bits_.size() * sizeof(uint64_t); }
  const uint64_t* words() const { return bits_.data(); }

  std::vector<uint8_t> serialize() const;

 private:
  BloomFilter() = default;
  WordBuffer bits_;
  uint64_t bitCount_ = 0;
  uint32_t hashCount_ = 0;
  uint64_t seed_ = 0;
  uint64_t itemCount_ = 0;
  uint64_t capacity_ = 0;
  double targetFalsePositiveRate_ = 0.0;
};

}  // namespace cuckoo_bloom
