// What every static filter (built once from its keys, then read-only: binary
// fuse, Ribbon) promises alike, as one typed suite: the empty filter, clear(),
// repeated keys stored once, and damaged bytes refused. Each type's own
// sizing, rate and parameter checks stay in its own file (fuse/, ribbon/).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "cuckoo_bloom/core/format.h"
#include "cuckoo_bloom/core/hashing.h"
#include "cuckoo_bloom/fuse/binary_fuse_filter.h"
#include "cuckoo_bloom/registry/any_filter.h"
#include "cuckoo_bloom/ribbon/ribbon_filter.h"
#include "support/static_filter_support.h"
#include "support/test_keys.h"

namespace cuckoo_bloom {
namespace {

using namespace cuckoo_bloom_test;

// Per type: the options a test builds with (`options`: the type's usual
// ones; `variants`: each shape of table it has), and the first reserved
// byte of its parameter block.
struct BinaryFuseCase {
  using Filter = BinaryFuseFilter;
  using Options = BinaryFuseFilterOptions;
  static constexpr size_t kReservedParamByte = 18;  // the last two of 20
  static Options options(uint64_t seed, uint32_t fingerprintBits = 8, uint32_t arity = 3) {
    Options o;
    o.fingerprintBits = fingerprintBits;
    o.arity = arity;
    o.seed = seed;
    return o;
  }
  static std::vector<Options> variants(uint64_t seed) { return {options(seed, 12, 3), options(seed, 12, 4)}; }
};

struct RibbonCase {
  using Filter = RibbonFilter;
  using Options = RibbonFilterOptions;
  static constexpr size_t kReservedParamByte = 17;  // the last three of 20
  static Options options(uint64_t seed, double rate = 0.01) {
    Options o;
    o.falsePositiveRate = rate;
    o.seed = seed;
    return o;
  }
  static std::vector<Options> variants(uint64_t seed) { return {options(seed, 0.001)}; }
};

template <typename Case>
class StaticFilterTest : public ::testing::Test {
 protected:
  using Filter = typename Case::Filter;
  static Filter build(const typename Case::Options& options, const std::vector<KeyHash>& hashes) {
    return buildOrFail<Filter>(options, hashes, Case::options(0));
  }
};

using StaticFilterCases = ::testing::Types<BinaryFuseCase, RibbonCase>;
TYPED_TEST_SUITE(StaticFilterTest, StaticFilterCases);

TYPED_TEST(StaticFilterTest, EmptyFilterFindsNothingAndRoundTrips) {
  using Filter = typename TestFixture::Filter;
  Result<Filter> built = Filter::build(TypeParam::options(0), nullptr, 0);
  ASSERT_TRUE(built.isOk()) << built.status().message();
  const Filter& filter = built.value();
  EXPECT_EQ(filter.count(), 0u);
  EXPECT_EQ(filter.capacity(), 1u);
  EXPECT_EQ(filter.slotCount(), 0u);
  EXPECT_EQ(filter.byteLength(), 0u);
  EXPECT_EQ(filter.estimatedFalsePositiveRate(), 0.0);
  for (uint64_t i = 0; i < 10000; ++i) ASSERT_FALSE(filter.has(absentKey(i)));
  const std::vector<uint8_t> bytes = filter.serialize();
  Result<Filter> read = Filter::deserialize(bytes.data(), bytes.size());
  ASSERT_TRUE(read.isOk()) << read.status().message();
  EXPECT_EQ(read.value().serialize(), bytes);
  EXPECT_FALSE(read.value().has(absentKey(0)));
}

TYPED_TEST(StaticFilterTest, ClearMakesTheEmptyFilter) {
  using Filter = typename TestFixture::Filter;
  Filter filter = TestFixture::build(TypeParam::options(5), presentHashes(1000, 5));
  filter.clear();
  EXPECT_EQ(filter.count(), 0u);
  EXPECT_EQ(filter.slotCount(), 0u);
  for (uint64_t i = 0; i < 1000; ++i) ASSERT_FALSE(filter.has(presentKey(i)));
  const std::vector<uint8_t> bytes = filter.serialize();
  Result<Filter> read = Filter::deserialize(bytes.data(), bytes.size());
  ASSERT_TRUE(read.isOk()) << read.status().message();
  EXPECT_EQ(read.value().serialize(), bytes);
}

TYPED_TEST(StaticFilterTest, DuplicateKeysAreStoredOnce) {
  // Each of the first half of the keys twice more, shuffled: the build
  // counts distinct keys and writes the bytes of the distinct keys alone
  // (binary fuse drops repeats after a failed first attempt, or up front for
  // tiny inputs; in Ribbon a repeat's row cancels with its fingerprint).
  for (const uint64_t distinct : {1ull, 2ull, 33ull, 1000ull, 100000ull}) {
    std::vector<KeyHash> hashes = presentHashes(distinct, 11);
    const std::vector<KeyHash> unique = hashes;
    for (uint64_t i = 0; i < distinct; i += 2) hashes.push_back(hashes[i]), hashes.push_back(hashes[i]);
    std::shuffle(hashes.begin(), hashes.end(), std::mt19937_64(distinct));
    for (const auto& options : TypeParam::variants(11)) {
      const auto filter = TestFixture::build(options, hashes);
      EXPECT_EQ(filter.count(), distinct) << distinct;
      EXPECT_EQ(missingOf(filter, unique), 0u) << distinct;
      EXPECT_EQ(filter.serialize(), TestFixture::build(options, unique).serialize()) << distinct;
    }
  }
  // One key a million times is one key.
  const std::vector<KeyHash> same(1000000, hashKey("the-only-key", 0));
  const auto filter = TestFixture::build(TypeParam::options(0), same);
  EXPECT_EQ(filter.count(), 1u);
  EXPECT_TRUE(filter.has("the-only-key"));
}

TYPED_TEST(StaticFilterTest, DamagedBytesAreRefused) {
  const std::vector<uint8_t> bytes = TestFixture::build(TypeParam::options(1), presentHashes(200, 1)).serialize();
  // Any byte changed: the version field as UNSUPPORTED_VERSION (checked
  // first), the rest by the checksum.
  for (size_t at = 0; at + 8 < bytes.size(); ++at) {
    std::vector<uint8_t> damaged = bytes;
    damaged[at] ^= 0x41;
    const StatusCode expected = at == 4 || at == 5 ? StatusCode::UnsupportedVersion : StatusCode::Corrupt;
    EXPECT_EQ(deserializeFilter(damaged.data(), damaged.size()).status().code(), expected) << at;
  }
  // Cut short anywhere: refused.
  for (size_t length = 0; length < bytes.size(); length += 7) {
    EXPECT_FALSE(deserializeFilter(bytes.data(), length).isOk()) << length;
  }
  // Reserved parameter bytes must be 0, even with a valid checksum.
  std::vector<uint8_t> reserved = bytes;
  reserved[kOffsetParams + TypeParam::kReservedParamByte] = 1;
  writeLE(reserved, reserved.size() - 8, 8, formatChecksum(reserved.data(), reserved.size() - 8));
  EXPECT_EQ(deserializeFilter(reserved.data(), reserved.size()).status().code(), StatusCode::Corrupt);
  // An item count above the slots is refused even with a valid checksum.
  std::vector<uint8_t> counted = bytes;
  writeLE(counted, kOffsetItemCount, 8, 1u << 20);
  writeLE(counted, counted.size() - 8, 8, formatChecksum(counted.data(), counted.size() - 8));
  EXPECT_EQ(deserializeFilter(counted.data(), counted.size()).status().code(), StatusCode::Corrupt);
}

}  // namespace
}  // namespace cuckoo_bloom
