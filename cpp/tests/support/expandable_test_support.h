// What the expandable suites share: filters made from capacity, rate and
// seed (and the growth hint when `expected` is not 0; the test fails if the
// options are refused), and the golden files' bytes.
#pragma once

#include <cstdint>
#include <fstream>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "cuckoo_bloom/expandable/expandable_filter.h"

namespace cuckoo_bloom_test {

inline cuckoo_bloom::ExpandableFilter makeExpandable(uint64_t capacity, double rate, uint64_t seed, uint64_t expected = 0) {
  cuckoo_bloom::CoreFilterOptions options;
  options.capacity = capacity;
  options.falsePositiveRate = rate;
  options.seed = seed;
  if (expected != 0) options.expectedCapacity = expected;
  cuckoo_bloom::Result<cuckoo_bloom::ExpandableFilter> made = cuckoo_bloom::ExpandableFilter::createFrom(options);
  EXPECT_TRUE(made.isOk()) << made.status().message();
  return std::move(made.value());
}

// tests/golden/<name> (CUCKOO_BLOOM_GOLDEN_DIR); the test fails if it is missing.
inline std::vector<uint8_t> goldenBytes(const std::string& name) {
  std::ifstream in(std::string(CUCKOO_BLOOM_GOLDEN_DIR) + "/" + name, std::ios::binary);
  EXPECT_TRUE(in) << name << " is missing";
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace cuckoo_bloom_test
