// Expandable filters as the expandable suites make them: capacity, rate and
// seed, and the growth hint when `expected` is not 0; the test fails if the
// options are refused.
#pragma once

#include <cstdint>
#include <utility>

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

}  // namespace cuckoo_bloom_test
