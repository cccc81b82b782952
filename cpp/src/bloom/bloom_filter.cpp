#include "cuckoo_bloom/bloom/bloom_filter.h"

#include <algorithm>
#include <cmath>

#include "cuckoo_bloom/bloom/bloom_sizing.h"

namespace cuckoo_bloom {
namespace {

constexpr uint32_t kMaxHashCount = 64;

uint64_t wordCountFor(uint64_t bitCount) { return bitCount / 64 + (bitCount % 64 != 0); }

}  // namespace

uint64_t BloomFilter::optimalBitCount(uint64_t capacity, double falsePositiveRate) {
  const double ln2 = std::log(2.0);
  const double bits =
      std::ceil(-static_cast<double>(capacity) * std::log(falsePositiveRate) / (ln2 * ln2));
  // Saturate instead of overflowing: create() rejects anything this large.
  if (!(bits < 1.8e19)) return UINT64_MAX;
  return std::max<uint64_t>(1, static_cast<uint64_t>(bits));
}

uint32_t BloomFilter::optimalHashCount(uint64_t bitCount, uint64_t capacity) {
  const double k = std::round(static_cast<double>(bitCount) / static_cast<double>(capacity) *
                              std::log(2.0));
  return static_cast<uint32_t>(std::clamp(k, 1.0, static_cast<double>(kMaxHashCount)));
}

Result<BloomFilter> BloomFilter::create(const BloomFilterOptions& options) {
  // The exact sizing (bloom_sizing.h), not the textbook formula: it meets
  // the target for every capacity, tiny ones included.
  const Result<BloomSizing> sizing = bloomSizingForCreate(options.capacity, options.falsePositiveRate, "BloomFilter");
  if (!sizing.isOk()) return sizing.status();
  const uint64_t bitCount = sizing.value().bitCount;
  return allocate(options, {bitCount, sizing.value().hashCount}, wordCountFor(bitCount), "BloomFilter");
}

Result<BloomFilter> BloomFilter::fromBlob(const DecodedBlob& blob, const Params& params) {
  if (params.bitCount == 0) return Status::corrupt("bloom bit count is 0");
  if (params.hashCount == 0 || params.hashCount > kMaxHashCount) {
    return Status::corrupt("bloom hash count " + std::to_string(params.hashCount) + " outside 1.." +
                           std::to_string(kMaxHashCount));
  }
  // No check of the count against the set bits: count() is the keys added,
  // repeats included (bytes written before counted only adds that set a new
  // bit; both kinds read as they are).
  return adopt(blob, params, wordCountFor(params.bitCount), params.bitCount);
}

void BloomFilter::add(const KeyHash& hash) {
  uint64_t* words = words_.data();
  for (uint32_t probe = 0; probe < params_.hashCount; ++probe) {
    const uint64_t bit = bloomProbeIndex(hash, probe, params_.bitCount);
    words[bit >> 6] |= uint64_t{1} << (bit & 63);
  }
  ++header_.itemCount;  // keys added, repeats included
}

bool BloomFilter::has(const KeyHash& hash) const {
  const uint64_t* words = words_.data();
  uint32_t probe = 0;
  if (branchFreeProbesPay(header_.itemCount, header_.capacity)) {
    uint64_t allSet = 1;
    for (; probe < kBranchFreeProbes; ++probe) {
      const uint64_t bit = bloomProbeIndex(hash, probe < params_.hashCount ? probe : 0, params_.bitCount);
      allSet &= words[bit >> 6] >> (bit & 63);
    }
    if ((allSet & 1) == 0) return false;
  }
  for (; probe < params_.hashCount; ++probe) {
    const uint64_t bit = bloomProbeIndex(hash, probe, params_.bitCount);
    if ((words[bit >> 6] & (uint64_t{1} << (bit & 63))) == 0) return false;
  }
  return true;
}

std::vector<uint64_t> BloomFilter::positions(const KeyHash& hash) const {
  std::vector<uint64_t> out(params_.hashCount);
  for (uint32_t probe = 0; probe < params_.hashCount; ++probe) {
    out[probe] = bloomProbeIndex(hash, probe, params_.bitCount);
  }
  return out;
}

Status BloomFilter::unionWith(const BloomFilter& other) {
  if (other.bitCount() != bitCount() || other.hashCount() != hashCount() || other.seed() != seed()) {
    return Status::invalidArgument(
        "union needs filters with the same bit count, hash count and seed (" + std::to_string(bitCount()) + "/" +
        std::to_string(hashCount()) + "/" + std::to_string(seed()) + " vs " + std::to_string(other.bitCount()) +
        "/" + std::to_string(other.hashCount()) + "/" + std::to_string(other.seed()) + ")");
  }
  orWith(other);
  return Status::ok();
}

double BloomFilter::estimatedFalsePositiveRate() const {
  return bloomFalsePositiveRateFromFill(setBitCount(), bitCount(), hashCount(), count());
}

}  // namespace cuckoo_bloom
