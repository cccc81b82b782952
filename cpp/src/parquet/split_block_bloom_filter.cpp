#include "cuckoo_bloom/parquet/split_block_bloom_filter.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>

#include "cuckoo_bloom/core/hashing.h"  // brings xxhash.h (XXH_INLINE_ALL)

namespace cuckoo_bloom {
namespace {

constexpr uint64_t kHashSeed = 0;  // the spec fixes it: every engine hashes with seed 0

bool isPowerOfTwo(uint64_t value) { return value != 0 && (value & (value - 1)) == 0; }

uint32_t readLittleEndian32(const uint8_t* bytes) {
  return uint32_t{bytes[0]} | (uint32_t{bytes[1]} << 8) | (uint32_t{bytes[2]} << 16) | (uint32_t{bytes[3]} << 24);
}

template <typename Unsigned>
uint64_t hashLittleEndian(Unsigned value) {
  uint8_t bytes[sizeof(Unsigned)];
  for (size_t i = 0; i < sizeof(Unsigned); ++i) bytes[i] = static_cast<uint8_t>(value >> (8 * i));
  return SplitBlockBloomFilter::hashBytes(bytes, sizeof(Unsigned));
}

// The one bit of word `word` that `key` sets: the top 5 bits of key * SALT[word].
inline uint32_t wordMask(uint32_t key, uint32_t word) {
  return uint32_t{1} << ((key * SplitBlockBloomFilter::kSalt[word]) >> 27);
}

}  // namespace

constexpr uint32_t SplitBlockBloomFilter::kSalt[kWordsPerBlock];

uint64_t SplitBlockBloomFilter::hashBytes(const uint8_t* bytes, size_t length) {
  return XXH64(bytes, length, kHashSeed);
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
  // Sum over j of Pois(j; lambda) * (1 - (31/32)^j)^8 over mean +- 12 sd,
  // which holds all but a negligible tail of the Poisson mass.
  const double lambda = valuesPerBlock;
  if (lambda <= 0) return 0.0;
  const double spread = 12.0 * std::sqrt(lambda) + 16.0;
  const int64_t first = static_cast<int64_t>(std::max(0.0, std::floor(lambda - spread)));
  const int64_t last = static_cast<int64_t>(std::ceil(lambda + spread));
  const double logKeep = std::log1p(-1.0 / 32.0);
  double rate = 0.0;
  for (int64_t j = first; j <= last; ++j) {
    const double jj = static_cast<double>(j);
    const double logPoisson = -lambda + jj * std::log(lambda) - std::lgamma(jj + 1.0);
    rate += std::exp(logPoisson) * std::pow(-std::expm1(jj * logKeep), kWordsPerBlock);
  }
  return rate;
}

Status SplitBlockBloomFilter::validateByteCount(uint64_t byteCount) {
  if (byteCount % kBytesPerBlock != 0 || !isPowerOfTwo(byteCount) || byteCount < kMinBytes || byteCount > kMaxBytes) {
    return Status::invalidArgument("a split-block Bloom filter is a power of two bytes from " +
                                   std::to_string(kMinBytes) + " to " + std::to_string(kMaxBytes) + ", not " +
                                   std::to_string(byteCount));
  }
  return Status::ok();
}

Result<SplitBlockBloomFilter> SplitBlockBloomFilter::allocate(uint64_t byteCount) {
  SplitBlockBloomFilter filter;
  filter.words_.reset(static_cast<uint32_t*>(std::calloc(static_cast<size_t>(byteCount / 4), sizeof(uint32_t))));
  if (filter.words_ == nullptr) {
    return Status::outOfMemory("out of memory allocating " + std::to_string(byteCount) +
                               " bytes for a split-block Bloom filter");
  }
  filter.blockCount_ = byteCount / kBytesPerBlock;
  return filter;
}

Result<SplitBlockBloomFilter> SplitBlockBloomFilter::create(const SplitBlockBloomFilterOptions& options) {
  Status valid = validateCapacityAndRate(options.capacity, options.falsePositiveRate);
  if (!valid.isOk()) return valid;
  return allocate(byteCountFor(options.capacity, options.falsePositiveRate));
}

Result<SplitBlockBloomFilter> SplitBlockBloomFilter::withByteCount(uint64_t byteCount) {
  Status valid = validateByteCount(byteCount);
  if (!valid.isOk()) return valid;
  return allocate(byteCount);
}

Result<SplitBlockBloomFilter> SplitBlockBloomFilter::fromBitset(const uint8_t* bytes, size_t length) {
  Status valid = validateByteCount(length);
  if (!valid.isOk()) return Status::corrupt("bitset: " + valid.message());
  if (bytes == nullptr) return Status::invalidArgument("bitset: no bytes");
  Result<SplitBlockBloomFilter> made = allocate(length);
  if (!made.isOk()) return made;
  uint32_t* words = made.value().words_.get();
  for (size_t w = 0; w < length / 4; ++w) words[w] = readLittleEndian32(bytes + 4 * w);
  return made;
}

void SplitBlockBloomFilter::add(uint64_t hash) {
  // numBlocks <= 2^22, so the 32x32->64 product below cannot overflow.
  uint32_t* block = words_.get() + ((hash >> 32) * blockCount_ >> 32) * kWordsPerBlock;
  const uint32_t key = static_cast<uint32_t>(hash);
  for (uint32_t word = 0; word < kWordsPerBlock; ++word) block[word] |= wordMask(key, word);
}

bool SplitBlockBloomFilter::has(uint64_t hash) const {
  const uint32_t* block = words_.get() + ((hash >> 32) * blockCount_ >> 32) * kWordsPerBlock;
  const uint32_t key = static_cast<uint32_t>(hash);
  // Branch-free over the 8 words: the block is one 32-byte load.
  uint32_t missing = 0;
  for (uint32_t word = 0; word < kWordsPerBlock; ++word) {
    const uint32_t mask = wordMask(key, word);
    missing |= (block[word] & mask) ^ mask;
  }
  return missing == 0;
}

std::vector<uint8_t> SplitBlockBloomFilter::bitset() const {
  std::vector<uint8_t> bytes(byteLength());
  const uint32_t* words = words_.get();
  for (size_t w = 0; w < byteLength() / 4; ++w) {
    for (size_t i = 0; i < 4; ++i) bytes[4 * w + i] = static_cast<uint8_t>(words[w] >> (8 * i));
  }
  return bytes;
}

double SplitBlockBloomFilter::estimatedFalsePositiveRate() const {
  double total = 0.0;
  const uint32_t* words = words_.get();
  for (uint64_t b = 0; b < blockCount_; ++b) {
    double product = 1.0;
    for (uint32_t w = 0; w < kWordsPerBlock; ++w) product *= __builtin_popcount(words[b * kWordsPerBlock + w]) / 32.0;
    total += product;
  }
  return total / static_cast<double>(blockCount_);
}

void SplitBlockBloomFilter::clear() { std::memset(words_.get(), 0, byteLength()); }

}  // namespace cuckoo_bloom
