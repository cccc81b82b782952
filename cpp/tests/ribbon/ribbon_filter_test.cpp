// Tests for cuckoo_bloom/ribbon/ribbon_filter.h: the static Ribbon filter.
#include "cuckoo_bloom/ribbon/ribbon_filter.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "cuckoo_bloom/core/format.h"
#include "cuckoo_bloom/core/hashing.h"
#include "cuckoo_bloom/registry/any_filter.h"
#include "support/static_filter_support.h"
#include "support/test_keys.h"

namespace cuckoo_bloom {
namespace {

using namespace cuckoo_bloom_test;

RibbonFilterOptions ribbonOptions(double rate, uint64_t seed = 0) {
  RibbonFilterOptions options;
  options.falsePositiveRate = rate;
  options.seed = seed;
  return options;
}

// A parameter block from its fields, in wire order.
RibbonFilter::Params ribbonParams(uint64_t constructionSeed, uint32_t blockCount, uint32_t upperStartBlock,
                                  uint8_t lowerColumns) {
  return {constructionSeed, blockCount, upperStartBlock, lowerColumns};
}

RibbonFilter buildOrFail(const RibbonFilterOptions& options, const std::vector<KeyHash>& hashes) {
  return cuckoo_bloom_test::buildOrFail<RibbonFilter>(options, hashes, ribbonOptions(0.01));
}

// The information bound: log2(1 / rate) bits per key.
double boundOf(double rate) { return std::log2(1.0 / rate); }
double bitsPerKey(const RibbonFilter& filter, uint64_t keys) { return filter.byteLength() * 8.0 / static_cast<double>(keys); }

// ---------------------------------------------------------------- no false negatives

TEST(RibbonFilter, EverySmallSetIsBuiltAndFindsEveryKey) {
  // Every size up to 300 and a few beyond, at three rates and three seeds:
  // small sets are where the band's end is most of the table.
  std::vector<uint64_t> sizes;
  for (uint64_t n = 0; n <= 300; ++n) sizes.push_back(n);
  for (uint64_t n : {511, 512, 1000, 4097, 20000}) sizes.push_back(n);
  for (const double rate : {0.5, 0.01, 3.3e-5}) {
    for (const uint64_t seed : {0ull, 1ull, 0xDEADBEEFull}) {
      for (const uint64_t n : sizes) {
        const std::vector<KeyHash> hashes = presentHashes(n, seed);
        const RibbonFilter filter = buildOrFail(ribbonOptions(rate, seed), hashes);
        ASSERT_EQ(missingOf(filter, hashes), 0u) << "n=" << n << " rate=" << rate << " seed=" << seed;
        ASSERT_EQ(filter.count(), n);
      }
    }
  }
}

// ---------------------------------------------------------------- rate and size at the bound

// 1M keys at the rates: no key missing, bits per key at most 1.08x
// log2(1 / rate), the estimate at or under the target, and the rate measured
// on 1M keys never added within 5 standard deviations (Poisson) of the
// estimate. Fixed seeds: the same bytes every run.
struct RateCase {
  double rate;
  double maxBitsPerKey;  // 1.08 log2(1 / rate), and the 7.2 / 10.8
};

TEST(RibbonFilter, MillionKeysAtTheBoundWithTheirRate) {
  constexpr uint64_t kKeys = 1000000;
  const std::vector<KeyHash> hashes = randomHashes(kKeys, 45);
  const std::vector<KeyHash> absent = randomHashes(kKeys, 4545);
  for (const RateCase& c : {RateCase{0.01, 7.2}, RateCase{0.001, 10.8}, RateCase{3.3e-5, 1.08 * boundOf(3.3e-5)}}) {
    const RibbonFilter filter = buildOrFail(ribbonOptions(c.rate, 7), hashes);
    ASSERT_EQ(missingOf(filter, hashes), 0u) << c.rate;
    const double bits = bitsPerKey(filter, kKeys);
    EXPECT_LE(bits, c.maxBitsPerKey) << c.rate;
    EXPECT_LE(bits, 1.08 * boundOf(c.rate)) << c.rate;
    const double estimate = filter.estimatedFalsePositiveRate();
    EXPECT_LE(estimate, c.rate * (1 + 1e-9)) << c.rate;
    EXPECT_GE(estimate, c.rate * 0.97) << c.rate;  // the mix of widths spends no more than it must
    uint64_t found = 0;
    for (const KeyHash& hash : absent) found += filter.has(hash) ? 1 : 0;
    const double expected = estimate * kKeys;
    EXPECT_LE(static_cast<double>(found), expected + 5 * std::sqrt(expected) + 1) << c.rate;
    EXPECT_GE(static_cast<double>(found), expected - 5 * std::sqrt(expected) - 1) << c.rate;
    cuckoo_bloom_test::reportMeasurement("ribbon", c.rate, kKeys, bits, static_cast<double>(found) / kKeys, estimate);
  }
}

TEST(RibbonFilter, StringKeysMeetTheTargetRate) {
  constexpr uint64_t kKeys = 100000;
  const RibbonFilter filter = buildOrFail(ribbonOptions(0.01, 3), presentHashes(kKeys, 3));
  const uint64_t found = cuckoo_bloom_test::countAbsentFound(filter, 1000000);
  const double expected = filter.estimatedFalsePositiveRate() * 1e6;  // ~10,000: sd 100
  EXPECT_LE(static_cast<double>(found), expected + 500);
  EXPECT_GE(static_cast<double>(found), expected - 500);
}

TEST(RibbonFilter, WidthsMixToTheRate) {
  // A power of two takes one width; a rate between two takes both, the wider from upperStartBlock on.
  EXPECT_EQ(RibbonFilter::lowerColumnsFor(0.5), 1u);
  EXPECT_EQ(RibbonFilter::lowerColumnsFor(0.9), 1u);
  EXPECT_EQ(RibbonFilter::lowerColumnsFor(1.0 / 128), 7u);
  EXPECT_EQ(RibbonFilter::lowerColumnsFor(0.01), 6u);
  EXPECT_EQ(RibbonFilter::lowerColumnsFor(0.001), 9u);
  EXPECT_EQ(RibbonFilter::lowerColumnsFor(std::ldexp(1.0, -32)), 32u);
  EXPECT_EQ(RibbonFilter::lowerColumnsFor(std::ldexp(1.0, -33)), 0u);
  const std::vector<KeyHash> hashes = randomHashes(100000, 8);
  EXPECT_EQ(buildOrFail(ribbonOptions(1.0 / 128), hashes).upperStartBlock(),
            buildOrFail(ribbonOptions(1.0 / 128), hashes).blockCount());
  // Between 2^-6 and 2^-7 the bits per key rise with 1 / rate, a fraction of a bit at a time.
  double previous = 0;
  for (const double rate : {0.015, 0.0125, 0.01, 0.009, 0.008}) {
    const RibbonFilter filter = buildOrFail(ribbonOptions(rate), hashes);
    EXPECT_EQ(filter.lowerColumns(), 6u) << rate;
    EXPECT_LT(filter.upperStartBlock(), filter.blockCount()) << rate;
    EXPECT_LE(filter.estimatedFalsePositiveRate(), rate) << rate;
    const double bits = bitsPerKey(filter, hashes.size());
    EXPECT_GT(bits, previous) << rate;
    EXPECT_LE(bits, 1.08 * boundOf(rate)) << rate;
    previous = bits;
  }
}

TEST(RibbonFilter, BytesDependOnTheKeySetAndOptionsNotTheOrder) {
  const std::vector<KeyHash> hashes = presentHashes(5000, 4);
  EXPECT_EQ(buildOrFail(ribbonOptions(0.001, 4), hashes).serialize(), buildOrFail(ribbonOptions(0.001, 4), hashes).serialize());
  // Any order of the keys: the same bytes (rows are added in order of their mixed word).
  std::vector<KeyHash> shuffled = hashes;
  std::shuffle(shuffled.begin(), shuffled.end(), std::mt19937_64(1));
  EXPECT_EQ(buildOrFail(ribbonOptions(0.001, 4), shuffled).serialize(), buildOrFail(ribbonOptions(0.001, 4), hashes).serialize());
  std::reverse(shuffled.begin(), shuffled.end());
  EXPECT_EQ(buildOrFail(ribbonOptions(0.001, 4), shuffled).serialize(), buildOrFail(ribbonOptions(0.001, 4), hashes).serialize());
  EXPECT_NE(buildOrFail(ribbonOptions(0.001, 4), hashes).constructionSeed(),
            buildOrFail(ribbonOptions(0.001, 5), hashes).constructionSeed());
}

// ---------------------------------------------------------------- options and registry

TEST(RibbonFilterOptions, InvalidOptionsAreInvalidArgument) {
  const std::vector<KeyHash> hashes = presentHashes(10, 0);
  for (const double rate : {0.0, 1.0, -0.5, 2.0, std::nan(""), std::ldexp(1.0, -33)}) {
    EXPECT_EQ(RibbonFilter::build(ribbonOptions(rate), hashes.data(), hashes.size()).status().code(),
              StatusCode::InvalidArgument)
        << rate;
  }
  EXPECT_EQ(RibbonFilter::build(ribbonOptions(0.01), nullptr, 3).status().code(), StatusCode::InvalidArgument);
}

TEST(RibbonFilterOptions, TheRegistryBuildsItAndRefusesToCreateIt) {
  CoreFilterOptions options;
  options.falsePositiveRate = 0.001;
  options.seed = 9;
  const std::vector<KeyHash> hashes = presentHashes(2000, 9);
  Result<std::unique_ptr<AnyFilter>> built = buildFilter(FilterType::Ribbon, options, hashes.data(), hashes.size());
  ASSERT_TRUE(built.isOk()) << built.status().message();
  EXPECT_EQ(built.value()->header().itemCount, 2000u);
  for (uint64_t i = 0; i < 2000; ++i) ASSERT_TRUE(built.value()->has(hashes[i]));
  EXPECT_EQ(built.value()->add(hashes[0]).code(), StatusCode::Unsupported);
  options.capacity = 100;
  EXPECT_EQ(createFilter(FilterType::Ribbon, options).status().code(), StatusCode::Unsupported);
  // It takes no option of its own: one of another type's is refused.
  options.fingerprintBits = 8;
  EXPECT_EQ(buildFilter(FilterType::Ribbon, options, hashes.data(), hashes.size()).status().code(),
            StatusCode::InvalidArgument);
}

// ---------------------------------------------------------------- format

TEST(RibbonFilterFormat, RoundTripsByteForByte) {
  for (const double rate : {0.5, 0.01, 0.001, 3.3e-5, std::ldexp(1.0, -32)}) {
    const std::vector<KeyHash> keys = presentHashes(3000, 2);
    expectRoundTrip(buildOrFail(ribbonOptions(rate, 2), keys), keys);
  }
}

// A blob with the given parameters and a random payload of the size they
// imply (the reader's other checks pass), its checksum valid.
std::vector<uint8_t> forgedBlob(const RibbonFilter::Params& params, uint64_t itemCount, uint64_t fill) {
  // Every payload bit is a solution bit: no padding to clear.
  return cuckoo_bloom_test::forgedBlob<RibbonFilter>(FilterType::Ribbon, params, itemCount, fill, [](std::vector<uint8_t>&) {});
}

TEST(RibbonFilterFormat, EveryAcceptedGeometryIsSafeToQuery) {
  // Block counts from the smallest, every width, the wider blocks from
  // anywhere: lookups stay inside the payload (the sanitizer build would
  // report a read past it) and the bytes are written back as read.
  for (const uint32_t blocks : {2u, 3u, 5u, 64u}) {
    for (const uint8_t lower : {1, 6, 31, 32}) {
      for (const uint32_t upperStart : {0u, 1u, blocks - 1, blocks}) {
        if (lower == 32 && upperStart != blocks) continue;  // 33 columns: refused below
        const RibbonFilter::Params params = ribbonParams(0x1234 + blocks, blocks, upperStart, lower);
        ASSERT_NO_FATAL_FAILURE(expectSafeToQuery(forgedBlob(params, 1, blocks * 31 + lower), 2000));
      }
    }
  }
}

TEST(RibbonFilterFormat, InconsistentParametersAreCorrupt) {
  const RibbonFilter::Params good = ribbonParams(9, 4, 2, 6);
  const std::vector<uint8_t> goodBytes = forgedBlob(good, 10, 1);
  ASSERT_TRUE(deserializeFilter(goodBytes.data(), goodBytes.size()).isOk());
  const auto codeOf = [](const RibbonFilter::Params& params, uint64_t itemCount) {
    const std::vector<uint8_t> bytes = forgedBlob(params, itemCount, 1);
    return deserializeFilter(bytes.data(), bytes.size()).status().code();
  };
  RibbonFilter::Params p = good;
  p.lowerColumns = 0;
  EXPECT_EQ(codeOf(p, 10), StatusCode::Corrupt);
  p = good;
  p.lowerColumns = 32;  // with wider blocks: 33 columns
  EXPECT_EQ(codeOf(p, 10), StatusCode::Corrupt);
  p = good;
  p.upperStartBlock = 5;
  EXPECT_EQ(codeOf(p, 10), StatusCode::Corrupt);
  p = good;
  p.blockCount = 1;  // no start fits 128 slots
  p.upperStartBlock = 1;
  EXPECT_EQ(codeOf(p, 1), StatusCode::Corrupt);
  p = good;
  p.blockCount = 0;  // empty, but with a construction seed
  p.upperStartBlock = 0;
  EXPECT_EQ(codeOf(p, 0), StatusCode::Corrupt);
  EXPECT_EQ(codeOf(good, 4 * 64 + 1), StatusCode::Corrupt);  // more keys than slots
  {
    // A payload of another size than the parameters say.
    const std::vector<uint8_t> bytes = encodeBlob(forgedHeader(FilterType::Ribbon, 10), encodeParams(good),
                                                  std::vector<uint8_t>(RibbonFilter::payloadWordsOf(good) * 8 - 8));
    EXPECT_EQ(deserializeFilter(bytes.data(), bytes.size()).status().code(), StatusCode::Corrupt);
  }

  // Damaged bytes of a built filter: core/static_table_filter_test.cpp.
}

}  // namespace
}  // namespace cuckoo_bloom
