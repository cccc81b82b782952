#include "cuckoo_bloom/bloom_filter.h"

#include <algorithm>
#include <cmath>

#include "cuckoo_bloom/hashing.h"
#include "cuckoo_bloom/limits.h"

namespace cuckoo_bloom {
namespace {

constexpr uint32_t kMaxHashCount = 64;
constexpr size_t kParamsBytes = 16;  // bitCount u64, hashCount u32, reserved u32

uint64_t popcount64(uint64_t value) {
  return static_cast<uint64_t>(__builtin_popcountll(value));
}

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
  const uint64_t wordCount = bitCount / 64 + (bitCount % 64 != 0);
  if (bitCount == UINT64_MAX) return validateTableBytes(UINT64_MAX, "BloomFilter");
  valid = validateTableBytes(wordCount * 8, "BloomFilter");
  if (!valid.isOk()) return valid;

  BloomFilter filter;
  if (!filter.bits_.allocate(static_cast<size_t>(wordCount))) {
    return Status::invalidArgument("out of memory allocating " + std::to_string(wordCount * 8) +
                                   " bytes for a BloomFilter");
  }
  filter.bitCount_ = bitCount;
  filter.hashCount_ = optimalHashCount(bitCount, options.capacity);
  filter.seed_ = options.seed;
  filter.capacity_ = options.capacity;
  filter.targetFalsePositiveRate_ = options.falsePositiveRate;
  return filter;
}

void BloomFilter::add(const uint8_t* key, size_t length) {
  const KeyHash hash = hashKey(key, length, seed_);
  uint64_t* words = bits_.data();
  bool changed = false;
  for (uint32_t probe = 0; probe < hashCount_; ++probe) {
    const uint64_t bit = bloomProbeIndex(hash, probe, bitCount_);
    const uint64_t mask = uint64_t{1} << (bit & 63);
    uint64_t& word = words[bit >> 6];
    changed |= (word & mask) == 0;
    word |= mask;
  }
  itemCount_ += changed;
}

bool BloomFilter::has(const uint8_t* key, size_t length) const {
  const KeyHash hash = hashKey(key, length, seed_);
  const uint64_t* words = bits_.data();
  for (uint32_t probe = 0; probe < hashCount_; ++probe) {
    const uint64_t bit = bloomProbeIndex(hash, probe, bitCount_);
    if ((words[bit >> 6] & (uint64_t{1} << (bit & 63))) == 0) return false;
  }
  return true;
}

Status BloomFilter::unionWith(const BloomFilter& other) {
  if (other.bitCount_ != bitCount_ || other.hashCount_ != hashCount_ || other.seed_ != seed_) {
    return Status::invalidArgument(
        "union needs filters with the same bit count, hash count and seed (" +
        std::to_string(bitCount_) + "/" + std::to_string(hashCount_) + "/" +
        std::to_string(seed_) + " vs " + std::to_string(other.bitCount_) + "/" +
        std::to_string(other.hashCount_) + "/" + std::to_string(other.seed_) + ")");
  }
  for (size_t w = 0; w < bits_.size(); ++w) bits_[w] |= other.bits_[w];
  // The keys common to both are unknown; estimate the distinct count from the
  // fill (Swamidass & Baldi): n ~= -(m / k) ln(1 - X / m), X = set bits.
  const uint64_t setBits = setBitCount();
  const double m = static_cast<double>(bitCount_);
  const uint64_t estimate =
      setBits >= bitCount_
          ? itemCount_ + other.itemCount_
          : static_cast<uint64_t>(std::llround(-(m / hashCount_) *
                                               std::log1p(-static_cast<double>(setBits) / m)));
  // Whatever the estimate says, the union holds at least the larger input and
  // at most both inputs, and never more keys than set bits (the invariant
  // deserialize checks).
  const uint64_t lower = std::max(itemCount_, other.itemCount_);
  const uint64_t upper = std::min(itemCount_ + other.itemCount_, setBits);
  itemCount_ = std::clamp(estimate, lower, upper);
  return Status::ok();
}

void BloomFilter::clear() {
  bits_.clear();
  itemCount_ = 0;
}

uint64_t BloomFilter::setBitCount() const {
  uint64_t total = 0;
  for (size_t w = 0; w < bits_.size(); ++w) total += popcount64(bits_[w]);
  return total;
}

double BloomFilter::estimatedFalsePositiveRate() const {
  const double fill = static_cast<double>(setBitCount()) / static_cast<double>(bitCount_);
  return std::pow(fill, hashCount_);
}

std::vector<uint8_t> BloomFilter::serialize() const {
  ByteWriter params;
  params.u64(bitCount_);
  params.u32(hashCount_);
  params.u32(0);
  FilterHeader header;
  header.type = FilterType::Bloom;
  header.seed = seed_;
  header.itemCount = itemCount_;
  header.capacity = capacity_;
  header.targetFalsePositiveRate = targetFalsePositiveRate_;
  return encodeBlob(header, params.bytes(), wordsToBytes(bits_.data(), bits_.size()));
}

Result<BloomFilter> BloomFilter::deserialize(const uint8_t* data, size_t length) {
  Result<DecodedBlob> decoded = decodeBlobOfType(data, length, FilterType::Bloom);
  if (!decoded.isOk()) return decoded.status();
  const DecodedBlob& blob = decoded.value();
  if (blob.paramsLength != kParamsBytes) {
    return Status::corrupt("bloom parameters must be " + std::to_string(kParamsBytes) + " bytes");
  }
  ByteReader params(blob.params, blob.paramsLength);
  uint64_t bitCount = 0;
  uint32_t hashCount = 0, reserved = 0;
  params.u64(bitCount);
  params.u32(hashCount);
  params.u32(reserved);
  if (bitCount == 0) return Status::corrupt("bloom bit count is 0");
  if (hashCount == 0 || hashCount > kMaxHashCount) {
    return Status::corrupt("bloom hash count " + std::to_string(hashCount) + " outside 1.." +
                           std::to_string(kMaxHashCount));
  }
  if (reserved != 0) return Status::corrupt("reserved parameter bytes are set");
  const uint64_t wordCount = bitCount / 64 + (bitCount % 64 != 0);
  if (blob.payloadLength / 8 != wordCount || blob.payloadLength % 8 != 0) {
    return Status::corrupt("bloom payload is " + std::to_string(blob.payloadLength) +
                           " bytes, but " + std::to_string(bitCount) + " bits need " +
                           std::to_string(wordCount * 8));
  }
  Status valid = validateTableBytes(wordCount * 8, "BloomFilter");
  if (!valid.isOk()) return valid;

  BloomFilter filter;
  if (!filter.bits_.allocate(static_cast<size_t>(wordCount))) {
    return Status::invalidArgument("out of memory allocating a BloomFilter");
  }
  bytesToWords(blob.payload, static_cast<size_t>(wordCount), filter.bits_.data());
  if (bitCount % 64 != 0 && (filter.bits_[wordCount - 1] >> (bitCount % 64)) != 0) {
    return Status::corrupt("bits beyond the bit count are set");
  }
  filter.bitCount_ = bitCount;
  filter.hashCount_ = hashCount;
  filter.seed_ = blob.header.seed;
  filter.itemCount_ = blob.header.itemCount;
  filter.capacity_ = blob.header.capacity;
  filter.targetFalsePositiveRate_ = blob.header.targetFalsePositiveRate;
  // Every counted add set at least one new bit.
  if (filter.itemCount_ > filter.setBitCount()) {
    return Status::corrupt("item count exceeds the number of set bits");
  }
  return filter;
}


std::vector<uint64_t> BloomFilter::positions(const uint8_t* key, size_t length) const {
  const KeyHash hash = hashKey(key, length, seed_);
  std::vector<uint64_t> out(hashCount_);
  for (uint32_t probe = 0; probe < hashCount_; ++probe) out[probe] = bloomProbeIndex(hash, probe, bitCount_);
  return out;
}

}  // namespace cuckoo_bloom
