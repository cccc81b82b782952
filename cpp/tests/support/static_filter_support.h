// What the tests of the static filter types (binary fuse, Ribbon: built once
// from key hashes, then read-only) make in the same way, written once: key
// hashes, a build that fails the test, the false-negative count, the byte
// round trip, forged blobs and reading them. Templates over the filter class,
// so a test that calls one still fails on its own type's bug, under its own
// name. What the types promise alike is one typed suite:
// core/static_table_filter_test.cpp.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "cuckoo_bloom/core/format.h"
#include "cuckoo_bloom/core/hashing.h"
#include "cuckoo_bloom/registry/any_filter.h"
#include "support/test_keys.h"

namespace cuckoo_bloom_test {

// hashKey(presentKey(first .. first + count - 1), seed).
inline std::vector<cuckoo_bloom::KeyHash> presentHashes(uint64_t count, uint64_t seed, uint64_t first = 0) {
  std::vector<cuckoo_bloom::KeyHash> hashes;
  hashes.reserve(count);
  for (uint64_t i = first; i < first + count; ++i) hashes.push_back(cuckoo_bloom::hashKey(presentKey(i), seed));
  return hashes;
}

// Random 64-bit key hashes: what hashKey gives distinct keys (only the low
// word takes part in a static filter's lookup), without hashing millions of strings.
inline std::vector<cuckoo_bloom::KeyHash> randomHashes(uint64_t count, uint64_t state) {
  cuckoo_bloom::SplitMix64 random(state);
  std::vector<cuckoo_bloom::KeyHash> out(count);
  for (cuckoo_bloom::KeyHash& hash : out) {
    hash.low = random.next();
    hash.high = cuckoo_bloom::mix64(hash.low ^ cuckoo_bloom::kSecondWordSalt);
  }
  return out;
}

// Filter::build of `hashes`; a failed build fails the test and gives the
// filter of no keys built with `fallback` (so the test goes on to its end).
template <typename Filter, typename Options>
Filter buildOrFail(const Options& options, const std::vector<cuckoo_bloom::KeyHash>& hashes, const Options& fallback) {
  cuckoo_bloom::Result<Filter> built = Filter::build(options, hashes.data(), hashes.size());
  if (!built.isOk()) {
    ADD_FAILURE() << "build of " << hashes.size() << " keys: " << built.status().message();
    return std::move(Filter::build(fallback, nullptr, 0)).value();
  }
  return std::move(built).value();
}

// How many of `hashes` the filter does not find: false negatives, which must be 0.
template <typename Filter>
uint64_t missingOf(const Filter& filter, const std::vector<cuckoo_bloom::KeyHash>& hashes) {
  uint64_t missing = 0;
  for (const cuckoo_bloom::KeyHash& hash : hashes) missing += filter.has(hash) ? 0 : 1;
  return missing;
}

// The bytes of `filter` (built from `keys`): header, parameters and table,
// read back to the same bytes, every key found, the same answer for 2000 absent keys.
template <typename Filter>
void expectRoundTrip(const Filter& filter, const std::vector<cuckoo_bloom::KeyHash>& keys) {
  const std::vector<uint8_t> bytes = filter.serialize();
  EXPECT_EQ(bytes.size(), 64 + 20 + filter.byteLength());
  cuckoo_bloom::Result<Filter> read = Filter::deserialize(bytes.data(), bytes.size());
  ASSERT_TRUE(read.isOk()) << read.status().message();
  EXPECT_EQ(read.value().serialize(), bytes);
  EXPECT_EQ(missingOf(read.value(), keys), 0u);
  for (uint64_t i = 0; i < 2000; ++i) ASSERT_EQ(read.value().has(absentKey(i)), filter.has(absentKey(i)));
}

// The header of a forged blob of `type` holding `itemCount` keys (sized for
// as many, at least 1, at rate 0.01).
inline cuckoo_bloom::FilterHeader forgedHeader(cuckoo_bloom::FilterType type, uint64_t itemCount) {
  cuckoo_bloom::FilterHeader header;
  header.type = type;
  header.itemCount = itemCount;
  header.capacity = std::max<uint64_t>(itemCount, 1);
  header.targetFalsePositiveRate = 0.01;
  return header;
}

// A blob of `type` with the given parameters and a random payload (from
// `fill`) of the size they imply, so the reader's other checks pass; its
// checksum valid. `clearPadding(payload)` clears what a reader would reject.
template <typename Filter, typename ClearPadding>
std::vector<uint8_t> forgedBlob(cuckoo_bloom::FilterType type, const typename Filter::Params& params, uint64_t itemCount,
                                uint64_t fill, ClearPadding clearPadding) {
  std::vector<uint8_t> payload(static_cast<size_t>(Filter::payloadWordsOf(params) * 8));
  cuckoo_bloom::SplitMix64 random(fill);
  for (uint8_t& byte : payload) byte = static_cast<uint8_t>(random.next());
  clearPadding(payload);
  return cuckoo_bloom::encodeBlob(forgedHeader(type, itemCount), cuckoo_bloom::encodeParams(params), payload);
}

// Reads a forged blob through the registry: accepted, `probes` absent keys
// answer the same by key and by hash (lookups stay inside the payload: the
// sanitizer build would report a read past it), the bytes written back as read.
inline void expectSafeToQuery(const std::vector<uint8_t>& bytes, uint64_t probes) {
  cuckoo_bloom::Result<std::unique_ptr<cuckoo_bloom::AnyFilter>> read =
      cuckoo_bloom::deserializeFilter(bytes.data(), bytes.size());
  ASSERT_TRUE(read.isOk()) << read.status().message();
  for (uint64_t i = 0; i < probes; ++i) {
    const std::string key = absentKey(i);
    ASSERT_EQ(read.value()->has(reinterpret_cast<const uint8_t*>(key.data()), key.size()),
              read.value()->has(cuckoo_bloom::hashKey(key, 0)));
  }
  EXPECT_EQ(read.value()->serialize(), bytes);
}

}  // namespace cuckoo_bloom_test
