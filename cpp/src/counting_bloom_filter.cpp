#include "cuckoo_bloom/counting_bloom_filter.h"

#include <cmath>

#include "cuckoo_bloom/bloom_filter.h"
#include "cuckoo_bloom/hashing.h"
#include "cuckoo_bloom/limits.h"

namespace cuckoo_bloom {
namespace {

constexpr size_t kParamsBytes = 16;  // counterCount u64, hashCount u32, counterBits u8, 3 reserved
constexpr uint32_t kMaxHashCount = 64;

// Counter i is nibble (i % 16) of word (i / 16), low nibble first.
inline uint32_t readCounter(const uint64_t* words, uint64_t index) {
  return static_cast<uint32_t>((words[index >> 4] >> ((index & 15) * 4)) & 0xF);
}
inline void writeCounter(uint64_t* words, uint64_t index, uint32_t value) {
  const uint32_t shift = static_cast<uint32_t>((index & 15) * 4);
  uint64_t& word = words[index >> 4];
  word = (word & ~(uint64_t{0xF} << shift)) | (static_cast<uint64_t>(value) << shift);
}

}  // namespace

Result<CountingBloomFilter> CountingBloomFilter::create(const CountingBloomFilterOptions& options) {
  Status valid = validateCapacityAndRate(options.capacity, options.falsePositiveRate);
  if (!valid.isOk()) return valid;
  const uint64_t counterCount = BloomFilter::optimalBitCount(options.capacity, options.falsePositiveRate);
  if (counterCount == UINT64_MAX) return validateTableBytes(UINT64_MAX, "CountingBloomFilter");
  const uint64_t wordCount = counterCount / kCountersPerWord + (counterCount % kCountersPerWord != 0);
  valid = validateTableBytes(wordCount * 8, "CountingBloomFilter");
  if (!valid.isOk()) return valid;
  CountingBloomFilter filter;
  if (!filter.counters_.allocate(static_cast<size_t>(wordCount))) {
    return Status::invalidArgument("out of memory allocating a CountingBloomFilter");
  }
  filter.counterCount_ = counterCount;
  filter.hashCount_ = BloomFilter::optimalHashCount(counterCount, options.capacity);
  filter.seed_ = options.seed;
  filter.capacity_ = options.capacity;
  filter.targetFalsePositiveRate_ = options.falsePositiveRate;
  return filter;
}

void CountingBloomFilter::add(const uint8_t* key, size_t length) {
  const KeyHash hash = hashKey(key, length, seed_);
  uint64_t* words = counters_.data();
  for (uint32_t probe = 0; probe < hashCount_; ++probe) {
    const uint64_t index = bloomProbeIndex(hash, probe, counterCount_);
    const uint32_t value = readCounter(words, index);
    if (value < kCounterMax) writeCounter(words, index, value + 1);  // saturates at 15
  }
  ++itemCount_;
}

bool CountingBloomFilter::has(const uint8_t* key, size_t length) const {
  const KeyHash hash = hashKey(key, length, seed_);
  const uint64_t* words = counters_.data();
  for (uint32_t probe = 0; probe < hashCount_; ++probe) {
    if (readCounter(words, bloomProbeIndex(hash, probe, counterCount_)) == 0) return false;
  }
  return true;
}

Status CountingBloomFilter::remove(const uint8_t* key, size_t length) {
  // Only a key that is present may be removed: decrementing the counters of an
  // absent key would take counts that belong to other keys.
  if (!has(key, length)) return Status::notFound("key is not in the filter");
  const KeyHash hash = hashKey(key, length, seed_);
  uint64_t* words = counters_.data();
  for (uint32_t probe = 0; probe < hashCount_; ++probe) {
    const uint64_t index = bloomProbeIndex(hash, probe, counterCount_);
    const uint32_t value = readCounter(words, index);
    // A saturated counter's true count is unknown (>= 15): it stays at 15 so
    // it can never fall to 0 under a key that still needs it. A counter can be
    // hit twice by one key's probes; add() incremented it twice, so remove()
    // decrements it twice and the second read sees the first decrement.
    if (value != kCounterMax && value > 0) writeCounter(words, index, value - 1);
  }
  if (itemCount_ > 0) --itemCount_;
  return Status::ok();
}

void CountingBloomFilter::clear() {
  counters_.clear();
  itemCount_ = 0;
}

uint32_t CountingBloomFilter::counterAt(uint64_t index) const {
  return index < counterCount_ ? readCounter(counters_.data(), index) : 0;
}

uint64_t CountingBloomFilter::saturatedCounterCount() const {
  uint64_t total = 0;
  for (uint64_t i = 0; i < counterCount_; ++i) total += readCounter(counters_.data(), i) == kCounterMax;
  return total;
}

double CountingBloomFilter::estimatedFalsePositiveRate() const {
  uint64_t nonZero = 0;
  for (uint64_t i = 0; i < counterCount_; ++i) nonZero += readCounter(counters_.data(), i) != 0;
  return std::pow(static_cast<double>(nonZero) / static_cast<double>(counterCount_), hashCount_);
}

std::vector<uint8_t> CountingBloomFilter::serialize() const {
  ByteWriter params;
  params.u64(counterCount_);
  params.u32(hashCount_);
  params.u8(static_cast<uint8_t>(kCounterBits));
  params.u8(0);
  params.u16(0);
  FilterHeader header;
  header.type = FilterType::CountingBloom;
  header.seed = seed_;
  header.itemCount = itemCount_;
  header.capacity = capacity_;
  header.targetFalsePositiveRate = targetFalsePositiveRate_;
  return encodeBlob(header, params.bytes(), wordsToBytes(counters_.data(), counters_.size()));
}

Result<CountingBloomFilter> CountingBloomFilter::deserialize(const uint8_t* data, size_t length) {
  Result<DecodedBlob> decoded = decodeBlobOfType(data, length, FilterType::CountingBloom);
  if (!decoded.isOk()) return decoded.status();
  const DecodedBlob& blob = decoded.value();
  if (blob.paramsLength != kParamsBytes) {
    return Status::corrupt("counting Bloom parameters must be 16 bytes");
  }
  ByteReader params(blob.params, blob.paramsLength);
  uint64_t counterCount = 0;
  uint32_t hashCount = 0;
  uint8_t counterBits = 0, reserved8 = 0;
  uint16_t reserved16 = 0;
  params.u64(counterCount);
  params.u32(hashCount);
  params.u8(counterBits);
  params.u8(reserved8);
  params.u16(reserved16);
  if (counterCount == 0) return Status::corrupt("counting Bloom counter count is 0");
  if (hashCount == 0 || hashCount > kMaxHashCount) return Status::corrupt("counting Bloom hash count out of range");
  if (counterBits != kCounterBits) {
    return Status::corrupt("counting Bloom counters of " + std::to_string(counterBits) +
                           " bits are not supported (4 expected)");
  }
  if (reserved8 != 0 || reserved16 != 0) return Status::corrupt("reserved parameter bytes are set");
  const uint64_t wordCount = counterCount / kCountersPerWord + (counterCount % kCountersPerWord != 0);
  if (blob.payloadLength % 8 != 0 || blob.payloadLength / 8 != wordCount) {
    return Status::corrupt("counting Bloom payload is " + std::to_string(blob.payloadLength) +
                           " bytes, but " + std::to_string(counterCount) + " counters need " +
                           std::to_string(wordCount * 8));
  }
  CountingBloomFilter filter;
  if (!filter.counters_.allocate(static_cast<size_t>(wordCount))) {
    return Status::invalidArgument("out of memory allocating a CountingBloomFilter");
  }
  bytesToWords(blob.payload, static_cast<size_t>(wordCount), filter.counters_.data());
  const uint64_t usedInLastWord = counterCount % kCountersPerWord;
  if (usedInLastWord != 0 && (filter.counters_[wordCount - 1] >> (usedInLastWord * 4)) != 0) {
    return Status::corrupt("counters beyond the counter count are set");
  }
  filter.counterCount_ = counterCount;
  filter.hashCount_ = hashCount;
  filter.seed_ = blob.header.seed;
  filter.itemCount_ = blob.header.itemCount;
  filter.capacity_ = blob.header.capacity;
  filter.targetFalsePositiveRate_ = blob.header.targetFalsePositiveRate;
  return filter;
}


std::vector<uint64_t> CountingBloomFilter::positions(const uint8_t* key, size_t length) const {
  const KeyHash hash = hashKey(key, length, seed_);
  std::vector<uint64_t> out(hashCount_);
  for (uint32_t probe = 0; probe < hashCount_; ++probe) out[probe] = bloomProbeIndex(hash, probe, counterCount_);
  return out;
}

}  // namespace cuckoo_bloom
