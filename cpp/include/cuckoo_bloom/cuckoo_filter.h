// Cuckoo filter (Fan, Andersen, Kaminsky, Mitzenmacher, CoNEXT 2014):
// partial-key cuckoo hashing of f-bit fingerprints into 2^B buckets of b slots.
//
// A key lives in bucket i1 or i2 = i1 XOR offset(fp) (hashing.h). When both
// are full, insertion evicts a random resident fingerprint and moves it to its
// own other bucket, up to maxKicks times (a seeded, reproducible random walk).
//
// A failed insert never loses a key. The walk records every slot it
// overwrote; when the kicks run out it replays that record backwards, which
// restores the table exactly, and reports Full. (The two published Go
// walk-throughs drop the fingerprint in hand at that point: a key that was
// added is then silently gone.) Every key stored before a failure is still
// found after it, and the filter stays usable: a later key whose buckets have
// room still goes in.
//
// Sizing from (capacity n, target e): a lookup compares against at most 2b
// fingerprints, each matching by chance with probability 1/(2^f - 1), so
//   e ~= 2b / 2^f   =>   f = ceil(log2(2b / e)), clamped to [4, 32];
// and buckets = nextPow2(n / (b * maxLoad(b))), maxLoad = 0.84, 0.95, 0.98 for
// b = 2, 4, 8 (the paper's measured load at first failure) times a 0.95 margin.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "cuckoo_bloom/format.h"
#include "cuckoo_bloom/hashing.h"
#include "cuckoo_bloom/packed_table.h"
#include "cuckoo_bloom/status.h"

namespace cuckoo_bloom {

struct CuckooFilterOptions {
  uint64_t capacity = 0;
  double falsePositiveRate = 0.0;  // ignored when fingerprintBits is set
  uint32_t bucketSize = 4;         // 2, 4 or 8
  uint32_t fingerprintBits = 0;    // 4..32; 0 derives it from falsePositiveRate
  uint32_t maxKicks = 500;         // eviction steps before an insert fails
  uint64_t seed = 0;               // hash seed and eviction-walk seed
};

// One step of an eviction walk: the fingerprint placed into (bucket, slot).
struct CuckooKick {
  uint64_t bucket;
  uint32_t slot;
  uint32_t fingerprint;
};

class CuckooFilter {
 public:
  static constexpr uint32_t kMinFingerprintBits = 4;
  static constexpr uint32_t kMaxFingerprintBits = 32;
  static constexpr uint32_t kMaxKicksLimit = 1u << 20;
  static constexpr double kLoadMargin = 0.95;

  static Result<CuckooFilter> create(const CuckooFilterOptions& options);
  static Result<CuckooFilter> deserialize(const uint8_t* data, size_t length);

  static uint32_t fingerprintBitsFor(double falsePositiveRate, uint32_t bucketSize);
  static double maxLoadFactor(uint32_t bucketSize);
  static uint64_t bucketCountFor(uint64_t capacity, uint32_t bucketSize);

  // Ok, or Full: then the table and count are exactly as they were before the
  // call (every stored key is still found); only the walk's generator has
  // advanced, so the next insert tries a different walk.
  Status add(const uint8_t* key, size_t length);
  bool has(const uint8_t* key, size_t length) const;
  // Removes one matching fingerprint; NotFound (and no change) when none.
  Status remove(const uint8_t* key, size_t length);
  Status add(std::string_view key) {
    return add(reinterpret_cast<const uint8_t*>(key.data()), key.size());
  }
  bool has(std::string_view key) const {
    return has(reinterpret_cast<const uint8_t*>(key.data()), key.size());
  }
  Status remove(std::string_view key) {
    return remove(reinterpret_cast<const uint8_t*>(key.data()), key.size());
  }
  void clear();

  // Fingerprints stored (a key added twice counts twice).
  uint64_t count() const { return itemCount_; }
  uint64_t bucketCount() const { return bucketMask_ + 1; }
  uint32_t bucketSize() const { return bucketSize_; }
  uint32_t fingerprintBits() const { return fingerprintBits_; }
  uint32_t maxKicks() const { return maxKicks_; }
  uint64_t seed() const { return seed_; }
  uint64_t capacity() const { return capacity_; }
  uint64_t slotCount() const { return bucketCount() * bucketSize_; }
  double targetFalsePositiveRate() const { return targetFalsePositiveRate_; }
  double loadFactor() const {
    return static_cast<double>(itemCount_) / static_cast<double>(slotCount());
  }
  // 1 - (1 - 1/(2^f - 1))^(2b * load): chance that one of the ~2b*load
  // fingerprints in a query's two buckets matches by accident.
  double estimatedFalsePositiveRate() const;
  size_t byteLength() const { return table_.payloadWords() * sizeof(uint64_t); }

  // Read-only inspection (for visualisations and tests).
  uint32_t slotAt(uint64_t bucket, uint32_t slot) const { return table_.get(bucket, slot); }
  // Where a key's fingerprint may live, without touching the table.
  void locate(const uint8_t* key, size_t length, uint64_t& bucket1, uint64_t& bucket2,
              uint32_t& fingerprint) const;
  // The eviction steps of the last add(): each fingerprint written and where;
  // the last step is the free slot that ended the walk. Empty when the key
  // found room directly; on Full, the walk that was tried and then undone.
  const std::vector<CuckooKick>& lastKickPath() const { return kickPath_; }

  std::vector<uint8_t> serialize() const;

 private:
  CuckooFilter() = default;
  // The slot used, or -1 when the bucket is full.
  int insertIntoBucket(uint64_t bucket, uint32_t fingerprint);
  bool bucketContains(uint64_t bucket, uint32_t fingerprint) const;

  PackedTable table_;
  uint64_t bucketMask_ = 0;
  uint32_t bucketSize_ = 4;
  uint32_t fingerprintBits_ = 0;
  uint32_t maxKicks_ = 500;
  uint64_t seed_ = 0;
  uint64_t itemCount_ = 0;
  uint64_t capacity_ = 0;
  double targetFalsePositiveRate_ = 0.0;
  SplitMix64 random_;
  std::vector<CuckooKick> kickPath_;
};

}  // namespace cuckoo_bloom
