#include "cuckoo_bloom/bloom/counting_bloom_filter.h"

#include "cuckoo_bloom/bloom/bloom_sizing.h"

#include <cmath>

#include "cuckoo_bloom/bloom/bloom_filter.h"

namespace cuckoo_bloom {
namespace {

constexpr uint32_t kMaxHashCount = 64;
static_assert(CountingBloomFilterParams{}.counterBits == CountingBloomFilter::kCounterBits, "one counter width");

uint64_t wordCountFor(uint64_t counterCount) {
  return counterCount / CountingBloomFilter::kCountersPerWord + (counterCount % CountingBloomFilter::kCountersPerWord != 0);
}

// Counter i is nibble (i % 16) of word (i / 16), low nibble first (readCounter in the header).
inline void writeCounter(uint64_t* words, uint64_t index, uint32_t value) {
  const uint32_t shift = static_cast<uint32_t>((index & 15) * 4);
  uint64_t& word = words[index >> 4];
  word = (word & ~(uint64_t{0xF} << shift)) | (static_cast<uint64_t>(value) << shift);
}

}  // namespace

Result<CountingBloomFilter> CountingBloomFilter::create(const CountingBloomFilterOptions& options) {
  // Counters are probed as Bloom bits are: the same exact sizing (bloom_sizing.h).
  const Result<BloomSizing> sizing =
      bloomSizingForCreate(options.capacity, options.falsePositiveRate, "CountingBloomFilter");
  if (!sizing.isOk()) return sizing.status();
  const uint64_t counterCount = sizing.value().bitCount;
  return allocate(options, {counterCount, sizing.value().hashCount, kCounterBits}, wordCountFor(counterCount),
                  "CountingBloomFilter");
}

Result<CountingBloomFilter> CountingBloomFilter::fromBlob(const DecodedBlob& blob, const Params& params) {
  if (params.counterCount == 0) return Status::corrupt("counting Bloom counter count is 0");
  if (params.hashCount == 0 || params.hashCount > kMaxHashCount) {
    return Status::corrupt("counting Bloom hash count out of range");
  }
  if (params.counterBits != kCounterBits) {
    return Status::corrupt("counting Bloom counters of " + std::to_string(params.counterBits) +
                           " bits are not supported (4 expected)");
  }
  return adopt(blob, params, wordCountFor(params.counterCount), params.counterCount * kCounterBits);
}

void CountingBloomFilter::add(const KeyHash& hash) {
  uint64_t* words = words_.data();
  for (uint32_t probe = 0; probe < params_.hashCount; ++probe) {
    const uint64_t index = bloomProbeIndex(hash, probe, params_.counterCount);
    const uint32_t value = readCounter(words, index);
    if (value < kCounterMax) writeCounter(words, index, value + 1);  // saturates at 15
  }
  ++header_.itemCount;
}

bool CountingBloomFilter::has(const KeyHash& hash) const {
  const uint64_t* words = words_.data();
  uint32_t probe = 0;
  if (branchFreeProbesPay(header_.itemCount, header_.capacity)) {  // as BloomFilter::has
    bool allNonZero = true;
    for (; probe < kBranchFreeProbes; ++probe) {
      const uint64_t counter = bloomProbeIndex(hash, probe < params_.hashCount ? probe : 0, params_.counterCount);
      allNonZero &= readCounter(words, counter) != 0;
    }
    if (!allNonZero) return false;
  }
  for (; probe < params_.hashCount; ++probe) {
    if (readCounter(words, bloomProbeIndex(hash, probe, params_.counterCount)) == 0) return false;
  }
  return true;
}

Status CountingBloomFilter::remove(const KeyHash& hash) {
  // Only a key that is present may be removed: decrementing the counters of an
  // absent key would take counts that belong to other keys.
  if (!has(hash)) return Status::notFound("key is not in the filter");
  uint64_t* words = words_.data();
  for (uint32_t probe = 0; probe < params_.hashCount; ++probe) {
    const uint64_t index = bloomProbeIndex(hash, probe, params_.counterCount);
    const uint32_t value = readCounter(words, index);
    // A saturated counter's true count is unknown (>= 15): it stays at 15 so
    // it can never fall to 0 under a key that still needs it. A counter can be
    // hit twice by one key's probes; add() incremented it twice, so remove()
    // decrements it twice and the second read sees the first decrement.
    if (value != kCounterMax && value > 0) writeCounter(words, index, value - 1);
  }
  if (header_.itemCount > 0) --header_.itemCount;
  return Status::ok();
}

std::vector<uint64_t> CountingBloomFilter::positions(const KeyHash& hash) const {
  std::vector<uint64_t> out(params_.hashCount);
  for (uint32_t probe = 0; probe < params_.hashCount; ++probe) {
    out[probe] = bloomProbeIndex(hash, probe, params_.counterCount);
  }
  return out;
}

uint64_t CountingBloomFilter::saturatedCounterCount() const {
  uint64_t total = 0;
  for (uint64_t i = 0; i < counterCount(); ++i) total += readCounter(words_.data(), i) == kCounterMax;
  return total;
}

double CountingBloomFilter::estimatedFalsePositiveRate() const {
  uint64_t nonZero = 0;
  for (uint64_t i = 0; i < counterCount(); ++i) nonZero += readCounter(words_.data(), i) != 0;
  return bloomFalsePositiveRateFromFill(nonZero, counterCount(), hashCount(), count());
}

}  // namespace cuckoo_bloom
