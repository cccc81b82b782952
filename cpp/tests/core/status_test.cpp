// Status names and the number formatting of error messages.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "cuckoo_bloom/core/limits.h"
#include "cuckoo_bloom/core/status.h"

using namespace cuckoo_bloom;

TEST(StatusCodeName, EveryCodeHasItsStableName) {
  EXPECT_STREQ(statusCodeName(StatusCode::Ok), "OK");
  EXPECT_STREQ(statusCodeName(StatusCode::Full), "FULL");
  EXPECT_STREQ(statusCodeName(StatusCode::OutOfMemory), "OUT_OF_MEMORY");
  EXPECT_STREQ(statusCodeName(StatusCode::Unsupported), "UNSUPPORTED");
  EXPECT_STREQ(statusCodeName(static_cast<StatusCode>(200)), "UNKNOWN");
}

TEST(FormatNumber, ReadableInErrorMessages) {
  EXPECT_EQ(formatNumber(0.01), "0.01");
  EXPECT_EQ(formatNumber(0.001), "0.001");
  EXPECT_EQ(formatNumber(1.5), "1.5");
  EXPECT_EQ(formatNumber(-2.25), "-2.25");
  EXPECT_EQ(formatNumber(0.0), "0");
  EXPECT_EQ(formatNumber(123.456789), "123.456789");
  EXPECT_EQ(formatNumber(1e-9), "1e-9");
  EXPECT_EQ(formatNumber(2.5e-7), "2.5e-7");
  EXPECT_EQ(formatNumber(9.9999999e-5), "1e-4");
  EXPECT_EQ(formatNumber(1e20), "1e20");
  EXPECT_EQ(formatNumber(std::nan("")), "NaN");
  EXPECT_EQ(formatNumber(std::numeric_limits<double>::infinity()), "Infinity");
  EXPECT_EQ(formatNumber(-std::numeric_limits<double>::infinity()), "-Infinity");
}

TEST(ValidateCapacityAndRate, NamesTheBadRate) {
  const Status status = validateCapacityAndRate(10, 1.5);
  EXPECT_EQ(status.code(), StatusCode::InvalidArgument);
  EXPECT_NE(status.message().find("got 1.5"), std::string::npos) << status.message();
}
