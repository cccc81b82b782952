#include "cuckoo_bloom/utf8_offsets.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace cuckoo_bloom {
namespace {

// UTF-16 unit length of a UTF-8 string (what JavaScript's .length would say).
uint32_t unitsOf(const std::string& utf8) {
  uint32_t units = 0;
  for (size_t i = 0; i < utf8.size();) {
    const auto lead = static_cast<uint8_t>(utf8[i]);
    const size_t width = lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4;
    units += width == 4 ? 2 : 1;
    i += width;
  }
  return units;
}

TEST(Utf8Offsets, MapsUnitOffsetsToByteOffsetsForEveryWidth) {
  const std::vector<std::string> keys = {"", "ascii", "caf\xC3\xA9", "\xE2\x82\xAC" "5", "\xF0\x9F\x98\x80", "", "z"};
  std::string joined;
  std::vector<uint32_t> offsets = {0}, expected = {0};
  for (const std::string& key : keys) {
    joined += key;
    offsets.push_back(offsets.back() + unitsOf(key));
    expected.push_back(static_cast<uint32_t>(joined.size()));
  }
  ASSERT_TRUE(utf16OffsetsToUtf8(reinterpret_cast<const uint8_t*>(joined.data()), joined.size(), offsets.data(),
                                 keys.size()));
  EXPECT_EQ(offsets, expected);
}

TEST(Utf8Offsets, RandomKeysOfEveryWidthAtEveryAlignment) {
  // Characters of 1-4 bytes in random keys of 0-40 characters: the 8-byte
  // chunks then cut characters and keys at every position.
  const char* const pieces[] = {"a", "Z", "\xC3\xA9", "\xD0\x96", "\xE2\x82\xAC", "\xE6\x97\xA5", "\xF0\x9F\x98\x80"};
  uint64_t state = 12345;
  const auto next = [&state](uint64_t bound) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return (state >> 33) % bound;
  };
  for (int trial = 0; trial < 200; ++trial) {
    std::string joined;
    std::vector<uint32_t> offsets = {0}, expected = {0};
    const size_t keys = 1 + next(60);
    for (size_t k = 0; k < keys; ++k) {
      std::string key;
      const size_t characters = next(41);
      for (size_t c = 0; c < characters; ++c) key += pieces[next(trial % 2 == 0 ? 7 : 2)];
      joined += key;
      offsets.push_back(offsets.back() + unitsOf(key));
      expected.push_back(static_cast<uint32_t>(joined.size()));
    }
    ASSERT_TRUE(utf16OffsetsToUtf8(reinterpret_cast<const uint8_t*>(joined.data()), joined.size(), offsets.data(), keys))
        << trial;
    ASSERT_EQ(offsets, expected) << trial;
  }
}

TEST(Utf8Offsets, ReportsABoundaryInsideACharacter) {
  // One 4-byte character (2 units) split 1 + 1 between two keys: the
  // surrogate halves joined into a pair.
  const std::string joined = "a\xF0\x9F\x98\x80" "b";
  std::vector<uint32_t> offsets = {0, 2, 4};
  EXPECT_FALSE(utf16OffsetsToUtf8(reinterpret_cast<const uint8_t*>(joined.data()), joined.size(), offsets.data(), 2));
  // The same past the first 8-byte chunks.
  const std::string longer = "abcdefghijklmnopq\xF0\x9F\x98\x80" "rstuvwxyz0123456";
  std::vector<uint32_t> split = {0, 18, 35};
  EXPECT_FALSE(utf16OffsetsToUtf8(reinterpret_cast<const uint8_t*>(longer.data()), longer.size(), split.data(), 2));
}

TEST(Utf8Offsets, ReportsBytesThatEndEarly) {
  const std::string joined = "abc";
  std::vector<uint32_t> offsets = {0, 2, 5};
  EXPECT_FALSE(utf16OffsetsToUtf8(reinterpret_cast<const uint8_t*>(joined.data()), joined.size(), offsets.data(), 2));
  const std::string truncated = "a\xE2\x82";  // a 3-byte lead with 2 bytes left
  std::vector<uint32_t> two = {0, 1, 2};
  EXPECT_FALSE(utf16OffsetsToUtf8(reinterpret_cast<const uint8_t*>(truncated.data()), truncated.size(), two.data(), 2));
}

}  // namespace
}  // namespace cuckoo_bloom
