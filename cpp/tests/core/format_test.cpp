// Tests for cuckoo_bloom/format.h: the byte format every filter shares, its
// golden files, and how each filter's deserialize() treats damaged or
// inconsistent bytes.
#include "cuckoo_bloom/core/format.h"
#include "cuckoo_bloom/registry/any_filter.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <initializer_list>
#include <iterator>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "cuckoo_bloom/bloom/blocked_bloom_filter.h"
#include "cuckoo_bloom/bloom/bloom_filter.h"
#include "cuckoo_bloom/bloom/counting_bloom_filter.h"
#include "cuckoo_bloom/core/status.h"
#include "cuckoo_bloom/cuckoo/cuckoo_filter.h"
#include "cuckoo_bloom/fuse/binary_fuse_filter.h"
#include "support/cuckoo_test_support.h"
#include "support/test_keys.h"

#ifndef CUCKOO_BLOOM_GOLDEN_DIR
#error "CUCKOO_BLOOM_GOLDEN_DIR must be defined by the build (CMakeLists.txt)"
#endif

namespace cuckoo_bloom {
namespace {

using Bytes = std::vector<uint8_t>;
using cuckoo_bloom_test::goldenKey;
using cuckoo_bloom_test::kOffsetCapacity;
using cuckoo_bloom_test::kOffsetFlags;
using cuckoo_bloom_test::kOffsetHashAlgorithm;
using cuckoo_bloom_test::kOffsetItemCount;
using cuckoo_bloom_test::kOffsetParams;
using cuckoo_bloom_test::kOffsetParamsLength;
using cuckoo_bloom_test::kOffsetPayloadLength;
using cuckoo_bloom_test::kOffsetRate;
using cuckoo_bloom_test::kOffsetSeed;
using cuckoo_bloom_test::kOffsetType;
using cuckoo_bloom_test::kOffsetVersion;
using cuckoo_bloom_test::readLE;
using cuckoo_bloom_test::writeLE;

// ------------------------------------------------------------ the golden filters
//
// capacity 100, falsePositiveRate 0.01, seed 42, keys "key-0" ... "key-49";
// the counting filter then removes "key-0"; the cuckoo filter uses the default
// bucketSize 4, maxKicks 500 and derived fingerprintBits. tests/golden/README.md
// says the same for the JS suite, which rebuilds them and compares bytes.
constexpr uint64_t kGoldenKeys = 50;

// A word-array filter (Bloom, blocked, counting) of capacity 100, rate 0.01,
// seed 42 holding the golden keys.
template <typename Filter>
Filter goldenWordArrayFilter() {
  Filter filter = cuckoo_bloom_test::valueOrFail(Filter::create({100, 0.01, 42}), "create");
  for (uint64_t i = 0; i < kGoldenKeys; ++i) filter.add(goldenKey(i));
  return filter;
}
Bytes buildGoldenBloom() { return goldenWordArrayFilter<BloomFilter>().serialize(); }
Bytes buildGoldenBlockedBloom() { return goldenWordArrayFilter<BlockedBloomFilter>().serialize(); }
Bytes buildGoldenCountingBloom() {
  CountingBloomFilter filter = goldenWordArrayFilter<CountingBloomFilter>();
  EXPECT_TRUE(filter.remove(goldenKey(0)).isOk());
  return filter.serialize();
}
Bytes buildGoldenCuckoo() {
  CuckooFilterOptions options = cuckoo_bloom_test::cuckooOptions(100, 0.01, 4, 42);
  options.maxKicks = 500;
  CuckooFilter filter = cuckoo_bloom_test::makeCuckoo(options);
  for (uint64_t i = 0; i < kGoldenKeys; ++i) EXPECT_TRUE(filter.add(goldenKey(i)).isOk());
  return filter.serialize();
}

// The static type is built from the golden keys: falsePositiveRate 0.01
// (fingerprintBits 7), arity 3 (the default), seed 42.
// The bytes of a binary fuse filter (rate 0.01) built from `hashes` with
// `seed`; no bytes, and a test failure, when the build fails.
Bytes binaryFuseBytes(const std::vector<KeyHash>& hashes, uint64_t seed) {
  BinaryFuseFilterOptions options;
  options.falsePositiveRate = 0.01;
  options.seed = seed;
  Result<BinaryFuseFilter> built = BinaryFuseFilter::build(options, hashes.data(), hashes.size());
  EXPECT_TRUE(built.isOk()) << built.status().message();
  return built.isOk() ? built.value().serialize() : Bytes();
}
Bytes buildGoldenBinaryFuse() {
  std::vector<KeyHash> hashes;
  for (uint64_t i = 0; i < kGoldenKeys; ++i) hashes.push_back(hashKey(goldenKey(i), 42));
  return binaryFuseBytes(hashes, 42);
}

// One entry per filter type: how to build its golden blob and how to read bytes.
struct Kind {
  const char* name;
  const char* goldenFile;
  FilterType type;
  size_t paramsBytes;
  std::function<Bytes()> buildGolden;
  std::function<Status(const Bytes&)> read;
  // Reads golden bytes back and checks that the golden keys are (not) found.
  std::function<void(const Bytes&)> checkGoldenKeys;
  // Whether tests/golden/v1/ has this type (types added after version 1 do not).
  bool hasVersion1File = true;
};

template <typename Filter>
Status readAs(const Bytes& bytes) {
  return Filter::deserialize(bytes.data(), bytes.size()).status();
}

template <typename Filter>
void checkKeys(const Bytes& bytes, uint64_t firstPresent) {
  Result<Filter> read = Filter::deserialize(bytes.data(), bytes.size());
  ASSERT_TRUE(read.isOk()) << read.status().message();
  for (uint64_t i = firstPresent; i < kGoldenKeys; ++i) EXPECT_TRUE(read.value().has(goldenKey(i))) << i;
}

const std::vector<Kind>& kinds() {
  static const std::vector<Kind> all = {
      {"bloom", "bloom.cbf", FilterType::Bloom, 16, buildGoldenBloom, readAs<BloomFilter>,
       [](const Bytes& b) { checkKeys<BloomFilter>(b, 0); }},
      {"blocked-bloom", "blocked-bloom.cbf", FilterType::BlockedBloom, 8, buildGoldenBlockedBloom,
       readAs<BlockedBloomFilter>, [](const Bytes& b) { checkKeys<BlockedBloomFilter>(b, 0); }},
      {"counting-bloom", "counting-bloom.cbf", FilterType::CountingBloom, 16, buildGoldenCountingBloom,
       readAs<CountingBloomFilter>,
       [](const Bytes& b) {
         checkKeys<CountingBloomFilter>(b, 1);
         // "key-0" was removed; with this seed it is not a false positive.
         const CountingBloomFilter filter = cuckoo_bloom_test::valueOrFail(
             CountingBloomFilter::deserialize(b.data(), b.size()), "deserialize");
         EXPECT_FALSE(filter.has(goldenKey(0)));
       }},
      {"cuckoo", "cuckoo.cbf", FilterType::Cuckoo, 24, buildGoldenCuckoo, readAs<CuckooFilter>,
       [](const Bytes& b) { checkKeys<CuckooFilter>(b, 0); }},
      {"binary-fuse", "binary-fuse.cbf", FilterType::BinaryFuse, 20, buildGoldenBinaryFuse,
       readAs<BinaryFuseFilter>, [](const Bytes& b) { checkKeys<BinaryFuseFilter>(b, 0); }, false},
  };
  return all;
}

// tests/golden/*.cbf are this build's bytes (format version 2); the files of
// format version 1 stay in tests/golden/v1/ and must always read.
std::string goldenPath(const Kind& kind) {
  return std::string(CUCKOO_BLOOM_GOLDEN_DIR) + "/" + kind.goldenFile;
}
std::string goldenV1Path(const Kind& kind) {
  return std::string(CUCKOO_BLOOM_GOLDEN_DIR) + "/v1/" + kind.goldenFile;
}
// Bloom and counting Bloom filters created before the exact sizing
// (bloom_sizing.h) have the textbook table (959 bits for the golden options):
// their version 2 bytes are kept in tests/golden/textbook-sizing/, and they
// must read and answer exactly as before.
bool hasTextbookSizedFile(const Kind& kind) {
  return kind.type == FilterType::Bloom || kind.type == FilterType::CountingBloom;
}
std::string goldenTextbookPath(const Kind& kind) {
  return std::string(CUCKOO_BLOOM_GOLDEN_DIR) + "/textbook-sizing/" + kind.goldenFile;
}

bool updateGolden() {
  const char* value = std::getenv("CUCKOO_BLOOM_UPDATE_GOLDEN");
  return value != nullptr && std::string(value) == "1";
}

bool readFile(const std::string& path, Bytes& out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  out.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  return true;
}

// Re-computes the checksum after an edit, so only the edited content is wrong.
void reseal(Bytes& bytes) {
  ASSERT_GE(bytes.size(), kChecksumBytes);
  writeLE(bytes, bytes.size() - 8, 8, formatChecksum(bytes.data(), bytes.size() - 8));
}

// An encoder written from the documented layout (format.h), independent of
// encodeBlob(), so crafted blobs do not depend on the code under test. The
// header fields no test varies are fixed: magic, hash algorithm 1 (XXH3-64),
// flags 0, seed 42, capacity 100, rate 0.01.
struct Craft {
  uint8_t type = 1;
  uint16_t version = kFormatVersion;
  uint64_t itemCount = 0;
  Bytes params;
  Bytes payload;

  Bytes encode() const {
    Bytes out(kHeaderBytes);
    const uint8_t magic[4] = {'C', 'B', 'W', 'F'};
    std::memcpy(out.data(), magic, 4);
    writeLE(out, kOffsetVersion, 2, version);
    out[kOffsetType] = type;
    out[kOffsetHashAlgorithm] = 1;
    writeLE(out, kOffsetFlags, 4, 0);
    writeLE(out, kOffsetParamsLength, 4, params.size());
    writeLE(out, kOffsetSeed, 8, 42);
    writeLE(out, kOffsetItemCount, 8, itemCount);
    writeLE(out, kOffsetCapacity, 8, 100);
    const double rate = 0.01;
    uint64_t rateBits;
    std::memcpy(&rateBits, &rate, 8);
    writeLE(out, kOffsetRate, 8, rateBits);
    writeLE(out, kOffsetPayloadLength, 8, payload.size());
    out.insert(out.end(), params.begin(), params.end());
    out.insert(out.end(), payload.begin(), payload.end());
    out.resize(out.size() + 8);
    writeLE(out, out.size() - 8, 8, formatChecksum(out.data(), out.size() - 8));
    return out;
  }
};

// The status Filter::deserialize gives a blob crafted (Craft) of filter type
// `type` with these parameters, payload and item count; the rest of the header
// is Craft's valid default.
template <typename Filter>
StatusCode readCrafted(uint8_t type, const Bytes& params, const Bytes& payload, uint64_t itemCount = 0,
                       uint16_t version = kFormatVersion) {
  return readAs<Filter>(Craft{type, version, itemCount, params, payload}.encode()).code();
}

void append(Bytes& bytes, uint64_t value, int width) {
  bytes.resize(bytes.size() + width);
  writeLE(bytes, bytes.size() - width, width, value);
}

// One little-endian field of a parameter block: its value and its width in bytes.
struct Field {
  uint64_t value;
  int width;
};

// A parameter block laid out from its fields, in the documented order
// (docs/FORMAT.md), each at its width.
Bytes paramsOf(std::initializer_list<Field> fields) {
  Bytes p;
  for (const Field& field : fields) append(p, field.value, field.width);
  return p;
}

Bytes bloomParams(uint64_t bitCount, uint32_t hashCount, uint32_t reserved = 0) {
  return paramsOf({{bitCount, 8}, {hashCount, 4}, {reserved, 4}});
}
Bytes countingParams(uint64_t counterCount, uint32_t hashCount, uint8_t counterBits = 4,
                     uint8_t reserved8 = 0, uint16_t reserved16 = 0) {
  return paramsOf({{counterCount, 8}, {hashCount, 4}, {counterBits, 1}, {reserved8, 1}, {reserved16, 2}});
}
// Version 2 parameters; addressing 2 (subtract-modulo) and layout 1 (packed)
// by default. Version 1 blobs have 0, 0 in those two bytes (then reserved).
Bytes cuckooParams(uint64_t bucketCount, uint32_t bucketSize, uint32_t fingerprintBits,
                   uint32_t maxKicks = 500, uint64_t rngState = 12345, uint8_t addressing = 2,
                   uint8_t layout = 1) {
  return paramsOf({{bucketCount, 8},
                   {rngState, 8},
                   {maxKicks, 4},
                   {bucketSize, 1},
                   {fingerprintBits, 1},
                   {addressing, 1},
                   {layout, 1}});
}
Bytes zeroWords(uint64_t bits) { return Bytes((bits + 63) / 64 * 8, 0); }

bool isRejection(StatusCode code) {
  return code == StatusCode::Corrupt || code == StatusCode::UnsupportedVersion ||
         code == StatusCode::WrongType;
}

// ------------------------------------------------------------ golden files

TEST(FormatGolden, FreshBytesEqualTheCheckedInFiles) {
  // CUCKOO_BLOOM_UPDATE_GOLDEN=1 rewrites the files (how they were made); a
  // normal run compares byte for byte.
  for (const Kind& kind : kinds()) {
    SCOPED_TRACE(kind.name);
    const Bytes fresh = kind.buildGolden();
    const std::string path = goldenPath(kind);
    if (updateGolden()) {
      std::ofstream out(path, std::ios::binary | std::ios::trunc);
      ASSERT_TRUE(out) << "cannot write " << path;
      out.write(reinterpret_cast<const char*>(fresh.data()), static_cast<std::streamsize>(fresh.size()));
      ASSERT_TRUE(out.good());
    }
    Bytes stored;
    ASSERT_TRUE(readFile(path, stored)) << path << " is missing: run with CUCKOO_BLOOM_UPDATE_GOLDEN=1";
    ASSERT_EQ(stored.size(), fresh.size()) << path;
    for (size_t i = 0; i < stored.size(); ++i) {
      ASSERT_EQ(stored[i], fresh[i]) << path << ": first difference at byte " << i;
    }
  }
}

TEST(FormatGolden, EachFileDeserializesAndFindsItsKeys) {
  for (const Kind& kind : kinds()) {
    SCOPED_TRACE(kind.name);
    Bytes stored;
    ASSERT_TRUE(readFile(goldenPath(kind), stored)) << goldenPath(kind);
    EXPECT_TRUE(kind.read(stored).isOk()) << kind.read(stored).message();
    kind.checkGoldenKeys(stored);
  }
}

// Bytes written by format version 1 (earlier releases) read, find every key,
// and are written back in version 2. The Bloom family's tables are the same in
// both versions, so the rewrite equals this build's golden file byte for byte;
// a version 1 cuckoo filter keeps its power-of-two XOR addressing (its
// fingerprints cannot be moved without their keys) and says so.
TEST(FormatGolden, Version1FilesStillReadFindTheirKeysAndRewriteAsVersion2) {
  for (const Kind& kind : kinds()) {
    if (!kind.hasVersion1File) continue;
    SCOPED_TRACE(kind.name);
    Bytes v1;
    ASSERT_TRUE(readFile(goldenV1Path(kind), v1)) << goldenV1Path(kind);
    ASSERT_EQ(readLE(v1, kOffsetVersion, 2), 1u);
    ASSERT_TRUE(kind.read(v1).isOk()) << kind.read(v1).message();
    kind.checkGoldenKeys(v1);
    Result<std::unique_ptr<AnyFilter>> read = deserializeFilter(v1.data(), v1.size());
    ASSERT_TRUE(read.isOk()) << read.status().message();
    const Bytes rewritten = read.value()->serialize();
    EXPECT_EQ(readLE(rewritten, kOffsetVersion, 2), 2u);
    kind.checkGoldenKeys(rewritten);
    if (kind.type == FilterType::Cuckoo) {
      const CuckooFilter filter = cuckoo_bloom_test::valueOrFail(
          CuckooFilter::deserialize(rewritten.data(), rewritten.size()), "deserialize");
      EXPECT_EQ(filter.addressing(), CuckooAddressing::XorPowerOfTwo);
      EXPECT_EQ(filter.bucketCount(), 32u);
    } else if (hasTextbookSizedFile(kind)) {
      Bytes textbook;
      ASSERT_TRUE(readFile(goldenTextbookPath(kind), textbook)) << goldenTextbookPath(kind);
      EXPECT_EQ(rewritten, textbook);
    } else {
      EXPECT_EQ(rewritten, kind.buildGolden());
    }
  }
}

// Filters sized by the textbook formula (every Bloom and counting Bloom
// filter made before the exact sizing) read, find their keys, keep their
// table, and write back the same bytes: sizing changes only new filters.
TEST(FormatGolden, TextbookSizedFilesStillReadAndAnswerAsBefore) {
  for (const Kind& kind : kinds()) {
    if (!hasTextbookSizedFile(kind)) continue;
    SCOPED_TRACE(kind.name);
    Bytes stored;
    ASSERT_TRUE(readFile(goldenTextbookPath(kind), stored)) << goldenTextbookPath(kind);
    ASSERT_TRUE(kind.read(stored).isOk()) << kind.read(stored).message();
    kind.checkGoldenKeys(stored);
    Result<std::unique_ptr<AnyFilter>> read = deserializeFilter(stored.data(), stored.size());
    ASSERT_TRUE(read.isOk()) << read.status().message();
    EXPECT_EQ(read.value()->serialize(), stored);
    const auto parameters = read.value()->parameters();
    EXPECT_EQ(parameters[0].second, 959.0) << parameters[0].first << ": the textbook m for 100 keys at 1%";
  }
}

// The documented header, field by field, on the golden Bloom filter.
TEST(FormatLayout, HeaderFieldsAreWhereTheSpecSays) {
  const Bytes bytes = buildGoldenBloom();
  ASSERT_EQ(bytes.size(), kHeaderBytes + 16 + 16 * 8 + kChecksumBytes);  // 971 bits -> 16 words
  EXPECT_EQ(std::string(bytes.begin(), bytes.begin() + 4), "CBWF");
  EXPECT_EQ(readLE(bytes, kOffsetVersion, 2), 2u);
  EXPECT_EQ(bytes[kOffsetType], 1u);
  EXPECT_EQ(bytes[kOffsetHashAlgorithm], 1u);
  EXPECT_EQ(readLE(bytes, kOffsetFlags, 4), 0u);
  EXPECT_EQ(readLE(bytes, kOffsetParamsLength, 4), 16u);
  EXPECT_EQ(readLE(bytes, kOffsetSeed, 8), 42u);
  EXPECT_EQ(readLE(bytes, kOffsetItemCount, 8), 50u);
  EXPECT_EQ(readLE(bytes, kOffsetCapacity, 8), 100u);
  EXPECT_EQ(readLE(bytes, kOffsetRate, 8), 0x3F847AE147AE147Bull);  // 0.01 as IEEE-754 binary64
  EXPECT_EQ(readLE(bytes, kOffsetPayloadLength, 8), 128u);
  EXPECT_EQ(readLE(bytes, kOffsetParams, 8), 971u);     // bit count (bloom_sizing.h)
  EXPECT_EQ(readLE(bytes, kOffsetParams + 8, 4), 7u);   // hash count
  EXPECT_EQ(readLE(bytes, kOffsetParams + 12, 4), 0u);  // reserved
  EXPECT_EQ(readLE(bytes, bytes.size() - 8, 8), formatChecksum(bytes.data(), bytes.size() - 8));
  // The independent encoder reproduces the library's bytes exactly.
  Craft craft;
  craft.itemCount = 50;
  craft.params = Bytes(bytes.begin() + kOffsetParams, bytes.begin() + kOffsetParams + 16);
  craft.payload = Bytes(bytes.begin() + kOffsetParams + 16, bytes.end() - 8);
  EXPECT_EQ(craft.encode(), bytes);
}

// Reference values from `xxhsum -H3` (xxhsum 0.8.1, Debian package `xxhash`),
// which prints XXH3-64 with seed 0, not from the code under test:
//   printf 'abc' > f && xxhsum -H3 f   ->  78af5f94892f3950
//   the 300 bytes (i*7+3)&0xff         ->  fd9aa0f0d62e0227
TEST(FormatChecksum, IsXxh3_64WithSeedZero) {
  const std::string abc = "abc";
  EXPECT_EQ(formatChecksum(reinterpret_cast<const uint8_t*>(abc.data()), abc.size()), 0x78af5f94892f3950ull);
  Bytes longInput(300);
  for (size_t i = 0; i < longInput.size(); ++i) longInput[i] = static_cast<uint8_t>((i * 7 + 3) & 0xff);
  EXPECT_EQ(formatChecksum(longInput.data(), longInput.size()), 0xfd9aa0f0d62e0227ull);
}

TEST(FormatPrimitives, LittleEndianWritersReadersAndWords) {
  ByteWriter writer;
  writer.u8(0x01);
  writer.u16(0x0302);
  writer.u32(0x07060504);
  writer.u64(0x0F0E0D0C0B0A0908ull);
  writer.f64(1.0);
  const Bytes expected = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0, 0, 0, 0, 0, 0, 0xF0, 0x3F};
  EXPECT_EQ(writer.bytes(), expected);

  ByteReader reader(expected.data(), expected.size());
  uint8_t a = 0;
  uint16_t b = 0;
  uint32_t c = 0;
  uint64_t d = 0;
  double e = 0;
  EXPECT_TRUE(reader.u8(a) && reader.u16(b) && reader.u32(c) && reader.u64(d) && reader.f64(e));
  EXPECT_EQ(a, 0x01);
  EXPECT_EQ(b, 0x0302);
  EXPECT_EQ(c, 0x07060504u);
  EXPECT_EQ(d, 0x0F0E0D0C0B0A0908ull);
  EXPECT_EQ(e, 1.0);
  EXPECT_EQ(reader.remaining(), 0u);
  EXPECT_FALSE(reader.u8(a));  // every read is bounded
  ByteReader shortReader(expected.data(), 7);
  EXPECT_FALSE(shortReader.u64(d));
  EXPECT_EQ(shortReader.remaining(), 7u);

  const uint64_t words[2] = {0x0807060504030201ull, 0xFFEEDDCCBBAA9988ull};
  const Bytes asBytes = wordsToBytes(words, 2);
  ASSERT_EQ(asBytes.size(), 16u);
  EXPECT_EQ(asBytes[0], 0x01);
  EXPECT_EQ(asBytes[7], 0x08);
  EXPECT_EQ(asBytes[8], 0x88);
  EXPECT_EQ(asBytes[15], 0xFF);
  uint64_t back[2] = {0, 0};
  bytesToWords(asBytes.data(), 2, back);
  EXPECT_EQ(back[0], words[0]);
  EXPECT_EQ(back[1], words[1]);
}

TEST(FormatPrimitives, NamesAreStable) {
  EXPECT_STREQ(filterTypeName(FilterType::Bloom), "bloom");
  EXPECT_STREQ(filterTypeName(FilterType::BlockedBloom), "blocked-bloom");
  EXPECT_STREQ(filterTypeName(FilterType::CountingBloom), "counting-bloom");
  EXPECT_STREQ(filterTypeName(FilterType::Cuckoo), "cuckoo");
  EXPECT_STREQ(filterTypeName(FilterType::BinaryFuse), "binary-fuse");
  EXPECT_STREQ(filterTypeName(FilterType::Expandable), "expandable");
  EXPECT_STREQ(filterTypeName(FilterType::Ribbon), "ribbon");
  EXPECT_STREQ(filterTypeName(FilterType::SplitBlockBloom), "split-block-bloom");
  // 1..8 are the single-part filters; 0 and 9..15 are unassigned (0x10 and
  // up are reserved for composite types, which this file does not pin).
  for (int v = 0; v < 16; ++v) EXPECT_EQ(isKnownFilterType(static_cast<uint8_t>(v)), v >= 1 && v <= 8) << v;
  EXPECT_STREQ(statusCodeName(StatusCode::Corrupt), "CORRUPT");
  EXPECT_STREQ(statusCodeName(StatusCode::UnsupportedVersion), "UNSUPPORTED_VERSION");
  EXPECT_STREQ(statusCodeName(StatusCode::WrongType), "WRONG_TYPE");
}

TEST(FormatDecode, DecodeBlobExposesHeaderParamsAndPayload) {
  const Bytes bytes = buildGoldenCuckoo();
  const Result<DecodedBlob> blob = decodeBlob(bytes.data(), bytes.size());
  ASSERT_TRUE(blob.isOk()) << blob.status().message();
  EXPECT_EQ(blob.value().header.type, FilterType::Cuckoo);
  EXPECT_EQ(blob.value().header.seed, 42u);
  EXPECT_EQ(blob.value().header.itemCount, 50u);
  EXPECT_EQ(blob.value().header.capacity, 100u);
  EXPECT_EQ(blob.value().header.targetFalsePositiveRate, 0.01);
  EXPECT_EQ(blob.value().params, bytes.data() + kHeaderBytes);
  EXPECT_EQ(blob.value().paramsLength, 24u);
  EXPECT_EQ(blob.value().payload, bytes.data() + kHeaderBytes + 24);
  EXPECT_EQ(blob.value().payloadLength, bytes.size() - kHeaderBytes - 24 - kChecksumBytes);
  EXPECT_EQ(decodeBlobOfType(bytes.data(), bytes.size(), FilterType::Bloom).status().code(),
            StatusCode::WrongType);
  EXPECT_TRUE(decodeBlobOfType(bytes.data(), bytes.size(), FilterType::Cuckoo).isOk());
  EXPECT_EQ(decodeBlob(nullptr, 0).status().code(), StatusCode::Corrupt);
  EXPECT_EQ(decodeBlob(nullptr, 100).status().code(), StatusCode::Corrupt);
}

// ------------------------------------------------------------ damaged bytes

// Each prefix is copied into a buffer of exactly its length, so an over-read
// is a heap-buffer-overflow under ASan.
TEST(FormatDamage, EveryTruncationIsCorrupt) {
  for (const Kind& kind : kinds()) {
    SCOPED_TRACE(kind.name);
    const Bytes full = kind.buildGolden();
    for (size_t length = 0; length < full.size(); ++length) {
      const Bytes prefix(full.begin(), full.begin() + static_cast<std::ptrdiff_t>(length));
      ASSERT_EQ(kind.read(prefix).code(), StatusCode::Corrupt) << "length " << length;
    }
    EXPECT_TRUE(kind.read(full).isOk());
  }
}

// A larger blob than the golden one (more payload for random damage to hit).
Bytes buildLargerBlob(const Kind& kind) {
  switch (kind.type) {
    case FilterType::Bloom: {
      BloomFilter f = cuckoo_bloom_test::valueOrFail(BloomFilter::create({2000, 0.01, 1}), "create");
      for (int i = 0; i < 1500; ++i) f.add(cuckoo_bloom_test::presentKey(i));
      return f.serialize();
    }
    case FilterType::BlockedBloom: {
      BlockedBloomFilter f =
          cuckoo_bloom_test::valueOrFail(BlockedBloomFilter::create({2000, 0.01, 1}), "create");
      for (int i = 0; i < 1500; ++i) f.add(cuckoo_bloom_test::presentKey(i));
      return f.serialize();
    }
    case FilterType::CountingBloom: {
      CountingBloomFilter f =
          cuckoo_bloom_test::valueOrFail(CountingBloomFilter::create({2000, 0.01, 1}), "create");
      for (int i = 0; i < 1500; ++i) f.add(cuckoo_bloom_test::presentKey(i));
      return f.serialize();
    }
    case FilterType::Cuckoo: {
      CuckooFilterOptions o;
      o.capacity = 2000;
      o.falsePositiveRate = 0.01;
      o.seed = 1;
      CuckooFilter f = cuckoo_bloom_test::valueOrFail(CuckooFilter::create(o), "create");
      for (int i = 0; i < 1500; ++i) EXPECT_TRUE(f.add(cuckoo_bloom_test::presentKey(i)).isOk());
      return f.serialize();
    }
    case FilterType::BinaryFuse: {
      std::vector<KeyHash> hashes;
      for (int i = 0; i < 1500; ++i) hashes.push_back(hashKey(cuckoo_bloom_test::presentKey(i), 1));
      return binaryFuseBytes(hashes, 1);
    }
    default:
      break;
  }
  ADD_FAILURE() << "no larger blob for " << kind.name;
  return {};
}

void checkSingleFlip(const Kind& kind, const Bytes& original, size_t bit) {
  Bytes damaged = original;
  damaged[bit / 8] ^= static_cast<uint8_t>(1u << (bit % 8));
  const StatusCode code = kind.read(damaged).code();
  ASSERT_TRUE(isRejection(code)) << "bit " << bit << " gave " << statusCodeName(code);
  // The version field is read before the checksum (a future version may
  // checksum differently), so a flip there is reported as such.
  if (bit / 8 == kOffsetVersion || bit / 8 == kOffsetVersion + 1) {
    ASSERT_EQ(code, StatusCode::UnsupportedVersion) << "bit " << bit;
  }
}

TEST(FormatDamage, SingleBitFlipsAreRejected) {
  std::mt19937_64 random(0xF11B);
  for (const Kind& kind : kinds()) {
    SCOPED_TRACE(kind.name);
    // Every bit of the golden blob...
    const Bytes golden = kind.buildGolden();
    for (size_t bit = 0; bit < golden.size() * 8; ++bit) checkSingleFlip(kind, golden, bit);
    // ...and 2,000 random bits of a larger one.
    const Bytes larger = buildLargerBlob(kind);
    ASSERT_TRUE(kind.read(larger).isOk());
    for (int i = 0; i < 2000; ++i) checkSingleFlip(kind, larger, random() % (larger.size() * 8));
  }
}

TEST(FormatDamage, RandomMultiByteCorruptionsAreRejected) {
  std::mt19937_64 random(0xC0FFEE);
  for (const Kind& kind : kinds()) {
    SCOPED_TRACE(kind.name);
    for (const Bytes& original : {kind.buildGolden(), buildLargerBlob(kind)}) {
      int tried = 0;
      while (tried < 600) {
        Bytes damaged = original;
        const size_t length = 2 + random() % 31;
        const size_t offset = random() % damaged.size();
        for (size_t i = offset; i < offset + length && i < damaged.size(); ++i) {
          damaged[i] = static_cast<uint8_t>(random());
        }
        if (damaged == original) continue;
        ++tried;
        const StatusCode code = kind.read(damaged).code();
        ASSERT_TRUE(isRejection(code))
            << "offset " << offset << " length " << length << " gave " << statusCodeName(code);
      }
    }
  }
}

TEST(FormatDamage, AnotherTypesBytesAreWrongType) {
  for (const Kind& reader : kinds()) {
    for (const Kind& writer : kinds()) {
      const Status status = reader.read(writer.buildGolden());
      if (reader.type == writer.type) {
        EXPECT_TRUE(status.isOk()) << reader.name;
      } else {
        EXPECT_EQ(status.code(), StatusCode::WrongType) << reader.name << " reading " << writer.name;
      }
    }
  }
}

// ------------------------------------------------------------ valid checksum, wrong content
//
// Each blob below is edited and then resealed (checksum recomputed), so only
// the content check can catch it. Where a control is given, the same blob with
// the one field valid is accepted: the rejection is due to that field alone.

TEST(FormatContent, CommonHeaderFieldsAreChecked) {
  for (const Kind& kind : kinds()) {
    SCOPED_TRACE(kind.name);
    const Bytes golden = kind.buildGolden();
    const auto edited = [&](const std::function<void(Bytes&)>& edit) {
      Bytes bytes = golden;
      edit(bytes);
      reseal(bytes);
      return kind.read(bytes).code();
    };
    EXPECT_EQ(edited([](Bytes& b) { b[kOffsetType] = 9; }), StatusCode::WrongType);
    EXPECT_EQ(edited([](Bytes& b) { b[kOffsetType] = 0; }), StatusCode::WrongType);
    EXPECT_EQ(edited([](Bytes& b) { b[kOffsetType] = 0x10; }), StatusCode::WrongType);
    EXPECT_EQ(edited([](Bytes& b) { b[kOffsetType] = 6; }), StatusCode::WrongType);
    EXPECT_EQ(edited([](Bytes& b) { b[kOffsetType] = 0xFF; }), StatusCode::WrongType);
    EXPECT_EQ(edited([](Bytes& b) { writeLE(b, kOffsetVersion, 2, 3); }), StatusCode::UnsupportedVersion);
    EXPECT_EQ(edited([](Bytes& b) { writeLE(b, kOffsetVersion, 2, 0); }), StatusCode::UnsupportedVersion);
    EXPECT_EQ(edited([](Bytes& b) { writeLE(b, kOffsetVersion, 2, 0x0100); }),
              StatusCode::UnsupportedVersion);
    EXPECT_EQ(edited([](Bytes& b) { b[0] = 'X'; }), StatusCode::Corrupt);
    EXPECT_EQ(edited([](Bytes& b) { b[3] = 'f'; }), StatusCode::Corrupt);
    for (int bit = 0; bit < 32; ++bit) {
      EXPECT_EQ(edited([bit](Bytes& b) { writeLE(b, kOffsetFlags, 4, uint64_t{1} << bit); }),
                StatusCode::Corrupt)
          << "flag bit " << bit;
    }
    EXPECT_EQ(edited([](Bytes& b) { b[kOffsetHashAlgorithm] = 0; }), StatusCode::Corrupt);
    EXPECT_EQ(edited([](Bytes& b) { b[kOffsetHashAlgorithm] = 2; }), StatusCode::Corrupt);
    EXPECT_EQ(edited([](Bytes& b) { writeLE(b, kOffsetCapacity, 8, 0); }), StatusCode::Corrupt);
    for (const double rate : {0.0, 1.0, -0.01, 2.0, std::numeric_limits<double>::quiet_NaN(),
                              std::numeric_limits<double>::infinity()}) {
      uint64_t bits;
      std::memcpy(&bits, &rate, 8);
      EXPECT_EQ(edited([bits](Bytes& b) { writeLE(b, kOffsetRate, 8, bits); }), StatusCode::Corrupt) << rate;
    }
    // Controls: other seeds, capacities and rates are fine.
    EXPECT_EQ(edited([](Bytes& b) { writeLE(b, kOffsetCapacity, 8, 7); }), StatusCode::Ok);
    EXPECT_EQ(edited([](Bytes&) {}), StatusCode::Ok);
  }
}

TEST(FormatContent, LengthsThatDoNotAddUpAreCorrupt) {
  for (const Kind& kind : kinds()) {
    SCOPED_TRACE(kind.name);
    const Bytes golden = kind.buildGolden();
    const size_t paramsLength = readLE(golden, kOffsetParamsLength, 4);
    const size_t payloadLength = readLE(golden, kOffsetPayloadLength, 8);
    ASSERT_EQ(paramsLength, kind.paramsBytes);

    // Trailing bytes after the checksum, with and without resealing.
    for (const size_t extra : {size_t{1}, size_t{8}, size_t{64}}) {
      Bytes longer = golden;
      longer.resize(longer.size() + extra, 0);
      EXPECT_EQ(kind.read(longer).code(), StatusCode::Corrupt) << extra;
      reseal(longer);
      EXPECT_EQ(kind.read(longer).code(), StatusCode::Corrupt) << extra;
    }
    // Header lengths that overflow or exceed the buffer.
    for (const uint64_t huge : {uint64_t{0xFFFFFFFF}, UINT64_MAX, UINT64_MAX - 7, uint64_t{1} << 63}) {
      Bytes bytes = golden;
      writeLE(bytes, kOffsetPayloadLength, 8, huge);
      reseal(bytes);
      EXPECT_EQ(kind.read(bytes).code(), StatusCode::Corrupt);
      bytes = golden;
      writeLE(bytes, kOffsetParamsLength, 4, huge & 0xFFFFFFFF);
      reseal(bytes);
      EXPECT_EQ(kind.read(bytes).code(), StatusCode::Corrupt);
    }
    // The parameter block one word longer / shorter than the type's (the
    // total length stays consistent: the bytes are really there).
    Bytes withLongerParams = golden;
    withLongerParams.insert(withLongerParams.begin() + kOffsetParams + paramsLength, 8, 0);
    writeLE(withLongerParams, kOffsetParamsLength, 4, paramsLength + 8);
    reseal(withLongerParams);
    EXPECT_EQ(kind.read(withLongerParams).code(), StatusCode::Corrupt);
    Bytes withShorterParams = golden;
    withShorterParams.erase(withShorterParams.begin() + kOffsetParams + paramsLength - 8,
                            withShorterParams.begin() + kOffsetParams + paramsLength);
    writeLE(withShorterParams, kOffsetParamsLength, 4, paramsLength - 8);
    reseal(withShorterParams);
    EXPECT_EQ(kind.read(withShorterParams).code(), StatusCode::Corrupt);
    // Moving the boundary: params claims 8 more bytes, payload 8 fewer.
    Bytes shifted = golden;
    writeLE(shifted, kOffsetParamsLength, 4, paramsLength + 8);
    writeLE(shifted, kOffsetPayloadLength, 8, payloadLength - 8);
    reseal(shifted);
    EXPECT_EQ(kind.read(shifted).code(), StatusCode::Corrupt);

    // The payload one word / one block shorter or longer than the params say.
    for (const size_t delta : {size_t{8}, size_t{64}}) {
      Bytes shorter = golden;
      shorter.erase(shorter.end() - 8 - static_cast<std::ptrdiff_t>(delta), shorter.end() - 8);
      writeLE(shorter, kOffsetPayloadLength, 8, payloadLength - delta);
      reseal(shorter);
      EXPECT_EQ(kind.read(shorter).code(), StatusCode::Corrupt) << "payload -" << delta;
      Bytes longer = golden;
      longer.insert(longer.end() - 8, delta, 0);
      writeLE(longer, kOffsetPayloadLength, 8, payloadLength + delta);
      reseal(longer);
      EXPECT_EQ(kind.read(longer).code(), StatusCode::Corrupt) << "payload +" << delta;
    }
    Bytes oddPayload = golden;  // a length that is not a whole number of words
    oddPayload.insert(oddPayload.end() - 8, 3, 0);
    writeLE(oddPayload, kOffsetPayloadLength, 8, payloadLength + 3);
    reseal(oddPayload);
    EXPECT_EQ(kind.read(oddPayload).code(), StatusCode::Corrupt);
  }
}

TEST(FormatContent, BloomParametersAreChecked) {
  const auto read = [](uint64_t bitCount, uint32_t hashCount, uint32_t reserved, const Bytes& payload,
                       uint64_t itemCount = 0) {
    return readCrafted<BloomFilter>(1, bloomParams(bitCount, hashCount, reserved), payload, itemCount);
  };
  EXPECT_EQ(read(959, 7, 0, zeroWords(959)), StatusCode::Ok);  // control
  EXPECT_EQ(read(0, 7, 0, Bytes()), StatusCode::Corrupt);
  EXPECT_EQ(read(959, 0, 0, zeroWords(959)), StatusCode::Corrupt);
  EXPECT_EQ(read(959, 65, 0, zeroWords(959)), StatusCode::Corrupt);
  EXPECT_EQ(read(959, 64, 0, zeroWords(959)), StatusCode::Ok);
  EXPECT_EQ(read(959, 7, 1, zeroWords(959)), StatusCode::Corrupt);
  EXPECT_EQ(read(959 + 64, 7, 0, zeroWords(959)), StatusCode::Corrupt);  // payload disagrees with params
  EXPECT_EQ(read(959 - 64, 7, 0, zeroWords(959)), StatusCode::Corrupt);
  EXPECT_EQ(read(UINT64_MAX, 7, 0, zeroWords(959)), StatusCode::Corrupt);
  // Padding bits past bit 958 of the last word.
  Bytes padding = zeroWords(959);
  padding.back() = 0x80;  // bit 63 of word 14 = bit 959
  EXPECT_EQ(read(959, 7, 0, padding), StatusCode::Corrupt);
  Bytes lastRealBit = zeroWords(959);
  lastRealBit.back() = 0x40;  // bit 958: part of the filter
  EXPECT_EQ(read(959, 7, 0, lastRealBit), StatusCode::Ok);
  // Item count: keys added, repeats included, so any count reads (bytes of
  // earlier builds counted adds that set a new bit: at most the set bits).
  Bytes threeBits = zeroWords(959);
  threeBits[0] = 0x07;
  EXPECT_EQ(read(959, 7, 0, threeBits, 3), StatusCode::Ok);
  EXPECT_EQ(read(959, 7, 0, threeBits, 4), StatusCode::Ok);
  EXPECT_EQ(read(959, 7, 0, zeroWords(959), 1), StatusCode::Ok);
}

TEST(FormatContent, BlockedBloomParametersAreChecked) {
  const auto read = [](uint64_t blockCount, const Bytes& payload, uint64_t itemCount = 0,
                       size_t paramsPad = 0) {
    Bytes params;
    append(params, blockCount, 8);
    params.resize(params.size() + paramsPad, 0);
    return readCrafted<BlockedBloomFilter>(2, params, payload, itemCount);
  };
  EXPECT_EQ(read(3, Bytes(192, 0)), StatusCode::Ok);  // control
  EXPECT_EQ(read(0, Bytes()), StatusCode::Corrupt);
  EXPECT_EQ(read(4, Bytes(192, 0)), StatusCode::Corrupt);
  EXPECT_EQ(read(2, Bytes(192, 0)), StatusCode::Corrupt);
  EXPECT_EQ(read(3, Bytes(192 + 8, 0)), StatusCode::Corrupt);
  EXPECT_EQ(read(UINT64_MAX, Bytes(192, 0)), StatusCode::Corrupt);
  EXPECT_EQ(read(uint64_t{1} << 58, Bytes(0, 0)), StatusCode::Corrupt);  // 2^58 * 64 wraps to 0
  EXPECT_EQ(read(3, Bytes(192, 0), 0, 8), StatusCode::Corrupt);
  Bytes eightBits(192, 0);
  eightBits[5] = 0xFF;
  EXPECT_EQ(read(3, eightBits, 8), StatusCode::Ok);
  EXPECT_EQ(read(3, eightBits, 9), StatusCode::Ok);  // keys added, repeats included: any count reads
}

TEST(FormatContent, CountingBloomParametersAreChecked) {
  const auto read = [](const Bytes& params, const Bytes& payload, uint64_t itemCount = 0) {
    return readCrafted<CountingBloomFilter>(3, params, payload, itemCount);
  };
  const Bytes payload = zeroWords(959 * 4);                          // 60 words
  EXPECT_EQ(read(countingParams(959, 7), payload), StatusCode::Ok);  // control
  EXPECT_EQ(read(countingParams(0, 7), Bytes()), StatusCode::Corrupt);
  EXPECT_EQ(read(countingParams(959, 0), payload), StatusCode::Corrupt);
  EXPECT_EQ(read(countingParams(959, 65), payload), StatusCode::Corrupt);
  EXPECT_EQ(read(countingParams(959, 7, 8), payload),
            StatusCode::Corrupt);  // 8-bit counters: not this version
  EXPECT_EQ(read(countingParams(959, 7, 0), payload), StatusCode::Corrupt);
  EXPECT_EQ(read(countingParams(959, 7, 4, 1), payload), StatusCode::Corrupt);
  EXPECT_EQ(read(countingParams(959, 7, 4, 0, 1), payload), StatusCode::Corrupt);
  EXPECT_EQ(read(countingParams(959 + 16, 7), payload), StatusCode::Corrupt);
  EXPECT_EQ(read(countingParams(959 - 16, 7), payload), StatusCode::Corrupt);
  EXPECT_EQ(read(countingParams(UINT64_MAX, 7), payload), StatusCode::Corrupt);
  // 959 counters use nibbles 0..14 of word 59; nibble 15 is padding.
  Bytes padding = payload;
  padding.back() = 0x10;
  EXPECT_EQ(read(countingParams(959, 7), padding), StatusCode::Corrupt);
  Bytes lastCounter = payload;
  lastCounter.back() = 0x0F;  // nibble 14 of word 59 = counter 958, part of the filter
  EXPECT_EQ(read(countingParams(959, 7), lastCounter), StatusCode::Ok);
}

// Version 1 cuckoo parameters: the last two bytes were reserved (0), the
// bucket count a power of two (XOR addressing).
TEST(FormatContent, Version1CuckooParametersAreChecked) {
  const auto read = [](const Bytes& params, const Bytes& payload) {
    return readCrafted<CuckooFilter>(4, params, payload, 0, /*version=*/1);
  };
  EXPECT_EQ(read(cuckooParams(32, 4, 10, 500, 1, 0, 0), zeroWords(1280)), StatusCode::Ok);
  EXPECT_EQ(read(cuckooParams(24, 4, 10, 500, 1, 0, 0), zeroWords(24 * 4 * 10)), StatusCode::Corrupt);
  EXPECT_EQ(read(cuckooParams(32, 4, 10, 500, 1, 2, 1), zeroWords(1280)), StatusCode::Corrupt);
  EXPECT_EQ(read(cuckooParams(32, 4, 10, 500, 1, 0, 1), zeroWords(1280)), StatusCode::Corrupt);
}

TEST(FormatContent, CuckooParametersAreChecked) {
  const auto read = [](const Bytes& params, const Bytes& payload, uint64_t itemCount = 0) {
    return readCrafted<CuckooFilter>(4, params, payload, itemCount);
  };
  // Control: 32 buckets of 4 slots of 10 bits, empty.
  EXPECT_EQ(read(cuckooParams(32, 4, 10), zeroWords(32 * 4 * 10)), StatusCode::Ok);
  // Version 2 addressing takes any even bucket count of at least 2 (payload
  // sized to match); odd, too small and huge counts are corrupt.
  EXPECT_EQ(read(cuckooParams(24, 4, 10), zeroWords(24 * 4 * 10)), StatusCode::Ok);
  EXPECT_EQ(read(cuckooParams(16, 4, 10), zeroWords(16 * 4 * 10)), StatusCode::Ok);
  EXPECT_EQ(read(cuckooParams(2, 4, 10), zeroWords(2 * 4 * 10)), StatusCode::Ok);
  EXPECT_EQ(read(cuckooParams(33, 4, 10), zeroWords(33 * 4 * 10)), StatusCode::Corrupt);
  EXPECT_EQ(read(cuckooParams(1, 4, 10), zeroWords(1 * 4 * 10)), StatusCode::Corrupt);
  // XOR addressing (version 1's) needs a power of two, in either version.
  EXPECT_EQ(read(cuckooParams(24, 4, 10, 500, 1, 1), zeroWords(24 * 4 * 10)), StatusCode::Corrupt);
  EXPECT_EQ(read(cuckooParams(32, 4, 10, 500, 1, 1), zeroWords(32 * 4 * 10)), StatusCode::Ok);
  // Unknown addressing and layout values.
  for (const uint8_t addressing : {0, 3, 255}) {
    EXPECT_EQ(read(cuckooParams(32, 4, 10, 500, 1, addressing), zeroWords(1280)), StatusCode::Corrupt);
  }
  for (const uint8_t layout : {0, 3, 255}) {
    EXPECT_EQ(read(cuckooParams(32, 4, 10, 500, 1, 2, layout), zeroWords(1280)), StatusCode::Corrupt);
  }
  EXPECT_EQ(read(cuckooParams(0, 4, 10), Bytes()), StatusCode::Corrupt);
  EXPECT_EQ(read(cuckooParams(uint64_t{1} << 63, 4, 10), zeroWords(32 * 4 * 10)), StatusCode::Corrupt);
  EXPECT_EQ(read(cuckooParams(uint64_t{1} << 49, 8, 32), zeroWords(32 * 4 * 10)), StatusCode::Corrupt);
  // Fingerprint widths outside 4..32 (payload sized to match).
  EXPECT_EQ(read(cuckooParams(32, 4, 40), zeroWords(32 * 4 * 40)), StatusCode::Corrupt);
  EXPECT_EQ(read(cuckooParams(32, 4, 3), zeroWords(32 * 4 * 3)), StatusCode::Corrupt);
  EXPECT_EQ(read(cuckooParams(32, 4, 0), Bytes()), StatusCode::Corrupt);
  EXPECT_EQ(read(cuckooParams(32, 4, 32), zeroWords(32 * 4 * 32)), StatusCode::Ok);
  EXPECT_EQ(read(cuckooParams(32, 4, 4), zeroWords(32 * 4 * 4)), StatusCode::Ok);
  // Bucket sizes other than 2, 4, 8.
  EXPECT_EQ(read(cuckooParams(32, 3, 10), zeroWords(32 * 3 * 10)), StatusCode::Corrupt);
  EXPECT_EQ(read(cuckooParams(32, 16, 10), zeroWords(32 * 16 * 10)), StatusCode::Corrupt);
  EXPECT_EQ(read(cuckooParams(32, 8, 10), zeroWords(32 * 8 * 10)), StatusCode::Ok);
  // maxKicks limit and reserved bytes.
  EXPECT_EQ(read(cuckooParams(32, 4, 10, CuckooFilter::kMaxKicksLimit + 1), zeroWords(1280)),
            StatusCode::Corrupt);
  EXPECT_EQ(read(cuckooParams(32, 4, 10, CuckooFilter::kMaxKicksLimit), zeroWords(1280)), StatusCode::Ok);
  // Payload disagreeing with the geometry.
  EXPECT_EQ(read(cuckooParams(64, 4, 10), zeroWords(1280)), StatusCode::Corrupt);
  EXPECT_EQ(read(cuckooParams(32, 4, 11), zeroWords(1280)), StatusCode::Corrupt);
  // Padding: 16 buckets x 2 slots x 5 bits = 160 bits; bits 32..63 of word 2 are padding.
  Bytes padded = zeroWords(160);
  padded[16 + 5] = 0x01;  // word 2, bit 40
  EXPECT_EQ(read(cuckooParams(16, 2, 5), padded), StatusCode::Corrupt);
  Bytes lastSlot = zeroWords(160);
  lastSlot[16 + 3] = 0x08;  // word 2, bit 27 = bit 155 = low bit of slot 31 (bucket 15, slot 1)
  EXPECT_EQ(read(cuckooParams(16, 2, 5), lastSlot, 1), StatusCode::Ok);
  // Item count must equal the occupied slots.
  EXPECT_EQ(read(cuckooParams(16, 2, 5), lastSlot, 0), StatusCode::Corrupt);
  EXPECT_EQ(read(cuckooParams(16, 2, 5), lastSlot, 2), StatusCode::Corrupt);
  const Bytes golden = buildGoldenCuckoo();
  for (const uint64_t itemCount : {uint64_t{49}, uint64_t{51}, uint64_t{0}, UINT64_MAX}) {
    Bytes bytes = golden;
    writeLE(bytes, kOffsetItemCount, 8, itemCount);
    reseal(bytes);
    EXPECT_EQ(CuckooFilter::deserialize(bytes.data(), bytes.size()).status().code(), StatusCode::Corrupt)
        << itemCount;
  }
}

}  // namespace
}  // namespace cuckoo_bloom
