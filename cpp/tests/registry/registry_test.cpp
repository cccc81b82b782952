// The contracts every registered filter type keeps, as one typed suite over
// the list in filter_types.h: a new type added there is tested here without
// a new test file. Type-specific behaviour stays in each type's own tests.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <memory>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "cuckoo_bloom/registry/any_filter.h"
#include "support/registered_types.h"
#include "support/test_keys.h"

namespace {

using namespace cuckoo_bloom;
using cuckoo_bloom_test::absentKey;
using cuckoo_bloom_test::presentKey;

using cuckoo_bloom_test::RegisteredTypes;

// Whether a class is one array of words (derives from WordArrayFilter), by
// its base rather than a list of names: a new type is asked the same way.
template <typename Derived, typename Params>
constexpr bool isWordArray(const WordArrayFilter<Derived, Params>*) {
  return true;
}
constexpr bool isWordArray(const void*) { return false; }

}  // namespace

template <typename Filter>
class RegisteredFilterType : public ::testing::Test {
 protected:
  static constexpr bool kStatic = IsStaticFilter<Filter>::value;

  static CoreFilterOptions options(uint64_t capacity, double rate, uint64_t seed) {
    CoreFilterOptions options;
    options.capacity = capacity;
    options.falsePositiveRate = rate;
    options.seed = seed;
    return options;
  }
  static Result<std::unique_ptr<AnyFilter>> make(uint64_t capacity, double rate, uint64_t seed = 7) {
    return createFilter(Filter::kType, options(capacity, rate, seed));
  }

  // Two filters made alike (rate 0.01, seed 3), the first for batch calls and
  // the second for single ones: a static type built from keys[0 .. builtFrom
  // - 1] (it has no add), a dynamic type empty. Null where one could not be
  // made (the test has then failed).
  static std::pair<std::unique_ptr<AnyFilter>, std::unique_ptr<AnyFilter>> twins(
      uint64_t capacity, const std::vector<std::string>& keys, uint64_t builtFrom) {
    if constexpr (kStatic) {
      const auto keyAt = [&keys](uint64_t i) { return keys[i]; };
      return {filled(capacity, 0.01, 3, builtFrom, keyAt), filled(capacity, 0.01, 3, builtFrom, keyAt)};
    } else {
      Result<std::unique_ptr<AnyFilter>> a = make(capacity, 0.01, 3);
      Result<std::unique_ptr<AnyFilter>> b = make(capacity, 0.01, 3);
      EXPECT_TRUE(a.isOk() && b.isOk());
      if (!a.isOk() || !b.isOk()) return {};
      return {std::move(a).value(), std::move(b).value()};
    }
  }

  // A filter sized for `capacity` holding keys first .. first + count - 1 of
  // `key`: a dynamic type is created and each key added through the
  // registry's byte-key add (the test fails on any add that is not Ok); a
  // static type is built from the keys' hashes (buildFilter), since it has
  // no add.
  template <typename KeyOf>
  static std::unique_ptr<AnyFilter> filled(uint64_t capacity, double rate, uint64_t seed, uint64_t count,
                                           KeyOf key) {
    if constexpr (kStatic) {
      std::vector<KeyHash> hashes;
      for (uint64_t i = 0; i < count; ++i) hashes.push_back(hashKey(key(i), seed));
      Result<std::unique_ptr<AnyFilter>> built =
          buildFilter(Filter::kType, options(capacity, rate, seed), hashes.data(), hashes.size());
      EXPECT_TRUE(built.isOk()) << built.status().message();
      return built.isOk() ? std::move(built).value() : nullptr;
    } else {
      Result<std::unique_ptr<AnyFilter>> made = make(capacity, rate, seed);
      EXPECT_TRUE(made.isOk()) << made.status().message();
      if (!made.isOk()) return nullptr;
      for (uint64_t i = 0; i < count; ++i) {
        const std::string k = key(i);
        const Status added = made.value()->add(reinterpret_cast<const uint8_t*>(k.data()), k.size());
        EXPECT_TRUE(added.isOk()) << i << ": " << added.message();
        if (!added.isOk()) return nullptr;
      }
      return std::move(made).value();
    }
  }
};

TYPED_TEST_SUITE(RegisteredFilterType, RegisteredTypes);

TYPED_TEST(RegisteredFilterType, IsListedByNameAndId) {
  {
    const char* name = filterTypeName(TypeParam::kType);
    FilterType parsed;
    ASSERT_TRUE(filterTypeFromName(name, parsed)) << name;
    EXPECT_EQ(parsed, TypeParam::kType);
    bool listed = false;
    for (const FilterTypeInfo& info : registeredFilterTypes()) {
      if (info.type != TypeParam::kType) continue;
      listed = true;
      EXPECT_STREQ(info.name, name);
      EXPECT_EQ(info.supportsRemove, kSupportsRemove<TypeParam>);
      EXPECT_EQ(info.supportsUnion, kSupportsUnion<TypeParam>);
      EXPECT_EQ(info.forgets, kForgets<TypeParam>);
      const OptionList own = OptionsOf<TypeParam>::value;
      ASSERT_EQ(info.options.size, own.size);
      for (size_t i = 0; i < own.size; ++i) EXPECT_EQ(info.options.ids[i], own.ids[i]);
    }
    EXPECT_TRUE(listed);
  }
}

TYPED_TEST(RegisteredFilterType, NoFalseNegativesAndFalsePositivesNearTheTarget) {
  {
    for (const double rate : {0.01, 0.001}) {
      constexpr uint64_t kKeys = 50000;
      const std::unique_ptr<AnyFilter> made = TestFixture::filled(kKeys, rate, 7, kKeys, presentKey);
      ASSERT_NE(made, nullptr);
      AnyFilter& filter = *made;
      for (uint64_t i = 0; i < kKeys; ++i) {
        const std::string key = presentKey(i);
        ASSERT_TRUE(filter.has(reinterpret_cast<const uint8_t*>(key.data()), key.size())) << i;
      }
      // 200k absent keys: at rate 0.001 the expected count is 200 (sd ~14), so
      // 1.3x the target is over 4 standard deviations above it.
      constexpr uint64_t kProbes = 200000;
      uint64_t falsePositives = 0;
      for (uint64_t i = 0; i < kProbes; ++i) {
        const std::string key = absentKey(i);
        falsePositives += filter.has(reinterpret_cast<const uint8_t*>(key.data()), key.size());
      }
      EXPECT_LE(static_cast<double>(falsePositives) / kProbes, 1.3 * rate) << "rate " << rate;
    }
  }
}

TYPED_TEST(RegisteredFilterType, HashOnceThenProbeAnswersLikeTheByteKeyCalls) {
  {
    std::unique_ptr<AnyFilter> made;
    if constexpr (TestFixture::kStatic) {
      made = TestFixture::filled(2000, 0.01, 7, 1000, presentKey);  // built from hashKey's hashes
    } else {
      Result<std::unique_ptr<AnyFilter>> created = TestFixture::make(2000, 0.01);
      ASSERT_TRUE(created.isOk());
      made = std::move(created).value();
      for (uint64_t i = 0; i < 1000; ++i) {
        const std::string key = presentKey(i);
        ASSERT_TRUE(made->add(made->hashOf(reinterpret_cast<const uint8_t*>(key.data()), key.size())).isOk());
      }
    }
    ASSERT_NE(made, nullptr);
    AnyFilter& filter = *made;
    for (uint64_t i = 0; i < 5000; ++i) {
      const std::string key = i < 1000 ? presentKey(i) : absentKey(i);
      const auto* bytes = reinterpret_cast<const uint8_t*>(key.data());
      ASSERT_EQ(filter.has(filter.hashOf(bytes, key.size())), filter.has(bytes, key.size())) << key;
      ASSERT_EQ(filter.hashOf(bytes, key.size()).low,
                hashKeyWith(filter.header().hashAlgorithm, bytes, key.size(), filter.header().seed).low);
    }
  }
}

// A batch in the layout JavaScript hands over, placed as a window of a larger
// layout (offsets[0] != 0), so the relative addressing is exercised too.
struct KeyBatchLayout {
  std::string bytes;
  std::vector<uint32_t> offsets;
  const uint8_t* dataAt(size_t first) const { return reinterpret_cast<const uint8_t*>(bytes.data()) + offsets[first]; }
};
KeyBatchLayout layoutOf(const std::vector<std::string>& keys) {
  KeyBatchLayout layout;
  layout.offsets.push_back(0);
  for (const std::string& key : keys) {
    layout.bytes += key;
    layout.offsets.push_back(static_cast<uint32_t>(layout.bytes.size()));
  }
  return layout;
}

TYPED_TEST(RegisteredFilterType, BatchesAnswerAndStoreExactlyLikeSingleCalls) {
  {
    std::vector<std::string> keys;
    for (uint64_t i = 0; i < 1500; ++i) keys.push_back(i % 3 == 0 ? absentKey(i) : presentKey(i));
    keys.push_back("");  // an empty key is a key
    const KeyBatchLayout layout = layoutOf(keys);
    const size_t split = 700, count = keys.size();
    std::unique_ptr<AnyFilter> batched, single;
    std::tie(batched, single) = TestFixture::twins(2000, keys, count);
    ASSERT_TRUE(batched && single);
    if constexpr (TestFixture::kStatic) {
      // Built from the keys (no add): addMany stores nothing and says so.
      EXPECT_EQ(batched->addMany(layout.dataAt(0), layout.offsets.data(), split), 0u);
    } else {
      // Two windows, [0, 700) and [700, n), as two calls.
      ASSERT_EQ(batched->addMany(layout.dataAt(0), layout.offsets.data(), split), split);
      ASSERT_EQ(batched->addMany(layout.dataAt(split), layout.offsets.data() + split, count - split), count - split);
      for (const std::string& key : keys) {
        ASSERT_TRUE(single->add(reinterpret_cast<const uint8_t*>(key.data()), key.size()).isOk());
      }
    }
    EXPECT_EQ(batched->serialize(), single->serialize());

    std::vector<uint8_t> answers(count, 2);
    batched->hasMany(layout.dataAt(split), layout.offsets.data() + split, count - split, answers.data() + split);
    batched->hasMany(layout.dataAt(0), layout.offsets.data(), split, answers.data());
    std::vector<std::string> probes;
    for (uint64_t i = 0; i < 3000; ++i) probes.push_back(absentKey(100000 + i));
    const KeyBatchLayout probeLayout = layoutOf(probes);
    std::vector<uint8_t> probeAnswers(probes.size(), 2);
    batched->hasMany(probeLayout.dataAt(0), probeLayout.offsets.data(), probes.size(), probeAnswers.data());
    for (size_t i = 0; i < count; ++i) ASSERT_EQ(answers[i], 1) << i;  // every key
    for (size_t i = 0; i < probes.size(); ++i) {
      const auto* bytes = reinterpret_cast<const uint8_t*>(probes[i].data());
      ASSERT_EQ(probeAnswers[i], single->has(bytes, probes[i].size()) ? 1 : 0) << i;
    }

    // Remove every other key once; the rest stay found.
    std::vector<std::string> removing;
    for (size_t i = 0; i < count; i += 2) removing.push_back(keys[i]);
    const KeyBatchLayout removeLayout = layoutOf(removing);
    std::vector<uint8_t> removed(removing.size(), 2);
    const Status status = batched->removeMany(removeLayout.dataAt(0), removeLayout.offsets.data(), removing.size(), removed.data());
    if constexpr (kSupportsRemove<TypeParam>) {
      ASSERT_TRUE(status.isOk()) << status.message();
      for (size_t i = 0; i < removing.size(); ++i) ASSERT_EQ(removed[i], 1) << i;
      for (size_t i = 1; i < count; i += 2) {
        ASSERT_TRUE(batched->has(reinterpret_cast<const uint8_t*>(keys[i].data()), keys[i].size())) << i;
      }
    } else {
      EXPECT_EQ(status.code(), StatusCode::Unsupported);
      EXPECT_EQ(removed[0], 2);  // nothing written
    }
  }
}

// A batch stops where add() would, and says why as add() would: the status
// of the key it stopped at (Full, Unsupported, OutOfMemory for a growing
// filter that cannot grow) travels with the count. A caller that only had
// the count used to guess Full, and JavaScript said FULL for out of memory.
TYPED_TEST(RegisteredFilterType, ABatchStopsWhereAddDoesWithTheSameStatus) {
  std::vector<std::string> keys;
  for (uint64_t i = 0; i < 4000; ++i) keys.push_back(presentKey(i));
  const KeyBatchLayout layout = layoutOf(keys);
  // Capacity 100 for 4,000 keys: a cuckoo filter fills up; the growing ones
  // grow; a static type is built from the first 10.
  std::unique_ptr<AnyFilter> batched, single;
  std::tie(batched, single) = TestFixture::twins(100, keys, 10);
  ASSERT_TRUE(batched && single);
  Status stopped;
  const size_t stored = batched->addMany(layout.dataAt(0), layout.offsets.data(), keys.size(), &stopped);
  size_t added = 0;
  Status first;
  for (; added < keys.size(); ++added) {
    first = single->add(reinterpret_cast<const uint8_t*>(keys[added].data()), keys[added].size());
    if (!first.isOk()) break;
  }
  EXPECT_EQ(stored, added);
  EXPECT_EQ(stopped.code(), first.code()) << stopped.message();
  EXPECT_EQ(stopped.message(), first.message());
  // Braces: EXPECT_EQ expands to an if/else (-Werror=dangling-else in the toy-type build).
  if constexpr (TestFixture::kStatic) {
    EXPECT_EQ(stopped.code(), StatusCode::Unsupported);
  }
  if (std::is_same_v<TypeParam, CuckooFilter>) {
    EXPECT_EQ(stopped.code(), StatusCode::Full);
  }
  // Without somewhere to put the status, the same count.
  if constexpr (!TestFixture::kStatic) {
    Result<std::unique_ptr<AnyFilter>> again = TestFixture::make(100, 0.01, 3);
    ASSERT_TRUE(again.isOk());
    EXPECT_EQ(again.value()->addMany(layout.dataAt(0), layout.offsets.data(), keys.size()), stored);
  }
}

TYPED_TEST(RegisteredFilterType, RoundTripsThroughTheRegistryByteForByte) {
  {
    const std::unique_ptr<AnyFilter> made = TestFixture::filled(3000, 0.01, 99, 2500, presentKey);
    ASSERT_NE(made, nullptr);
    AnyFilter& filter = *made;
    const std::vector<uint8_t> bytes = filter.serialize();
    Result<std::unique_ptr<AnyFilter>> read = deserializeFilter(bytes.data(), bytes.size());
    ASSERT_TRUE(read.isOk()) << read.status().message();
    EXPECT_EQ(read.value()->type(), TypeParam::kType);
    EXPECT_EQ(read.value()->serialize(), bytes);
    EXPECT_EQ(read.value()->header().itemCount, filter.header().itemCount);
    EXPECT_EQ(read.value()->parameters(), filter.parameters());
    for (uint64_t i = 0; i < 2500; ++i) {
      const std::string key = presentKey(i);
      ASSERT_TRUE(read.value()->has(reinterpret_cast<const uint8_t*>(key.data()), key.size())) << i;
    }
    // Every proper prefix is rejected, never read as something else.
    for (size_t length = 0; length < bytes.size(); length += 1 + length / 16) {
      EXPECT_FALSE(deserializeFilter(bytes.data(), length).isOk()) << length;
    }
  }
}

TYPED_TEST(RegisteredFilterType, ReadsFromABlobBufferLikeFromBytes) {
  {
    const std::unique_ptr<AnyFilter> made = TestFixture::filled(3000, 0.01, 42, 2000, presentKey);
    ASSERT_TRUE(made);
    const std::vector<uint8_t> bytes = made->serialize();
    Result<SerializedParts> madeParts = made->serializedParts();
    ASSERT_TRUE(madeParts.isOk()) << madeParts.status().message();
    const SerializedParts& parts = madeParts.value();
    std::vector<uint8_t> assembled = parts.head;
    assembled.insert(assembled.end(), parts.payload, parts.payload + parts.payloadLength);
    for (size_t i = 0; i < 8; ++i) assembled.push_back(static_cast<uint8_t>(parts.checksum >> (8 * i)));
    EXPECT_EQ(assembled, bytes);  // the parts are the blob

    // Aligned for adoption (the payload's true offset) and deliberately not (offset 1): same filter either way.
    for (const size_t payloadOffset : {parts.head.size(), size_t{1}}) {
      BlobBuffer buffer;
      ASSERT_TRUE(buffer.allocate(bytes.size(), payloadOffset));
      std::copy(bytes.begin(), bytes.end(), buffer.data());
      Result<std::unique_ptr<AnyFilter>> read = deserializeFilter(buffer);
      ASSERT_TRUE(read.isOk()) << read.status().message();
      EXPECT_EQ(read.value()->serialize(), bytes);
      // The word-array types keep the buffer as their table when it is aligned: no copy.
      const bool wordArray = isWordArray(static_cast<const TypeParam*>(nullptr));
      const Result<SerializedParts> readParts = read.value()->serializedParts();
      ASSERT_TRUE(readParts.isOk());
      const uint8_t* table = readParts.value().payload;
      const bool inBuffer = table >= buffer.data() && table < buffer.data() + bytes.size();
      EXPECT_EQ(inBuffer, wordArray && payloadOffset == parts.head.size()) << payloadOffset;
      for (uint64_t i = 0; i < 2000; ++i) {
        const std::string key = presentKey(i);
        ASSERT_TRUE(read.value()->has(reinterpret_cast<const uint8_t*>(key.data()), key.size())) << i;
      }
    }
    // A corrupted byte in the buffer is rejected like in plain bytes.
    BlobBuffer corrupted;
    ASSERT_TRUE(corrupted.allocate(bytes.size(), parts.head.size()));
    std::copy(bytes.begin(), bytes.end(), corrupted.data());
    corrupted.data()[bytes.size() / 2] ^= 0x10;
    EXPECT_FALSE(deserializeFilter(corrupted).isOk());
  }
}

TYPED_TEST(RegisteredFilterType, RemoveAndUnionExactlyWhenSupported) {
  {
    // a: empty; b: holding one key.
    const std::string key = "https://example.com/";
    const std::unique_ptr<AnyFilter> a = TestFixture::filled(1000, 0.01, 5, 0, presentKey);
    const std::unique_ptr<AnyFilter> b = TestFixture::filled(1000, 0.01, 5, 1, [&key](uint64_t) { return key; });
    ASSERT_TRUE(a != nullptr && b != nullptr);
    const auto* bytes = reinterpret_cast<const uint8_t*>(key.data());
    const Status removed = a->remove(bytes, key.size());
    const Status merged = a->unionWith(*b);
    if constexpr (kSupportsRemove<TypeParam>) {
      EXPECT_EQ(removed.code(), StatusCode::NotFound);
    } else {
      EXPECT_EQ(removed.code(), StatusCode::Unsupported);
    }
    if constexpr (kSupportsUnion<TypeParam>) {
      EXPECT_TRUE(merged.isOk()) << merged.message();
      EXPECT_TRUE(a->has(bytes, key.size()));
    } else {
      EXPECT_EQ(merged.code(), StatusCode::Unsupported);
    }
  }
}

TYPED_TEST(RegisteredFilterType, StaticTypesAreBuiltNotCreatedAndHaveNoAdd) {
  const std::unique_ptr<AnyFilter> filter = TestFixture::filled(100, 0.01, 3, 50, presentKey);
  ASSERT_NE(filter, nullptr);
  const std::string key = absentKey(1);
  const Status added = filter->add(reinterpret_cast<const uint8_t*>(key.data()), key.size());
  if constexpr (TestFixture::kStatic) {
    const Result<std::unique_ptr<AnyFilter>> created = TestFixture::make(100, 0.01);
    EXPECT_EQ(created.status().code(), StatusCode::Unsupported);
    EXPECT_NE(created.status().message().find("build"), std::string::npos) << created.status().message();
    EXPECT_EQ(added.code(), StatusCode::Unsupported);
    EXPECT_EQ(filter->add(hashKey(key, 3)).code(), StatusCode::Unsupported);
  } else {
    EXPECT_TRUE(added.isOk()) << added.message();
  }
  // buildFilter gives every type the keys (capacity from the key count when 0).
  std::vector<KeyHash> hashes;
  for (uint64_t i = 0; i < 300; ++i) hashes.push_back(hashKey(presentKey(i), 3));
  Result<std::unique_ptr<AnyFilter>> built =
      buildFilter(TypeParam::kType, TestFixture::options(0, 0.01, 3), hashes.data(), hashes.size());
  ASSERT_TRUE(built.isOk()) << built.status().message();
  for (uint64_t i = 0; i < 300; ++i) ASSERT_TRUE(built.value()->has(hashes[i])) << i;
}

TYPED_TEST(RegisteredFilterType, RejectsImpossibleOptionsWithInvalidArgument) {
  if constexpr (TestFixture::kStatic) {
    // Sized by its keys (capacity does not apply); the rate is checked.
    const KeyHash one = hashKey("k", 0);
    for (const double rate : {0.0, 1.0, std::nan(""), -0.5}) {
      EXPECT_EQ(buildFilter(TypeParam::kType, TestFixture::options(100, rate, 0), &one, 1).status().code(),
                StatusCode::InvalidArgument)
          << rate;
    }
  } else {
    EXPECT_EQ(TestFixture::make(0, 0.01).status().code(), StatusCode::InvalidArgument);
    EXPECT_EQ(TestFixture::make(100, 0.0).status().code(), StatusCode::InvalidArgument);
    EXPECT_EQ(TestFixture::make(100, 1.0).status().code(), StatusCode::InvalidArgument);
    EXPECT_EQ(TestFixture::make(100, std::nan("")).status().code(), StatusCode::InvalidArgument);
    EXPECT_EQ(TestFixture::make(uint64_t{1} << 40, 1e-9).status().code(), StatusCode::InvalidArgument);
  }
}

// The one generic check of which options a type takes (filter_options.h):
// every option outside the shared three and the type's kOptions is refused,
// through create and build alike, by a message naming the option, the type
// and the options the type does take; the type's own options pass it.
TYPED_TEST(RegisteredFilterType, RefusesEveryOptionItDoesNotTakeNamingWhatItTakes) {
  const OptionList own = OptionsOf<TypeParam>::value;
  const std::string typeName = filterTypeName(TypeParam::kType);
  const KeyHash one = hashKey("k", 0);
  for (const OptionInfo& info : kFilterOptions) {
    if (info.shared) continue;
    CoreFilterOptions options = TestFixture::options(100, 0.01, 0);
    ASSERT_TRUE(options.set(info.id, 1.0).isOk()) << info.name;
    ASSERT_TRUE(options.isSet(info.id)) << info.name;
    const Status checked = checkTakesOptions(options, own, typeName.c_str());
    if (own.contains(info.id)) {
      EXPECT_TRUE(checked.isOk()) << info.name << ": " << checked.message();
      continue;
    }
    for (const Status& refused : {createFilter(TypeParam::kType, options).status(),
                                  buildFilter(TypeParam::kType, options, &one, 1).status()}) {
      EXPECT_EQ(refused.code(), StatusCode::InvalidArgument) << info.name;
      const std::string& message = refused.message();
      EXPECT_NE(message.find(info.name), std::string::npos) << message;
      EXPECT_NE(message.find(typeName), std::string::npos) << message;
      for (OptionId taken : own) EXPECT_NE(message.find(optionInfo(taken).name), std::string::npos) << message;
      if (own.size == 0) {
        EXPECT_NE(message.find("no other option"), std::string::npos) << message;
      }
    }
  }
}

// A growing chain that may not grow (32 links of one key each, growth 1):
// its batch stops at the key that needed link 33, with add()'s Full and message.
TEST(FilterRegistry, AGrowingChainsBatchStopsWithTheChainsStatus) {
  CoreFilterOptions options;
  options.capacity = 1;
  options.falsePositiveRate = 0.01;
  options.seed = 3;
  options.growth = 1.0;
  Result<std::unique_ptr<AnyFilter>> made = createFilter(FilterType::ScalableBloom, options);
  ASSERT_TRUE(made.isOk()) << made.status().message();
  std::vector<std::string> keys;
  for (uint64_t i = 0; i < 100; ++i) keys.push_back(presentKey(i));
  const KeyBatchLayout layout = layoutOf(keys);
  Status stopped;
  const size_t stored = made.value()->addMany(layout.dataAt(0), layout.offsets.data(), keys.size(), &stopped);
  EXPECT_GE(stored, 32u);
  EXPECT_LT(stored, keys.size());
  EXPECT_EQ(stopped.code(), StatusCode::Full) << stopped.message();
  EXPECT_NE(stopped.message().find("maximum of 32"), std::string::npos) << stopped.message();
  for (size_t i = 0; i < stored; ++i) {
    ASSERT_TRUE(made.value()->has(reinterpret_cast<const uint8_t*>(keys[i].data()), keys[i].size())) << i;
  }
}

TEST(FilterRegistry, UnknownNamesAndComposites) {
  FilterType type;
  EXPECT_FALSE(filterTypeFromName("bloomfilter", type));
  EXPECT_FALSE(filterTypeFromName("", type));
  EXPECT_FALSE(filterTypeFromName(nullptr, type));
  EXPECT_FALSE(filterTypeFromName("url-blocklist", type)) << "a composite is not a filter type";
  CoreFilterOptions options;
  options.capacity = 10;
  options.falsePositiveRate = 0.01;
  EXPECT_EQ(createFilter(FilterType::UrlBlocklist, options).status().code(), StatusCode::InvalidArgument);
  EXPECT_EQ(createFilter(static_cast<FilterType>(99), options).status().code(), StatusCode::InvalidArgument);
}

TEST(FilterRegistry, CuckooOptionsAreRejectedByOtherTypes) {
  for (const FilterTypeInfo& info : registeredFilterTypes()) {
    CoreFilterOptions options;
    options.capacity = 100;
    options.falsePositiveRate = 0.01;
    options.bucketSize = 4;
    const KeyHash one = hashKey("k", 0);
    const StatusCode code = info.isStatic ? buildFilter(info.type, options, &one, 1).status().code()
                                          : createFilter(info.type, options).status().code();
    if (info.type == FilterType::Cuckoo || info.type == FilterType::ScalableCuckoo) {
      EXPECT_EQ(code, StatusCode::Ok);
    } else {
      EXPECT_EQ(code, StatusCode::InvalidArgument) << info.name;
    }
  }
}
