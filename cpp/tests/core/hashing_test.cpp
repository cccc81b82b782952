// Tests for cuckoo_bloom/hashing.h: the key hash and every position derivation.
#include "cuckoo_bloom/core/hashing.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace cuckoo_bloom {
namespace {

KeyHash hashOf(const std::string& text, uint64_t seed) {
  return hashKey(reinterpret_cast<const uint8_t*>(text.data()), text.size(), seed);
}

// hashKey() is XXH3-64 with the filter's seed (low) plus a second word
// high = mix64(low ^ 0x9E3779B97F4A7C15) (hashing.h, docs/FORMAT.md).
// The expected values below were not produced by the code under test:
//  - low: the reference tool `xxhsum -H3 FILE` (xxhsum 0.8.1, Debian package
//    `xxhash`), which prints XXH3-64 with seed 0:
//      printf 'abc' > f && xxhsum -H3 f  ->  78af5f94892f3950
//      printf ''    > f && xxhsum -H3 f  ->  2d06800538d394c2
//      bytes (i*7+3)&0xff for i in 0..299 (a 300-byte input, XXH3's long-input
//      path)                              ->  fd9aa0f0d62e0227
//  - high: the SplitMix64 finalizer applied to low ^ 0x9E3779B97F4A7C15 in an
//    independent Python script.
// (XXH3-128 was the hash of the first format draft; `xxhsum -H2` would check it.)
TEST(HashKey, MatchesXxhsumReferenceVectorsForXxh3_64) {
  const KeyHash abc = hashOf("abc", 0);
  EXPECT_EQ(abc.low, 0x78af5f94892f3950ull);
  EXPECT_EQ(abc.high, 0x9eaf982feac12059ull);

  const KeyHash empty = hashKey(nullptr, 0, 0);
  EXPECT_EQ(empty.low, 0x2d06800538d394c2ull);
  EXPECT_EQ(empty.high, 0x29ace27253cc6fd3ull);

  std::vector<uint8_t> longInput(300);
  for (size_t i = 0; i < longInput.size(); ++i) longInput[i] = static_cast<uint8_t>((i * 7 + 3) & 0xff);
  const KeyHash longHash = hashKey(longInput.data(), longInput.size(), 0);
  EXPECT_EQ(longHash.low, 0xfd9aa0f0d62e0227ull);
  EXPECT_EQ(longHash.high, 0xbeddc43dada5f5daull);
}

TEST(HashKey, SeedChangesTheHashAndIsDeterministic) {
  const KeyHash a = hashOf("https://example.com/", 1);
  const KeyHash b = hashOf("https://example.com/", 2);
  const KeyHash a2 = hashOf("https://example.com/", 1);
  EXPECT_TRUE(a.low != b.low || a.high != b.high);
  EXPECT_EQ(a.low, a2.low);
  EXPECT_EQ(a.high, a2.high);
}

TEST(MultiplyHigh64, KnownProducts) {
  EXPECT_EQ(multiplyHigh64(0, 12345), 0u);
  EXPECT_EQ(multiplyHigh64(uint64_t{1} << 63, 2), 1u);
  EXPECT_EQ(multiplyHigh64(uint64_t{1} << 32, uint64_t{1} << 32), 1u);
  // (2^64-1)^2 = 2^128 - 2^65 + 1: high half 2^64 - 2.
  EXPECT_EQ(multiplyHigh64(UINT64_MAX, UINT64_MAX), UINT64_MAX - 1);
  EXPECT_EQ(multiplyHigh64(0x123456789ABCDEF0ull, 0x0FEDCBA987654321ull), 0x0121FA00AD77D742ull);
}

TEST(ReduceRange, AlwaysBelowNForSmallAndLargeN) {
  std::mt19937_64 random(20240501);
  std::vector<uint64_t> sizes = {1,
                                 2,
                                 3,
                                 7,
                                 64,
                                 1000,
                                 959,
                                 0xFFFFFFFFull,
                                 0x100000000ull,
                                 0x100000001ull,
                                 uint64_t{1} << 40,
                                 (uint64_t{1} << 48) + 12345,
                                 UINT64_MAX / 3,
                                 UINT64_MAX};
  for (int i = 0; i < 200; ++i) sizes.push_back(random() >> (random() % 64) | 1);
  for (const uint64_t n : sizes) {
    const std::vector<uint64_t> extremes = {
        0, 1, UINT64_MAX, UINT64_MAX - 1, uint64_t{1} << 63, 0xFFFFFFFF00000000ull, 0x00000000FFFFFFFFull};
    for (const uint64_t h : extremes) {
      ASSERT_LT(reduceRange(h, n), n) << "h=" << h << " n=" << n;
    }
    for (int j = 0; j < 2000; ++j) {
      const uint64_t h = random();
      ASSERT_LT(reduceRange(h, n), n) << "h=" << h << " n=" << n;
    }
    // The extremes map to the ends of the range: a multiply-shift, not a modulo.
    EXPECT_EQ(reduceRange(0, n), 0u);
    EXPECT_EQ(reduceRange(UINT64_MAX, n), n - 1) << "n=" << n;
  }
}

TEST(ReduceRange, IsRoughlyUniform) {
  // 100 bins, 1,000,000 hashes: each bin expects 10,000 (sd 99.5); 6 sd margin.
  constexpr uint64_t kBins = 100;
  std::vector<uint64_t> counts(kBins);
  std::mt19937_64 random(7);
  for (int i = 0; i < 1000000; ++i) ++counts[reduceRange(random(), kBins)];
  for (uint64_t c : counts) {
    EXPECT_GT(c, 10000u - 600u);
    EXPECT_LT(c, 10000u + 600u);
  }
}

TEST(CuckooFingerprint, NeverZeroAndFitsEveryWidth) {
  std::mt19937_64 random(99);
  for (uint32_t bits = 4; bits <= 32; ++bits) {
    const uint64_t maxValue = (uint64_t{1} << bits) - 1;
    std::vector<uint64_t> highs = {
        0, 1, UINT64_MAX, 0xFFFFFFFFull, 0xFFFFFFFF00000000ull, 0x0000000100000000ull};
    for (int i = 0; i < 20000; ++i) highs.push_back(random());
    for (const uint64_t high : highs) {
      const uint32_t fp = cuckooFingerprint({random(), high}, bits);
      ASSERT_NE(fp, 0u) << "bits=" << bits << " high=" << high;
      ASSERT_LE(fp, maxValue) << "bits=" << bits << " high=" << high;
    }
    // Both ends of 1..2^f-1 are reachable.
    EXPECT_EQ(cuckooFingerprint({0, 0}, bits), 1u);
    EXPECT_EQ(cuckooFingerprint({0, UINT64_MAX}, bits), maxValue);
  }
}

TEST(CuckooAltBucketIndexXor, SymmetricAndNeverTheSameBucket) {
  std::mt19937_64 random(12345);
  for (uint32_t logBuckets = 1; logBuckets <= 48; ++logBuckets) {
    const uint64_t bucketCount = uint64_t{1} << logBuckets;
    for (int i = 0; i < 5000; ++i) {
      const uint64_t bucket = random() & (bucketCount - 1);
      // Every fingerprint value class: small ones (the 4-bit widths) and 32-bit ones.
      const uint32_t fingerprint =
          (i < 2000) ? static_cast<uint32_t>(i % 15 + 1) : static_cast<uint32_t>(random() | 1);
      const uint64_t alt = cuckooAltBucketIndexXor(bucket, fingerprint, bucketCount);
      ASSERT_NE(alt, bucket) << "buckets=" << bucketCount << " fp=" << fingerprint;
      ASSERT_LT(alt, bucketCount);
      ASSERT_EQ(cuckooAltBucketIndexXor(alt, fingerprint, bucketCount), bucket)
          << "buckets=" << bucketCount << " fp=" << fingerprint << " bucket=" << bucket;
    }
  }
  // All 2^16-1 sixteen-bit fingerprints against the smallest table (2 buckets).
  for (uint32_t fp = 1; fp < (1u << 16); ++fp) {
    ASSERT_EQ(cuckooAltBucketIndexXor(0, fp, 2), 1u);
    ASSERT_EQ(cuckooAltBucketIndexXor(1, fp, 2), 0u);
  }
}

TEST(CuckooBucketIndexXor, IsTheLowHalfMasked) {
  EXPECT_EQ(cuckooBucketIndexXor({0xABCDEF12345ull, 0}, 0x1000), 0x345u);
  EXPECT_EQ(cuckooBucketIndexXor({UINT64_MAX, 0}, 2), 1u);
}

// Version 2 addressing works for any even bucket count: the alternate bucket
// is an involution, in range, and never the bucket itself.
TEST(CuckooAltBucketIndexModulo, InvolutionForEveryEvenBucketCount) {
  std::mt19937_64 random(777);
  std::vector<uint64_t> bucketCounts = {2, 4, 6, 10, 100, 264, 1000, 65538, (uint64_t{1} << 32) + 16,
                                        (uint64_t{1} << 40) - 2};
  for (int i = 0; i < 40; ++i) bucketCounts.push_back(2 + 2 * (random() % 2500000));
  for (const uint64_t bucketCount : bucketCounts) {
    for (int i = 0; i < 3000; ++i) {
      const uint64_t bucket = random() % bucketCount;
      const uint32_t fingerprint =
          (i < 1000) ? static_cast<uint32_t>(i % 15 + 1) : static_cast<uint32_t>(random() | 1);
      const uint64_t alt = cuckooAltBucketIndexModulo(bucket, fingerprint, bucketCount);
      ASSERT_LT(alt, bucketCount);
      ASSERT_NE(alt, bucket) << "buckets=" << bucketCount << " fp=" << fingerprint;
      ASSERT_EQ(cuckooAltBucketIndexModulo(alt, fingerprint, bucketCount), bucket)
          << "buckets=" << bucketCount << " fp=" << fingerprint << " bucket=" << bucket;
    }
  }
  // Exhaustively on small tables: every bucket, many fingerprints.
  for (const uint64_t bucketCount : {uint64_t{2}, uint64_t{6}, uint64_t{100}, uint64_t{264}}) {
    for (uint32_t fp = 1; fp < 300; ++fp) {
      for (uint64_t bucket = 0; bucket < bucketCount; ++bucket) {
        const uint64_t alt = cuckooAltBucketIndexModulo(bucket, fp, bucketCount);
        ASSERT_NE(alt, bucket);
        ASSERT_EQ(cuckooAltBucketIndexModulo(alt, fp, bucketCount), bucket);
      }
    }
  }
}

TEST(CuckooBucketIndexModulo, CoversTheWholeRangeEvenly) {
  constexpr uint64_t kBuckets = 1000;
  std::vector<uint64_t> hits(kBuckets, 0);
  std::mt19937_64 random(99);
  for (int i = 0; i < 1000000; ++i) {
    const uint64_t bucket = cuckooBucketIndexModulo({random(), 0}, kBuckets);
    ASSERT_LT(bucket, kBuckets);
    ++hits[bucket];
  }
  // 1000 hits expected per bucket; 6 standard deviations (sqrt(1000) ~ 32) either side.
  for (const uint64_t count : hits) {
    EXPECT_GT(count, 810u);
    EXPECT_LT(count, 1190u);
  }
}

TEST(BloomProbeIndex, StaysInRangeAndFollowsDoubleHashing) {
  std::mt19937_64 random(5);
  const std::vector<uint64_t> sizes = {1, 959, 9585059, uint64_t{1} << 33};
  for (const uint64_t slots : sizes) {
    for (int i = 0; i < 2000; ++i) {
      const KeyHash hash{random(), random()};
      for (uint32_t probe = 0; probe < 64; ++probe) {
        const uint64_t index = bloomProbeIndex(hash, probe, slots);
        ASSERT_LT(index, slots);
        ASSERT_EQ(index, reduceRange(hash.low + probe * hash.high, slots));
      }
    }
  }
}

TEST(BlockedWordMask, SetsExactlyOneBitPerWord) {
  std::mt19937_64 random(6);
  for (int i = 0; i < 10000; ++i) {
    const KeyHash hash{random(), random()};
    for (uint32_t word = 0; word < kBlockWords; ++word) {
      const uint64_t mask = blockedWordMask(hash, word);
      ASSERT_EQ(__builtin_popcountll(mask), 1);
      ASSERT_EQ(mask, uint64_t{1} << ((hash.high >> (6 * word)) & 63));
    }
    ASSERT_LT(blockedBlockIndex(hash, 1000), 1000u);
  }
}

// SplitMix64 drives the cuckoo eviction walk and its state is stored in the
// format, so the JS/wasm build must produce the same sequence. Expected values
// from the published reference (Vigna's splitmix64.c) with state 0, computed
// independently of the code under test.
TEST(SplitMix64, MatchesReferenceSequence) {
  SplitMix64 random(0);
  EXPECT_EQ(random.next(), 0xe220a8397b1dcdafull);
  EXPECT_EQ(random.next(), 0x6e789e6aa1b965f4ull);
  EXPECT_EQ(random.next(), 0x06c45d188009454full);
  EXPECT_EQ(random.next(), 0xf88bb8a8724c81ecull);
  EXPECT_EQ(random.state(), 4 * 0x9E3779B97F4A7C15ull);
  // Restarting from a saved state continues the same sequence.
  SplitMix64 resumed(random.state());
  EXPECT_EQ(resumed.next(), random.next());
}

}  // namespace
}  // namespace cuckoo_bloom
