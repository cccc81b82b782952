// The toy filter's own option: its range, and that it sizes the table.
#include <gtest/gtest.h>

#include "cuckoo_bloom/registry/any_filter.h"

namespace {

using namespace cuckoo_bloom;

TEST(ToyFilter, SizeFactorSizesTheTableAndIsRangeChecked) {
  CoreFilterOptions options;
  options.capacity = 100;
  options.falsePositiveRate = 0.01;
  Result<std::unique_ptr<AnyFilter>> plain = createFilter(FilterType::Toy, options);
  ASSERT_TRUE(plain.isOk()) << plain.status().message();
  ASSERT_TRUE(options.set(OptionId::SizeFactor, 2.0).isOk());
  Result<std::unique_ptr<AnyFilter>> doubled = createFilter(FilterType::Toy, options);
  ASSERT_TRUE(doubled.isOk()) << doubled.status().message();
  EXPECT_EQ(doubled.value()->as<ToyFilter>()->bitCount(), 2 * plain.value()->as<ToyFilter>()->bitCount());
  options.sizeFactor = 0.5;
  const Status refused = createFilter(FilterType::Toy, options).status();
  EXPECT_EQ(refused.code(), StatusCode::InvalidArgument);
  EXPECT_NE(refused.message().find("sizeFactor"), std::string::npos) << refused.message();
  // Another type does not take it.
  options.sizeFactor = 2.0;
  EXPECT_EQ(createFilter(FilterType::Bloom, options).status().code(), StatusCode::InvalidArgument);
}

}  // namespace
