// ScalableCuckooFilter: repeats at the copy limit, the budget schedule,
// removal after growth (never another key's only copy), the options and
// limits. What both growing chains do (growth on a refused insert to
// 1,000,000 keys, the round trip mid-growth, damaged and rewritten bytes) is
// in growing_chain_test.cpp.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "cuckoo_bloom/registry/any_filter.h"
#include "cuckoo_bloom/chains/scalable_cuckoo_filter.h"
#include "support/chain_test_support.h"
#include "support/test_keys.h"

namespace {

using namespace cuckoo_bloom;
using namespace cuckoo_bloom_test;  // the shared helpers of support/

ScalableCuckooFilter makeChain(uint64_t initialCapacity, double rate, uint64_t seed = 1, uint32_t bucketSize = 4) {
  ScalableCuckooFilterOptions options = chainOptions<ScalableCuckooFilterOptions>(initialCapacity, rate, seed);
  options.bucketSize = bucketSize;
  return valueOrFail(ScalableCuckooFilter::create(options), "ScalableCuckooFilter::create");
}

// A key repeated past 2 x bucketSize copies in the newest link is refused as
// FULL, as by a plain cuckoo filter: growing a link (twice the size) per 2b
// repeats made 96 repeats of one key grow a 31-key chain to 24 links and 1.2 GB.
TEST(ScalableCuckooFilter, RepeatsAtTheCopyLimitAreRefusedNotGrownFor) {
  for (const uint32_t bucketSize : {2u, 4u, 8u}) {
    ScalableCuckooFilter chain = makeChain(31, 0.01, 5, bucketSize);
    const std::string key = "the-same-key";
    uint32_t stored = 0;
    for (int i = 0; i < 100; ++i) {
      const Status status = chain.add(key);
      if (status.isOk()) ++stored;
      else EXPECT_EQ(status.code(), StatusCode::Full) << status.message();
    }
    EXPECT_EQ(stored, 2 * bucketSize) << bucketSize;
    EXPECT_EQ(chain.linkCount(), 1u) << bucketSize;
    EXPECT_TRUE(chain.has(key));
    // Other keys still grow the chain as before.
    for (uint64_t i = 0; i < 1000; ++i) ASSERT_TRUE(chain.add("other-" + std::to_string(i)).isOk()) << i;
    EXPECT_GT(chain.linkCount(), 1u);
  }
}

TEST(ScalableCuckooFilter, TheBudgetScheduleKeepsTheWorstCaseSumUnderTheTarget) {
  for (const double rate : {0.05, 0.01, 0.001, 1e-6}) {
    for (const uint32_t bucketSize : {2u, 4u, 8u}) {
      double sum = 0.0;
      uint32_t previousBits = 0;
      for (uint32_t i = 0; i < kMaxChainLinks; ++i) {
        double budget = 0.0;
        uint32_t bits = 0;
        if (!ScalableCuckooFilter::linkSchedule(rate, 0.85, bucketSize, i, budget, bits)) break;
        EXPECT_LE(ScalableCuckooFilter::worstLinkRate(bits, bucketSize), budget);
        EXPECT_GE(bits, previousBits) << "fingerprints never shrink along the chain";
        previousBits = bits;
        sum += ScalableCuckooFilter::worstLinkRate(bits, bucketSize);
      }
      EXPECT_LT(sum, rate) << rate << " b=" << bucketSize;
    }
  }
}

TEST(ScalableCuckooFilter, RemoveAfterGrowthLeavesNoFalseNegativeAmongTheRemainingKeys) {
  ScalableCuckooFilter chain = makeChain(100, 0.01, 5);
  constexpr uint64_t kKeys = 200000;
  for (uint64_t i = 0; i < kKeys; ++i) ASSERT_TRUE(chain.add(presentKey(i)).isOk());
  ASSERT_GE(chain.linkCount(), 10u);
  uint64_t removed = 0, ambiguous = 0;
  std::vector<bool> stillStored(kKeys, true);
  for (uint64_t i = 0; i < kKeys; i += 2) {
    const Status status = chain.remove(presentKey(i));
    if (status.isOk()) {
      ++removed;
      stillStored[i] = false;
    } else {
      ASSERT_EQ(status.code(), StatusCode::Unsupported) << status.message();
      ++ambiguous;
      ASSERT_TRUE(chain.has(presentKey(i))) << "an ambiguous key is kept, still present";
    }
  }
  for (uint64_t i = 0; i < kKeys; ++i) {
    if (stillStored[i]) ASSERT_TRUE(chain.has(presentKey(i))) << "false negative for key " << i;
  }
  EXPECT_EQ(chain.count(), kKeys - removed);
  std::cout << "[measured] scalable-cuckoo removals refused as ambiguous: " << ambiguous << " of " << kKeys / 2
            << "\n";
  // A key added once is ambiguous only if it falsely matches another link:
  // probability < the target rate 1% (expected < 1000 of 100k; sd ~31).
  EXPECT_LT(ambiguous, (kKeys / 2) / 100);
}

TEST(ScalableCuckooFilter, AKeyAddedTwiceAcrossAGrowthIsKeptRatherThanGuessed) {
  ScalableCuckooFilter chain = makeChain(8, 0.01, 2);
  ASSERT_TRUE(chain.add("twice").isOk());
  uint64_t i = 0;
  while (chain.linkCount() < 2) ASSERT_TRUE(chain.add(presentKey(i++)).isOk());
  ASSERT_TRUE(chain.add("twice").isOk());
  EXPECT_EQ(chain.remove("twice").code(), StatusCode::Unsupported);
  EXPECT_TRUE(chain.has("twice"));
  for (uint64_t j = 0; j < i; ++j) EXPECT_TRUE(chain.has(presentKey(j)));
  EXPECT_EQ(chain.remove(absentKey(12345)).code(), StatusCode::NotFound);
}

TEST(ScalableCuckooFilter, RejectsImpossibleOptionsAndTheOptionsItDoesNotTake) {
  CoreFilterOptions options;
  options.capacity = 100;
  options.falsePositiveRate = 0.01;
  EXPECT_EQ(createFilter(FilterType::ScalableCuckoo, options).status().code(), StatusCode::Ok);
  options.bucketSize = 3;
  EXPECT_EQ(createFilter(FilterType::ScalableCuckoo, options).status().code(), StatusCode::InvalidArgument);
  options.bucketSize = 8;
  EXPECT_EQ(createFilter(FilterType::ScalableCuckoo, options).status().code(), StatusCode::Ok);
  options.fingerprintBits = 12;
  EXPECT_EQ(createFilter(FilterType::ScalableCuckoo, options).status().code(), StatusCode::InvalidArgument);
  options.fingerprintBits.reset();
  options.growth = 0.5;
  EXPECT_EQ(createFilter(FilterType::ScalableCuckoo, options).status().code(), StatusCode::InvalidArgument);
  options.growth = 2.0;
  options.tightening = 1.5;
  EXPECT_EQ(createFilter(FilterType::ScalableCuckoo, options).status().code(), StatusCode::InvalidArgument);
  // A rate no 32-bit fingerprint can meet is impossible, not silently clamped.
  options.tightening = 0.0;
  options.falsePositiveRate = 1e-12;
  EXPECT_EQ(createFilter(FilterType::ScalableCuckoo, options).status().code(), StatusCode::InvalidArgument);
}

TEST(ScalableCuckooFilter, TheLinkLimitRefusesTheAddAndKeepsEveryKey) {
  ScalableCuckooFilterOptions options = chainOptions<ScalableCuckooFilterOptions>(1, 0.01);
  options.growth = 1.0;
  ScalableCuckooFilter chain = valueOrFail(ScalableCuckooFilter::create(options), "create");
  Status status;
  uint64_t added = 0;
  while (status.isOk() && added < 100000) {
    status = chain.add(presentKey(added));
    if (status.isOk()) ++added;
  }
  EXPECT_NE(status.code(), StatusCode::Ok);
  EXPECT_LE(chain.linkCount(), kMaxChainLinks);
  for (uint64_t i = 0; i < added; ++i) ASSERT_TRUE(chain.has(presentKey(i))) << i;
  EXPECT_EQ(chain.count(), added);
}

}  // namespace
