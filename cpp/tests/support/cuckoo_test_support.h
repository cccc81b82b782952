// Cuckoo filters as the cuckoo and inspector tests make them: options with
// the sizing they vary (the rest left at the defaults), and create() that
// fails the test if it refuses them.
#pragma once

#include <cstdint>
#include <optional>

#include "cuckoo_bloom/cuckoo/cuckoo_filter.h"
#include "support/test_keys.h"

namespace cuckoo_bloom_test {

// semiSorted unset: the filter's own choice for the bucket size.
inline cuckoo_bloom::CuckooFilterOptions cuckooOptions(uint64_t capacity, double rate, uint32_t bucketSize = 4,
                                                       uint64_t seed = 0, std::optional<bool> semiSorted = std::nullopt) {
  cuckoo_bloom::CuckooFilterOptions result;
  result.capacity = capacity;
  result.falsePositiveRate = rate;
  result.bucketSize = bucketSize;
  result.seed = seed;
  result.semiSorted = semiSorted;
  return result;
}

inline cuckoo_bloom::CuckooFilter makeCuckoo(const cuckoo_bloom::CuckooFilterOptions& options) {
  return valueOrFail(cuckoo_bloom::CuckooFilter::create(options), "create");
}

}  // namespace cuckoo_bloom_test
