// Shared helpers for the native test suite: deterministic keys and adding
// them, a false-positive counter, measurement output and a few byte utilities.
// Header-only, included by every *_test.cpp. No test shrinks or skips under
// the sanitizers: the ASan+UBSan run of the whole suite takes ~30 s.
#pragma once

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "cuckoo_bloom/core/status.h"

namespace cuckoo_bloom_test {

// Keys that are added: URL-like, i = 0, 1, 2, ... Every key is distinct (the
// path ends in i) and they share long prefixes, like real URL sets do.
inline std::string presentKey(uint64_t i) {
  return "https://host" + std::to_string(i % 977) + ".example/path/" + std::to_string(i);
}

// Keys that are never added: another shape (scheme, host and query differ), so
// the two sets are disjoint by construction ("https://host" vs "http://absent").
inline std::string absentKey(uint64_t i) {
  return "http://absent-" + std::to_string(i % 1009) + ".test/q?id=" + std::to_string(i) + "&x=1";
}

// A second family of present keys disjoint from presentKey (used where two
// filters need different contents, e.g. unions).
inline std::string otherKey(uint64_t i) {
  return "https://other" + std::to_string(i % 613) + ".example/item/" + std::to_string(i);
}

// The golden filters' keys: "key-0" ... "key-49".
inline std::string goldenKey(uint64_t i) { return "key-" + std::to_string(i); }

// How many of absentKey(0 .. count-1) the filter reports: its false positives.
template <typename Filter>
uint64_t countAbsentFound(const Filter& filter, uint64_t count) {
  uint64_t found = 0;
  std::string key;
  for (uint64_t i = 0; i < count; ++i) {
    key = absentKey(i);
    found += filter.has(key) ? 1 : 0;
  }
  return found;
}

// Adds presentKey(0 .. count-1) to a type whose add() returns a Status (a
// cuckoo filter can be full): fails, naming the key, at the first add that
// does not succeed. Use as ASSERT_TRUE(addAllPresentKeys(filter, n)).
template <typename Filter>
::testing::AssertionResult addAllPresentKeys(Filter& filter, uint64_t count) {
  for (uint64_t i = 0; i < count; ++i) {
    const cuckoo_bloom::Status status = filter.add(presentKey(i));
    if (!status.isOk()) {
      return ::testing::AssertionFailure() << "add(presentKey(" << i << ")) failed: "
                                           << cuckoo_bloom::statusCodeName(status.code()) << ": " << status.message();
    }
  }
  return ::testing::AssertionSuccess();
}

// Prints a measured number in a form a person can grep from the test log
// (`ctest -V` or running cuckoo_bloom_tests directly), and records it as a
// test property in the gtest XML output as well.
inline void reportMeasurement(const std::string& filterName, double targetRate, uint64_t keys,
                              double bitsPerKey, double measuredRate, double estimatedRate) {
  std::ostringstream line;
  line << "[measured] " << filterName << " target=" << targetRate << " keys=" << keys << std::fixed
       << std::setprecision(3) << " bits/key=" << bitsPerKey << std::setprecision(6)
       << " measuredFPR=" << measuredRate << " estimatedFPR=" << estimatedRate;
  std::cout << line.str() << std::endl;
  ::testing::Test::RecordProperty("bitsPerKey", std::to_string(bitsPerKey));
  ::testing::Test::RecordProperty("measuredFalsePositiveRate", std::to_string(measuredRate));
  ::testing::Test::RecordProperty("estimatedFalsePositiveRate", std::to_string(estimatedRate));
}

// The filter in `result`; when there is none, records a test failure and
// returns a tiny valid filter instead, so a broken create() or deserialize()
// fails the test cleanly rather than dereferencing an empty Result.
template <typename Filter>
Filter valueOrFail(cuckoo_bloom::Result<Filter> result, const char* what) {
  if (result.isOk()) return std::move(result).value();
  ADD_FAILURE() << what << " failed: " << cuckoo_bloom::statusCodeName(result.status().code()) << ": "
                << result.status().message();
  return std::move(Filter::create({1, 0.5})).value();
}

// Little-endian field access into serialized blobs.
inline uint64_t readLE(const std::vector<uint8_t>& bytes, size_t offset, int width) {
  uint64_t value = 0;
  for (int i = 0; i < width; ++i) value |= static_cast<uint64_t>(bytes[offset + i]) << (8 * i);
  return value;
}
inline void writeLE(std::vector<uint8_t>& bytes, size_t offset, int width, uint64_t value) {
  for (int i = 0; i < width; ++i) bytes[offset + i] = static_cast<uint8_t>(value >> (8 * i));
}

// Byte offsets of the common header (format.h).
constexpr size_t kOffsetVersion = 4;
constexpr size_t kOffsetType = 6;
constexpr size_t kOffsetHashAlgorithm = 7;
constexpr size_t kOffsetFlags = 8;
constexpr size_t kOffsetParamsLength = 12;
constexpr size_t kOffsetSeed = 16;
constexpr size_t kOffsetItemCount = 24;
constexpr size_t kOffsetCapacity = 32;
constexpr size_t kOffsetRate = 40;
constexpr size_t kOffsetPayloadLength = 48;
constexpr size_t kOffsetParams = 56;

}  // namespace cuckoo_bloom_test
