#include "cuckoo_bloom/core/utf8_offsets.h"

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

// The UTF-8 of one key given as UTF-16 units, written plainly (code point by
// code point) as the reference for utf16KeysToUtf8.
std::string referenceUtf8(const std::vector<uint16_t>& key) {
  std::string out;
  const auto put = [&out](uint32_t byte) { out.push_back(static_cast<char>(byte)); };
  for (size_t i = 0; i < key.size(); ++i) {
    uint32_t code = key[i];
    const bool high = code >= 0xD800 && code <= 0xDBFF;
    if (high && i + 1 < key.size() && key[i + 1] >= 0xDC00 && key[i + 1] <= 0xDFFF) {
      code = 0x10000 + ((code - 0xD800) << 10) + (key[++i] - 0xDC00);
    } else if (code >= 0xD800 && code <= 0xDFFF) {
      code = 0xFFFD;
    }
    if (code < 0x80) {
      put(code);
    } else if (code < 0x800) {
      put(0xC0 | (code >> 6)), put(0x80 | (code & 0x3F));
    } else if (code < 0x10000) {
      put(0xE0 | (code >> 12)), put(0x80 | ((code >> 6) & 0x3F)), put(0x80 | (code & 0x3F));
    } else {
      put(0xF0 | (code >> 18)), put(0x80 | ((code >> 12) & 0x3F)), put(0x80 | ((code >> 6) & 0x3F));
      put(0x80 | (code & 0x3F));
    }
  }
  return out;
}

// Runs utf16KeysToUtf8 on `keys` laid out as JavaScript lays them out (units
// at an odd 2-byte position, to check unaligned reads); returns the bytes and
// checks the offsets against the reference.
std::string encodeKeys(const std::vector<std::vector<uint16_t>>& keys) {
  std::vector<uint8_t> units(2);  // one unit of padding: the keys start at byte 2
  std::vector<uint32_t> offsets = {0};
  for (const auto& key : keys) {
    for (const uint16_t unit : key) units.push_back(unit & 0xFF), units.push_back(unit >> 8);
    offsets.push_back(offsets.back() + static_cast<uint32_t>(key.size()));
  }
  std::vector<uint8_t> out(3 * offsets.back() + 4);
  const size_t written = utf16KeysToUtf8(units.data() + 2, offsets.data(), keys.size(), out.data());
  std::string expected;
  for (size_t k = 0; k < keys.size(); ++k) {
    EXPECT_EQ(offsets[k], expected.size()) << "key " << k;
    expected += referenceUtf8(keys[k]);
  }
  EXPECT_EQ(offsets[keys.size()], expected.size());
  EXPECT_EQ(written, expected.size());
  const std::string got(out.begin(), out.begin() + static_cast<std::ptrdiff_t>(written));
  EXPECT_EQ(got, expected);
  return got;
}

TEST(Utf16KeysToUtf8, EncodesEachKeyAsTextEncoderDoes) {
  // "é", "€5", a pair (U+1F600), lone high and low surrogates, and a pair
  // split between two keys: each half alone is U+FFFD, not one character.
  EXPECT_EQ(encodeKeys({{0xE9}}), "\xC3\xA9");
  EXPECT_EQ(encodeKeys({{0x20AC, '5'}}), "\xE2\x82\xAC" "5");
  EXPECT_EQ(encodeKeys({{0xD83D, 0xDE00}}), "\xF0\x9F\x98\x80");
  EXPECT_EQ(encodeKeys({{'a', 0xD800}, {0xDC00, 'b'}}), "a\xEF\xBF\xBD\xEF\xBF\xBD" "b");
  EXPECT_EQ(encodeKeys({{0xDC00, 0xD800}}), "\xEF\xBF\xBD\xEF\xBF\xBD");
  EXPECT_EQ(encodeKeys({{}, {'x', 'y', 'z', 'w', 'v'}, {}}), "xyzwv");
}

TEST(Utf16KeysToUtf8, RandomKeysOfEveryWidthAndSurrogateAtEveryAlignment) {
  // Units of every UTF-8 width and every surrogate edge, in keys of 0-40
  // units: the four-unit ASCII steps then start and stop at every position.
  const uint16_t alphabet[] = {'a', 'Z', 0x7F, 0x80, 0xE9, 0x7FF, 0x800, 0x20AC, 0xFFFF,
                               0xD800, 0xDBFF, 0xDC00, 0xDFFF, 0xD83D, 0xDE00};
  uint64_t state = 777;
  const auto next = [&state](uint64_t bound) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return (state >> 33) % bound;
  };
  for (int trial = 0; trial < 300; ++trial) {
    std::vector<std::vector<uint16_t>> keys(1 + next(60));
    for (auto& key : keys) {
      const size_t length = next(41);
      // Mostly ASCII in odd trials, so long ASCII runs meet the odd unit.
      for (size_t u = 0; u < length; ++u) key.push_back(alphabet[next(trial % 2 == 0 ? 15 : (next(8) == 0 ? 15 : 2))]);
    }
    encodeKeys(keys);
    if (::testing::Test::HasFailure()) FAIL() << "trial " << trial;
  }
}

}  // namespace
}  // namespace cuckoo_bloom
