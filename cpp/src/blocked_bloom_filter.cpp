#include "cuckoo_bloom/blocked_bloom_filter.h"

#include <algorithm>
#include <cmath>

#include "cuckoo_bloom/hashing.h"
#include "cuckoo_bloom/limits.h"

namespace cuckoo_bloom {
namespace {

constexpr size_t kParamsBytes = 8;  // blockCount u64
static_assert(BlockedBloomFilter::kWordsPerBlock == kBlockWords, "one block layout");

}  // namespace

double BlockedBloomFilter::expectedFalsePositiveRate(double keysPerBlock) {
  // Sum over j of Pois(j; lambda) * (1 - (1 - 1/64)^j)^8, over j in a window
  // that holds all but a negligible tail of the Poisson mass (mean +- 12 sd).
  const double lambda = keysPerBlock;
  if (lambda <= 0) return 0.0;
  const double spread = 12.0 * std::sqrt(lambda) + 16.0;
  const int64_t first = static_cast<int64_t>(std::max(0.0, std::floor(lambda - spread)));
  const int64_t last = static_cast<int64_t>(std::ceil(lambda + spread));
  const double logKeep = std::log1p(-1.0 / 64.0);
  double rate = 0.0;
  for (int64_t j = first; j <= last; ++j) {
    const double jj = static_cast<double>(j);
    const double logPoisson = -lambda + jj * std::log(lambda) - std::lgamma(jj + 1.0);
    const double wordHit = 1.0 - std::exp(jj * logKeep);
    rate += std::exp(logPoisson) * std::pow(wordHit, kWordsPerBlock);
  }
  return rate;
}

uint64_t BlockedBloomFilter::blockCountFor(uint64_t capacity, double falsePositiveRate) {
  // The rate falls as blocks are added, so bisect on the block count. Start
  // from the classic filter's size (a lower bound: blocking never helps).
  const double goal = falsePositiveRate * kSizingMargin;
  const double ln2 = std::log(2.0);
  const double classicBits = -static_cast<double>(capacity) * std::log(falsePositiveRate) / (ln2 * ln2);
  uint64_t low = std::max<uint64_t>(1, static_cast<uint64_t>(classicBits / 512.0));
  uint64_t high = low;
  const auto rateWith = [&](uint64_t blocks) {
    return expectedFalsePositiveRate(static_cast<double>(capacity) / static_cast<double>(blocks));
  };
  while (rateWith(high) > goal) {
    if (high > (uint64_t{1} << 50)) return UINT64_MAX;  // beyond any allowed size
    high *= 2;
  }
  if (rateWith(low) <= goal) return low;
  while (high - low > 1) {  // invariant: rate(low) > goal >= rate(high)
    const uint64_t middle = low + (high - low) / 2;
    (rateWith(middle) > goal ? low : high) = middle;
  }
  return high;
}

Result<BlockedBloomFilter> BlockedBloomFilter::create(const BlockedBloomFilterOptions& options) {
  Status valid = validateCapacityAndRate(options.capacity, options.falsePositiveRate);
  if (!valid.isOk()) return valid;
  const uint64_t blockCount = blockCountFor(options.capacity, options.falsePositiveRate);
  if (blockCount == UINT64_MAX) return validateTableBytes(UINT64_MAX, "BlockedBloomFilter");
  valid = validateTableBytes(blockCount * kBytesPerBlock, "BlockedBloomFilter");
  if (!valid.isOk()) return valid;
  BlockedBloomFilter filter;
  if (!filter.blocks_.allocate(static_cast<size_t>(blockCount * kWordsPerBlock))) {
    return Status::invalidArgument("out of memory allocating a BlockedBloomFilter");
  }
  filter.blockCount_ = blockCount;
  filter.seed_ = options.seed;
  filter.capacity_ = options.capacity;
  filter.targetFalsePositiveRate_ = options.falsePositiveRate;
  return filter;
}

void BlockedBloomFilter::add(const uint8_t* key, size_t length) {
  const KeyHash hash = hashKey(key, length, seed_);
  uint64_t* block = blocks_.data() + blockedBlockIndex(hash, blockCount_) * kWordsPerBlock;
  bool changed = false;
  for (uint32_t word = 0; word < kWordsPerBlock; ++word) {
    const uint64_t mask = blockedWordMask(hash, word);
    changed |= (block[word] & mask) == 0;
    block[word] |= mask;
  }
  itemCount_ += changed;
}

bool BlockedBloomFilter::has(const uint8_t* key, size_t length) const {
  const KeyHash hash = hashKey(key, length, seed_);
  const uint64_t* block = blocks_.data() + blockedBlockIndex(hash, blockCount_) * kWordsPerBlock;
  // Branch-free over the 8 words: one cache line is already loaded.
  uint64_t missing = 0;
  for (uint32_t word = 0; word < kWordsPerBlock; ++word) {
    const uint64_t mask = blockedWordMask(hash, word);
    missing |= (block[word] & mask) ^ mask;
  }
  return missing == 0;
}

Status BlockedBloomFilter::unionWith(const BlockedBloomFilter& other) {
  if (other.blockCount_ != blockCount_ || other.seed_ != seed_) {
    return Status::invalidArgument("union needs blocked Bloom filters with the same block count and seed");
  }
  for (size_t w = 0; w < blocks_.size(); ++w) blocks_[w] |= other.blocks_[w];
  // No closed-form estimate of shared keys for blocked filters: keep the sum,
  // bounded by the set bits (each counted key set at least one).
  uint64_t setBits = 0;
  for (size_t w = 0; w < blocks_.size(); ++w) setBits += __builtin_popcountll(blocks_[w]);
  itemCount_ = std::min(itemCount_ + other.itemCount_, setBits);
  return Status::ok();
}

void BlockedBloomFilter::clear() {
  blocks_.clear();
  itemCount_ = 0;
}

double BlockedBloomFilter::estimatedFalsePositiveRate() const {
  double total = 0.0;
  for (uint64_t b = 0; b < blockCount_; ++b) {
    double product = 1.0;
    for (uint32_t w = 0; w < kWordsPerBlock; ++w) {
      product *= __builtin_popcountll(blocks_[b * kWordsPerBlock + w]) / 64.0;
    }
    total += product;
  }
  return total / static_cast<double>(blockCount_);
}

std::vector<uint8_t> BlockedBloomFilter::serialize() const {
  ByteWriter params;
  params.u64(blockCount_);
  FilterHeader header;
  header.type = FilterType::BlockedBloom;
  header.seed = seed_;
  header.itemCount = itemCount_;
  header.capacity = capacity_;
  header.targetFalsePositiveRate = targetFalsePositiveRate_;
  return encodeBlob(header, params.bytes(), wordsToBytes(blocks_.data(), blocks_.size()));
}

Result<BlockedBloomFilter> BlockedBloomFilter::deserialize(const uint8_t* data, size_t length) {
  Result<DecodedBlob> decoded = decodeBlobOfType(data, length, FilterType::BlockedBloom);
  if (!decoded.isOk()) return decoded.status();
  const DecodedBlob& blob = decoded.value();
  if (blob.paramsLength != kParamsBytes) {
    return Status::corrupt("blocked Bloom parameters must be 8 bytes");
  }
  ByteReader params(blob.params, blob.paramsLength);
  uint64_t blockCount = 0;
  params.u64(blockCount);
  if (blockCount == 0) return Status::corrupt("blocked Bloom block count is 0");
  if (blob.payloadLength % kBytesPerBlock != 0 || blob.payloadLength / kBytesPerBlock != blockCount) {
    return Status::corrupt("blocked Bloom payload is " + std::to_string(blob.payloadLength) +
                           " bytes, but " + std::to_string(blockCount) + " blocks need " +
                           std::to_string(blockCount) + " x 64");
  }
  BlockedBloomFilter filter;
  if (!filter.blocks_.allocate(static_cast<size_t>(blockCount * kWordsPerBlock))) {
    return Status::invalidArgument("out of memory allocating a BlockedBloomFilter");
  }
  bytesToWords(blob.payload, filter.blocks_.size(), filter.blocks_.data());
  filter.blockCount_ = blockCount;
  filter.seed_ = blob.header.seed;
  filter.itemCount_ = blob.header.itemCount;
  filter.capacity_ = blob.header.capacity;
  filter.targetFalsePositiveRate_ = blob.header.targetFalsePositiveRate;
  uint64_t setBits = 0;
  for (size_t w = 0; w < filter.blocks_.size(); ++w) setBits += __builtin_popcountll(filter.blocks_[w]);
  if (filter.itemCount_ > setBits) return Status::corrupt("item count exceeds the number of set bits");
  return filter;
}


std::vector<uint64_t> BlockedBloomFilter::positions(const uint8_t* key, size_t length) const {
  const KeyHash hash = hashKey(key, length, seed_);
  const uint64_t firstBit = blockedBlockIndex(hash, blockCount_) * kWordsPerBlock * 64;
  std::vector<uint64_t> out(kWordsPerBlock);
  for (uint32_t word = 0; word < kWordsPerBlock; ++word) {
    out[word] = firstBit + word * 64 + static_cast<uint64_t>(__builtin_ctzll(blockedWordMask(hash, word)));
  }
  return out;
}

}  // namespace cuckoo_bloom
