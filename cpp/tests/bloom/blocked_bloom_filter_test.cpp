// Tests for cuckoo_bloom/blocked_bloom_filter.h: the split-block Bloom filter.
#include "cuckoo_bloom/bloom/blocked_bloom_filter.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "support/filter_test_support.h"
#include "support/test_keys.h"

namespace cuckoo_bloom {
namespace {

using namespace cuckoo_bloom_test;  // the shared helpers of support/

// The block count is the smallest whose expected rate is at or under 0.9 x
// the target, and the expected-rate formula behaves like a rate.
TEST(BlockedBloomFilterSizing, BlockCountIsTheSmallestMeetingTheMargin) {
  for (const double target : {0.1, 0.01, 0.001, 0.0001}) {
    for (const uint64_t capacity : {uint64_t{100}, uint64_t{12345}, uint64_t{1000000}}) {
      const uint64_t blocks = BlockedBloomFilter::blockCountFor(capacity, target);
      const double goal = target * BlockedBloomFilter::kSizingMargin;
      EXPECT_LE(BlockedBloomFilter::expectedFalsePositiveRate(double(capacity) / blocks), goal);
      if (blocks > 1) {
        EXPECT_GT(BlockedBloomFilter::expectedFalsePositiveRate(double(capacity) / (blocks - 1)), goal)
            << "capacity " << capacity << " target " << target;
      }
    }
  }
  EXPECT_EQ(BlockedBloomFilter::expectedFalsePositiveRate(0.0), 0.0);
  double previous = 0.0;
  for (double lambda = 1; lambda < 200; lambda *= 1.5) {
    const double rate = BlockedBloomFilter::expectedFalsePositiveRate(lambda);
    EXPECT_GT(rate, previous);
    EXPECT_LT(rate, 1.0);
    previous = rate;
  }
  // Reference values of sum_j Pois(j; lambda) (1 - (63/64)^j)^8 summed over
  // j = 0..1999 in an independent Python script (not the code under test).
  EXPECT_NEAR(BlockedBloomFilter::expectedFalsePositiveRate(1.0), 1.1421821037726172e-11, 1e-20);
  EXPECT_NEAR(BlockedBloomFilter::expectedFalsePositiveRate(10.0), 1.077968552911476e-06, 1e-15);
  EXPECT_NEAR(BlockedBloomFilter::expectedFalsePositiveRate(50.0), 0.009349566380158141, 1e-12);
  EXPECT_NEAR(BlockedBloomFilter::expectedFalsePositiveRate(100.0), 0.15959293327613586, 1e-12);
}

TEST(BlockedBloomFilter, EmptyFilterFindsNothingAndAddSetsEightBits) {
  BlockedBloomFilter filter = makeFilter<BlockedBloomFilter>(1000, 0.01, 5);
  EXPECT_EQ(countAbsentFound(filter, 10000), 0u);
  EXPECT_EQ(filter.estimatedFalsePositiveRate(), 0.0);
  filter.add("one key");
  uint64_t setBits = 0;
  for (size_t w = 0; w < filter.byteLength() / 8; ++w) setBits += __builtin_popcountll(filter.words()[w]);
  EXPECT_EQ(setBits, 8u);
  EXPECT_EQ(filter.count(), 1u);
  filter.add("one key");
  EXPECT_EQ(filter.count(), 2u);  // keys added: a repeat counts too
  EXPECT_TRUE(filter.has("one key"));
  EXPECT_EQ(filter.bitCount(), filter.blockCount() * 512);
  EXPECT_EQ(filter.byteLength(), filter.blockCount() * 64);
}

TEST(BlockedBloomFilter, PositionsAreOneBitPerWordOfOneBlockAndAreSetByAdd) {
  BlockedBloomFilter filter = makeFilter<BlockedBloomFilter>(1000, 0.01, 6);
  checkPositionsOfEachAddedKey(filter, [&](const std::string& key, const std::vector<uint64_t>& positions) {
    ASSERT_EQ(positions.size(), 8u);
    for (uint32_t word = 0; word < 8; ++word) {
      const uint64_t bit = positions[word];
      ASSERT_LT(bit, filter.bitCount());
      EXPECT_EQ(bit / 512, positions[0] / 512) << "one block";
      EXPECT_EQ(bit % 512 / 64, word) << "one bit in each word of the block";
      ASSERT_NE(filter.words()[bit >> 6] & (uint64_t{1} << (bit & 63)), 0u) << key << " bit " << bit;
    }
  });
}

// Blocked Bloom at capacity: measured rate at or under the target. Sizing
// aims at 0.9 x target, so the bound leaves 10% for sampling noise. The
// estimate's sd is sqrt(0.9e / M): with M = 1,000,000 probes at e = 1% that is
// 1.05% of the expected rate (the 10% headroom is ~10 sd); at e = 0.1% it
// would be 3.3% (~3 sd), so that case uses M = 4,000,000 probes (1.7%, ~6 sd).
// A fixed seed makes the run deterministic; failing means the sizing is off.
void checkBlockedRate(double target, uint64_t probes) {
  const double measured = cuckoo_bloom_test::measuredRateAtOneMillionKeys<BlockedBloomFilter>(
      "blocked-bloom", target, probes, [](const BlockedBloomFilter& filter) { return filter.bitCount(); });
  EXPECT_LE(measured, target);
  // And not absurdly better (that would mean wasted memory or a broken probe).
  EXPECT_GE(measured, 0.5 * target);
}

TEST(BlockedBloomFilterFalsePositiveRate, MeasuredAtOrUnderOnePercent) { checkBlockedRate(0.01, 1000000); }
TEST(BlockedBloomFilterFalsePositiveRate, MeasuredAtOrUnderPointOnePercent) {
  checkBlockedRate(0.001, 4000000);
}

// estimatedFalsePositiveRate() is the mean over blocks of the product of the
// words' fill: the exact expected rate of this filter, so it must agree with a
// measurement (1M probes at ~0.9%: 1% relative sd; 1.3x is far outside noise).
TEST(BlockedBloomFilterFalsePositiveRate, EstimateWithin1Point3xOfMeasuredAtCapacity) {
  constexpr uint64_t kKeys = 200000;
  constexpr uint64_t kProbes = 1000000;
  BlockedBloomFilter filter = makeFilter<BlockedBloomFilter>(kKeys, 0.01, 3);
  addPresentKeys(filter, kKeys);
  const double measured = measuredFalsePositiveRate(filter, kProbes);
  const double estimated = filter.estimatedFalsePositiveRate();
  EXPECT_LE(estimated, 1.3 * measured);
  EXPECT_GE(estimated, measured / 1.3);
}

}  // namespace
}  // namespace cuckoo_bloom
