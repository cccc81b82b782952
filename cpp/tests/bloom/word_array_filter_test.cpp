// What the word-array filters (word_array_filter.h: Bloom, blocked Bloom,
// counting Bloom) must all do, as they take the same three options, size one
// table of words, count every add and read back every property: typed over
// the three classes, so each runs under its own type's name (/0 is Bloom, /1
// blocked, /2 counting); and the union of the two that have one.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <utility>
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

// What a filter reports by name (its parameters(visit): the table's size,
// the probes, the bits set...), as (name, value) pairs.
template <typename Filter>
std::vector<std::pair<std::string, double>> parametersOf(const Filter& filter) {
  std::vector<std::pair<std::string, double>> named;
  filter.parameters([&](const char* name, auto value) { named.emplace_back(name, static_cast<double>(value)); });
  return named;
}

// The copy read from the bytes has the same parameters, header and estimated rate.
TYPED_TEST(WordArrayFilter, RoundTripPreservesEveryProperty) {
  TypeParam filter = cuckoo_bloom_test::makeFilter<TypeParam>(5000, 0.02, 0xDEADBEEFCAFEull);
  cuckoo_bloom_test::addPresentKeys(filter, 3000);
  const TypeParam copy = cuckoo_bloom_test::roundTrip(filter);
  const std::vector<std::pair<std::string, double>> parameters = parametersOf(filter);
  EXPECT_GE(parameters.size(), 2u);
  EXPECT_EQ(parametersOf(copy), parameters);
  cuckoo_bloom_test::expectSameHeader(copy, filter);
  EXPECT_EQ(copy.estimatedFalsePositiveRate(), filter.estimatedFalsePositiveRate());
}

// The two that union (the counting filter does not): typed the same way (/0
// is Bloom, /1 blocked).
template <typename Filter>
class WordArrayFilterUnion : public ::testing::Test {};
using UnionedWordArrayFilters = ::testing::Types<BloomFilter, BlockedBloomFilter>;
TYPED_TEST_SUITE(WordArrayFilterUnion, UnionedWordArrayFilters);

// The union finds the keys of both, and its bytes read back as they are.
TYPED_TEST(WordArrayFilterUnion, UnionFindsKeysOfBoth) {
  constexpr uint64_t kKeys = 20000;
  TypeParam a = cuckoo_bloom_test::makeFilter<TypeParam>(2 * kKeys, 0.01, 9);
  TypeParam b = cuckoo_bloom_test::makeFilter<TypeParam>(2 * kKeys, 0.01, 9);
  cuckoo_bloom_test::expectUnionFindsKeysOfBoth(a, b, kKeys);
  const TypeParam copy = cuckoo_bloom_test::roundTrip(a);
  EXPECT_EQ(copy.count(), a.count());
  EXPECT_EQ(copy.serialize(), a.serialize());
}

// Another capacity, rate or seed: INVALID_ARGUMENT, and the filter's bytes
// are untouched.
TYPED_TEST(WordArrayFilterUnion, DifferentParametersAreInvalidArgumentAndChangeNothing) {
  TypeParam a = cuckoo_bloom_test::makeFilter<TypeParam>(10000, 0.01, 1);
  cuckoo_bloom_test::addPresentKeys(a, 100);
  const std::vector<uint8_t> before = a.serialize();
  TypeParam differentCapacity = cuckoo_bloom_test::makeFilter<TypeParam>(20000, 0.01, 1);
  TypeParam differentRate = cuckoo_bloom_test::makeFilter<TypeParam>(10000, 0.001, 1);
  TypeParam differentSeed = cuckoo_bloom_test::makeFilter<TypeParam>(10000, 0.01, 2);
  for (TypeParam* other : {&differentCapacity, &differentRate, &differentSeed}) {
    other->add("x");
    EXPECT_EQ(a.unionWith(*other).code(), StatusCode::InvalidArgument);
    EXPECT_EQ(a.serialize(), before);
  }
}

}  // namespace
}  // namespace cuckoo_bloom
