#include "cuckoo_bloom/cuckoo_filter.h"

#include <algorithm>
#include <cmath>

#include "cuckoo_bloom/limits.h"

namespace cuckoo_bloom {
namespace {

// bucketCount u64, rngState u64, maxKicks u32, bucketSize u8, fingerprintBits u8, reserved u16
constexpr size_t kParamsBytes = 24;

bool isValidBucketSize(uint32_t bucketSize) {
  return bucketSize == 2 || bucketSize == 4 || bucketSize == 8;
}

}  // namespace

uint32_t CuckooFilter::fingerprintBitsFor(double falsePositiveRate, uint32_t bucketSize) {
  const double bits = std::ceil(std::log2(2.0 * bucketSize / falsePositiveRate));
  if (!(bits > kMinFingerprintBits)) return kMinFingerprintBits;
  if (bits > kMaxFingerprintBits) return kMaxFingerprintBits;
  return static_cast<uint32_t>(bits);
}

double CuckooFilter::maxLoadFactor(uint32_t bucketSize) {
  // Fan et al., Table 2 / Fig. 3: load reached at the first failed insert.
  switch (bucketSize) {
    case 2: return 0.84;
    case 4: return 0.95;
    default: return 0.98;
  }
}

uint64_t CuckooFilter::bucketCountFor(uint64_t capacity, uint32_t bucketSize) {
  const double usableSlotsPerBucket = bucketSize * maxLoadFactor(bucketSize) * kLoadMargin;
  const double needed = std::ceil(static_cast<double>(capacity) / usableSlotsPerBucket);
  uint64_t buckets = 2;  // at least two buckets, so i1 != i2 is possible
  while (static_cast<double>(buckets) < needed) {
    if (buckets >= (uint64_t{1} << 62)) return UINT64_MAX;
    buckets <<= 1;
  }
  return buckets;
}

Result<CuckooFilter> CuckooFilter::create(const CuckooFilterOptions& options) {
  if (options.capacity == 0) return Status::invalidArgument("capacity must be at least 1");
  if (options.capacity > kMaxCapacity) return Status::invalidArgument("capacity exceeds the maximum");
  if (!isValidBucketSize(options.bucketSize)) {
    return Status::invalidArgument("bucketSize must be 2, 4 or 8, got " + std::to_string(options.bucketSize));
  }
  uint32_t fingerprintBits = options.fingerprintBits;
  double target = options.falsePositiveRate;
  if (fingerprintBits != 0) {
    if (fingerprintBits < kMinFingerprintBits || fingerprintBits > kMaxFingerprintBits) {
      return Status::invalidArgument("fingerprintBits must be in 4..32, got " + std::to_string(fingerprintBits));
    }
    // The rate a full filter of this geometry gives, when the caller chose bits.
    if (!(target > 0.0 && target < 1.0)) {
      target = std::min(0.5, 2.0 * options.bucketSize / std::ldexp(1.0, static_cast<int>(fingerprintBits)));
    }
  } else {
    Status valid = validateCapacityAndRate(options.capacity, options.falsePositiveRate);
    if (!valid.isOk()) return valid;
    fingerprintBits = fingerprintBitsFor(options.falsePositiveRate, options.bucketSize);
  }
  if (options.maxKicks > kMaxKicksLimit) {
    return Status::invalidArgument("maxKicks must be at most " + std::to_string(kMaxKicksLimit));
  }
  const uint64_t bucketCount = bucketCountFor(options.capacity, options.bucketSize);
  if (bucketCount == UINT64_MAX) return validateTableBytes(UINT64_MAX, "CuckooFilter");
  Status valid = validateTableBytes(
      PackedTable::payloadWordCount(bucketCount, options.bucketSize, fingerprintBits) * 8, "CuckooFilter");
  if (!valid.isOk()) return valid;

  CuckooFilter filter;
  if (!filter.table_.allocate(bucketCount, options.bucketSize, fingerprintBits)) {
    return Status::invalidArgument("out of memory allocating a CuckooFilter");
  }
  filter.bucketMask_ = bucketCount - 1;
  filter.bucketSize_ = options.bucketSize;
  filter.fingerprintBits_ = fingerprintBits;
  filter.maxKicks_ = options.maxKicks;
  filter.seed_ = options.seed;
  filter.capacity_ = options.capacity;
  filter.targetFalsePositiveRate_ = target;
  // The walk's generator is seeded from the hash seed, but decorrelated from it.
  filter.random_ = SplitMix64(mix64(options.seed ^ 0x6A09E667F3BCC908ull));
  return filter;
}

int CuckooFilter::insertIntoBucket(uint64_t bucket, uint32_t fingerprint) {
  for (uint32_t slot = 0; slot < bucketSize_; ++slot) {
    if (table_.get(bucket, slot) == 0) {
      table_.set(bucket, slot, fingerprint);
      return static_cast<int>(slot);
    }
  }
  return -1;
}

bool CuckooFilter::bucketContains(uint64_t bucket, uint32_t fingerprint) const {
  for (uint32_t slot = 0; slot < bucketSize_; ++slot) {
    if (table_.get(bucket, slot) == fingerprint) return true;
  }
  return false;
}

void CuckooFilter::locate(const uint8_t* key, size_t length, uint64_t& bucket1, uint64_t& bucket2,
                          uint32_t& fingerprint) const {
  const KeyHash hash = hashKey(key, length, seed_);
  fingerprint = cuckooFingerprint(hash, fingerprintBits_);
  bucket1 = cuckooBucketIndex(hash, bucketMask_);
  bucket2 = cuckooAltBucketIndex(bucket1, fingerprint, bucketMask_);
}

Status CuckooFilter::add(const uint8_t* key, size_t length) {
  uint64_t bucket1 = 0, bucket2 = 0;
  uint32_t fingerprint = 0;
  locate(key, length, bucket1, bucket2, fingerprint);
  kickPath_.clear();
  if (insertIntoBucket(bucket1, fingerprint) >= 0 || insertIntoBucket(bucket2, fingerprint) >= 0) {
    ++itemCount_;
    return Status::ok();
  }

  // Random walk: put the fingerprint in hand into a random slot of the
  // current bucket, pick up the one that was there, and carry it to its other
  // bucket. kickPath_ records each (bucket, slot) written, so the walk can be
  // undone exactly.
  uint64_t bucket = (random_.next() & 1) ? bucket1 : bucket2;
  uint32_t inHand = fingerprint;
  for (uint32_t kick = 0; kick < maxKicks_; ++kick) {
    const uint32_t slot = static_cast<uint32_t>(random_.next() & (bucketSize_ - 1));
    const uint32_t evicted = table_.get(bucket, slot);
    table_.set(bucket, slot, inHand);
    kickPath_.push_back({bucket, slot, inHand});
    inHand = evicted;
    bucket = cuckooAltBucketIndex(bucket, inHand, bucketMask_);
    const int freeSlot = insertIntoBucket(bucket, inHand);
    if (freeSlot >= 0) {
      kickPath_.push_back({bucket, static_cast<uint32_t>(freeSlot), inHand});  // the walk's end
      ++itemCount_;
      return Status::ok();
    }
  }

  // Out of kicks. Undo the walk from its end: each step swaps back what it
  // displaced, so afterwards the table is bit-for-bit what it was and the
  // fingerprint in hand is the new key's own, which is simply not stored.
  for (size_t step = kickPath_.size(); step-- > 0;) {
    const CuckooKick& kick = kickPath_[step];
    const uint32_t placed = table_.get(kick.bucket, kick.slot);
    table_.set(kick.bucket, kick.slot, inHand);
    inHand = placed;
  }
  return Status::full("cuckoo filter is full: no room for the key after " + std::to_string(maxKicks_) +
                      " evictions (load " + std::to_string(loadFactor()) +
                      "); every key stored before is still there");
}

bool CuckooFilter::has(const uint8_t* key, size_t length) const {
  uint64_t bucket1 = 0, bucket2 = 0;
  uint32_t fingerprint = 0;
  locate(key, length, bucket1, bucket2, fingerprint);
  return bucketContains(bucket1, fingerprint) || bucketContains(bucket2, fingerprint);
}

Status CuckooFilter::remove(const uint8_t* key, size_t length) {
  uint64_t bucket1 = 0, bucket2 = 0;
  uint32_t fingerprint = 0;
  locate(key, length, bucket1, bucket2, fingerprint);
  for (const uint64_t bucket : {bucket1, bucket2}) {
    for (uint32_t slot = 0; slot < bucketSize_; ++slot) {
      if (table_.get(bucket, slot) == fingerprint) {
        table_.set(bucket, slot, 0);
        --itemCount_;
        return Status::ok();
      }
    }
  }
  return Status::notFound("no matching fingerprint in the key's two buckets");
}

void CuckooFilter::clear() {
  table_.clear();
  itemCount_ = 0;
  kickPath_.clear();
}

double CuckooFilter::estimatedFalsePositiveRate() const {
  const double matchChance = 1.0 / (std::ldexp(1.0, static_cast<int>(fingerprintBits_)) - 1.0);
  const double occupiedInTwoBuckets = 2.0 * bucketSize_ * loadFactor();
  return -std::expm1(occupiedInTwoBuckets * std::log1p(-matchChance));
}

std::vector<uint8_t> CuckooFilter::serialize() const {
  ByteWriter params;
  params.u64(bucketCount());
  params.u64(random_.state());
  params.u32(maxKicks_);
  params.u8(static_cast<uint8_t>(bucketSize_));
  params.u8(static_cast<uint8_t>(fingerprintBits_));
  params.u16(0);
  FilterHeader header;
  header.type = FilterType::Cuckoo;
  header.seed = seed_;
  header.itemCount = itemCount_;
  header.capacity = capacity_;
  header.targetFalsePositiveRate = targetFalsePositiveRate_;
  return encodeBlob(header, params.bytes(), wordsToBytes(table_.words(), table_.payloadWords()));
}

Result<CuckooFilter> CuckooFilter::deserialize(const uint8_t* data, size_t length) {
  Result<DecodedBlob> decoded = decodeBlobOfType(data, length, FilterType::Cuckoo);
  if (!decoded.isOk()) return decoded.status();
  const DecodedBlob& blob = decoded.value();
  if (blob.paramsLength != kParamsBytes) return Status::corrupt("cuckoo parameters must be 24 bytes");
  ByteReader params(blob.params, blob.paramsLength);
  uint64_t bucketCount = 0, randomState = 0;
  uint32_t maxKicks = 0;
  uint8_t bucketSize = 0, fingerprintBits = 0;
  uint16_t reserved = 0;
  params.u64(bucketCount);
  params.u64(randomState);
  params.u32(maxKicks);
  params.u8(bucketSize);
  params.u8(fingerprintBits);
  params.u16(reserved);
  if (bucketCount < 2 || (bucketCount & (bucketCount - 1)) != 0 || bucketCount > (uint64_t{1} << 48)) {
    return Status::corrupt("cuckoo bucket count " + std::to_string(bucketCount) +
                           " is not a power of two of at least 2");
  }
  if (!isValidBucketSize(bucketSize)) return Status::corrupt("cuckoo bucket size must be 2, 4 or 8");
  if (fingerprintBits < kMinFingerprintBits || fingerprintBits > kMaxFingerprintBits) {
    return Status::corrupt("cuckoo fingerprint bits outside 4..32");
  }
  if (maxKicks > kMaxKicksLimit) return Status::corrupt("cuckoo maxKicks out of range");
  if (reserved != 0) return Status::corrupt("reserved parameter bytes are set");
  const uint64_t wordCount = PackedTable::payloadWordCount(bucketCount, bucketSize, fingerprintBits);
  if (blob.payloadLength % 8 != 0 || blob.payloadLength / 8 != wordCount) {
    return Status::corrupt("cuckoo payload is " + std::to_string(blob.payloadLength) + " bytes, but " +
                           std::to_string(bucketCount) + " buckets need " + std::to_string(wordCount * 8));
  }

  CuckooFilter filter;
  if (!filter.table_.allocate(bucketCount, bucketSize, fingerprintBits)) {
    return Status::invalidArgument("out of memory allocating a CuckooFilter");
  }
  bytesToWords(blob.payload, static_cast<size_t>(wordCount), filter.table_.words());
  const uint64_t usedBits = bucketCount * bucketSize * fingerprintBits;
  if (usedBits % 64 != 0 && (filter.table_.words()[wordCount - 1] >> (usedBits % 64)) != 0) {
    return Status::corrupt("bits beyond the last slot are set");
  }
  filter.bucketMask_ = bucketCount - 1;
  filter.bucketSize_ = bucketSize;
  filter.fingerprintBits_ = fingerprintBits;
  filter.maxKicks_ = maxKicks;
  filter.seed_ = blob.header.seed;
  filter.capacity_ = blob.header.capacity;
  filter.targetFalsePositiveRate_ = blob.header.targetFalsePositiveRate;
  filter.random_ = SplitMix64(randomState);
  // The stored count must match the table: count the occupied slots.
  uint64_t occupied = 0;
  for (uint64_t bucket = 0; bucket < bucketCount; ++bucket) {
    for (uint32_t slot = 0; slot < bucketSize; ++slot) occupied += filter.table_.get(bucket, slot) != 0;
  }
  if (occupied != blob.header.itemCount) {
    return Status::corrupt("item count " + std::to_string(blob.header.itemCount) + " disagrees with the " +
                           std::to_string(occupied) + " occupied slots");
  }
  filter.itemCount_ = occupied;
  return filter;
}

}  // namespace cuckoo_bloom
