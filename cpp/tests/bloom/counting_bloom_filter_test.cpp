// Tests for cuckoo_bloom/counting_bloom_filter.h: the counting Bloom filter.
#include "cuckoo_bloom/bloom/bloom_sizing.h"
#include "cuckoo_bloom/bloom/counting_bloom_filter.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <iostream>
#include <set>
#include <string>
#include <vector>

#include "cuckoo_bloom/bloom/bloom_filter.h"
#include "cuckoo_bloom/core/hashing.h"
#include "cuckoo_bloom/inspect/bloom_inspector.h"
#include "support/filter_test_support.h"
#include "support/test_keys.h"

namespace cuckoo_bloom {
namespace {

using namespace cuckoo_bloom_test;  // the shared helpers of support/

// The counters a key's probes touch (distinct indexes), computed from the
// public hashing functions.
std::set<uint64_t> probeCounters(const CountingBloomFilter& filter, const std::string& key) {
  const KeyHash hash = hashKey(reinterpret_cast<const uint8_t*>(key.data()), key.size(), filter.seed());
  std::set<uint64_t> indexes;
  for (uint32_t probe = 0; probe < filter.hashCount(); ++probe) {
    indexes.insert(bloomProbeIndex(hash, probe, filter.counterCount()));
  }
  return indexes;
}

TEST(CountingBloomFilterSizing, SizedLikeTheClassicFilterWithFourBitCounters) {
  const CountingBloomFilter filter = makeFilter<CountingBloomFilter>(1000000, 0.01);
  EXPECT_EQ(filter.counterCount(), bloomSizingFor(1000000, 0.01).bitCount);
  EXPECT_EQ(filter.hashCount(), 7u);
  // Counters of 4 bits, 16 per word, rounded up to whole words.
  EXPECT_EQ(filter.byteLength(), (filter.counterCount() + 15u) / 16u * 8u);
}

TEST(CountingBloomFilter, PositionsAreTheProbedCounters) {
  CountingBloomFilter filter = makeFilter<CountingBloomFilter>(1000, 0.01, 6);
  checkPositionsOfEachAddedKey(filter, [&](const std::string& key, const std::vector<uint64_t>& positions) {
    ASSERT_EQ(positions.size(), filter.hashCount());
    EXPECT_EQ(std::set<uint64_t>(positions.begin(), positions.end()), probeCounters(filter, key));
    for (const uint64_t index : positions) ASSERT_GT(BloomInspector::counterAt(filter, index), 0u) << key;
  });
}

// Same sizing and hashing as the classic filter, so the same bound: within
// 1.2x of the target, with 1M probes (sd 1% of e at 1%, 3.2% of e at 0.1%;
// see bloom_filter_test.cpp). bits/key counts the 4 bits of every counter.
void checkCountingRate(double target) {
  const double measured = cuckoo_bloom_test::measuredRateAtOneMillionKeys<CountingBloomFilter>(
      "counting-bloom", target, 1000000,
      [](const CountingBloomFilter& filter) { return filter.counterCount() * CountingBloomFilter::kCounterBits; });
  EXPECT_LE(measured, 1.2 * target);
  EXPECT_GE(measured, target / 1.2);
}

// As BloomFilter's: has() is "every probed counter non-zero" whether it reads
// its first probes branch-free (a fifth full and more) or one by one, for 1 to
// 7 probes, before and after removals.
TEST(CountingBloomFilter, HasIsAllProbedCountersNonZeroAtEveryFillAndProbeCount) {
  uint32_t probeCountsSeen = 0;
  for (const double rate : {0.6, 0.4, 0.25, 0.12, 0.05, 0.01}) {
    CountingBloomFilter filter = makeFilter<CountingBloomFilter>(2000, rate, 3);
    probeCountsSeen |= 1u << filter.hashCount();
    const auto check = [&](uint64_t added) {
      for (uint64_t probe = 0; probe < 300; ++probe) {
        const std::string key = probe % 2 == 0 ? absentKey(probe) : presentKey(probe % (added + 1));
        bool allNonZero = true;
        for (const uint64_t counter : filter.positions(reinterpret_cast<const uint8_t*>(key.data()), key.size())) {
          allNonZero &= BloomInspector::counterAt(filter, counter) != 0;
        }
        ASSERT_EQ(filter.has(key), allNonZero) << "rate " << rate << " after " << added + 1 << " keys, key " << key;
      }
    };
    for (uint64_t i = 0; i < 2000; ++i) {
      filter.add(presentKey(i));
      if (i % 97 == 0 || i == 399 || i == 400 || i == 1999) check(i);
    }
    for (uint64_t i = 0; i < 1700; i += 2) ASSERT_TRUE(filter.remove(presentKey(i)).isOk());
    check(1999);
  }
  EXPECT_EQ(probeCountsSeen & 0b1110, 0b1110u) << "1, 2 and 3 probes covered";
}

TEST(CountingBloomFilterFalsePositiveRate, MeasuredWithin1Point2xOfOnePercent) { checkCountingRate(0.01); }
TEST(CountingBloomFilterFalsePositiveRate, MeasuredWithin1Point2xOfPointOnePercent) {
  checkCountingRate(0.001);
}

TEST(CountingBloomFilterRemove, RemovingHalfKeepsTheOtherHalfAndDropsTheRemoved) {
  constexpr uint64_t kKeys = 100000;
  CountingBloomFilter filter = makeFilter<CountingBloomFilter>(kKeys, 0.01, 11);
  addPresentKeys(filter, kKeys);
  for (uint64_t i = 0; i < kKeys; i += 2) {
    ASSERT_TRUE(filter.remove(presentKey(i)).isOk()) << i;
  }
  EXPECT_EQ(filter.count(), kKeys / 2);
  const auto [keptMissing, removedFound] = cuckoo_bloom_test::findAfterRemovingEvenKeys(filter, kKeys);
  EXPECT_EQ(keptMissing, 0u);  // no false negative among the kept keys
  std::cout << "[measured] counting-bloom removed keys still found: " << removedFound << " of "
            << kKeys / 2 << std::endl;
  // A removed key is still found only as a false positive of the half-full
  // filter, whose rate is ~(1 - e^(-7 * 50000 / 958506))^7 = 2.5e-4 (about 13
  // of 50,000). Allow 1/1000 (50 keys): four times that and ~10 sd of a
  // binomial(50000, 2.5e-4); a remove that did nothing would leave all 50,000.
  EXPECT_LE(removedFound, kKeys / 2 / 1000) << "removed keys still found";
  EXPECT_LE(measuredFalsePositiveRate(filter, 200000), 0.001);
}

TEST(CountingBloomFilterRemove, SaturatedCountersNeverDecrement) {
  CountingBloomFilter filter = makeFilter<CountingBloomFilter>(1000, 0.01, 3);
  const std::string key = "https://saturated.example/";
  const std::set<uint64_t> counters = probeCounters(filter, key);
  ASSERT_FALSE(counters.empty());
  for (int i = 0; i < 20; ++i) filter.add(key);
  EXPECT_EQ(filter.count(), 20u);
  for (const uint64_t index : counters) EXPECT_EQ(BloomInspector::counterAt(filter, index), 15u) << index;
  EXPECT_EQ(filter.saturatedCounterCount(), counters.size());
  for (int i = 0; i < 20; ++i) {
    ASSERT_TRUE(filter.remove(key).isOk()) << i;
  }
  // The true count under a saturated counter is unknown, so it stays at 15
  // and the key is still found.
  EXPECT_TRUE(filter.has(key));
  for (const uint64_t index : counters) EXPECT_EQ(BloomInspector::counterAt(filter, index), 15u) << index;
  EXPECT_GT(filter.saturatedCounterCount(), 0u);
  EXPECT_EQ(filter.count(), 0u);
  // Saturation survives the byte format.
  EXPECT_EQ(roundTrip(filter).saturatedCounterCount(), counters.size());
}

TEST(CountingBloomFilterRemove, CounterBelowSaturationCountsAddsExactly) {
  CountingBloomFilter filter = makeFilter<CountingBloomFilter>(1000, 0.01, 3);
  const std::vector<uint8_t> empty = filter.serialize();
  const std::string key = "https://fourteen.example/";
  for (int i = 0; i < 14; ++i) filter.add(key);
  EXPECT_EQ(filter.saturatedCounterCount(), 0u);
  for (int i = 0; i < 14; ++i) ASSERT_TRUE(filter.remove(key).isOk()) << i;
  EXPECT_FALSE(filter.has(key));
  EXPECT_EQ(filter.remove(key).code(), StatusCode::NotFound);
  EXPECT_EQ(filter.serialize(), empty);
}

// In a filter of 19 counters with 4 probes (one key at 1%), a key's probes
// often hit some counter twice: add() increments it twice, so remove() must
// decrement it twice and leave every counter at 0.
TEST(CountingBloomFilterRemove, KeyWhoseProbesRepeatACounterRemovesCleanly) {
  CountingBloomFilter filter = makeFilter<CountingBloomFilter>(1, 0.01, 0);
  ASSERT_EQ(filter.counterCount(), 19u);
  ASSERT_EQ(filter.hashCount(), 4u);
  const std::vector<uint8_t> empty = filter.serialize();
  int keysWithRepeats = 0;
  for (uint64_t i = 0; i < 200; ++i) {
    const std::string key = presentKey(i);
    if (probeCounters(filter, key).size() == filter.hashCount()) continue;
    ++keysWithRepeats;
    filter.add(key);
    filter.add(key);
    ASSERT_TRUE(filter.remove(key).isOk());
    ASSERT_TRUE(filter.has(key)) << "one copy is left";
    ASSERT_TRUE(filter.remove(key).isOk());
    ASSERT_EQ(filter.serialize(), empty) << "key " << key;
  }
  EXPECT_GT(keysWithRepeats, 10);
}

TEST(CountingBloomFilterRemove, RemovingAnAbsentKeyIsNotFoundAndChangesNothing) {
  CountingBloomFilter filter = makeFilter<CountingBloomFilter>(10000, 0.01, 5);
  EXPECT_EQ(filter.remove("never added").code(), StatusCode::NotFound);
  addPresentKeys(filter, 5000);
  const std::vector<uint8_t> before = filter.serialize();
  uint64_t notFound = 0;
  for (uint64_t i = 0; i < 2000; ++i) {
    const std::string key = absentKey(i);
    if (filter.has(key)) continue;  // a false positive would be removable
    ASSERT_EQ(filter.remove(key).code(), StatusCode::NotFound) << key;
    ++notFound;
  }
  EXPECT_GT(notFound, 1900u);
  EXPECT_EQ(filter.serialize(), before);
  EXPECT_EQ(filter.count(), 5000u);
}

// clear() itself is WordArrayFilter.ClearEmptiesTheFilter's (all three types).
TEST(CountingBloomFilter, CounterAtOutOfRangeIsZero) {
  CountingBloomFilter filter = makeFilter<CountingBloomFilter>(1000, 0.01, 4);
  addPresentKeys(filter, 500);
  EXPECT_EQ(BloomInspector::counterAt(filter, filter.counterCount()), 0u);
  EXPECT_EQ(BloomInspector::counterAt(filter, UINT64_MAX), 0u);
}

// After removes, the bytes carry every counter and the count. (The round
// trip of a filter only added to: word_array_filter_test.cpp.)
TEST(CountingBloomFilter, RoundTripAfterRemovesKeepsEveryCounter) {
  CountingBloomFilter filter = makeFilter<CountingBloomFilter>(5000, 0.02, 0xDEADBEEFCAFEull);
  addPresentKeys(filter, 3000);
  for (uint64_t i = 0; i < 1000; ++i) ASSERT_TRUE(filter.remove(presentKey(i)).isOk());
  const CountingBloomFilter copy = roundTrip(filter);
  EXPECT_EQ(copy.counterCount(), filter.counterCount());
  EXPECT_EQ(copy.hashCount(), filter.hashCount());
  cuckoo_bloom_test::expectSameHeader(copy, filter);
  EXPECT_EQ(copy.count(), 2000u);
  for (uint64_t i = 0; i < filter.counterCount(); ++i) ASSERT_EQ(BloomInspector::counterAt(copy, i), BloomInspector::counterAt(filter, i));
  EXPECT_EQ(countPresentMissing(copy, 3000), countPresentMissing(filter, 3000));
}

}  // namespace
}  // namespace cuckoo_bloom
