// ExpiringBloomFilter: the window guarantee (found for at least `window`,
// gone after window + one generation) under a caller's clock, rotation over
// several generations at once, a clock that steps back, the bytes (round trip
// mid-window, damage), the options and the compound rate.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "cuckoo_bloom/chains/expiring_bloom_filter.h"
#include "cuckoo_bloom/registry/any_filter.h"
#include "support/test_keys.h"

namespace {

using namespace cuckoo_bloom;
using cuckoo_bloom_test::absentKey;
using cuckoo_bloom_test::countAbsentFound;
using cuckoo_bloom_test::presentKey;
using cuckoo_bloom_test::valueOrFail;

// window 60, 4 generations: a generation lasts 20 units.
ExpiringBloomFilter makeFilter(uint64_t capacity = 1000, double rate = 0.01, double start = 0.0,
                               uint32_t generations = 4, double window = 60.0) {
  ExpiringBloomFilterOptions options;
  options.capacity = capacity;
  options.falsePositiveRate = rate;
  options.window = window;
  options.generations = generations;
  options.startTime = start;
  options.seed = 3;
  return valueOrFail(ExpiringBloomFilter::create(options), "ExpiringBloomFilter::create");
}

void advanceTo(ExpiringBloomFilter& filter, double now) {
  ASSERT_TRUE(filter.advance(now).isOk()) << now;
}

TEST(ExpiringBloomFilter, FindsEveryKeyThroughoutTheWindowAndForgetsItAfterOneMoreGeneration) {
  // A key added at each time t in 0..199 (one per unit) with the clock
  // walking forward: every key is found at every time in [t, t + 60] and not
  // found at any time >= t + 60 + 20 once nothing newer shares its bits
  // (checked by a separate filter per key, so no other key can answer).
  for (int t = 0; t < 200; t += 7) {
    ExpiringBloomFilter filter = makeFilter(10, 0.01, 0.0);
    advanceTo(filter, t);
    filter.add("key-" + std::to_string(t));
    for (int now = t; now <= t + 60; ++now) {
      advanceTo(filter, now);
      ASSERT_TRUE(filter.has("key-" + std::to_string(t))) << "added at " << t << ", asked at " << now;
    }
    bool forgotten = false;
    for (int now = t + 61; now <= t + 80; ++now) {
      advanceTo(filter, now);
      if (!filter.has("key-" + std::to_string(t))) forgotten = true;
      // Once forgotten it stays forgotten (no key came back).
      if (forgotten) ASSERT_FALSE(filter.has("key-" + std::to_string(t))) << now;
    }
    ASSERT_TRUE(forgotten) << "added at " << t << ": still found at " << t + 80;
    EXPECT_EQ(filter.count(), 0u);
  }
}

TEST(ExpiringBloomFilter, ManyKeysStreamedThroughTheWindowAreNeverFalseNegatives) {
  // 100 keys per unit for 300 units: 2,000 per generation (the capacity).
  ExpiringBloomFilter filter = makeFilter(2000, 0.01, 1000.0);
  for (uint64_t now = 1000; now < 1300; ++now) {
    advanceTo(filter, static_cast<double>(now));
    for (uint64_t j = 0; j < 100; ++j) filter.add(presentKey(now * 100 + j));
    // Every key added in the last 60 units is still there.
    for (uint64_t past = now >= 1060 ? now - 60 : 1000; past <= now; past += 13) {
      for (uint64_t j = 0; j < 100; j += 9) ASSERT_TRUE(filter.has(presentKey(past * 100 + j))) << past << " at " << now;
    }
  }
  // The compound rate at capacity: the generations are sized at P / G each
  // and the union bound gives P, so the expected rate is just under P; 1M
  // absent probes (sd ~1% of P) against 1.1x the target.
  constexpr uint64_t kProbes = 1000000;
  const double measured = static_cast<double>(countAbsentFound(filter, kProbes)) / kProbes;
  std::cout << "[measured] expiring-bloom at capacity: rate " << measured << ", estimate "
            << filter.estimatedFalsePositiveRate() << ", bytes " << filter.byteLength() << "\n";
  EXPECT_LE(measured, 0.011);
  EXPECT_LE(filter.estimatedFalsePositiveRate(), 0.01);
}

TEST(ExpiringBloomFilter, AJumpOfManyGenerationsDropsThemAllAndRealignsTheStart) {
  ExpiringBloomFilter filter = makeFilter(100, 0.01, 5.0);
  filter.add("a");
  // 5 + 3 * 20 = 65 is the start of generation 3: two dropped... precisely
  // floor((70 - 5) / 20) = 3 generations dropped, start 65.
  Result<uint32_t> dropped = filter.advance(70.0);
  ASSERT_TRUE(dropped.isOk());
  EXPECT_EQ(dropped.value(), 3u);
  EXPECT_EQ(filter.generationStart(), 65.0);
  EXPECT_TRUE(filter.has("a")) << "added at 5, asked at 70 <= 5 + 60 + 20";
  dropped = filter.advance(1.0e6);
  ASSERT_TRUE(dropped.isOk());
  EXPECT_EQ(dropped.value(), 4u);
  EXPECT_FALSE(filter.has("a"));
  EXPECT_LE(filter.generationStart(), 1.0e6);
  EXPECT_GT(filter.generationStart() + filter.generationLength(), 1.0e6);
  EXPECT_EQ(std::fmod(filter.generationStart() - 5.0, 20.0), 0.0) << "generations stay aligned to the first start";
}

TEST(ExpiringBloomFilter, AClockThatStepsBackChangesNothingAndForgetsNothingEarly) {
  ExpiringBloomFilter filter = makeFilter(100, 0.01, 100.0);
  filter.add("a");
  const std::vector<uint8_t> before = filter.serialize();
  Result<uint32_t> dropped = filter.advance(-5000.0);
  ASSERT_TRUE(dropped.isOk());
  EXPECT_EQ(dropped.value(), 0u);
  EXPECT_EQ(filter.serialize(), before);
  EXPECT_TRUE(filter.has("a"));
  // Forward again: the key lives its full window from its own time.
  advanceTo(filter, 160.0);
  EXPECT_TRUE(filter.has("a"));
}

TEST(ExpiringBloomFilter, AClockReadingThatIsNotFiniteIsInvalidAndChangesNothing) {
  ExpiringBloomFilter filter = makeFilter();
  filter.add("a");
  const std::vector<uint8_t> before = filter.serialize();
  for (const double bad : {std::nan(""), std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity()}) {
    Result<uint32_t> dropped = filter.advance(bad);
    ASSERT_FALSE(dropped.isOk());
    EXPECT_EQ(dropped.status().code(), StatusCode::InvalidArgument);
  }
  EXPECT_EQ(filter.serialize(), before);
}

TEST(ExpiringBloomFilter, BadOptionsAreInvalidArguments) {
  auto make = [](double window, uint32_t generations, double start) {
    ExpiringBloomFilterOptions options;
    options.capacity = 100;
    options.falsePositiveRate = 0.01;
    options.window = window;
    options.generations = generations;
    options.startTime = start;
    return ExpiringBloomFilter::create(options).status().code();
  };
  EXPECT_EQ(make(0.0, 4, 0.0), StatusCode::InvalidArgument);
  EXPECT_EQ(make(-1.0, 4, 0.0), StatusCode::InvalidArgument);
  EXPECT_EQ(make(std::nan(""), 4, 0.0), StatusCode::InvalidArgument);
  EXPECT_EQ(make(std::numeric_limits<double>::infinity(), 4, 0.0), StatusCode::InvalidArgument);
  EXPECT_EQ(make(60.0, 1, 0.0), StatusCode::InvalidArgument);
  EXPECT_EQ(make(60.0, 0, 0.0), StatusCode::InvalidArgument);
  EXPECT_EQ(make(60.0, ExpiringBloomFilter::kMaxGenerations + 1, 0.0), StatusCode::InvalidArgument);
  EXPECT_EQ(make(60.0, 4, std::nan("")), StatusCode::InvalidArgument);
  // A generation below the clock's resolution at that reading.
  EXPECT_EQ(make(1.0, 4, 1.0e20), StatusCode::InvalidArgument);
  EXPECT_EQ(make(60.0, 2, 1.7e12), StatusCode::Ok);

  // Through the registry: defaults, and the options refused by other types.
  CoreFilterOptions options;
  options.capacity = 100;
  options.falsePositiveRate = 0.01;
  Result<std::unique_ptr<AnyFilter>> made = createFilter(FilterType::ExpiringBloom, options);
  ASSERT_TRUE(made.isOk()) << made.status().message();
  const ExpiringBloomFilter* expiring = made.value()->as<ExpiringBloomFilter>();
  ASSERT_NE(expiring, nullptr);
  EXPECT_EQ(expiring->window(), ExpiringBloomFilter::kDefaultWindow);
  EXPECT_EQ(expiring->generationCount(), ExpiringBloomFilter::kDefaultGenerations);
  options.generations = 1;
  EXPECT_EQ(createFilter(FilterType::ExpiringBloom, options).status().code(), StatusCode::InvalidArgument);
  options.generations = int64_t{1} << 40;
  EXPECT_EQ(createFilter(FilterType::ExpiringBloom, options).status().code(), StatusCode::InvalidArgument);
  options.generations.reset();
  options.bucketSize = 4;
  EXPECT_EQ(createFilter(FilterType::ExpiringBloom, options).status().code(), StatusCode::InvalidArgument);
  CoreFilterOptions bloom;
  bloom.capacity = 100;
  bloom.falsePositiveRate = 0.01;
  bloom.window = 60.0;
  EXPECT_EQ(createFilter(FilterType::Bloom, bloom).status().code(), StatusCode::InvalidArgument);
  bloom.window.reset();
  bloom.generations = 3;
  EXPECT_EQ(createFilter(FilterType::Cuckoo, bloom).status().code(), StatusCode::InvalidArgument);
}

TEST(ExpiringBloomFilter, MidWindowBytesReadBackWithTheClockAndAnswerIdentically) {
  ExpiringBloomFilter filter = makeFilter(500, 0.01, 0.0);
  for (uint64_t now = 0; now < 50; ++now) {
    advanceTo(filter, static_cast<double>(now));
    for (uint64_t j = 0; j < 10; ++j) filter.add(presentKey(now * 10 + j));
  }
  const std::vector<uint8_t> bytes = filter.serialize();
  ExpiringBloomFilter read = valueOrFail(ExpiringBloomFilter::deserialize(bytes.data(), bytes.size()), "deserialize");
  EXPECT_EQ(read.serialize(), bytes) << "round trip to the same bytes";
  EXPECT_EQ(read.generationStart(), filter.generationStart());
  EXPECT_EQ(read.count(), filter.count());
  // Both walk on: the same answers at every time for present and absent keys.
  for (double now = 50.0; now <= 140.0; now += 5.0) {
    advanceTo(filter, now);
    advanceTo(read, now);
    for (uint64_t i = 0; i < 500; i += 3) ASSERT_EQ(read.has(presentKey(i)), filter.has(presentKey(i))) << now;
    for (uint64_t i = 0; i < 2000; ++i) ASSERT_EQ(read.has(absentKey(i)), filter.has(absentKey(i))) << now;
  }
}

TEST(ExpiringBloomFilter, DamagedOrInconsistentBytesAreCorrupt) {
  ExpiringBloomFilter filter = makeFilter(50, 0.01, 0.0);
  filter.add("a");
  const std::vector<uint8_t> bytes = filter.serialize();
  // Rewrites a parameter field and the checksum, so only the type's own checks can object.
  auto withParam = [&bytes](size_t offset, const std::vector<uint8_t>& value) {
    std::vector<uint8_t> damaged = bytes;
    for (size_t i = 0; i < value.size(); ++i) damaged[56 + offset + i] = value[i];
    const uint64_t checksum = formatChecksum(damaged.data(), damaged.size() - 8);
    for (size_t i = 0; i < 8; ++i) damaged[damaged.size() - 8 + i] = static_cast<uint8_t>(checksum >> (8 * i));
    return ExpiringBloomFilter::deserialize(damaged.data(), damaged.size()).status().code();
  };
  auto f64 = [](double value) {
    const uint64_t bits = doubleBits(value);
    std::vector<uint8_t> out(8);
    for (size_t i = 0; i < 8; ++i) out[i] = static_cast<uint8_t>(bits >> (8 * i));
    return out;
  };
  EXPECT_EQ(withParam(0, f64(0.0)), StatusCode::Corrupt) << "window 0";
  EXPECT_EQ(withParam(0, f64(std::nan(""))), StatusCode::Corrupt) << "window NaN";
  EXPECT_EQ(withParam(8, f64(std::numeric_limits<double>::infinity())), StatusCode::Corrupt) << "start";
  EXPECT_EQ(withParam(16, {1, 0, 0, 0}), StatusCode::Corrupt) << "1 generation";
  EXPECT_EQ(withParam(16, {3, 0, 0, 0}), StatusCode::Corrupt) << "3 generations, 4 blobs";
  EXPECT_EQ(withParam(16, {5, 0, 0, 0}), StatusCode::Corrupt) << "5 generations, 4 blobs";
  EXPECT_EQ(withParam(20, {1, 0, 0, 0}), StatusCode::Corrupt) << "reserved";
  std::vector<uint8_t> truncated(bytes.begin(), bytes.end() - 1);
  EXPECT_NE(ExpiringBloomFilter::deserialize(truncated.data(), truncated.size()).status().code(), StatusCode::Ok);
  ASSERT_TRUE(ExpiringBloomFilter::deserialize(bytes.data(), bytes.size()).isOk());
}

TEST(ExpiringBloomFilter, HashesOnceAndProbesEveryGenerationWithTheSameHash) {
  ExpiringBloomFilter filter = makeFilter(100, 0.01, 0.0);
  const KeyHash hash = filter.hashOf("k");
  filter.add(hash);
  advanceTo(filter, 25.0);  // the key's generation is now one old
  EXPECT_TRUE(filter.generation(1).has(hash));
  EXPECT_FALSE(filter.generation(0).has(hash));
  EXPECT_TRUE(filter.has(hash));
  for (uint32_t age = 0; age < filter.generationCount(); ++age) EXPECT_EQ(filter.generation(age).seed(), filter.seed());
}

}  // namespace
