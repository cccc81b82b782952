// The one list of filter options (filter_options.h): what each kind of
// option accepts when it is set from a number (as the bindings set every
// option), and the error texts, which name the option and the value.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <set>
#include <string>

#include "cuckoo_bloom/core/filter_options.h"

namespace {

using namespace cuckoo_bloom;

Status setting(OptionId id, double value) {
  CoreFilterOptions options;
  return options.set(id, value);
}

TEST(FilterOptions, TheListNamesEveryOptionOnceInTheOrderOfItsIds) {
  std::set<std::string> names;
  for (size_t i = 0; i < std::size(kFilterOptions); ++i) {
    const OptionInfo& info = kFilterOptions[i];
    EXPECT_EQ(static_cast<size_t>(info.id), i) << info.name;
    EXPECT_EQ(&optionInfo(info.id), &info);
    EXPECT_TRUE(names.insert(info.name).second) << info.name;
    EXPECT_GT(std::string(info.meaning).size(), 10u) << info.name;
    // Exactly the shared three come first and are marked shared.
    EXPECT_EQ(info.shared, i < 3) << info.name;
  }
  EXPECT_EQ(std::string(kFilterOptions[0].name), "capacity");
  EXPECT_EQ(std::string(kFilterOptions[1].name), "falsePositiveRate");
  EXPECT_EQ(std::string(kFilterOptions[2].name), "seed");
}

TEST(FilterOptions, AnOptionIsSetOnlyWhenGiven) {
  CoreFilterOptions options;
  for (const OptionInfo& info : kFilterOptions) EXPECT_EQ(options.isSet(info.id), info.shared) << info.name;
  ASSERT_TRUE(options.set(OptionId::StartTime, 0.0).isOk());
  EXPECT_TRUE(options.isSet(OptionId::StartTime)) << "0 given is given, not the default";
  EXPECT_EQ(options.startTime, 0.0);
  ASSERT_TRUE(options.set(OptionId::SemiSorted, 0.0).isOk());
  EXPECT_EQ(options.semiSorted, false);
  ASSERT_TRUE(options.set(OptionId::Generations, -3.0).isOk()) << "the type's range check refuses it, by name";
  EXPECT_EQ(options.generations, -3);
  ASSERT_TRUE(options.set(OptionId::Capacity, 9007199254740992.0).isOk());
  EXPECT_EQ(options.capacity, uint64_t{1} << 53);
}

TEST(FilterOptions, EachKindRefusesWhatIsNotOfItNamingTheOptionAndTheValue) {
  const double nan = std::nan("");
  const double inf = std::numeric_limits<double>::infinity();
  struct Case {
    OptionId id;
    double value;
    const char* message;
  };
  for (const Case& c : {Case{OptionId::Capacity, -1.0, "capacity must be an integer >= 0, got -1"},
                        Case{OptionId::Capacity, 1.5, "capacity must be an integer >= 0, got 1.5"},
                        Case{OptionId::Seed, 1e300, "seed must be an integer >= 0"},
                        Case{OptionId::BucketSize, 2.5, "bucketSize must be an integer, got 2.5"},
                        Case{OptionId::Generations, inf, "generations must be an integer"},
                        Case{OptionId::MaxKicks, nan, "maxKicks must be an integer"},
                        Case{OptionId::Growth, nan, "growth must be a number"},
                        Case{OptionId::FalsePositiveRate, nan, "falsePositiveRate must be a number"},
                        Case{OptionId::SemiSorted, 2.0, "semiSorted must be true or false, got 2"}}) {
    const Status status = setting(c.id, c.value);
    EXPECT_EQ(status.code(), StatusCode::InvalidArgument) << c.message;
    EXPECT_EQ(status.message().rfind(c.message, 0), 0u) << status.message();
  }
  // A refused value leaves the option not given.
  CoreFilterOptions options;
  EXPECT_FALSE(options.set(OptionId::Arity, 3.5).isOk());
  EXPECT_FALSE(options.isSet(OptionId::Arity));
}

TEST(FilterOptions, TheGenericCheckNamesTheOptionTheTypeAndWhatItTakes) {
  static constexpr OptionId kTakes[] = {OptionId::Growth, OptionId::Tightening, OptionId::BucketSize};
  const OptionList takes{kTakes, std::size(kTakes)};
  CoreFilterOptions options;
  options.growth = 2.0;
  options.bucketSize = 4;
  EXPECT_TRUE(checkTakesOptions(options, takes, "scalable-cuckoo").isOk());
  options.arity = 3;
  const Status refused = checkTakesOptions(options, takes, "scalable-cuckoo");
  EXPECT_EQ(refused.code(), StatusCode::InvalidArgument);
  EXPECT_EQ(refused.message(),
            "a scalable-cuckoo filter does not take the option arity; beyond capacity, falsePositiveRate and seed it "
            "takes growth, tightening and bucketSize");
  EXPECT_EQ(checkTakesOptions(options, OptionList{}, "bloom").message(),
            "a bloom filter does not take the option bucketSize; beyond capacity, falsePositiveRate and seed it "
            "takes no other option");
}

}  // namespace
