// Golden bytes of the composite filter types (17, 18, 19): each is rebuilt
// from its documented recipe (tests/golden/README.md) and compared byte for
// byte with the checked-in file, then read back with every key found. The
// JS suite (tests/core/golden.test.mjs) rebuilds the same filters through wasm.
// CUCKOO_BLOOM_UPDATE_GOLDEN=1 rewrites the files, as for FormatGolden.*.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include "cuckoo_bloom/registry/any_filter.h"
#include "support/test_keys.h"

#ifndef CUCKOO_BLOOM_GOLDEN_DIR
#error "CUCKOO_BLOOM_GOLDEN_DIR must be defined by the build (CMakeLists.txt)"
#endif

namespace {

using namespace cuckoo_bloom;
using Bytes = std::vector<uint8_t>;
using cuckoo_bloom_test::goldenKey;
using cuckoo_bloom_test::valueOrFail;

constexpr uint64_t kGoldenKeys = 50;

// initial capacity 20 (so the 50 keys make a chain of links), rate 0.01,
// seed 42, the other options at their defaults; the same recipe for both chains.
template <typename Chain, typename ChainOptions>
Bytes buildScalable() {
  ChainOptions options;
  options.initialCapacity = 20;
  options.falsePositiveRate = 0.01;
  options.seed = 42;
  Chain filter = valueOrFail(Chain::create(options), "create");
  for (uint64_t i = 0; i < kGoldenKeys; ++i) EXPECT_TRUE(filter.add(goldenKey(i)).isOk());
  return filter.serialize();
}
const auto buildScalableBloom = buildScalable<ScalableBloomFilter, ScalableBloomFilterOptions>;
const auto buildScalableCuckoo = buildScalable<ScalableCuckooFilter, ScalableCuckooFilterOptions>;

// capacity 100, rate 0.01, seed 42, window 60, 4 generations, started at 0;
// keys 0..24 at time 0, then advance(25) (one generation dropped: start 20),
// keys 25..49.
Bytes buildExpiringBloom() {
  ExpiringBloomFilterOptions options;
  options.capacity = 100;
  options.falsePositiveRate = 0.01;
  options.window = 60.0;
  options.generations = 4;
  options.startTime = 0.0;
  options.seed = 42;
  ExpiringBloomFilter filter = valueOrFail(ExpiringBloomFilter::create(options), "create");
  for (uint64_t i = 0; i < 25; ++i) filter.add(goldenKey(i));
  EXPECT_EQ(filter.advance(25.0).value(), 1u);
  for (uint64_t i = 25; i < kGoldenKeys; ++i) filter.add(goldenKey(i));
  return filter.serialize();
}

struct CompositeKind {
  const char* file;
  FilterType type;
  std::function<Bytes()> build;
};

const std::vector<CompositeKind>& compositeKinds() {
  static const std::vector<CompositeKind> all = {
      {"scalable-bloom.cbf", FilterType::ScalableBloom, buildScalableBloom},
      {"scalable-cuckoo.cbf", FilterType::ScalableCuckoo, buildScalableCuckoo},
      {"expiring-bloom.cbf", FilterType::ExpiringBloom, buildExpiringBloom},
  };
  return all;
}

std::string goldenPath(const CompositeKind& kind) { return std::string(CUCKOO_BLOOM_GOLDEN_DIR) + "/" + kind.file; }

bool updateGolden() {
  const char* value = std::getenv("CUCKOO_BLOOM_UPDATE_GOLDEN");
  return value != nullptr && std::string(value) == "1";
}

TEST(CompositeGolden, FreshBytesEqualTheCheckedInFilesAndReadBackWithEveryKey) {
  for (const CompositeKind& kind : compositeKinds()) {
    SCOPED_TRACE(kind.file);
    const Bytes fresh = kind.build();
    if (updateGolden()) {
      std::ofstream out(goldenPath(kind), std::ios::binary | std::ios::trunc);
      ASSERT_TRUE(out) << "cannot write " << goldenPath(kind);
      out.write(reinterpret_cast<const char*>(fresh.data()), static_cast<std::streamsize>(fresh.size()));
      ASSERT_TRUE(out.good());
    }
    std::ifstream in(goldenPath(kind), std::ios::binary);
    ASSERT_TRUE(in) << goldenPath(kind) << " is missing: run with CUCKOO_BLOOM_UPDATE_GOLDEN=1";
    const Bytes stored((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    ASSERT_EQ(stored, fresh) << goldenPath(kind);
    Result<std::unique_ptr<AnyFilter>> read = deserializeFilter(stored.data(), stored.size());
    ASSERT_TRUE(read.isOk()) << read.status().message();
    EXPECT_EQ(read.value()->type(), kind.type);
    EXPECT_EQ(read.value()->header().itemCount, kGoldenKeys);
    for (uint64_t i = 0; i < kGoldenKeys; ++i) {
      const std::string key = goldenKey(i);
      EXPECT_TRUE(read.value()->has(reinterpret_cast<const uint8_t*>(key.data()), key.size())) << key;
    }
    EXPECT_EQ(read.value()->serialize(), stored);
  }
}

// Bytes an earlier writer made, which today's writer makes differently:
//   first-failure-sizing/  semi-sorted cuckoo filters sized to the first-failure
//                          load, before the rated load 0.92 (a filter stores its
//                          bucket count, so it reads whatever sized it);
//   random-walk/           cuckoo walks that evicted a random resident, before
//                          the one-step lookahead (where a walk put fingerprints
//                          is the writer's choice; readers look in both buckets).
// Each must read, find every key and write back unchanged.
TEST(CompositeGolden, BytesOfEarlierWritersStillRead) {
  for (const char* file : {"first-failure-sizing/cuckoo.cbf", "random-walk/scalable-cuckoo.cbf"}) {
    SCOPED_TRACE(file);
    std::ifstream in(std::string(CUCKOO_BLOOM_GOLDEN_DIR) + "/" + file, std::ios::binary);
    ASSERT_TRUE(in);
    const Bytes stored((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    Result<std::unique_ptr<AnyFilter>> read = deserializeFilter(stored.data(), stored.size());
    ASSERT_TRUE(read.isOk()) << read.status().message();
    EXPECT_EQ(read.value()->header().itemCount, kGoldenKeys);
    for (uint64_t i = 0; i < kGoldenKeys; ++i) {
      const std::string key = goldenKey(i);
      EXPECT_TRUE(read.value()->has(reinterpret_cast<const uint8_t*>(key.data()), key.size())) << key;
    }
    EXPECT_EQ(read.value()->serialize(), stored);
    // Today's writer makes the same filter differently (the files must differ, or this tests nothing).
    const std::string name = std::string(file).substr(std::string(file).find('/') + 1);
    std::ifstream current(std::string(CUCKOO_BLOOM_GOLDEN_DIR) + "/" + name, std::ios::binary);
    const Bytes fresh((std::istreambuf_iterator<char>(current)), std::istreambuf_iterator<char>());
    EXPECT_NE(fresh, stored);
  }
}

TEST(CompositeGolden, TheChainsHaveTheDocumentedShape) {
  const Bytes scalable = buildScalableBloom();
  const ScalableBloomFilter chain = valueOrFail(ScalableBloomFilter::deserialize(scalable.data(), scalable.size()), "read");
  EXPECT_EQ(chain.linkCount(), 2u) << "links of 20 and 40 keys hold 50";
  const Bytes expiring = buildExpiringBloom();
  const ExpiringBloomFilter generations =
      valueOrFail(ExpiringBloomFilter::deserialize(expiring.data(), expiring.size()), "read");
  EXPECT_EQ(generations.generationStart(), 20.0);
  EXPECT_EQ(generations.generation(0).count(), 25u);
  EXPECT_EQ(generations.generation(1).count(), 25u);
}

}  // namespace
