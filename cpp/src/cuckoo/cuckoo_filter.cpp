#include "cuckoo_bloom/cuckoo/cuckoo_filter.h"

#include <algorithm>
#include <optional>
#include <string>
#include <cmath>

namespace cuckoo_bloom {
namespace {

bool isValidBucketSize(uint32_t bucketSize) { return bucketSize == 2 || bucketSize == 4 || bucketSize == 8; }

// The walk's generator is seeded from the hash seed, but decorrelated from it.
uint64_t walkSeedFor(uint64_t hashSeed) { return mix64(hashSeed ^ 0x6A09E667F3BCC908ull); }

}  // namespace

uint32_t CuckooFilter::fingerprintBitsFor(double falsePositiveRate, uint32_t bucketSize) {
  const double bits = std::ceil(std::log2(2.0 * bucketSize / falsePositiveRate));
  if (!(bits > kMinFingerprintBits)) return kMinFingerprintBits;
  if (bits > kMaxFingerprintBits) return kMaxFingerprintBits;
  return static_cast<uint32_t>(bits);
}

double CuckooFilter::fingerprintBitsNeeded(double falsePositiveRate, uint32_t bucketSize) {
  // A full filter matches one of 2b stored fingerprints with chance about
  // 2b / 2^f, so f >= log2(2b / e) (the rule fingerprintBitsFor rounds up).
  return std::max<double>(kMinFingerprintBits, std::ceil(std::log2(2.0 * bucketSize / falsePositiveRate)));
}

double CuckooFilter::maxLoadFactor(uint32_t bucketSize) {
  // Fan et al., Table 2 / Fig. 3: load reached at the first failed insert.
  switch (bucketSize) {
    case 2: return 0.84;
    case 4: return 0.95;
    default: return 0.98;
  }
}

double CuckooFilter::sizingSlackKeys(uint64_t capacity, uint32_t bucketSize) {
  // Small tables fill less evenly: the keys that land on a few buckets vary
  // by about sqrt(n). Sized for n keys plus this slack, n keys fitted in every
  // one of 32,400 trials per bucket size (n = 1..3000, 100 seeds each; see
  // CuckooFilterFill.RatedCapacityAlwaysFits); at 100k keys it is 0.2%.
  const double spread = bucketSize == 2 ? 3.0 : 0.5;
  return spread * std::sqrt(static_cast<double>(capacity)) + 8.0;
}

double CuckooFilter::ratedLoadFactor(uint32_t bucketSize, bool semiSorted) {
  // The load a filter holds its rated capacity at. The eviction walk
  // lengthens sharply near the first-failure load: filling 1M keys at b = 4
  // (one Node process, 5 rounds) took 240 ns per add sized for 0.95, 208 for
  // 0.92, 197 for 0.90. Semi-sorted buckets (b = 4, the default) spend part
  // of the bit per slot they save on that headroom: 9.8 bits per key at 1%,
  // still about one bit under the packed bound (ceil(log2(1/e)) + 3) / 0.9 +
  // 0.2 = 11.3. Packed tables have no bit to spare (serialized at ~1.3k keys
  // they sit at the bound), so they stay sized to the first-failure load.
  // Either way keys beyond the rating still fit up to maxLoadFactor.
  return semiSorted ? 0.92 : maxLoadFactor(bucketSize);
}

uint64_t CuckooFilter::bucketCountFor(uint64_t capacity, uint32_t bucketSize, bool semiSorted) {
  return bucketCountAtLoad(capacity, bucketSize, ratedLoadFactor(bucketSize, semiSorted));
}

uint64_t CuckooFilter::bucketCountAtLoad(uint64_t capacity, uint32_t bucketSize, double load) {
  const double keys = static_cast<double>(capacity) + sizingSlackKeys(capacity, bucketSize);
  const double needed = std::ceil(keys / (bucketSize * load));
  if (!(needed < 1.8e19)) return UINT64_MAX;
  // An even count of at least 2: the alternate-bucket map needs it (hashing.h).
  const uint64_t buckets = std::max<uint64_t>(2, static_cast<uint64_t>(needed));
  return buckets + (buckets & 1);
}

// Words of payload for a geometry in a layout (the two tables pack differently).
uint64_t payloadWordsFor(CuckooSlotLayout layout, uint64_t bucketCount, uint32_t bucketSize, uint32_t fingerprintBits) {
  return layout == CuckooSlotLayout::SemiSorted
             ? SemiSortedTable::payloadWordCount(bucketCount, bucketSize, fingerprintBits)
             : PackedTable::payloadWordCount(bucketCount, bucketSize, fingerprintBits);
}

Status CuckooFilter::allocateTable() {
  const bool allocated = withTable([this](auto& table) {
    return table.allocate(params_.bucketCount, params_.bucketSize, params_.fingerprintBits);
  });
  if (allocated) return Status::ok();
  return Status::outOfMemory("out of memory allocating a cuckoo filter of " + std::to_string(params_.bucketCount) +
                             " buckets");
}

Result<CuckooFilter> CuckooFilter::createFrom(const CoreFilterOptions& options) {
  CuckooFilterOptions cuckoo;
  cuckoo.semiSorted = options.semiSorted;
  cuckoo.capacity = options.capacity;
  cuckoo.falsePositiveRate = options.falsePositiveRate;
  cuckoo.seed = options.seed;
  // Negative values are refused here; values above 32 bits are clamped to
  // UINT32_MAX, which create()'s range checks refuse by name.
  const auto u32 = [](int64_t value) { return static_cast<uint32_t>(std::min<int64_t>(value, UINT32_MAX)); };
  const auto negative = [](const char* name, const std::optional<int64_t>& value) {
    return Status::invalidArgument(std::string(name) + " must not be negative, got " + std::to_string(*value));
  };
  if (options.bucketSize && *options.bucketSize < 0) return negative("bucketSize", options.bucketSize);
  if (options.fingerprintBits && *options.fingerprintBits < 0) return negative("fingerprintBits", options.fingerprintBits);
  if (options.maxKicks && *options.maxKicks < 0) return negative("maxKicks", options.maxKicks);
  if (options.bucketSize) cuckoo.bucketSize = u32(*options.bucketSize);
  if (options.fingerprintBits) {
    cuckoo.fingerprintBits = u32(*options.fingerprintBits);
    if (cuckoo.fingerprintBits == 0) return Status::invalidArgument("fingerprintBits must be in 4..32, got 0");
  }
  if (options.maxKicks) cuckoo.maxKicks = u32(*options.maxKicks);
  return create(cuckoo);
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
    } else if (fingerprintBits < fingerprintBitsNeeded(target, options.bucketSize)) {
      // Both given and they disagree: the filter would report a rate it
      // cannot give (4 bits at 1e-9 is about 50%), so neither is chosen silently.
      return Status::invalidArgument(
          "fingerprintBits " + std::to_string(fingerprintBits) + " contradicts falsePositiveRate " +
          formatNumber(target) + ": buckets of " + std::to_string(options.bucketSize) + " need at least " +
          formatNumber(fingerprintBitsNeeded(target, options.bucketSize)) + " bits for it (a full filter of " +
          std::to_string(fingerprintBits) + "-bit fingerprints gives about " +
          formatNumber(std::min(1.0, 2.0 * options.bucketSize / std::ldexp(1.0, static_cast<int>(fingerprintBits)))) +
          "); give one of the two");
    }
  } else {
    Status valid = validateCapacityAndRate(options.capacity, options.falsePositiveRate);
    if (!valid.isOk()) return valid;
    if (fingerprintBitsNeeded(options.falsePositiveRate, options.bucketSize) > kMaxFingerprintBits) {
      return Status::invalidArgument("falsePositiveRate " + formatNumber(options.falsePositiveRate) +
                                     " needs fingerprints of more than " + std::to_string(kMaxFingerprintBits) +
                                     " bits with buckets of " + std::to_string(options.bucketSize) +
                                     "; the lowest rate a cuckoo filter reaches is about " +
                                     formatNumber(2.0 * options.bucketSize / std::ldexp(1.0, kMaxFingerprintBits)));
    }
    fingerprintBits = fingerprintBitsFor(options.falsePositiveRate, options.bucketSize);
  }
  if (options.maxKicks > kMaxKicksLimit) {
    return Status::invalidArgument("maxKicks must be at most " + std::to_string(kMaxKicksLimit));
  }
  const bool semiSorted = options.semiSorted.value_or(options.bucketSize == SemiSortedTable::kBucketSize);
  const CuckooSlotLayout layout = semiSorted ? CuckooSlotLayout::SemiSorted : CuckooSlotLayout::Packed;
  if (semiSorted && !SemiSortedTable::supports(options.bucketSize, fingerprintBits)) {
    return Status::invalidArgument("semiSorted buckets need bucketSize 4, got " + std::to_string(options.bucketSize));
  }
  if (options.load && !(*options.load > 0.0 && *options.load <= 1.0)) {
    return Status::invalidArgument("load must be in (0, 1], got " + formatNumber(*options.load));
  }
  const uint64_t bucketCount =
      bucketCountAtLoad(options.capacity, options.bucketSize, options.load.value_or(ratedLoadFactor(options.bucketSize, semiSorted)));
  if (bucketCount == UINT64_MAX) return validateTableBytes(UINT64_MAX, "CuckooFilter");
  Status valid = validateTableBytes(
      payloadWordsFor(layout, bucketCount, options.bucketSize, fingerprintBits) * 8, "CuckooFilter");
  if (!valid.isOk()) return valid;

  CuckooFilter filter;
  filter.params_.bucketCount = bucketCount;
  filter.params_.maxKicks = options.maxKicks;
  filter.params_.bucketSize = static_cast<uint8_t>(options.bucketSize);
  filter.params_.fingerprintBits = static_cast<uint8_t>(fingerprintBits);
  filter.params_.addressing = static_cast<uint8_t>(CuckooAddressing::SubtractModulo);
  filter.params_.layout = static_cast<uint8_t>(layout);
  valid = filter.allocateTable();
  if (!valid.isOk()) return valid;
  filter.header_ = newHeader(kType, options.capacity, target, options.seed);
  filter.random_ = SplitMix64(walkSeedFor(options.seed));
  return filter;
}

Result<CuckooFilter> CuckooFilter::fromBlob(const DecodedBlob& blob, const Params& stored) {
  Params params = stored;
  if (blob.header.formatVersion == 1) {
    // Version 1 had two reserved bytes where addressing and layout now are.
    if (params.addressing != 0 || params.layout != 0) return Status::corrupt("reserved parameter bytes are set");
    params.addressing = static_cast<uint8_t>(CuckooAddressing::XorPowerOfTwo);
    params.layout = static_cast<uint8_t>(CuckooSlotLayout::Packed);
  }
  const uint64_t bucketCount = params.bucketCount;
  switch (static_cast<CuckooAddressing>(params.addressing)) {
    case CuckooAddressing::XorPowerOfTwo:
      if (bucketCount < 2 || (bucketCount & (bucketCount - 1)) != 0) {
        return Status::corrupt("cuckoo bucket count " + std::to_string(bucketCount) +
                               " is not a power of two of at least 2 (XOR addressing)");
      }
      break;
    case CuckooAddressing::SubtractModulo:
      if (bucketCount < 2 || bucketCount % 2 != 0) {
        return Status::corrupt("cuckoo bucket count " + std::to_string(bucketCount) + " is not even and at least 2");
      }
      break;
    default:
      return Status::corrupt("unknown cuckoo bucket addressing " + std::to_string(params.addressing));
  }
  if (bucketCount > (uint64_t{1} << 48)) return Status::corrupt("cuckoo bucket count is too large");
  if (!isValidBucketSize(params.bucketSize)) return Status::corrupt("cuckoo bucket size must be 2, 4 or 8");
  if (params.fingerprintBits < kMinFingerprintBits || params.fingerprintBits > kMaxFingerprintBits) {
    return Status::corrupt("cuckoo fingerprint bits outside 4..32");
  }
  const CuckooSlotLayout layout = static_cast<CuckooSlotLayout>(params.layout);
  if (layout != CuckooSlotLayout::Packed && layout != CuckooSlotLayout::SemiSorted) {
    return Status::corrupt("unknown cuckoo slot layout " + std::to_string(params.layout));
  }
  if (layout == CuckooSlotLayout::SemiSorted && !SemiSortedTable::supports(params.bucketSize, params.fingerprintBits)) {
    return Status::corrupt("semi-sorted cuckoo buckets must hold 4 slots");
  }
  if (params.maxKicks > kMaxKicksLimit) return Status::corrupt("cuckoo maxKicks out of range");
  const uint64_t wordCount = payloadWordsFor(layout, bucketCount, params.bucketSize, params.fingerprintBits);
  if (blob.payloadLength % 8 != 0 || blob.payloadLength / 8 != wordCount) {
    return Status::corrupt("cuckoo payload is " + std::to_string(blob.payloadLength) + " bytes, but " +
                           std::to_string(bucketCount) + " buckets need " + std::to_string(wordCount * 8));
  }
  Status valid = validateTableBytes(wordCount * 8, "CuckooFilter");
  if (!valid.isOk()) return valid;

  CuckooFilter filter;
  filter.params_ = params;
  valid = filter.allocateTable();
  if (!valid.isOk()) return valid;
  const bool canonical = filter.withTable([&](auto& table) {
    bytesToWords(blob.payload, static_cast<size_t>(wordCount), table.words());
    return table.isCanonical();
  });
  if (!canonical) return Status::corrupt("the cuckoo table is not in canonical form (bits beyond the last slot, or a bucket encoding no writer produces)");
  // The stored count must match the table: count the occupied slots.
  const uint64_t occupied = filter.withTable([](const auto& table) { return table.occupiedSlots(); });
  if (occupied != blob.header.itemCount) {
    return Status::corrupt("item count " + std::to_string(blob.header.itemCount) + " disagrees with the " +
                           std::to_string(occupied) + " occupied slots");
  }
  filter.header_ = blob.header;
  filter.random_ = SplitMix64(params.randomState);
  return filter;
}

CuckooFilter::CuckooFilter(CuckooFilter&& other) noexcept = default;

uint64_t CuckooFilter::primaryBucket(const KeyHash& hash) const {
  return addressing() == CuckooAddressing::SubtractModulo ? cuckooBucketIndexModulo(hash, bucketCount())
                                                          : cuckooBucketIndexXor(hash, bucketCount());
}

uint64_t CuckooFilter::alternateBucket(uint64_t bucket, uint32_t fingerprint) const {
  return addressing() == CuckooAddressing::SubtractModulo
             ? cuckooAltBucketIndexModulo(bucket, fingerprint, bucketCount())
             : cuckooAltBucketIndexXor(bucket, fingerprint, bucketCount());
}

void CuckooFilter::locate(const KeyHash& hash, uint64_t& bucket1, uint64_t& bucket2, uint32_t& fingerprint) const {
  fingerprint = cuckooFingerprint(hash, fingerprintBits());
  bucket1 = primaryBucket(hash);
  bucket2 = alternateBucket(bucket1, fingerprint);
}

Status CuckooFilter::addObserved(const KeyHash& hash, std::vector<CuckooKick>* kicks) {
  return withTable([&](auto& table) { return addTo(table, hash, kicks); });
}

template <typename Table>
Status CuckooFilter::addTo(Table& table, const KeyHash& hash, std::vector<CuckooKick>* kicks) {
  uint64_t bucket1 = 0, bucket2 = 0;
  uint32_t fingerprint = 0;
  locate(hash, bucket1, bucket2, fingerprint);
  savedBuckets_.clear();
  if (table.insert(bucket1, fingerprint) || table.insert(bucket2, fingerprint)) {
    ++header_.itemCount;
    return Status::ok();
  }

  // The walk: put the fingerprint in hand into a slot of the current bucket,
  // pick up the one that was there, and carry it to its other bucket. Each
  // bucket is saved before it is changed, so the walk can be undone exactly.
  // The slot: one step of lookahead picks a resident whose other bucket has
  // room (the walk then ends at once), else a random one; the first step
  // looks at the residents of both of the key's buckets. Near the rated load
  // this halves the walk's steps, for a few more bucket reads that are mostly
  // cache hits or overlapping misses.
  uint64_t bucket = (random_.next() & 1) ? bucket1 : bucket2;
  uint32_t inHand = fingerprint;
  constexpr uint32_t kNoSlot = UINT32_MAX;
  const auto movableSlot = [&](uint64_t from, const uint32_t* residents, uint32_t start) -> uint32_t {
    for (uint32_t i = 0; i < bucketSize(); ++i) {
      const uint32_t candidate = (start + i) & (bucketSize() - 1);
      if (table.hasRoom(alternateBucket(from, residents[candidate]))) return candidate;
    }
    return kNoSlot;
  };
  uint32_t slots[kMaxBucketSize];
  for (uint32_t kick = 0; kick < maxKicks(); ++kick) {
    const uint32_t start = static_cast<uint32_t>(random_.next() & (bucketSize() - 1));
    table.readBucket(bucket, slots);
    uint32_t slot = movableSlot(bucket, slots, start);
    if (slot == kNoSlot && kick == 0) {
      const uint64_t other = bucket == bucket1 ? bucket2 : bucket1;
      uint32_t otherSlots[kMaxBucketSize];
      table.readBucket(other, otherSlots);
      slot = movableSlot(other, otherSlots, start);
      if (slot != kNoSlot) {
        bucket = other;
        std::copy(otherSlots, otherSlots + bucketSize(), slots);
      }
    }
    if (slot == kNoSlot) slot = start;
    SavedBucket& saved = savedBuckets_.emplace_back();
    saved.bucket = bucket;
    std::copy(slots, slots + bucketSize(), saved.slots);
    const uint32_t evicted = slots[slot];
    slots[slot] = inHand;
    table.writeBucket(bucket, slots);
    if (kicks != nullptr) kicks->push_back({bucket, slot, inHand});
    inHand = evicted;
    bucket = alternateBucket(bucket, inHand);
    if (table.insert(bucket, inHand)) {
      // The walk's end. Which slot the fingerprint landed in (in the bucket's
      // own order) costs another decode: the inspector reads it.
      if (kicks != nullptr) kicks->push_back({bucket, 0, inHand});
      ++header_.itemCount;
      return Status::ok();
    }
  }
  return undoWalk();
}

// Out of kicks. Write every changed bucket back as it was, last change first:
// afterwards the table is bit for bit what it was before the add, and the
// fingerprint in hand (some stored key's, or the new key's) is back in place,
// except the new key's own, which is simply not stored.
Status CuckooFilter::undoWalk() {
  withTable([this](auto& table) {
    for (size_t step = savedBuckets_.size(); step-- > 0;) {
      table.writeBucket(savedBuckets_[step].bucket, savedBuckets_[step].slots);
    }
  });
  savedBuckets_.clear();
  return Status::full("cuckoo filter is full: no room for the key after " + std::to_string(maxKicks()) +
                      " evictions (load " + formatNumber(loadFactor()) +
                      "); every key stored before is still there");
}

uint32_t CuckooFilter::copiesOf(const KeyHash& hash) const {
  uint64_t bucket1 = 0, bucket2 = 0;
  uint32_t fingerprint = 0;
  locate(hash, bucket1, bucket2, fingerprint);
  return withTable([&](const auto& table) { return table.countOf(bucket1, fingerprint) + table.countOf(bucket2, fingerprint); });
}

bool CuckooFilter::has(const KeyHash& hash) const {
  uint64_t bucket1 = 0, bucket2 = 0;
  uint32_t fingerprint = 0;
  locate(hash, bucket1, bucket2, fingerprint);
  return withTable([&](const auto& table) { return table.containsEither(bucket1, bucket2, fingerprint); });
}

Status CuckooFilter::remove(const KeyHash& hash) {
  uint64_t bucket1 = 0, bucket2 = 0;
  uint32_t fingerprint = 0;
  locate(hash, bucket1, bucket2, fingerprint);
  const bool erased = withTable([&](auto& table) { return table.erase(bucket1, fingerprint) || table.erase(bucket2, fingerprint); });
  if (erased) {
    --header_.itemCount;
    return Status::ok();
  }
  return Status::notFound("no matching fingerprint in the key's two buckets");
}

size_t CuckooFilter::byteLength() const {
  return withTable([](const auto& table) { return table.payloadWords() * sizeof(uint64_t); });
}

void CuckooFilter::clear() {
  withTable([](auto& table) { table.clear(); });
  header_.itemCount = 0;
}

double CuckooFilter::estimatedFalsePositiveRate() const {
  const double matchChance = 1.0 / (std::ldexp(1.0, static_cast<int>(fingerprintBits())) - 1.0);
  const double occupiedInTwoBuckets = 2.0 * bucketSize() * loadFactor();
  return -std::expm1(occupiedInTwoBuckets * std::log1p(-matchChance));
}

}  // namespace cuckoo_bloom
