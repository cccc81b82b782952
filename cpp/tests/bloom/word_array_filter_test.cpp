// What the word-array filters (word_array_filter.h: Bloom, blocked Bloom,
// counting Bloom) must all do, as they take the same three options, size one
// table of words and count every add: typed over the three classes, so each
// runs under its own type's name (/0 is Bloom, /1 blocked, /2 counting).
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "cuckoo_bloom/bloom/blocked_bloom_filter.h"
#include "cuckoo_bloom/bloom/bloom_filter.h"
#include "cuckoo_bloom/bloom/counting_bloom_filter.h"
#include "cuckoo_bloom/core/limits.h"
#include "support/filter_test_support.h"
#include "support/test_keys.h"

namespace cuckoo_bloom {
namespace {

using WordArrayFilters = ::testing::Types<BloomFilter, BlockedBloomFilter, CountingBloomFilter>;
template <typename Filter>
class WordArrayFilterOptions : public ::testing::Test {};
TYPED_TEST_SUITE(WordArrayFilterOptions, WordArrayFilters);
template <typename Filter>
class WordArrayFilter : public ::testing::Test {};
TYPED_TEST_SUITE(WordArrayFilter, WordArrayFilters);

FilterOptions options(uint64_t capacity, double rate) { return {capacity, rate, 0}; }

TYPED_TEST(WordArrayFilterOptions, InvalidOptionsAreInvalidArgument) {
  cuckoo_bloom_test::expectInvalidCapacityAndRateRejected<TypeParam>(options);
}

// 1e12 keys at 1e-9 need terabytes (see filter_test_support.h); at the
// largest capacity a rate of 1e-300 cannot be sized at all.
TYPED_TEST(WordArrayFilterOptions, AbsurdCapacityIsInvalidArgumentWithoutAllocating) {
  cuckoo_bloom_test::expectAbsurdSizeRejectedWithoutAllocating<TypeParam>(options(1000000000000ull, 1e-9));
  EXPECT_EQ(TypeParam::create(options(kMaxCapacity, 1e-300)).status().code(), StatusCode::InvalidArgument);
}

TYPED_TEST(WordArrayFilter, NoFalseNegativesForOneMillionKeysAndAfterRoundTrip) {
  constexpr uint64_t kKeys = 1000000;
  TypeParam filter = cuckoo_bloom_test::valueOrFail(TypeParam::create({kKeys, 0.01, 7}), "create");
  cuckoo_bloom_test::addPresentKeys(filter, kKeys);
  EXPECT_EQ(filter.count(), kKeys);  // every add is counted (and the copy's count must equal it)
  cuckoo_bloom_test::expectNoFalseNegativesBeforeAndAfterRoundTrip(filter, kKeys);
}

// An empty filter given 500 keys and cleared is the empty filter again, to
// the byte, and no longer finds the first key.
TYPED_TEST(WordArrayFilter, ClearEmptiesTheFilter) {
  TypeParam filter = cuckoo_bloom_test::valueOrFail(TypeParam::create({1000, 0.01, 4}), "create");
  const std::vector<uint8_t> empty = filter.serialize();
  cuckoo_bloom_test::addPresentKeys(filter, 500);
  filter.clear();
  EXPECT_EQ(filter.count(), 0u);
  EXPECT_FALSE(filter.has(cuckoo_bloom_test::presentKey(0)));
  EXPECT_EQ(filter.serialize(), empty);
}

}  // namespace
}  // namespace cuckoo_bloom
