#include "cuckoo_bloom/bloom/blocked_bloom_filter.h"

#include "cuckoo_bloom/bloom/blocked_rate.h"

#include <algorithm>
#include <cmath>


namespace cuckoo_bloom {
namespace {

static_assert(BlockedBloomFilter::kWordsPerBlock == kBlockWords, "one block layout");

}  // namespace

double BlockedBloomFilter::expectedFalsePositiveRate(double keysPerBlock) {
  return blockedFalsePositiveRate(keysPerBlock, 64, kWordsPerBlock);
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
  return allocate(options, {blockCount}, blockCount * kWordsPerBlock, "BlockedBloomFilter");
}

Result<BlockedBloomFilter> BlockedBloomFilter::fromBlob(const DecodedBlob& blob, const Params& params) {
  if (params.blockCount == 0) return Status::corrupt("blocked Bloom block count is 0");
  if (params.blockCount > kMaxTableBytes / kBytesPerBlock) return Status::corrupt("blocked Bloom block count is too large");
  const uint64_t wordCount = params.blockCount * kWordsPerBlock;
  // No check of the count against the set bits: count() is the keys added,
  // repeats included (bytes written before counted only adds that set a new
  // bit; both kinds read as they are).
  return adopt(blob, params, wordCount, wordCount * 64);
}

void BlockedBloomFilter::add(const KeyHash& hash) {
  uint64_t* block = words_.data() + blockedBlockIndex(hash, params_.blockCount) * kWordsPerBlock;
  for (uint32_t word = 0; word < kWordsPerBlock; ++word) block[word] |= blockedWordMask(hash, word);
  ++header_.itemCount;  // keys added, repeats included
}

bool BlockedBloomFilter::has(const KeyHash& hash) const {
  const uint64_t* block = words_.data() + blockedBlockIndex(hash, params_.blockCount) * kWordsPerBlock;
  // Branch-free over the 8 words: one cache line is already loaded.
  uint64_t missing = 0;
  for (uint32_t word = 0; word < kWordsPerBlock; ++word) {
    const uint64_t mask = blockedWordMask(hash, word);
    missing |= (block[word] & mask) ^ mask;
  }
  return missing == 0;
}

std::vector<uint64_t> BlockedBloomFilter::positions(const KeyHash& hash) const {
  const uint64_t firstBit = blockedBlockIndex(hash, params_.blockCount) * kWordsPerBlock * 64;
  std::vector<uint64_t> out(kWordsPerBlock);
  for (uint32_t word = 0; word < kWordsPerBlock; ++word) {
    out[word] = firstBit + word * 64 + static_cast<uint64_t>(__builtin_ctzll(blockedWordMask(hash, word)));
  }
  return out;
}

Status BlockedBloomFilter::unionWith(const BlockedBloomFilter& other) {
  if (other.blockCount() != blockCount() || other.seed() != seed()) {
    return Status::invalidArgument("union needs blocked Bloom filters with the same block count and seed");
  }
  orWith(other);
  return Status::ok();
}

double BlockedBloomFilter::estimatedFalsePositiveRate() const {
  double total = 0.0;
  for (uint64_t b = 0; b < blockCount(); ++b) {
    double product = 1.0;
    for (uint32_t w = 0; w < kWordsPerBlock; ++w) {
      product *= __builtin_popcountll(words_[b * kWordsPerBlock + w]) / 64.0;
    }
    total += product;
  }
  return total / static_cast<double>(blockCount());
}

}  // namespace cuckoo_bloom
