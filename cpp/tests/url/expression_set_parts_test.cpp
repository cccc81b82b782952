// The companion split by hash prefix (type 33 parts and their type-34 index):
// every hash is in the part the index names and nowhere else, the parts cost
// about what the whole set does, and a part is taken only where the index says.
#include <gtest/gtest.h>

#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "cuckoo_bloom/core/format.h"
#include "cuckoo_bloom/url/expression_set.h"
#include "url_golden.h"

namespace cuckoo_bloom {
namespace {

std::vector<uint64_t> randomHashes(size_t count, uint64_t seed) {
  std::mt19937_64 random(seed);
  std::vector<uint64_t> hashes(count);
  for (auto& hash : hashes) hash = random();
  return hashes;
}

TEST(ExpressionSetParts, EveryHashIsInTheNamedPartOnly) {
  const std::vector<uint64_t> hashes = randomHashes(20000, 1);
  const ExpressionSetParts split = encodeExpressionSetParts(hashes, 5, 0xabcdef);
  Result<ExpressionSetIndex> index = ExpressionSetIndex::read(split.index.data(), split.index.size());
  ASSERT_TRUE(index.isOk()) << index.status().message();
  ASSERT_EQ(index.value().partCount(), split.parts.size());
  EXPECT_EQ(index.value().count(), 20000u);
  std::vector<ExpressionSet> parts;
  uint64_t held = 0;
  for (uint32_t part = 0; part < split.parts.size(); ++part) {
    Result<ExpressionSet> set = index.value().checkPart(part, split.parts[part].data(), split.parts[part].size());
    ASSERT_TRUE(set.isOk()) << set.status().message();
    EXPECT_LE(split.parts[part].size(), 4096u);
    held += set.value().count();
    parts.push_back(std::move(set).value());
  }
  EXPECT_EQ(held, 20000u);
  for (uint64_t hash : hashes) {
    const uint32_t part = index.value().partOfHash(hash);
    ASSERT_TRUE(parts[part].containsHash(hash));
  }
  for (uint64_t hash : randomHashes(20000, 2)) {
    ASSERT_FALSE(parts[index.value().partOfHash(hash)].containsHash(hash));
  }
}

TEST(ExpressionSetParts, CostAboutWhatTheWholeSetCosts) {
  const std::vector<uint64_t> hashes = randomHashes(100000, 3);
  const size_t whole = encodeExpressionSet(hashes, 5, 0).size();
  const ExpressionSetParts split = encodeExpressionSetParts(hashes, 5, 0);
  size_t total = split.index.size();
  for (const auto& part : split.parts) total += part.size();
  EXPECT_LT(static_cast<double>(total), whole * 1.05) << total << " vs " << whole;
}

TEST(ExpressionSetParts, APartIsTakenOnlyWhereTheIndexSaysAndOnlyWhole) {
  const ExpressionSetParts split = encodeExpressionSetParts(randomHashes(3000, 4), 5, 7);
  const ExpressionSetIndex index = ExpressionSetIndex::read(split.index.data(), split.index.size()).value();
  ASSERT_GE(index.partCount(), 3u);
  // Swapped: part 1's bytes as part 2.
  EXPECT_EQ(index.checkPart(2, split.parts[1].data(), split.parts[1].size()).status().code(), StatusCode::Corrupt);
  // Another list's part 0 (another blocklist checksum).
  const ExpressionSetParts other = encodeExpressionSetParts(randomHashes(3000, 4), 5, 8);
  EXPECT_EQ(index.checkPart(0, other.parts[0].data(), other.parts[0].size()).status().code(), StatusCode::Corrupt);
  // A flipped bit anywhere.
  std::vector<uint8_t> flipped = split.parts[0];
  for (size_t at = 0; at < flipped.size(); at += 7) {
    flipped[at] ^= 0x10;
    EXPECT_FALSE(index.checkPart(0, flipped.data(), flipped.size()).isOk()) << at;
    flipped[at] ^= 0x10;
  }
  EXPECT_EQ(index.checkPart(index.partCount(), split.parts[0].data(), split.parts[0].size()).status().code(),
            StatusCode::InvalidArgument);
  // The whole set is not a part.
  const std::vector<uint8_t> whole = encodeExpressionSet(randomHashes(3000, 4), 5, 7);
  EXPECT_FALSE(index.checkPart(0, whole.data(), whole.size()).isOk());
}

TEST(ExpressionSetParts, APartHoldingAHashOutsideItsRangeIsCorrupt) {
  const std::vector<uint8_t> part = encodeExpressionSetPart({10, 20, 300}, 5, 0, 0, 299);
  EXPECT_EQ(ExpressionSet::read(part.data(), part.size()).status().code(), StatusCode::Corrupt);
  const std::vector<uint8_t> fits = encodeExpressionSetPart({10, 20, 300}, 5, 0, 10, 300);
  Result<ExpressionSet> read = ExpressionSet::read(fits.data(), fits.size());
  ASSERT_TRUE(read.isOk()) << read.status().message();
  EXPECT_TRUE(read.value().isPart());
  EXPECT_EQ(read.value().rangeLast(), 300u);
}

TEST(ExpressionSetParts, EveryTruncationAndFlippedBitOfAnIndexIsRefused) {
  const ExpressionSetParts split = encodeExpressionSetParts(randomHashes(2000, 6), 5, 9);
  for (size_t length = 0; length < split.index.size(); ++length) {
    ASSERT_FALSE(ExpressionSetIndex::read(split.index.data(), length).isOk()) << length;
  }
  std::vector<uint8_t> flipped = split.index;
  for (size_t bit = 0; bit < flipped.size() * 8; ++bit) {
    flipped[bit / 8] ^= static_cast<uint8_t>(1u << (bit % 8));
    ASSERT_FALSE(ExpressionSetIndex::read(flipped.data(), flipped.size()).isOk()) << bit;
    flipped[bit / 8] ^= static_cast<uint8_t>(1u << (bit % 8));
  }
  // A whole set or a part is not an index, nor an index a set.
  EXPECT_EQ(ExpressionSetIndex::read(split.parts[0].data(), split.parts[0].size()).status().code(), StatusCode::WrongType);
  EXPECT_EQ(ExpressionSet::read(split.index.data(), split.index.size()).status().code(), StatusCode::WrongType);
}

TEST(ExpressionSetParts, AnEmptyListIsOnePartOverEverything) {
  const ExpressionSetParts split = encodeExpressionSetParts({}, 5, 0);
  ASSERT_EQ(split.parts.size(), 1u);
  const ExpressionSetIndex index = ExpressionSetIndex::read(split.index.data(), split.index.size()).value();
  EXPECT_EQ(index.partOfHash(~uint64_t{0}), 0u);
  EXPECT_TRUE(index.checkPart(0, split.parts[0].data(), split.parts[0].size()).isOk());
}

// tests/golden/url-expression-set.confirm.index and .confirm.parts/0000...: the
// golden companion's 600 expressions ("host-0.example/" ... "host-599.example/",
// default seed, blocklist checksum 0x0123456789abcdef) split into parts of
// about 256 hashes, named as the CLI names them. Byte for byte: a difference
// is a change of the type-34 index or of the part format, which breaks every
// split companion already shipped. The JS suite splits the whole golden file
// (splitConfirmation) and compares with the same files.
TEST(ExpressionSetPartsGolden, MatchesTheFiles) {
  const ExpressionSetParts split = encodeExpressionSetParts(cuckoo_bloom_test::goldenExpressionHashes(),
                                                           kExpressionSetDefaultSeed, 0x0123456789abcdefull, 256);
  ASSERT_EQ(split.parts.size(), 3u);
  ASSERT_EQ(cuckoo_bloom_test::urlGoldenFile("url-expression-set.confirm.index", split.index), split.index);
  const ExpressionSetIndex index = ExpressionSetIndex::read(split.index.data(), split.index.size()).value();
  uint64_t held = 0;
  for (uint32_t part = 0; part < split.parts.size(); ++part) {
    char name[8];
    std::snprintf(name, sizeof name, "%04u", part);
    const std::vector<uint8_t> stored =
        cuckoo_bloom_test::urlGoldenFile(std::string("url-expression-set.confirm.parts/") + name, split.parts[part]);
    ASSERT_EQ(stored, split.parts[part]) << name;
    Result<ExpressionSet> set = index.checkPart(part, stored.data(), stored.size());
    ASSERT_TRUE(set.isOk()) << set.status().message();
    held += set.value().count();
  }
  EXPECT_EQ(held, 600u);
  for (const std::string& expression : cuckoo_bloom_test::goldenExpressions()) {
    const uint8_t* bytes = reinterpret_cast<const uint8_t*>(expression.data());
    const uint32_t part = index.partOf(bytes, expression.size());
    const ExpressionSet set = index.checkPart(part, split.parts[part].data(), split.parts[part].size()).value();
    ASSERT_TRUE(set.contains(bytes, expression.size())) << expression;
  }
}

}  // namespace
}  // namespace cuckoo_bloom
