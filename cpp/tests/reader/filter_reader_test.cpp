// FilterReader (the read-only path of core.reader.wasm) against the registry:
// for every type of filter_types.h it must accept and refuse exactly the bytes
// deserializeFilter does, with the same status, and answer has() exactly as
// the filter that wrote the bytes.
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "cuckoo_bloom/reader/filter_reader.h"
#include "cuckoo_bloom/registry/any_filter.h"
#include "cuckoo_bloom/url/url_blocklist.h"
#include "support/registered_types.h"
#include "support/test_keys.h"

namespace {

using namespace cuckoo_bloom;
using cuckoo_bloom_test::absentKey;
using cuckoo_bloom_test::presentKey;

using cuckoo_bloom_test::RegisteredTypes;

// A filter of `count` keys through the registry (static types built, others
// created and added), at a high rate so the absent keys include false positives.
std::unique_ptr<AnyFilter> filledFilter(FilterType type, uint64_t count) {
  CoreFilterOptions options;
  options.capacity = count;
  options.falsePositiveRate = 0.05;
  options.seed = 11;
  std::vector<KeyHash> hashes;
  HashAlgorithm algorithm = HashAlgorithm::Xxh3_64;  // the type's own hash, as the registry says
  for (const FilterTypeInfo& info : registeredFilterTypes()) algorithm = info.type == type ? info.hashAlgorithm : algorithm;
  for (uint64_t i = 0; i < count; ++i) {
    const std::string key = presentKey(i);
    hashes.push_back(hashKeyWith(algorithm, reinterpret_cast<const uint8_t*>(key.data()), key.size(), options.seed));
  }
  Result<std::unique_ptr<AnyFilter>> built = buildFilter(type, options, hashes.data(), hashes.size());
  EXPECT_TRUE(built.isOk()) << built.status().message();
  return built.isOk() ? std::move(built.value()) : nullptr;
}

bool readerHas(const FilterReader& reader, const std::string& key) {
  return reader.has(reinterpret_cast<const uint8_t*>(key.data()), key.size());
}
bool filterHas(const AnyFilter& filter, const std::string& key) {
  return filter.has(reinterpret_cast<const uint8_t*>(key.data()), key.size());
}

}  // namespace

template <typename Filter>
class FilterReaderOfType : public ::testing::Test {};
TYPED_TEST_SUITE(FilterReaderOfType, RegisteredTypes);

TYPED_TEST(FilterReaderOfType, AnswersExactlyAsTheFilterThatWroteTheBytes) {
  constexpr uint64_t kKeys = 3000;
  std::unique_ptr<AnyFilter> filter = filledFilter(TypeParam::kType, kKeys);
  ASSERT_NE(filter, nullptr);
  const std::vector<uint8_t> bytes = filter->serialize();
  Result<FilterReader> reader = FilterReader::read(bytes.data(), bytes.size());
  ASSERT_TRUE(reader.isOk()) << reader.status().message();
  EXPECT_EQ(reader.value().type(), TypeParam::kType);
  EXPECT_EQ(reader.value().header().itemCount, filter->header().itemCount);
  EXPECT_EQ(reader.value().header().seed, filter->header().seed);
  for (uint64_t i = 0; i < kKeys; ++i) ASSERT_TRUE(readerHas(reader.value(), presentKey(i))) << presentKey(i);
  // Absent keys: the same answers, false positives included (at 5% there are some).
  uint64_t falsePositives = 0;
  for (uint64_t i = 0; i < 20000; ++i) {
    const bool expected = filterHas(*filter, absentKey(i));
    ASSERT_EQ(readerHas(reader.value(), absentKey(i)), expected) << absentKey(i);
    falsePositives += expected ? 1 : 0;
  }
  EXPECT_GT(falsePositives, 0u);
  EXPECT_LT(falsePositives, 20000u);
}

TYPED_TEST(FilterReaderOfType, RefusesWhatDeserializeRefusesWithTheSameStatus) {
  std::unique_ptr<AnyFilter> filter = filledFilter(TypeParam::kType, 40);
  ASSERT_NE(filter, nullptr);
  const std::vector<uint8_t> bytes = filter->serialize();
  auto compare = [](const std::vector<uint8_t>& damaged, const std::string& what) {
    Result<std::unique_ptr<AnyFilter>> expected = deserializeFilter(damaged.data(), damaged.size());
    Result<FilterReader> reader = FilterReader::read(damaged.data(), damaged.size());
    ASSERT_EQ(reader.isOk(), expected.isOk()) << what;
    if (!expected.isOk()) {
      EXPECT_EQ(reader.status().code(), expected.status().code()) << what;
    } else {
      for (uint64_t i = 0; i < 200; ++i) {
        ASSERT_EQ(readerHas(reader.value(), absentKey(i)), filterHas(*expected.value(), absentKey(i))) << what;
      }
    }
  };
  for (size_t length = 0; length < bytes.size(); ++length) {
    compare(std::vector<uint8_t>(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(length)),
            "truncated to " + std::to_string(length));
  }
  for (size_t at = 0; at < bytes.size(); ++at) {
    std::vector<uint8_t> flipped = bytes;
    flipped[at] ^= 0x10;
    compare(flipped, "bit 4 of byte " + std::to_string(at) + " flipped");
  }
}

TEST(FilterReader, ABlocklistIsNotAFilterButItsNestedFilterIs) {
  std::unique_ptr<AnyFilter> filter = filledFilter(FilterType::BinaryFuse, 100);
  ASSERT_NE(filter, nullptr);
  const std::vector<uint8_t> nested = filter->serialize();
  Result<std::vector<uint8_t>> envelope =
      encodeUrlBlocklist(nested.data(), nested.size(), kExpressionSchemeListDepth, 100, 2);
  ASSERT_TRUE(envelope.isOk());
  Result<FilterReader> asFilter = FilterReader::read(envelope.value().data(), envelope.value().size());
  ASSERT_FALSE(asFilter.isOk());
  EXPECT_EQ(asFilter.status().code(), StatusCode::WrongType);

  Result<UrlBlocklistEnvelope> decoded = decodeUrlBlocklist(envelope.value().data(), envelope.value().size());
  ASSERT_TRUE(decoded.isOk());
  Result<FilterReader> inner = FilterReader::read(decoded.value().filter, decoded.value().filterLength);
  ASSERT_TRUE(inner.isOk());
  for (uint64_t i = 0; i < 100; ++i) EXPECT_TRUE(readerHas(inner.value(), presentKey(i)));
}
