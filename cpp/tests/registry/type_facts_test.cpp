// The facts each class declares (core/type_facts.h), as the registry reports
// them: consistent with each other, and the limits the ones create() enforces.
// Every registered type is checked, a new one included, with no edit here.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>

#include "cuckoo_bloom/registry/any_filter.h"

namespace {

using namespace cuckoo_bloom;

const FilterTypeInfo* infoOf(FilterType type) {
  for (const FilterTypeInfo& info : registeredFilterTypes()) {
    if (info.type == type) return &info;
  }
  return nullptr;
}

// A filter of `info`'s type with one option set to `value` (the shared three
// at small, valid values); a static type is built from three keys.
Status makeWith(const FilterTypeInfo& info, OptionId id, double value) {
  CoreFilterOptions options;
  options.capacity = 100;
  options.falsePositiveRate = 0.01;
  Status set = options.set(id, value);
  if (!set.isOk()) return set;
  if (info.isStatic) {
    const uint8_t keys[] = {'a', 'b', 'c'};
    const KeyHash hashes[] = {hashKey(keys, 1, 0), hashKey(keys + 1, 1, 0), hashKey(keys + 2, 1, 0)};
    return buildFilter(info.type, options, hashes, 3).status();
  }
  return createFilter(info.type, options).status();
}

TEST(TypeFacts, AGrowingStandInIsARegisteredTypeThatGrowsAndStandsInForItself) {
  for (const FilterTypeInfo& info : registeredFilterTypes()) {
    SCOPED_TRACE(info.name);
    if (!info.hasGrowingStandIn) {
      EXPECT_EQ(info.growth, FilterGrowth::None) << "a type that grows stands in for itself";
      continue;
    }
    const FilterTypeInfo* standIn = infoOf(info.growingStandIn);
    ASSERT_NE(standIn, nullptr);
    EXPECT_NE(standIn->growth, FilterGrowth::None);
    EXPECT_FALSE(standIn->isStatic);
    EXPECT_FALSE(standIn->forgets);
    EXPECT_EQ(standIn->growingStandIn, standIn->type);
    // A key set that a type with removal holds goes into a stand-in with removal.
    if (info.supportsRemove) {
      EXPECT_TRUE(standIn->supportsRemove) << "stand-in " << standIn->name;
    }
  }
}

TEST(TypeFacts, ATypeThatGrowsTakesKeysPastItsDefaultCapacity) {
  for (const FilterTypeInfo& info : registeredFilterTypes()) {
    if (info.growth == FilterGrowth::None) continue;
    SCOPED_TRACE(info.name);
    ASSERT_GT(info.defaultCapacity, 0u);
    CoreFilterOptions options;
    options.capacity = info.defaultCapacity;
    options.falsePositiveRate = 0.01;
    auto made = createFilter(info.type, options);
    ASSERT_TRUE(made.isOk()) << made.status().message();
    const uint64_t keys = info.defaultCapacity * 5;
    for (uint64_t i = 0; i < keys; ++i) {
      const std::string key = "key-" + std::to_string(i);
      ASSERT_TRUE(made.value()->add(reinterpret_cast<const uint8_t*>(key.data()), key.size()).isOk()) << key;
    }
    for (uint64_t i = 0; i < keys; ++i) {
      const std::string key = "key-" + std::to_string(i);
      ASSERT_TRUE(made.value()->has(reinterpret_cast<const uint8_t*>(key.data()), key.size())) << key;
    }
  }
}

TEST(TypeFacts, EveryTypeSaysWhereItsEstimateComesFrom) {
  for (const FilterTypeInfo& info : registeredFilterTypes()) {
    SCOPED_TRACE(info.name);
    const EstimateSourceInfo source = estimateSourceInfo(info.estimateSource);
    EXPECT_NE(std::string(source.name), "");
    EXPECT_EQ(std::string(source.phrase).rfind("from ", 0), 0u);
  }
}

// Each declared limit is the one create() enforces: its bounds accepted or
// refused as it says (just outside refused), and its default accepted.
TEST(TypeFacts, EachOptionLimitIsTheRangeCreateEnforces) {
  for (const FilterTypeInfo& info : registeredFilterTypes()) {
    for (const OptionLimit& limit : info.optionLimits) {
      const char* option = optionInfo(limit.id).name;
      SCOPED_TRACE(std::string(info.name) + " " + option);
      EXPECT_TRUE(info.options.contains(limit.id)) << "a limit of an option the type does not take";
      if (std::isfinite(limit.min)) {
        EXPECT_EQ(makeWith(info, limit.id, limit.min).isOk(), limit.minInclusive) << "at the minimum";
        const double below = limit.integer ? limit.min - 1 : std::nextafter(limit.min, -kUnbounded);
        EXPECT_FALSE(makeWith(info, limit.id, below).isOk()) << "below the minimum";
      }
      if (std::isfinite(limit.max)) {
        EXPECT_EQ(makeWith(info, limit.id, limit.max).isOk(), limit.maxInclusive) << "at the maximum";
        const double above = limit.integer ? limit.max + 1 : std::nextafter(limit.max, kUnbounded);
        EXPECT_FALSE(makeWith(info, limit.id, above).isOk()) << "above the maximum";
      }
      if (limit.hasDefault()) {
        EXPECT_TRUE(limit.admits(limit.defaultValue));
        EXPECT_TRUE(makeWith(info, limit.id, limit.defaultValue).isOk()) << "the default";
      }
    }
  }
}

}  // namespace
