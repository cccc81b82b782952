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

#include "cuckoo_bloom/format.h"
#include "cuckoo_bloom/status.h"
#include "cuckoo_bloom/word_buffer.h"

namespace cuckoo_bloom {

struct BlockedBloomFilterOptions {
  uint64_t capacity = 0;
  double falsePositiveRate = 0.0;
  uint64_t seed = 0;
};

class BlockedBloomFilter {
 public:
  static constexpr uint32_t kWordsPerBlock = 8;
  static constexpr uint32_t kBytesPerBlock = kWordsPerBlock * 8;
  static constexpr double kSizingMargin = 0.9;

  static Result<BlockedBloomFilter> create(const BlockedBloomFilterOptions& options);
  static Result<BlockedBloomFilter> deserialize(const uint8_t* data, size_t length);

  // Expected false-positive rate with an average of `keysPerBlock` keys per block.
  static double expectedFalsePositiveRate(double keysPerBlock);
  // Smallest block count meeting the target for `capacity` keys (see above).
  static uint64_t blockCountFor(uint64_t capacity, double falsePositiveRate);

  void add(const uint8_t* key, size_t length);
  bool has(const uint8_t* key, size_t length) const;
  // The bit (or counter) indexes a key maps to, in probe order; for
  // inspection and visualisation.
  std::vector<uint64_t> positions(const uint8_t* key, size_t length) const;
  void add(std::string_view key) { add(reinterpret_cast<const uint8_t*>(key.data()), key.size()); }
  bool has(std::string_view key) const {
    return has(reinterpret_cast<const uint8_t*>(key.data()), key.size());
  }
  Status unionWith(const BlockedBloomFilter& other);
  void clear();

  uint64_t count() const { return itemCount_; }
  uint64_t blockCount() const { return blockCount_; }
  uint64_t bitCount() const { return blockCount_ * kWordsPerBlock * 64; }
  uint64_t seed() const { return seed_; }
  uint64_t capacity() const { return capacity_; }
  double targetFalsePositiveRate() const { return targetFalsePositiveRate_; }
  // Mean over blocks of the product over words of (set bits in word / 64).
  double estimatedFalsePositiveRate() const;
  size_t byteLength() const { return blocks_.size() * sizeof(uint64_t); }
  const uint64_t* words() const { return blocks_.data(); }

  std::vector<uint8_t> serialize() const;

 private:
  BlockedBloomFilter() = default;
  WordBuffer blocks_;
  uint64_t blockCount_ = 0;
  uint64_t seed_ = 0;
  uint64_t itemCount_ = 0;
  uint64_t capacity_ = 0;
  double targetFalsePositiveRate_ = 0.0;
};

}  // namespace cuckoo_bloom
