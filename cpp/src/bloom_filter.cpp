#include "cuckoo_bloom/bloom_filter.h"

#include <algorithm>
#include <cmath>

namespace cuckoo_bloom {
namespace {

constexpr uint32_t kMaxHashCount = 64;

uint64_t popcount64(uint64_t value) { return static_cast<uint64_t>(__builtin_popcountll(value)); }
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
  Status valid = validateCapacityAndRate(options.capacity, options.falsePositiveRate);
  if (!valid.isOk()) return valid;
  const uint64_t bitCount = optimalBitCount(options.capacity, options.falsePositiveRate);
  if (bitCount == UINT64_MAX) return validateTableBytes(UINT64_MAX, "BloomFilter");
  valid = validateTableBytes(wordCountFor(bitCount) * 8, "BloomFilter");
  if (!valid.isOk()) return valid;

  BloomFilter filter;
  valid = allocateWords(filter.bits_, wordCountFor(bitCount), kType);
  if (!valid.isOk()) return valid;
  filter.params_ = {bitCount, optimalHashCount(bitCount, options.capacity)};
  filter.header_ = newHeader(kType, options.capacity, options.falsePositiveRate, options.seed);
  return filter;
}

Result<BloomFilter> BloomFilter::fromBlob(const DecodedBlob& blob, const Params& params) {
  if (params.bitCount == 0) return Status::corrupt("bloom bit count is 0");
  if (params.hashCount == 0 || params.hashCount > kMaxHashCount) {
    return Status::corrupt("bloom hash count " + std::to_string(params.hashCount) + " outside 1.." +
                           std::to_string(kMaxHashCount));
  }
  BloomFilter filter;
  Status read = readPayloadWords(blob, wordCountFor(params.bitCount), params.bitCount, filter.bits_);
  if (!read.isOk()) return read;
  filter.params_ = params;
  filter.header_ = blob.header;
  // Every counted add set at least one new bit.
  if (filter.count() > filter.setBitCount()) return Status::corrupt("item count exceeds the number of set bits");
  return filter;
}

void BloomFilter::add(const KeyHash& hash) {
  uint64_t* words = bits_.data();
  bool changed = false;
  for (uint32_t probe = 0; probe < params_.hashCount; ++probe) {
    const uint64_t bit = bloomProbeIndex(hash, probe, params_.bitCount);
    const uint64_t mask = uint64_t{1} << (bit & 63);
    uint64_t& word = words[bit >> 6];
    changed |= (word & mask) == 0;
    word |= mask;
  }
  header_.itemCount += changed;
}

bool BloomFilter::has(const KeyHash& hash) const {
  const uint64_t* words = bits_.data();
  for (uint32_t probe = 0; probe < params_.hashCount; ++probe) {
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
  for (size_t w = 0; w < bits_.size(); ++w) bits_[w] |= other.bits_[w];
  // The keys common to both are unknown; estimate the distinct count from the
  // fill (Swamidass & Baldi): n ~= -(m / k) ln(1 - X / m), X = set bits.
  const uint64_t setBits = setBitCount();
  const double m = static_cast<double>(bitCount());
  const uint64_t estimate =
      setBits >= bitCount()
          ? count() + other.count()
          : static_cast<uint64_t>(std::llround(-(m / hashCount()) * std::log1p(-static_cast<double>(setBits) / m)));
  // Whatever the estimate says, the union holds at least the larger input and
  // at most both inputs, and never more keys than set bits (the invariant
  // deserialize checks).
  const uint64_t lower = std::max(count(), other.count());
  const uint64_t upper = std::min(count() + other.count(), setBits);
  header_.itemCount = std::clamp(estimate, lower, upper);
  return Status::ok();
}

void BloomFilter::clear() {
  bits_.clear();
  header_.itemCount = 0;
}

uint64_t BloomFilter::setBitCount() const {
  uint64_t total = 0;
  for (size_t w = 0; w < bits_.size(); ++w) total += popcount64(bits_[w]);
  return total;
}

double BloomFilter::estimatedFalsePositiveRate() const {
  const double fill = static_cast<double>(setBitCount()) / static_cast<double>(bitCount());
  return std::pow(fill, hashCount());
}

}  // namespace cuckoo_bloom
