// BloomFilter::deserialize on arbitrary bytes.
//
// Checks: never crashes; fails only with CORRUPT / UNSUPPORTED_VERSION /
// WRONG_TYPE; allocates at most ~1.5x the input (+4 KiB); when it succeeds,
// serialize() gives back exactly the input (the encoding is canonical), the
// inspection calls are in range, has() works, keys added afterwards are found,
// and the result of add() and of unionWith() still deserializes (the reader's
// invariant "item count <= set bits" is kept by the writer).
#include <cmath>

#include "cuckoo_bloom/bloom_filter.h"
#include "fuzz_common.h"

using namespace cuckoo_bloom;
using namespace cuckoo_bloom_fuzz;

CUCKOO_BLOOM_FUZZ_BLOB_HOOKS(false)

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::optional<BloomFilter> read = deserializeChecked<BloomFilter>(data, size);
  if (!read) return 0;
  BloomFilter& filter = *read;

  FUZZ_CHECK(filter.bitCount() >= 1 && filter.hashCount() >= 1 && filter.hashCount() <= 64);
  FUZZ_CHECK(filter.count() <= filter.setBitCount());
  FUZZ_CHECK(filter.setBitCount() <= filter.bitCount());
  FUZZ_CHECK(filter.byteLength() * 8 >= filter.bitCount());
  const double estimate = filter.estimatedFalsePositiveRate();
  FUZZ_CHECK(estimate >= 0.0 && estimate <= 1.0);

  const std::vector<std::string> keys = probeKeys(data, size);
  for (const std::string& key : keys) {
    const bool present = filter.has(key);
    const std::vector<uint64_t> positions = filter.positions(bytesOf(key), key.size());
    FUZZ_CHECK(positions.size() == filter.hashCount());
    bool allSet = true;
    for (uint64_t bit : positions) {
      FUZZ_CHECK(bit < filter.bitCount());
      allSet = allSet && ((filter.words()[bit / 64] >> (bit % 64)) & 1);
    }
    FUZZ_CHECK(present == allSet);
  }

  // A filter read from bytes behaves like any other: what is added is found,
  // and its bytes read back.
  for (const std::string& key : keys) {
    const bool before = filter.has(key);
    const uint64_t countBefore = filter.count();
    filter.add(key);
    FUZZ_CHECK(filter.has(key));
    FUZZ_CHECK(filter.count() == countBefore + (before ? 0 : 1));
  }
  const Bytes afterAdds = filter.serialize();
  Result<BloomFilter> copy = BloomFilter::deserialize(afterAdds.data(), afterAdds.size());
  FUZZ_CHECK_MSG(copy.isOk(), "%s", copy.status().message().c_str());
  FUZZ_CHECK(copy.value().serialize() == afterAdds);

  // Union with the original bytes (same geometry and seed by construction).
  Result<BloomFilter> original = BloomFilter::deserialize(data, size);
  FUZZ_CHECK(original.isOk());
  FUZZ_CHECK(filter.unionWith(original.value()).isOk());
  for (const std::string& key : keys) FUZZ_CHECK(filter.has(key));
  const Bytes afterUnion = filter.serialize();
  FUZZ_CHECK(BloomFilter::deserialize(afterUnion.data(), afterUnion.size()).isOk());
  return 0;
}
