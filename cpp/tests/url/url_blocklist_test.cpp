// The URL blocklist envelope (type 16): a nested filter that can never be
// read as a plain filter, and a reader that accepts only what the writer makes.
#include "cuckoo_bloom/url/url_blocklist.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cuckoo_bloom/bloom/bloom_filter.h"
#include "cuckoo_bloom/cuckoo/cuckoo_filter.h"
#include "support/test_keys.h"

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
  EXPECT_EQ(encodeUrlBlocklist(inner.data(), inner.size(), 3, 2).status().code(), StatusCode::InvalidArgument)
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
  EXPECT_EQ(decodeUrlBlocklist(withField(bytes, 56, 4, 3).data(), bytes.size()).status().code(),
            StatusCode::UnsupportedVersion);
  EXPECT_EQ(decodeUrlBlocklist(withField(bytes, 60, 4, 1).data(), bytes.size()).status().code(), StatusCode::Corrupt);
}

TEST(UrlBlocklistEnvelope, EveryTruncationIsAnError) {
  const std::vector<uint8_t> bytes = envelopeOf(smallBloomBlob(), 2);
  for (size_t length = 0; length < bytes.size(); ++length) {
    EXPECT_FALSE(decodeUrlBlocklist(bytes.data(), length).isOk()) << length;
  }
}

}  // namespace
}  // namespace cuckoo_bloom
