#include "cuckoo_bloom/parquet/split_block_bloom_filter.h"

#include <cmath>
#include <cstring>
#include <string>

#include "cuckoo_bloom/bloom/blocked_rate.h"

namespace cuckoo_bloom {
namespace {

constexpr uint64_t kSpecSeed = 0;  // the spec fixes it: every engine hashes with seed 0
constexpr uint64_t kMaxBlocks = SplitBlockBloomFilter::kMaxBytes / SplitBlockBloomFilter::kBytesPerBlock;

bool isPowerOfTwo(uint64_t value) { return value != 0 && (value & (value - 1)) == 0; }

template <typename Unsigned>
uint64_t hashLittleEndian(Unsigned value) {
  uint8_t bytes[sizeof(Unsigned)];
  for (size_t i = 0; i < sizeof(Unsigned); ++i) bytes[i] = static_cast<uint8_t>(value >> (8 * i));
  return SplitBlockBloomFilter::hashBytes(bytes, sizeof(Unsigned));
}

// The bits `key` sets in spec words 2 * pair and 2 * pair + 1, as one 64-bit
// word of the table (the even spec word is the low half): the top 5 bits of
// key * SALT[word] choose each.
inline uint64_t pairMask(uint32_t key, uint32_t pair) {
  const uint32_t low = uint32_t{1} << ((key * SplitBlockBloomFilter::kSalt[2 * pair]) >> 27);
  const uint32_t high = uint32_t{1} << ((key * SplitBlockBloomFilter::kSalt[2 * pair + 1]) >> 27);
  return uint64_t{low} | (uint64_t{high} << 32);
}

Status validateByteCount(uint64_t byteCount) {
  if (!isPowerOfTwo(byteCount) || byteCount < SplitBlockBloomFilter::kMinBytes ||
      byteCount > SplitBlockBloomFilter::kMaxBytes) {
    return Status::invalidArgument("a split-block Bloom filter is a power of two bytes from " +
                                   std::to_string(SplitBlockBloomFilter::kMinBytes) + " to " +
                                   std::to_string(SplitBlockBloomFilter::kMaxBytes) + ", not " +
                                   std::to_string(byteCount));
  }
  return Status::ok();
}

}  // namespace

constexpr uint32_t SplitBlockBloomFilter::kSalt[kWordsPerBlock];

uint64_t SplitBlockBloomFilter::hashBytes(const uint8_t* bytes, size_t length) {
  return hashKeyWith<HashAlgorithm::Xxh64>(bytes, length, kSpecSeed).low;
}
uint64_t SplitBlockBloomFilter::hashInt32(int32_t value) { return hashLittleEndian(static_cast<uint32_t>(value)); }
uint64_t SplitBlockBloomFilter::hashInt64(int64_t value) { return hashLittleEndian(static_cast<uint64_t>(value)); }
uint64_t SplitBlockBloomFilter::hashDouble(double value) {
  uint64_t bits;
  std::memcpy(&bits, &value, sizeof bits);  // IEEE 754 binary64, written little-endian
  return hashLittleEndian(bits);
}

uint64_t SplitBlockBloomFilter::byteCountFor(uint64_t capacity, double falsePositiveRate) {
  const double bitsPerValue = -8.0 / std::log1p(-std::pow(falsePositiveRate, 1.0 / 8.0));
  const double bytes = std::ceil(static_cast<double>(capacity) * bitsPerValue / 8.0);
  if (!(bytes <= static_cast<double>(kMaxBytes))) return kMaxBytes;  // NaN too: refused before this
  uint64_t byteCount = kMinBytes;
  while (static_cast<double>(byteCount) < bytes) byteCount *= 2;
  return byteCount;
}

double SplitBlockBloomFilter::specFalsePositiveRate(double bitsPerValue) {
  if (bitsPerValue <= 0) return 1.0;
  return std::pow(-std::expm1(-8.0 / bitsPerValue), 8.0);
}

double SplitBlockBloomFilter::expectedFalsePositiveRate(double valuesPerBlock) {
  return blockedFalsePositiveRate(valuesPerBlock, 32, kWordsPerBlock);
}

Result<SplitBlockBloomFilter> SplitBlockBloomFilter::allocateBytes(const SplitBlockBloomFilterOptions& options,
                                                                   uint64_t byteCount) {
  Result<SplitBlockBloomFilter> made = allocate({options.capacity, options.falsePositiveRate, options.seed},
                                                {byteCount / kBytesPerBlock}, byteCount / 8, "SplitBlockBloomFilter");
  if (made.isOk()) made.value().header_.hashAlgorithm = kHashAlgorithm;
  return made;
}

Result<SplitBlockBloomFilter> SplitBlockBloomFilter::create(const SplitBlockBloomFilterOptions& options) {
  Status valid = validateCapacityAndRate(options.capacity, options.falsePositiveRate);
  if (!valid.isOk()) return valid;
  if (options.byteCount == 0) {
    // Past 128 MiB the spec has no larger filter: refused rather than clamped to a higher rate than asked.
    const double bitsPerValue = -8.0 / std::log1p(-std::pow(options.falsePositiveRate, 1.0 / 8.0));
    if (!(static_cast<double>(options.capacity) * bitsPerValue / 8.0 <= static_cast<double>(kMaxBytes))) {
      return Status::invalidArgument("a split-block Bloom filter for " + std::to_string(options.capacity) +
                                     " values at rate " + formatNumber(options.falsePositiveRate) +
                                     " needs more than the spec's 128 MiB");
    }
    return allocateBytes(options, byteCountFor(options.capacity, options.falsePositiveRate));
  }
  valid = validateByteCount(options.byteCount);
  if (!valid.isOk()) return valid;
  return allocateBytes(options, options.byteCount);
}

Result<SplitBlockBloomFilter> SplitBlockBloomFilter::createFrom(const CoreFilterOptions& options) {
  if (options.byteCount.has_value() && options.byteCount.value() == 0) {
    return validateByteCount(0);  // 0 is "not given" to create(), but given here it is a wrong size
  }
  return create({options.capacity, options.falsePositiveRate, options.seed, options.byteCount.value_or(0)});
}

Result<SplitBlockBloomFilter> SplitBlockBloomFilter::withByteCount(uint64_t byteCount) {
  Status valid = validateByteCount(byteCount);
  if (!valid.isOk()) return valid;
  return allocateBytes({byteCount, specFalsePositiveRate(8.0), kSpecSeed, byteCount}, byteCount);
}

Result<SplitBlockBloomFilter> SplitBlockBloomFilter::fromBitset(const uint8_t* bytes, size_t length) {
  Status valid = validateByteCount(length);
  if (!valid.isOk()) return Status::corrupt("bitset: " + valid.message());
  if (bytes == nullptr) return Status::invalidArgument("bitset: no bytes");
  Result<SplitBlockBloomFilter> made = withByteCount(length);
  if (!made.isOk()) return made;
  bytesToWords(bytes, length / 8, made.value().words_.data());
  return made;
}

Result<SplitBlockBloomFilter> SplitBlockBloomFilter::fromBlob(const DecodedBlob& blob, const Params& params) {
  // A type added after format version 1 is never read in it.
  if (blob.header.formatVersion < 2) return Status::corrupt("split-block Bloom filters exist from format version 2");
  if (!isPowerOfTwo(params.blockCount) || params.blockCount > kMaxBlocks) {
    return Status::corrupt("split-block Bloom block count " + std::to_string(params.blockCount) +
                           " is not a power of two from 1 to " + std::to_string(kMaxBlocks));
  }
  return adopt(blob, params, params.blockCount * (kBytesPerBlock / 8), params.blockCount * kBytesPerBlock * 8);
}

Status SplitBlockBloomFilter::loadBitset(const uint8_t* bytes, size_t length) {
  if (length != byteLength()) {
    return Status::corrupt("bitset of " + std::to_string(length) + " bytes for a filter of " +
                           std::to_string(byteLength()));
  }
  bytesToWords(bytes, length / 8, words_.data());
  header_.itemCount = 0;
  return Status::ok();
}

void SplitBlockBloomFilter::addHash(uint64_t hash) {
  // blockCount <= 2^22, so the 32x32->64 product below cannot overflow.
  uint64_t* block = words_.data() + ((hash >> 32) * params_.blockCount >> 32) * (kBytesPerBlock / 8);
  const uint32_t key = static_cast<uint32_t>(hash);
  for (uint32_t pair = 0; pair < kWordsPerBlock / 2; ++pair) block[pair] |= pairMask(key, pair);
}

bool SplitBlockBloomFilter::hasHash(uint64_t hash) const {
  const uint64_t* block = words_.data() + ((hash >> 32) * params_.blockCount >> 32) * (kBytesPerBlock / 8);
  const uint32_t key = static_cast<uint32_t>(hash);
  // Branch-free over the 4 pairs of words: the block is one 32-byte load.
  uint64_t missing = 0;
  for (uint32_t pair = 0; pair < kWordsPerBlock / 2; ++pair) {
    const uint64_t mask = pairMask(key, pair);
    missing |= (block[pair] & mask) ^ mask;
  }
  return missing == 0;
}

std::vector<uint64_t> SplitBlockBloomFilter::positions(const KeyHash& hash) const {
  const uint64_t firstBit = ((hash.low >> 32) * params_.blockCount >> 32) * kBytesPerBlock * 8;
  const uint32_t key = static_cast<uint32_t>(hash.low);
  std::vector<uint64_t> bits(kWordsPerBlock);
  for (uint32_t word = 0; word < kWordsPerBlock; ++word) bits[word] = firstBit + 32 * word + ((key * kSalt[word]) >> 27);
  return bits;
}

Status SplitBlockBloomFilter::unionWith(const SplitBlockBloomFilter& other) {
  // The same blocks and hash: a key of either then sets the same bits in the OR.
  const bool alike = other.blockCount() == blockCount() && other.seed() == seed();
  if (alike) orWith(other);
  return alike ? Status::ok()
               : Status::invalidArgument("union needs split-block Bloom filters with the same byte count and seed");
}

std::vector<uint8_t> SplitBlockBloomFilter::bitset() const {
  std::vector<uint8_t> bytes(byteLength());
  for (size_t w = 0; w < words_.size(); ++w) {
    for (size_t i = 0; i < 8; ++i) bytes[8 * w + i] = static_cast<uint8_t>(words_[w] >> (8 * i));
  }
  return bytes;
}

double SplitBlockBloomFilter::estimatedFalsePositiveRate() const {
  double total = 0.0;
  for (uint64_t b = 0; b < params_.blockCount; ++b) {
    double product = 1.0;
    for (uint32_t pair = 0; pair < kWordsPerBlock / 2; ++pair) {
      const uint64_t word = words_[static_cast<size_t>(b * (kBytesPerBlock / 8) + pair)];
      product *= (__builtin_popcount(static_cast<uint32_t>(word)) / 32.0) *
                 (__builtin_popcount(static_cast<uint32_t>(word >> 32)) / 32.0);
    }
    total += product;
  }
  return total / static_cast<double>(params_.blockCount);
}

}  // namespace cuckoo_bloom
