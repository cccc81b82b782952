// ScalableBloomFilter: the link schedule, repeats, add against addIfNew,
// union, and the limits. What both growing chains do (growth to 1,000,000
// keys, the round trip mid-growth, damaged and rewritten bytes) is in
// growing_chain_test.cpp.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "cuckoo_bloom/registry/any_filter.h"
#include "cuckoo_bloom/chains/scalable_bloom_filter.h"
#include "support/chain_test_support.h"
#include "support/test_keys.h"

namespace {

using namespace cuckoo_bloom;
using namespace cuckoo_bloom_test;  // the shared helpers of support/

ScalableBloomFilter makeChain(uint64_t initialCapacity, double rate, uint64_t seed = 1) {
  ScalableBloomFilterOptions options = chainOptions<ScalableBloomFilterOptions>(initialCapacity, rate, seed);
  return valueOrFail(ScalableBloomFilter::create(options), "ScalableBloomFilter::create");
}

TEST(ScalableBloomFilter, LinksFollowTheSchedule) {
  ScalableBloomFilter chain = makeChain(100, 0.01);
  for (uint64_t i = 0; i < 1000; ++i) ASSERT_TRUE(chain.add(presentKey(i)).isOk());
  // Capacities 100, 200, 400, 800: 1000 keys need the fourth link.
  ASSERT_EQ(chain.linkCount(), 4u);
  double rateSum = 0.0;
  for (uint32_t i = 0; i < chain.linkCount(); ++i) {
    EXPECT_EQ(chain.link(i).capacity(), 100u << i);
    EXPECT_DOUBLE_EQ(chain.link(i).targetFalsePositiveRate(), 0.01 * 0.1 * std::pow(0.9, i));
    EXPECT_EQ(chain.link(i).seed(), chain.seed()) << "one hash for the chain";
    rateSum += chain.link(i).targetFalsePositiveRate();
  }
  EXPECT_LT(rateSum, 0.01);
  EXPECT_EQ(chain.capacity(), 1500u);
  uint64_t linkCounts = 0;
  for (uint32_t i = 0; i < chain.linkCount(); ++i) linkCounts += chain.link(i).count();
  EXPECT_EQ(linkCounts, chain.count());
  // Every link but the newest holds its capacity.
  for (uint32_t i = 0; i + 1 < chain.linkCount(); ++i) EXPECT_EQ(chain.link(i).count(), chain.link(i).capacity());
}

TEST(ScalableBloomFilter, AKeyAlreadyPresentIsNotAddedAgain) {
  ScalableBloomFilter chain = makeChain(10, 0.01);
  for (int round = 0; round < 5; ++round) {
    for (uint64_t i = 0; i < 10; ++i) ASSERT_TRUE(chain.add(presentKey(i)).isOk());
  }
  EXPECT_EQ(chain.count(), 10u);
  EXPECT_EQ(chain.linkCount(), 1u) << "repeats do not spend capacity";
}

TEST(ScalableBloomFilter, AddAsksOnlyTheNewestLinkAndAddIfNewAsksThemAll) {
  ScalableBloomFilter chain = makeChain(10, 0.01);
  for (uint64_t i = 0; i < 11; ++i) ASSERT_TRUE(chain.add(presentKey(i)).isOk());
  ASSERT_EQ(chain.linkCount(), 2u);
  ASSERT_EQ(chain.link(1).count(), 1u);
  // Key 0 is held by link 0 only: add() stores it again in the newest link.
  ASSERT_FALSE(chain.link(1).has(presentKey(0)));
  ASSERT_TRUE(chain.add(presentKey(0)).isOk());
  EXPECT_TRUE(chain.link(1).has(presentKey(0)));
  EXPECT_EQ(chain.link(1).count(), 2u);
  EXPECT_EQ(chain.count(), 12u);
  for (uint64_t i = 0; i < 11; ++i) EXPECT_TRUE(chain.has(presentKey(i))) << i;

  // addIfNew (AnyFilter's, the path of the JS method) asks every link: key 1,
  // held by link 0 only, is neither stored nor counted.
  CoreFilterOptions options;
  options.capacity = 10;
  options.falsePositiveRate = 0.01;
  options.seed = 1;
  Result<std::unique_ptr<AnyFilter>> made = createFilter(FilterType::ScalableBloom, options);
  ASSERT_TRUE(made.isOk()) << made.status().message();
  AnyFilter& any = *made.value();
  const auto hashOf = [&](uint64_t i) {
    const std::string key = presentKey(i);
    return any.hashOf(reinterpret_cast<const uint8_t*>(key.data()), key.size());
  };
  for (uint64_t i = 0; i < 11; ++i) ASSERT_TRUE(any.add(hashOf(i)).isOk());
  bool added = true;
  ASSERT_TRUE(any.addIfNew(hashOf(1), added).isOk());
  EXPECT_FALSE(added);
  EXPECT_EQ(any.header().itemCount, 11u);
  ASSERT_TRUE(any.addIfNew(hashOf(11), added).isOk());
  EXPECT_TRUE(added);
  EXPECT_EQ(any.header().itemCount, 12u);
}

TEST(ScalableBloomFilter, UnionsChainsOfTheSameOptionsAndLength) {
  ScalableBloomFilter a = makeChain(100, 0.01, 9);
  ScalableBloomFilter b = makeChain(100, 0.01, 9);
  for (uint64_t i = 0; i < 600; ++i) ASSERT_TRUE(a.add(presentKey(i)).isOk());
  for (uint64_t i = 0; i < 600; ++i) ASSERT_TRUE(b.add(cuckoo_bloom_test::otherKey(i)).isOk());
  ASSERT_EQ(a.linkCount(), b.linkCount());
  ASSERT_TRUE(a.unionWith(b).isOk());
  for (uint64_t i = 0; i < 600; ++i) {
    ASSERT_TRUE(a.has(presentKey(i)));
    ASSERT_TRUE(a.has(cuckoo_bloom_test::otherKey(i)));
  }
  ScalableBloomFilter longer = makeChain(100, 0.01, 9);
  for (uint64_t i = 0; i < 2000; ++i) ASSERT_TRUE(longer.add(presentKey(i)).isOk());
  EXPECT_EQ(a.unionWith(longer).code(), StatusCode::InvalidArgument) << "different link counts";
  ScalableBloomFilter otherSeed = makeChain(100, 0.01, 10);
  EXPECT_EQ(makeChain(100, 0.01, 9).unionWith(otherSeed).code(), StatusCode::InvalidArgument);
}

TEST(ScalableBloomFilter, RejectsImpossibleOptions) {
  const auto code = [](double growth, double tightening) {
    ScalableBloomFilterOptions options;
    options.initialCapacity = 100;
    options.falsePositiveRate = 0.01;
    options.growth = growth;
    options.tightening = tightening;
    return ScalableBloomFilter::create(options).status().code();
  };
  EXPECT_EQ(code(2.0, 0.9), StatusCode::Ok);
  EXPECT_EQ(code(1.0, 0.5), StatusCode::Ok) << "growth 1: links of equal size";
  EXPECT_EQ(code(0.99, 0.9), StatusCode::InvalidArgument);
  EXPECT_EQ(code(std::nan(""), 0.9), StatusCode::InvalidArgument);
  EXPECT_EQ(code(2.0, 0.0), StatusCode::InvalidArgument);
  EXPECT_EQ(code(2.0, 1.0), StatusCode::InvalidArgument);
  EXPECT_EQ(code(2.0, -0.5), StatusCode::InvalidArgument);
  // Growth options are refused by the types that do not grow.
  CoreFilterOptions options;
  options.capacity = 100;
  options.falsePositiveRate = 0.01;
  options.growth = 2.0;
  EXPECT_EQ(createFilter(FilterType::Bloom, options).status().code(), StatusCode::InvalidArgument);
  EXPECT_EQ(createFilter(FilterType::Cuckoo, options).status().code(), StatusCode::InvalidArgument);
  EXPECT_EQ(createFilter(FilterType::ScalableBloom, options).status().code(), StatusCode::Ok);
}

TEST(ScalableBloomFilter, TheLinkLimitRefusesTheAddAndKeepsEveryKey) {
  ScalableBloomFilterOptions options = chainOptions<ScalableBloomFilterOptions>(1, 0.01);
  options.growth = 1.0;
  options.tightening = 0.5;
  ScalableBloomFilter chain = valueOrFail(ScalableBloomFilter::create(options), "create");
  uint64_t stored = 0;
  Status status;
  for (uint64_t i = 0; i < 1000 && status.isOk(); ++i) {
    status = chain.add(presentKey(i));
    if (status.isOk() && chain.count() > stored) stored = chain.count();
  }
  EXPECT_EQ(status.code(), StatusCode::Full);
  EXPECT_EQ(chain.linkCount(), kMaxChainLinks);
  EXPECT_EQ(chain.count(), stored);
  const std::vector<uint8_t> before = chain.serialize();
  uint64_t fresh = 0;
  while (chain.has(absentKey(fresh))) ++fresh;  // a key the chain would have to store
  EXPECT_EQ(chain.add(absentKey(fresh)).code(), StatusCode::Full);
  EXPECT_EQ(chain.serialize(), before) << "a refused add changes nothing";
}

TEST(ScalableBloomFilter, ClearKeepsOnlyTheFirstLinkEmpty) {
  ScalableBloomFilter chain = makeChain(100, 0.01);
  for (uint64_t i = 0; i < 1000; ++i) ASSERT_TRUE(chain.add(presentKey(i)).isOk());
  chain.clear();
  EXPECT_EQ(chain.linkCount(), 1u);
  EXPECT_EQ(chain.count(), 0u);
  EXPECT_EQ(chain.capacity(), 100u);
  EXPECT_EQ(chain.serialize(), makeChain(100, 0.01).serialize());
}

}  // namespace
