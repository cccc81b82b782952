// CountingBloomFilter::deserialize on arbitrary bytes.
//
// Checks: never crashes; fails only with CORRUPT / UNSUPPORTED_VERSION /
// WRONG_TYPE; allocates at most ~1.5x the input (+4 KiB); when it succeeds,
// serialize() gives back exactly the input, positions(), counterAt() and has()
// agree, a key added is found, and add then remove of that key leaves every
// counter that was not saturated as it was.
#include "cuckoo_bloom/counting_bloom_filter.h"
#include "fuzz_common.h"

using namespace cuckoo_bloom;
using namespace cuckoo_bloom_fuzz;

CUCKOO_BLOOM_FUZZ_BLOB_HOOKS(false)

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::optional<CountingBloomFilter> read = deserializeChecked<CountingBloomFilter>(data, size);
  if (!read) return 0;
  CountingBloomFilter& filter = *read;

  FUZZ_CHECK(filter.counterCount() >= 1 && filter.hashCount() >= 1 && filter.hashCount() <= 64);
  FUZZ_CHECK(filter.saturatedCounterCount() <= filter.counterCount());
  FUZZ_CHECK(filter.counterAt(filter.counterCount()) == 0);  // out of range reads 0
  const double estimate = filter.estimatedFalsePositiveRate();
  FUZZ_CHECK(estimate >= 0.0 && estimate <= 1.0);

  const std::vector<std::string> keys = probeKeys(data, size);
  for (const std::string& key : keys) {
    const bool present = filter.has(key);
    const std::vector<uint64_t> positions = filter.positions(bytesOf(key), key.size());
    FUZZ_CHECK(positions.size() == filter.hashCount());
    bool allNonZero = true;
    for (uint64_t index : positions) {
      FUZZ_CHECK(index < filter.counterCount());
      FUZZ_CHECK(filter.counterAt(index) <= CountingBloomFilter::kCounterMax);
      allNonZero = allNonZero && filter.counterAt(index) != 0;
    }
    FUZZ_CHECK(present == allNonZero);
  }

  // Add then remove one key: found after the add, Ok to remove, and every
  // counter it touched is back where it was unless it saturated on the way.
  for (const std::string& key : keys) {
    const std::vector<uint64_t> positions = filter.positions(bytesOf(key), key.size());
    std::vector<uint32_t> before;
    for (uint64_t index : positions) before.push_back(filter.counterAt(index));
    const uint64_t countBefore = filter.count();
    filter.add(key);
    FUZZ_CHECK(filter.has(key));
    FUZZ_CHECK(filter.count() == countBefore + 1);
    FUZZ_CHECK(filter.remove(key).isOk());
    // (The header's count is not checked against the counters on read, so it
    // may be UINT64_MAX; add() then wraps it to 0, where remove() leaves it.)
    if (countBefore != UINT64_MAX) FUZZ_CHECK(filter.count() == countBefore);
    for (size_t i = 0; i < positions.size(); ++i) {
      const uint32_t now = filter.counterAt(positions[i]);
      FUZZ_CHECK(now == before[i] || now == CountingBloomFilter::kCounterMax);
    }
  }
  const Bytes afterOps = filter.serialize();
  Result<CountingBloomFilter> copy = CountingBloomFilter::deserialize(afterOps.data(), afterOps.size());
  FUZZ_CHECK_MSG(copy.isOk(), "%s", copy.status().message().c_str());
  FUZZ_CHECK(copy.value().serialize() == afterOps);
  return 0;
}
