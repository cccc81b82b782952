// The exact companion of a URL blocklist (type 33): every hash put in is found,
// others are not, and a reader that trusts nothing: damaged bytes are CORRUPT,
// never a wrong answer. Also writes/checks tests/golden/url-expression-set.confirm
// (CUCKOO_BLOOM_UPDATE_GOLDEN=1 rewrites it), which the JS suite reads.
#include "cuckoo_bloom/url/expression_set.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "cuckoo_bloom/bloom/bloom_filter.h"
#include "cuckoo_bloom/core/format.h"
#include "support/test_keys.h"
#include "url/url_golden.h"

#ifndef CUCKOO_BLOOM_GOLDEN_DIR
#error "CUCKOO_BLOOM_GOLDEN_DIR must be defined by the build (CMakeLists.txt)"
#endif

namespace cuckoo_bloom {
namespace {

using cuckoo_bloom_test::writeLE;

std::vector<uint64_t> randomHashes(size_t count, uint64_t seed) {
  std::mt19937_64 random(seed);
  std::vector<uint64_t> hashes(count);
  for (auto& hash : hashes) hash = random();
  return hashes;
}

ExpressionSet readOrFail(const std::vector<uint8_t>& bytes) {
  Result<ExpressionSet> set = ExpressionSet::read(bytes.data(), bytes.size());
  EXPECT_TRUE(set.isOk()) << set.status().message();
  return std::move(set).value();
}

// Rewrites bytes and the checksum, so only their meaning is tested.
std::vector<uint8_t> resealed(std::vector<uint8_t> bytes) {
  writeLE(bytes, bytes.size() - 8, 8, formatChecksum(bytes.data(), bytes.size() - 8));
  return bytes;
}

TEST(ExpressionSet, FindsEveryHashAndNoOther) {
  const std::vector<uint64_t> hashes = randomHashes(10000, 1);
  const ExpressionSet set = readOrFail(encodeExpressionSet(hashes, 7, 0x1234));
  EXPECT_EQ(set.count(), 10000u);
  EXPECT_EQ(set.seed(), 7u);
  EXPECT_EQ(set.blocklistChecksum(), 0x1234u);
  for (uint64_t hash : hashes) ASSERT_TRUE(set.containsHash(hash)) << hash;
  const std::set<uint64_t> present(hashes.begin(), hashes.end());
  size_t wrong = 0;
  for (uint64_t hash : randomHashes(200000, 2)) wrong += present.count(hash) == 0 && set.containsHash(hash);
  EXPECT_EQ(wrong, 0u);
  // Neighbours of stored hashes: a decode that is off by one would report them.
  for (size_t i = 0; i < 2000; ++i) {
    const uint64_t hash = hashes[i];
    if (present.count(hash + 1) == 0) ASSERT_FALSE(set.containsHash(hash + 1));
    if (present.count(hash - 1) == 0) ASSERT_FALSE(set.containsHash(hash - 1));
  }
}

TEST(ExpressionSet, EdgesOfTheRangeAndOfBlocks) {
  for (uint8_t shift : {uint8_t{1}, uint8_t{8}, uint8_t{16}}) {
    for (size_t count : {size_t{0}, size_t{1}, size_t{2}, size_t{255}, size_t{256}, size_t{257}, size_t{1000}}) {
      std::vector<uint64_t> hashes = randomHashes(count, 3 + count);
      if (count >= 2) {
        hashes[0] = 0;
        hashes[1] = ~uint64_t{0};
      }
      const ExpressionSet set = readOrFail(encodeExpressionSet(hashes, 0, 0, shift));
      for (uint64_t hash : hashes) ASSERT_TRUE(set.containsHash(hash)) << "count " << count << " shift " << int(shift);
      EXPECT_EQ(set.containsHash(12345), std::find(hashes.begin(), hashes.end(), 12345) != hashes.end());
    }
  }
}

TEST(ExpressionSet, RepeatsAreStoredOnceInAnyOrder) {
  const std::vector<uint64_t> forward = {5, 9, 9, 1, 5, 1000};
  const std::vector<uint64_t> backward(forward.rbegin(), forward.rend());
  EXPECT_EQ(encodeExpressionSet(forward, 0, 0), encodeExpressionSet(backward, 0, 0));
  EXPECT_EQ(readOrFail(encodeExpressionSet(forward, 0, 0)).count(), 4u);
}

TEST(ExpressionSet, HashesExpressionBytesWithItsSeed) {
  const std::string listed = "evil.example/";
  const uint64_t hash = expressionHash(reinterpret_cast<const uint8_t*>(listed.data()), listed.size(), 99);
  EXPECT_EQ(hash, XXH3_64bits_withSeed(listed.data(), listed.size(), 99));
  const ExpressionSet set = readOrFail(encodeExpressionSet({hash}, 99, 0));
  EXPECT_TRUE(set.contains(reinterpret_cast<const uint8_t*>(listed.data()), listed.size()));
  const std::string other = "evil.example/x";
  EXPECT_FALSE(set.contains(reinterpret_cast<const uint8_t*>(other.data()), other.size()));
}

// The size Rice coding promises: within a few hundredths of a bit of the
// entropy of n sorted hashes, log2(2^64 / n) + log2(e) bits each, plus the
// index (128 bits per 256 hashes), against 64 for the raw hashes.
TEST(ExpressionSet, CostsAboutTheRiceBitsPerHash) {
  for (size_t count : {size_t{1000}, size_t{10000}, size_t{100000}}) {
    const ExpressionSet set = readOrFail(encodeExpressionSet(randomHashes(count, 4), 0, 0));
    const double bitsPerHash = 8.0 * static_cast<double>(set.payloadBytes()) / static_cast<double>(count);
    std::cout << "[ measure ] expression set of " << count << " hashes: " << bitsPerHash << " bits per hash (rice "
              << int(set.riceBits()) << ")\n";
    EXPECT_LT(bitsPerHash, 64.0 - std::log2(static_cast<double>(count)) + 1.443 + 0.5 + 0.3);
    EXPECT_LT(bitsPerHash, 64.0 - 8.0);
  }
}

TEST(ExpressionSet, EveryTruncationAndEveryFlippedBitIsCorrupt) {
  const std::vector<uint8_t> bytes = encodeExpressionSet(randomHashes(600, 5), 0, 0);
  for (size_t length = 0; length < bytes.size(); ++length) {
    Result<ExpressionSet> read = ExpressionSet::read(bytes.data(), length);
    ASSERT_FALSE(read.isOk()) << length;
    ASSERT_EQ(read.status().code(), StatusCode::Corrupt) << length;
  }
  for (size_t bit = 0; bit < bytes.size() * 8; bit += 3) {
    std::vector<uint8_t> damaged = bytes;
    damaged[bit / 8] ^= static_cast<uint8_t>(1u << (bit % 8));
    Result<ExpressionSet> read = ExpressionSet::read(damaged.data(), damaged.size());
    ASSERT_FALSE(read.isOk()) << "bit " << bit;
    // The version field may read as a future version: that is its own answer.
    ASSERT_TRUE(read.status().code() == StatusCode::Corrupt || read.status().code() == StatusCode::UnsupportedVersion)
        << "bit " << bit << ": " << read.status().message();
  }
}

// Damage behind a valid checksum (a writer's bug, or bytes made to fool the
// reader): the reader refuses what breaks the structure (order, lengths,
// block ends, padding) as CORRUPT, and reads the rest as the other, valid set
// those bytes code (most changes land in Rice remainders, where every bit
// pattern is a valid gap), answering without reading out of bounds (ASan
// runs this too). Only the checksum tells such a set from the one written.
TEST(ExpressionSet, ResealedMutationsAreRefusedOrWellFormed) {
  const std::vector<uint64_t> hashes = randomHashes(600, 6);
  const std::vector<uint8_t> bytes = encodeExpressionSet(hashes, 0, 0);
  std::mt19937_64 random(7);
  size_t refused = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    std::vector<uint8_t> damaged = bytes;
    const size_t at = kHeaderBytes + random() % (bytes.size() - kHeaderBytes - 8);
    damaged[at] ^= static_cast<uint8_t>(1u + random() % 255);
    damaged = resealed(damaged);
    Result<ExpressionSet> read = ExpressionSet::read(damaged.data(), damaged.size());
    if (!read.isOk()) {
      ASSERT_EQ(read.status().code(), StatusCode::Corrupt) << read.status().message();
      ++refused;
      continue;
    }
    for (uint64_t hash : hashes) (void)read.value().containsHash(hash);
  }
  std::cout << "[ measure ] resealed mutations refused: " << refused << " of 3000\n";
  EXPECT_GT(refused, 0u);
}

TEST(ExpressionSet, HeaderFieldsAreChecked) {
  const std::vector<uint8_t> bytes = encodeExpressionSet(randomHashes(300, 8), 0, 0);
  auto refused = [&](size_t offset, size_t width, uint64_t value, StatusCode code) {
    std::vector<uint8_t> changed = bytes;
    writeLE(changed, offset, width, value);
    changed = resealed(changed);
    Result<ExpressionSet> read = ExpressionSet::read(changed.data(), changed.size());
    ASSERT_FALSE(read.isOk()) << "offset " << offset;
    EXPECT_EQ(read.status().code(), code) << "offset " << offset << ": " << read.status().message();
  };
  refused(4, 2, 3, StatusCode::UnsupportedVersion);
  refused(4, 2, 1, StatusCode::Corrupt);
  refused(6, 1, 1, StatusCode::WrongType);   // a Bloom filter's id
  refused(7, 1, 2, StatusCode::Corrupt);     // hash algorithm
  refused(8, 4, 1, StatusCode::Corrupt);     // flags
  refused(24, 8, 299, StatusCode::Corrupt);  // item count
  refused(32, 8, 301, StatusCode::Corrupt);  // capacity
  refused(40, 8, 0, StatusCode::Corrupt);    // rate
  refused(64, 8, 0, StatusCode::Corrupt);    // stream bits
  refused(72, 1, 64, StatusCode::Corrupt);   // Rice parameter
  refused(73, 1, 0, StatusCode::Corrupt);    // block shift
  refused(73, 1, 17, StatusCode::Corrupt);
  refused(74, 1, 1, StatusCode::Corrupt);    // reserved
}

TEST(ExpressionSet, IsNeverReadAsAFilterNorAFilterAsIt) {
  BloomFilter filter = BloomFilter::create({100, 0.01, 0}).value();
  const std::vector<uint8_t> bloom = filter.serialize();
  Result<ExpressionSet> asSet = ExpressionSet::read(bloom.data(), bloom.size());
  ASSERT_FALSE(asSet.isOk());
  EXPECT_EQ(asSet.status().code(), StatusCode::WrongType);
  const std::vector<uint8_t> set = encodeExpressionSet({1, 2, 3}, 0, 0);
  Result<DecodedBlob> asFilter = decodeBlob(set.data(), set.size());
  ASSERT_FALSE(asFilter.isOk());
  EXPECT_EQ(asFilter.status().code(), StatusCode::WrongType);
}

// tests/golden/url-expression-set.confirm: the expressions "host-0.example/"
// ... "host-599.example/" (600, 3 blocks), default seed, blocklist checksum
// 0x0123456789abcdef. Byte for byte: a difference is a format change.
TEST(ExpressionSetGolden, MatchesTheFile) {
  const std::vector<uint8_t> fresh =
      encodeExpressionSet(cuckoo_bloom_test::goldenExpressionHashes(), kExpressionSetDefaultSeed, 0x0123456789abcdefull);
  const std::vector<uint8_t> stored = cuckoo_bloom_test::urlGoldenFile("url-expression-set.confirm", fresh);
  ASSERT_EQ(stored, fresh);
  const ExpressionSet set = readOrFail(stored);
  for (const std::string& expression : cuckoo_bloom_test::goldenExpressions()) {
    ASSERT_TRUE(set.contains(reinterpret_cast<const uint8_t*>(expression.data()), expression.size())) << expression;
  }
}

}  // namespace
}  // namespace cuckoo_bloom
