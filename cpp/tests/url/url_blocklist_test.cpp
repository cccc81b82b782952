// The URL blocklist envelope (type 16): a nested filter that can never be
// read as a plain filter, and a reader that accepts only what the writer makes.
#include "cuckoo_bloom/url/url_blocklist.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cuckoo_bloom/bloom/bloom_filter.h"
#include "cuckoo_bloom/cuckoo/cuckoo_filter.h"
#include "cuckoo_bloom/url/expression_set.h"
#include "support/test_keys.h"
#include "url/url_golden.h"

namespace cuckoo_bloom {
namespace {

using cuckoo_bloom_test::readLE;
using cuckoo_bloom_test::writeLE;

std::vector<uint8_t> smallBloomBlob() {
  BloomFilter filter = BloomFilter::create({100, 0.001, 0}).value();
  filter.add("evil.example/");
  filter.add("bad.example/dl/x.exe");
  return filter.serialize();
}

std::vector<uint8_t> envelopeOf(const std::vector<uint8_t>& inner, uint64_t entries) {
  Result<std::vector<uint8_t>> encoded =
      encodeUrlBlocklist(inner.data(), inner.size(), kExpressionSchemeSafeBrowsingV1, entries);
  EXPECT_TRUE(encoded.isOk()) << encoded.status().message();
  return encoded.value();
}

// Rewrites a header field and the checksum, so only the field's meaning is tested.
std::vector<uint8_t> withField(std::vector<uint8_t> bytes, size_t offset, size_t width, uint64_t value) {
  writeLE(bytes, offset, width, value);
  writeLE(bytes, bytes.size() - 8, 8, formatChecksum(bytes.data(), bytes.size() - 8));
  return bytes;
}

TEST(UrlBlocklistEnvelope, RoundTripsTheNestedFilterAndItsEntryCount) {
  const std::vector<uint8_t> inner = smallBloomBlob();
  const std::vector<uint8_t> bytes = envelopeOf(inner, 2);
  Result<UrlBlocklistEnvelope> decoded = decodeUrlBlocklist(bytes.data(), bytes.size());
  ASSERT_TRUE(decoded.isOk()) << decoded.status().message();
  EXPECT_EQ(decoded.value().entryCount, 2u);
  EXPECT_EQ(decoded.value().filterType, FilterType::Bloom);
  ASSERT_EQ(decoded.value().filterLength, inner.size());
  EXPECT_EQ(std::vector<uint8_t>(decoded.value().filter, decoded.value().filter + inner.size()), inner);
  Result<BloomFilter> filter = BloomFilter::deserialize(decoded.value().filter, decoded.value().filterLength);
  ASSERT_TRUE(filter.isOk());
  EXPECT_TRUE(filter.value().has("evil.example/"));
  EXPECT_TRUE(filter.value().has("bad.example/dl/x.exe"));
}

TEST(UrlBlocklistEnvelope, CannotBeReadAsAPlainFilterNorAPlainFilterAsABlocklist) {
  const std::vector<uint8_t> inner = smallBloomBlob();
  const std::vector<uint8_t> bytes = envelopeOf(inner, 2);
  EXPECT_EQ(BloomFilter::deserialize(bytes.data(), bytes.size()).status().code(), StatusCode::WrongType);
  EXPECT_EQ(CuckooFilter::deserialize(bytes.data(), bytes.size()).status().code(), StatusCode::WrongType);
  EXPECT_EQ(decodeUrlBlocklist(inner.data(), inner.size()).status().code(), StatusCode::WrongType);
}

TEST(UrlBlocklistEnvelope, EncodeRejectsWhatIsNotASingleValidFilter) {
  const std::vector<uint8_t> inner = smallBloomBlob();
  std::vector<uint8_t> damaged = inner;
  damaged[60] ^= 1;
  EXPECT_EQ(encodeUrlBlocklist(damaged.data(), damaged.size(), 1, 2).status().code(), StatusCode::InvalidArgument);
  const std::vector<uint8_t> envelope = envelopeOf(inner, 2);
  EXPECT_EQ(encodeUrlBlocklist(envelope.data(), envelope.size(), 1, 2).status().code(), StatusCode::InvalidArgument)
      << "an envelope inside an envelope";
  EXPECT_EQ(encodeUrlBlocklist(inner.data(), inner.size(), 4, 2).status().code(), StatusCode::InvalidArgument)
      << "unknown expression scheme";
  EXPECT_EQ(encodeUrlBlocklist(inner.data(), inner.size(), 1, 2, 5).status().code(), StatusCode::InvalidArgument)
      << "scheme 1 has fixed depths";
}

TEST(UrlBlocklistEnvelope, Scheme2CarriesTheListsDepths) {
  const std::vector<uint8_t> inner = smallBloomBlob();
  const uint32_t depth = 7u | (12u << 16);  // hosts of up to 7 labels, prefixes of up to 12 directories
  Result<std::vector<uint8_t>> encoded = encodeUrlBlocklist(inner.data(), inner.size(), kExpressionSchemeListDepth, 3, depth);
  ASSERT_TRUE(encoded.isOk()) << encoded.status().message();
  Result<UrlBlocklistEnvelope> decoded = decodeUrlBlocklist(encoded.value().data(), encoded.value().size());
  ASSERT_TRUE(decoded.isOk()) << decoded.status().message();
  EXPECT_EQ(decoded.value().expressionScheme, kExpressionSchemeListDepth);
  EXPECT_EQ(decoded.value().depth, depth);
  EXPECT_EQ(decoded.value().entryCount, 3u);
}

TEST(UrlBlocklistEnvelope, DecodeRejectsHeaderFieldsTheWriterNeverProduces) {
  const std::vector<uint8_t> bytes = envelopeOf(smallBloomBlob(), 2);
  // offsets: seed 16, capacity 32, target rate 40, first parameter (scheme) 56, reserved 60
  EXPECT_EQ(decodeUrlBlocklist(withField(bytes, 16, 8, 7).data(), bytes.size()).status().code(), StatusCode::Corrupt);
  EXPECT_EQ(decodeUrlBlocklist(withField(bytes, 32, 8, 101).data(), bytes.size()).status().code(),
            StatusCode::Corrupt);
  EXPECT_EQ(decodeUrlBlocklist(withField(bytes, 40, 8, readLE(bytes, 40, 8) + 1).data(), bytes.size())
                .status()
                .code(),
            StatusCode::Corrupt);
  EXPECT_EQ(decodeUrlBlocklist(withField(bytes, 24, 8, uint64_t{1} << 53).data(), bytes.size()).status().code(),
            StatusCode::Corrupt);
  EXPECT_EQ(decodeUrlBlocklist(withField(bytes, 56, 4, 4).data(), bytes.size()).status().code(),
            StatusCode::UnsupportedVersion);
  EXPECT_EQ(decodeUrlBlocklist(withField(bytes, 60, 4, 1).data(), bytes.size()).status().code(), StatusCode::Corrupt);
  // The header's hash algorithm (offset 7): XXH64 is a filter type's (split-block Bloom),
  // never an envelope's (the fuzzer's finding: a version-1 envelope naming it read, and
  // rewritten as version 2 it changed more than its version).
  EXPECT_EQ(decodeUrlBlocklist(withField(bytes, 7, 1, 2).data(), bytes.size()).status().code(), StatusCode::Corrupt);
}

TEST(UrlBlocklistEnvelope, EveryTruncationIsAnError) {
  const std::vector<uint8_t> bytes = envelopeOf(smallBloomBlob(), 2);
  for (size_t length = 0; length < bytes.size(); ++length) {
    EXPECT_FALSE(decodeUrlBlocklist(bytes.data(), length).isOk()) << length;
  }
}

// Scheme 3: the exception set after the nested filter.
uint64_t hashOf(const std::string& expression) {
  return expressionHash(reinterpret_cast<const uint8_t*>(expression.data()), expression.size(),
                        kExpressionSetDefaultSeed);
}

std::vector<uint8_t> exceptionSetOf(const std::vector<std::string>& expressions,
                                    uint64_t seed = kExpressionSetDefaultSeed, uint64_t checksum = 0,
                                    uint8_t blockShift = kExpressionSetDefaultBlockShift) {
  std::vector<uint64_t> hashes;
  for (const std::string& expression : expressions) {
    hashes.push_back(expressionHash(reinterpret_cast<const uint8_t*>(expression.data()), expression.size(), seed));
  }
  return encodeExpressionSet(hashes, seed, checksum, blockShift);
}

Result<std::vector<uint8_t>> withExceptions(const std::vector<uint8_t>& inner, const std::vector<uint8_t>& set,
                                            uint32_t scheme = kExpressionSchemeListDepthWithExceptions) {
  return encodeUrlBlocklist(inner.data(), inner.size(), scheme, 2, 2 | (1u << 16), set.data(), set.size());
}

TEST(UrlBlocklistExceptions, Scheme3CarriesTheSetAfterTheFilterAndRoundTrips) {
  const std::vector<uint8_t> inner = smallBloomBlob();
  const std::vector<uint8_t> set = exceptionSetOf({"co.jp/", "now.sh/"});
  Result<std::vector<uint8_t>> bytes = withExceptions(inner, set);
  ASSERT_TRUE(bytes.isOk()) << bytes.status().message();
  // header 56, parameters 8, the filter, the set, checksum 8
  EXPECT_EQ(bytes.value().size(), 56 + 8 + inner.size() + set.size() + 8);
  Result<UrlBlocklistEnvelope> decoded = decodeUrlBlocklist(bytes.value().data(), bytes.value().size());
  ASSERT_TRUE(decoded.isOk()) << decoded.status().message();
  const UrlBlocklistEnvelope& envelope = decoded.value();
  EXPECT_EQ(envelope.expressionScheme, kExpressionSchemeListDepthWithExceptions);
  EXPECT_EQ(std::vector<uint8_t>(envelope.filter, envelope.filter + envelope.filterLength), inner);
  ASSERT_EQ(std::vector<uint8_t>(envelope.exceptions, envelope.exceptions + envelope.exceptionsLength), set);
  Result<ExpressionSet> read = ExpressionSet::read(envelope.exceptions, envelope.exceptionsLength);
  ASSERT_TRUE(read.isOk());
  EXPECT_TRUE(read.value().containsHash(hashOf("co.jp/")));
  EXPECT_FALSE(read.value().containsHash(hashOf("evil.example/")));
  // Canonical: what was read encodes back to the same bytes.
  Result<std::vector<uint8_t>> again =
      encodeUrlBlocklist(envelope.filter, envelope.filterLength, envelope.expressionScheme, envelope.entryCount,
                         envelope.depth, envelope.exceptions, envelope.exceptionsLength);
  ASSERT_TRUE(again.isOk());
  EXPECT_EQ(again.value(), bytes.value());
  // Without a set, scheme 3 is the nested filter alone (and round trips as scheme 3).
  Result<std::vector<uint8_t>> bare = withExceptions(inner, {});
  ASSERT_TRUE(bare.isOk());
  Result<UrlBlocklistEnvelope> bareRead = decodeUrlBlocklist(bare.value().data(), bare.value().size());
  ASSERT_TRUE(bareRead.isOk());
  EXPECT_EQ(bareRead.value().exceptions, nullptr);
  EXPECT_EQ(bareRead.value().filterLength, inner.size());
}

TEST(UrlBlocklistExceptions, OnlyTheWritersOneEncodingOfASetIsTaken) {
  const std::vector<uint8_t> inner = smallBloomBlob();
  const std::vector<std::string> expressions = {"co.jp/", "now.sh/", "gob.cl/"};
  // Each of these is a valid type-33 blob, but not the one a writer makes.
  const std::vector<std::vector<uint8_t>> odd = {
      exceptionSetOf(expressions, kExpressionSetDefaultSeed + 1), exceptionSetOf(expressions, kExpressionSetDefaultSeed, 7),
      exceptionSetOf(expressions, kExpressionSetDefaultSeed, 0, 4), exceptionSetOf({})};
  const std::vector<uint8_t> good = withExceptions(inner, exceptionSetOf(expressions)).value();
  // The splice below makes a good envelope of a good set: the check that it then fails is the set's.
  {
    const std::vector<uint8_t> set = exceptionSetOf(expressions);
    std::vector<uint8_t> bytes(good.begin(), good.begin() + 56 + 8 + inner.size());
    bytes.insert(bytes.end(), set.begin(), set.end());
    bytes.resize(bytes.size() + 8);
    writeLE(bytes, 48, 8, inner.size() + set.size());
    writeLE(bytes, bytes.size() - 8, 8, formatChecksum(bytes.data(), bytes.size() - 8));
    EXPECT_EQ(bytes, good);
  }
  for (const std::vector<uint8_t>& set : odd) {
    EXPECT_EQ(withExceptions(inner, set).status().code(), StatusCode::InvalidArgument);
    // The same bytes spliced into a good envelope: CORRUPT on read.
    std::vector<uint8_t> bytes(good.begin(), good.begin() + 56 + 8 + inner.size());
    bytes.insert(bytes.end(), set.begin(), set.end());
    bytes.resize(bytes.size() + 8);
    writeLE(bytes, 48, 8, inner.size() + set.size());
    writeLE(bytes, bytes.size() - 8, 8, formatChecksum(bytes.data(), bytes.size() - 8));
    EXPECT_EQ(decodeUrlBlocklist(bytes.data(), bytes.size()).status().code(), StatusCode::Corrupt);
  }
  // Schemes 1 and 2 carry none.
  EXPECT_EQ(withExceptions(inner, exceptionSetOf(expressions), kExpressionSchemeListDepth).status().code(),
            StatusCode::InvalidArgument);
  // A scheme-2 envelope with bytes after its filter is CORRUPT; as scheme 3 they must be a set.
  std::vector<uint8_t> asScheme2 = withField(good, 56, 4, kExpressionSchemeListDepth);
  EXPECT_EQ(decodeUrlBlocklist(asScheme2.data(), asScheme2.size()).status().code(), StatusCode::Corrupt);
  // A version-1 envelope has no scheme 3.
  EXPECT_EQ(decodeUrlBlocklist(withField(good, 4, 2, 1).data(), good.size()).status().code(), StatusCode::Corrupt);
  for (size_t length = 0; length < good.size(); ++length) {
    EXPECT_FALSE(decodeUrlBlocklist(good.data(), length).isOk()) << length;
  }
}

// tests/golden/url-blocklist-exceptions.cbf: the scheme-3 layout, pinned
// (also read by tests/url/blocklist-never-match.test.mjs).
TEST(UrlBlocklistExceptions, GoldenFile) {
  const std::vector<uint8_t> fresh = withExceptions(smallBloomBlob(), exceptionSetOf({"co.jp/", "now.sh/"})).value();
  ASSERT_EQ(cuckoo_bloom_test::urlGoldenFile("url-blocklist-exceptions.cbf", fresh), fresh);
}

}  // namespace
}  // namespace cuckoo_bloom
