// The expandable filter's golden bytes across its two layouts.
// tests/golden/fixed-width/expandable.cbf is tests/golden/expandable.cbf as it
// was written before fingerprints widened (widenEvery 0: fixed-width slots):
// it must still read, answer every probe as it did then, write back
// unchanged, and keep growing the fixed-width way. tests/golden/expandable.cbf
// is today's bytes (with the fingerprint schedule), checked byte for byte by
// RegisteredGolden (registered_golden_test.cpp) and here for its schedule.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "cuckoo_bloom/expandable/expandable_filter.h"
#include "support/expandable_test_support.h"
#include "support/test_keys.h"

namespace {

using namespace cuckoo_bloom;
using cuckoo_bloom_test::goldenBytes;
using cuckoo_bloom_test::absentKey;
using cuckoo_bloom_test::goldenKey;
using cuckoo_bloom_test::presentKey;

ExpandableFilter read(const std::vector<uint8_t>& bytes) {
  Result<ExpandableFilter> filter = ExpandableFilter::deserialize(bytes.data(), bytes.size());
  EXPECT_TRUE(filter.isOk()) << filter.status().message();
  return std::move(filter.value());
}

// The fixed-width file's answers to absentKey(0 .. 99,999), pinned from the
// code that wrote it (before the schedule): how many are false positives,
// and a running hash of their ids.
struct Answers {
  uint64_t positives = 0;
  uint64_t chain = 0;
};
Answers answersTo100kAbsentKeys(const ExpandableFilter& filter) {
  Answers answers;
  for (uint64_t i = 0; i < 100000; ++i) {
    if (filter.has(absentKey(i))) {
      ++answers.positives;
      answers.chain = answers.chain * 31 + i;
    }
  }
  return answers;
}

TEST(ExpandableGolden, FixedWidthBytesReadAndAnswerAsWhenWritten) {
  const std::vector<uint8_t> bytes = goldenBytes("fixed-width/expandable.cbf");
  ASSERT_EQ(bytes.size(), 472u);
  ExpandableFilter filter = read(bytes);
  EXPECT_EQ(filter.schedule().widenEvery, 0u) << "the file predates the schedule";
  EXPECT_EQ(filter.fingerprintBits(), 7u);
  EXPECT_EQ(filter.newEntryBits(), 7u);
  for (uint64_t i = 0; i < 50; ++i) EXPECT_TRUE(filter.has(goldenKey(i))) << goldenKey(i);
  const Answers answers = answersTo100kAbsentKeys(filter);
  EXPECT_EQ(answers.positives, 327u);
  EXPECT_EQ(answers.chain, 8464248446692888545ull);
  EXPECT_EQ(filter.serialize(), bytes) << "read and written back, the bytes are the same";
}

TEST(ExpandableGolden, FixedWidthFiltersKeepGrowingTheFixedWidthWay) {
  ExpandableFilter filter = read(goldenBytes("fixed-width/expandable.cbf"));
  for (uint64_t i = 0; i < 20000; ++i) ASSERT_TRUE(filter.add(presentKey(i)).isOk()) << i;
  EXPECT_GE(filter.level(), 7u);
  EXPECT_EQ(filter.fingerprintBits(), 7u) << "a fixed-width table stays fixed width";
  EXPECT_EQ(filter.schedule().widenEvery, 0u);
  for (uint64_t i = 0; i < 50; ++i) EXPECT_TRUE(filter.has(goldenKey(i))) << goldenKey(i);
  for (uint64_t i = 0; i < 20000; ++i) ASSERT_TRUE(filter.has(presentKey(i))) << i;
  const std::vector<uint8_t> bytes = filter.serialize();
  EXPECT_EQ(read(bytes).serialize(), bytes);
}

TEST(ExpandableGolden, TodaysBytesCarryTheFingerprintSchedule) {
  const std::vector<uint8_t> bytes = goldenBytes("expandable.cbf");
  ExpandableFilter filter = read(bytes);
  // capacity 100 at 1% without a hint: t = 10, one more bit every 11 doublings.
  EXPECT_EQ(filter.schedule().topBits, 10u);
  EXPECT_EQ(filter.schedule().widenEvery, 11u);
  EXPECT_EQ(filter.schedule().plannedLevel, 0u);
  EXPECT_EQ(filter.fingerprintBits(), 10u);
  for (uint64_t i = 0; i < 50; ++i) EXPECT_TRUE(filter.has(goldenKey(i))) << goldenKey(i);
  EXPECT_EQ(filter.serialize(), bytes);
}

// tests/golden/growth-steps/expandable.cbf: the 150 golden keys in a filter
// for 100 keys at 1%, seed 42: past its first table (100 keys) the slots grew
// in eighths, four steps (issue #45). Its bytes are pinned (written by this
// test with CUCKOO_BLOOM_UPDATE_GOLDEN=1) and read back whole.
TEST(ExpandableGolden, GrowthStepBytesAreTheCheckedInFile) {
  CoreFilterOptions options;
  options.capacity = 100;
  options.falsePositiveRate = 0.01;
  options.seed = 42;
  ExpandableFilter filter = ExpandableFilter::createFrom(options).value();
  for (uint64_t i = 0; i < 150; ++i) ASSERT_TRUE(filter.add(goldenKey(i)).isOk()) << i;
  EXPECT_EQ(filter.level(), 0u);
  EXPECT_EQ(filter.growthSteps(), 4u);
  EXPECT_EQ(filter.nominalSlots(), 118u + 118u * 4u / 8u);
  EXPECT_EQ(filter.fingerprintBits(), 11u) << "the next level's 10 bits and the one its address will take";
  const std::vector<uint8_t> fresh = filter.serialize();
  const std::string path = std::string(CUCKOO_BLOOM_GOLDEN_DIR) + "/growth-steps/expandable.cbf";
  const char* update = std::getenv("CUCKOO_BLOOM_UPDATE_GOLDEN");
  if (update != nullptr && std::string(update) == "1") {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    ASSERT_TRUE(out) << "cannot write " << path;
    out.write(reinterpret_cast<const char*>(fresh.data()), static_cast<std::streamsize>(fresh.size()));
  }
  const std::vector<uint8_t> stored = goldenBytes("growth-steps/expandable.cbf");
  EXPECT_EQ(fresh, stored);
  ExpandableFilter back = read(stored);
  EXPECT_EQ(back.growthSteps(), 4u);
  for (uint64_t i = 0; i < 150; ++i) EXPECT_TRUE(back.has(goldenKey(i))) << goldenKey(i);
  EXPECT_EQ(back.serialize(), stored);
}

// A schedule byte in a fixed-width block, or slot bits that are not the
// schedule's at the level, is CORRUPT (each layout is read by its own rules).
TEST(ExpandableGolden, AScheduleThatContradictsTheSlotsIsCorrupt) {
  const std::vector<uint8_t> fixed = goldenBytes("fixed-width/expandable.cbf");
  const std::vector<uint8_t> today = goldenBytes("expandable.cbf");
  const auto withParam = [](const std::vector<uint8_t>& bytes, size_t offset, uint8_t value) {
    const DecodedBlob decoded = decodeBlobOfType(bytes.data(), bytes.size(), ExpandableFilter::kType).value();
    std::vector<uint8_t> params(decoded.params, decoded.params + decoded.paramsLength);
    params[offset] = value;
    const std::vector<uint8_t> payload(decoded.payload, decoded.payload + decoded.payloadLength);
    return encodeBlob(decoded.header, params, payload);
  };
  const std::vector<uint8_t> stepped = goldenBytes("growth-steps/expandable.cbf");
  // Block: baseSlots 0-7, expectedCapacity 8-15, level 16, fingerprintBits 17,
  // widenEvery 18, topBits 19, plannedLevel 20, growthSteps 21. Growth steps
  // in a fixed-width block, eight or more, or other than the payload's, too.
  for (const auto& damaged : {withParam(fixed, 19, 7), withParam(fixed, 20, 1), withParam(today, 19, 9),
                              withParam(today, 20, 3), withParam(today, 18, 0), withParam(fixed, 21, 1),
                              withParam(today, 21, 1), withParam(stepped, 21, 8), withParam(stepped, 21, 3),
                              withParam(stepped, 21, 0), withParam(stepped, 22, 1)}) {
    Result<ExpandableFilter> filter = ExpandableFilter::deserialize(damaged.data(), damaged.size());
    ASSERT_FALSE(filter.isOk());
    EXPECT_EQ(filter.status().code(), StatusCode::Corrupt) << filter.status().message();
  }
}

}  // namespace
