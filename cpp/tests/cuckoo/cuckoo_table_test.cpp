// Tests for the cuckoo filter's storage: PackedTable (packed_table.h) and
// SemiSortedTable (semi_sorted_table.h). Both implement one contract: a
// bucket is a multiset of fingerprints in 1..2^f-1 (0 = empty slot) that the
// table can search, count, insert into, erase from and replace in, and the
// cuckoo algorithm relies on nothing else. The typed tests pin that contract
// against a std::multiset per bucket; the rest pin each table's bytes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <random>
#include <set>
#include <string>
#include <type_traits>
#include <vector>

#include "cuckoo_bloom/cuckoo/packed_table.h"
#include "cuckoo_bloom/cuckoo/semi_sorted_table.h"

namespace cuckoo_bloom {
namespace {

constexpr uint32_t kMinBits = 4;
constexpr uint32_t kMaxBits = 32;

uint32_t maxFingerprint(uint32_t fingerprintBits) {
  return static_cast<uint32_t>(bit_fields::lowBitMask(fingerprintBits));
}

template <typename Table>
void allocateOrFail(Table& table, uint64_t bucketCount, uint32_t bucketSize, uint32_t fingerprintBits) {
  ASSERT_TRUE(table.allocate(bucketCount, bucketSize, fingerprintBits))
      << bucketCount << " buckets of " << bucketSize << " x " << fingerprintBits << " bits";
}

template <typename Table>
std::vector<uint32_t> bucketContents(const Table& table, uint64_t bucket) {
  std::vector<uint32_t> slots(table.bucketSize());
  table.readBucket(bucket, slots.data());
  return slots;
}

template <typename Table>
std::multiset<uint32_t> storedFingerprints(const Table& table, uint64_t bucket) {
  std::multiset<uint32_t> stored;
  for (const uint32_t fingerprint : bucketContents(table, bucket)) {
    if (fingerprint != 0) stored.insert(fingerprint);
  }
  return stored;
}

template <typename Table>
std::vector<uint64_t> payloadOf(const Table& table) {
  return std::vector<uint64_t>(table.words(), table.words() + table.payloadWords());
}

// Canonical order of a semi-sorted bucket: by low nibble, then by high part.
bool inCanonicalOrder(const std::vector<uint32_t>& slots) {
  return std::is_sorted(slots.begin(), slots.end(), [](uint32_t x, uint32_t y) {
    return (x & 15) != (y & 15) ? (x & 15) < (y & 15) : (x >> 4) < (y >> 4);
  });
}

// Draws fingerprints that collide often: half come from a small pool of
// values sharing nibbles or high parts (and the extremes 1 and 2^f - 1), so
// duplicates, equal-nibble ties and full buckets are common; half are uniform.
class FingerprintSource {
 public:
  FingerprintSource(uint32_t fingerprintBits, uint64_t seed) : max_(maxFingerprint(fingerprintBits)), random_(seed) {
    pool_ = {1, 2, max_, max_ - 1, max_ / 2 + 1};
    if (fingerprintBits > 4) {
      // High part 1 with nibbles 0, 1 and (high part 2) 1 again; nibble 0 of the top high part.
      for (const uint32_t candidate : {0x10u, 0x11u, 0x21u, max_ - 15}) {
        if (candidate <= max_) pool_.push_back(candidate);
      }
    }
  }
  uint32_t next() {
    if (random_() & 1) return pool_[random_() % pool_.size()];
    return static_cast<uint32_t>(random_() % max_) + 1;
  }
  uint64_t below(uint64_t bound) { return random_() % bound; }

 private:
  uint32_t max_;
  std::mt19937_64 random_;
  std::vector<uint32_t> pool_;
};

// Checks one bucket against its model multiset: contents, counts, lookups.
template <typename Table>
void expectBucketMatches(const Table& table, uint64_t bucket, const std::multiset<uint32_t>& model) {
  SCOPED_TRACE("bucket " + std::to_string(bucket));
  const std::vector<uint32_t> slots = bucketContents(table, bucket);
  EXPECT_EQ(storedFingerprints(table, bucket), model);
  const uint32_t empty = table.bucketSize() - static_cast<uint32_t>(model.size());
  EXPECT_EQ(table.countOf(bucket, 0), empty);
  EXPECT_EQ(table.contains(bucket, 0), empty > 0);
  for (const uint32_t fingerprint : model) {
    EXPECT_TRUE(table.contains(bucket, fingerprint)) << fingerprint;
    EXPECT_EQ(table.countOf(bucket, fingerprint), model.count(fingerprint)) << fingerprint;
  }
  if constexpr (std::is_same_v<Table, SemiSortedTable>) {
    EXPECT_TRUE(inCanonicalOrder(slots)) << slots[0] << " " << slots[1] << " " << slots[2] << " " << slots[3];
  }
}

// Runs `operations` random operations on a table of `bucketCount` buckets,
// checking each result, the touched bucket and its neighbours against a
// std::multiset per bucket, and the whole table every 64 operations.
template <typename Table>
void runModelCheck(uint64_t bucketCount, uint32_t bucketSize, uint32_t fingerprintBits, uint64_t seed,
                   int operations) {
  SCOPED_TRACE("fingerprintBits " + std::to_string(fingerprintBits) + ", bucketSize " +
               std::to_string(bucketSize) + ", buckets " + std::to_string(bucketCount));
  Table table;
  allocateOrFail(table, bucketCount, bucketSize, fingerprintBits);
  std::vector<std::multiset<uint32_t>> model(bucketCount);
  uint64_t modelCount = 0;
  FingerprintSource source(fingerprintBits, seed);

  auto anyStored = [&](uint64_t bucket, uint32_t fallback) {
    if (model[bucket].empty()) return fallback;
    auto it = model[bucket].begin();
    std::advance(it, static_cast<long>(source.below(model[bucket].size())));
    return *it;
  };

  for (int step = 0; step < operations; ++step) {
    SCOPED_TRACE("step " + std::to_string(step));
    const uint64_t bucket = source.below(bucketCount);
    std::multiset<uint32_t>& held = model[bucket];
    const std::vector<uint64_t> before = payloadOf(table);
    bool changed = false;
    switch (source.below(6)) {
      case 0:
      case 1: {  // insert: succeeds exactly when the bucket has room
        const uint32_t fingerprint = source.next();
        const bool hasRoom = held.size() < bucketSize;
        ASSERT_EQ(table.insert(bucket, fingerprint), hasRoom);
        if (hasRoom) {
          held.insert(fingerprint);
          ++modelCount;
          changed = true;
        }
        break;
      }
      case 2: {  // erase: one copy, and only when present
        const uint32_t fingerprint = (source.below(4) != 0) ? anyStored(bucket, source.next()) : source.next();
        const auto found = held.find(fingerprint);
        ASSERT_EQ(table.erase(bucket, fingerprint), found != held.end());
        if (found != held.end()) {
          held.erase(found);
          --modelCount;
          changed = true;
        }
        break;
      }
      case 3: {  // replace: from a stored value, an empty slot (0) or an absent value; to anything
        const uint64_t kind = source.below(3);
        const uint32_t from = kind == 0 ? anyStored(bucket, 0) : kind == 1 ? 0 : source.next();
        const uint32_t to = source.below(4) == 0 ? 0 : source.next();
        const bool present = from == 0 ? held.size() < bucketSize : held.count(from) > 0;
        ASSERT_EQ(table.replace(bucket, from, to), present) << from << " -> " << to;
        if (present) {
          if (from != 0) held.erase(held.find(from));
          if (to != 0) held.insert(to);
          if (from != 0) --modelCount;
          if (to != 0) ++modelCount;
          changed = true;
        }
        break;
      }
      default: {  // lookups change nothing
        const uint32_t fingerprint = source.below(2) ? anyStored(bucket, source.next()) : source.next();
        const uint64_t other = source.below(bucketCount);
        EXPECT_EQ(table.contains(bucket, fingerprint), held.count(fingerprint) > 0);
        EXPECT_EQ(table.countOf(bucket, fingerprint), held.count(fingerprint));
        EXPECT_EQ(table.containsEither(bucket, other, fingerprint),
                  held.count(fingerprint) > 0 || model[other].count(fingerprint) > 0);
        EXPECT_EQ(table.containsEither(other, bucket, fingerprint),
                  held.count(fingerprint) > 0 || model[other].count(fingerprint) > 0);
        break;
      }
    }
    if (!changed) {
      ASSERT_EQ(payloadOf(table), before) << "a failed or read-only operation changed the bytes";
    }
    for (const uint64_t near : {bucket - 1, bucket, bucket + 1}) {
      if (near < bucketCount) expectBucketMatches(table, near, model[near]);
    }
    if (::testing::Test::HasFailure()) return;
    if (step % 64 == 63 || step + 1 == operations) {
      for (uint64_t each = 0; each < bucketCount; ++each) expectBucketMatches(table, each, model[each]);
      ASSERT_EQ(table.occupiedSlots(), modelCount);
      ASSERT_TRUE(table.isCanonical());
    }
  }
}

template <typename Table>
class CuckooTableTest : public ::testing::Test {};

class TableNames {
 public:
  template <typename Table>
  static std::string GetName(int) {
    return std::is_same_v<Table, PackedTable> ? "PackedTable" : "SemiSortedTable";
  }
};

using TableTypes = ::testing::Types<PackedTable, SemiSortedTable>;
TYPED_TEST_SUITE(CuckooTableTest, TableTypes, TableNames);

TYPED_TEST(CuckooTableTest, NewTableIsEmptyAndCanonicalAtEveryWidth) {
  for (uint32_t bits = kMinBits; bits <= kMaxBits; ++bits) {
    SCOPED_TRACE("fingerprintBits " + std::to_string(bits));
    TypeParam table;
    allocateOrFail(table, 21, 4, bits);
    EXPECT_EQ(table.bucketSize(), 4u);
    EXPECT_EQ(table.payloadWords(), TypeParam::payloadWordCount(21, 4, bits));
    EXPECT_EQ(table.occupiedSlots(), 0u);
    EXPECT_TRUE(table.isCanonical());
    for (uint64_t bucket = 0; bucket < 21; ++bucket) {
      EXPECT_EQ(bucketContents(table, bucket), std::vector<uint32_t>(4, 0));
      EXPECT_FALSE(table.contains(bucket, 1));
      EXPECT_FALSE(table.contains(bucket, maxFingerprint(bits)));
      EXPECT_FALSE(table.containsEither(bucket, 20 - bucket, 1));
      EXPECT_EQ(table.countOf(bucket, 0), 4u);
    }
  }
}

TYPED_TEST(CuckooTableTest, RandomOperationsMatchAMultisetModelAtEveryWidth) {
  for (uint32_t bits = kMinBits; bits <= kMaxBits; ++bits) {
    // 37 buckets: an odd count, so buckets start at every kind of bit offset.
    runModelCheck<TypeParam>(37, 4, bits, 0x5EED0000 + bits, 3000);
    runModelCheck<TypeParam>(1, 4, bits, 0x5EED1000 + bits, 200);
    if (::testing::Test::HasFailure()) return;
  }
}

TYPED_TEST(CuckooTableTest, FullBucketRejectsAnInsertAndKeepsItsBytes) {
  for (uint32_t bits = kMinBits; bits <= kMaxBits; ++bits) {
    SCOPED_TRACE("fingerprintBits " + std::to_string(bits));
    TypeParam table;
    allocateOrFail(table, 5, 4, bits);
    const uint32_t top = maxFingerprint(bits);
    const std::multiset<uint32_t> filling{top, 1, top, top - 1};
    for (const uint32_t fingerprint : filling) ASSERT_TRUE(table.insert(2, fingerprint));
    const std::vector<uint64_t> full = payloadOf(table);
    EXPECT_FALSE(table.insert(2, 2));
    EXPECT_FALSE(table.replace(2, 0, 2));
    EXPECT_FALSE(table.contains(2, 0));
    EXPECT_EQ(payloadOf(table), full);
    expectBucketMatches(table, 2, filling);
    for (const uint64_t other : {0, 1, 3, 4}) expectBucketMatches(table, other, {});
  }
}

TYPED_TEST(CuckooTableTest, EraseRemovesOneCopyAndOnlyWhenPresent) {
  TypeParam table;
  allocateOrFail(table, 3, 4, 12);
  for (int copy = 0; copy < 3; ++copy) ASSERT_TRUE(table.insert(1, 0xABC));
  ASSERT_TRUE(table.insert(1, 0xABD));
  EXPECT_TRUE(table.erase(1, 0xABC));
  EXPECT_EQ(table.countOf(1, 0xABC), 2u);
  EXPECT_TRUE(table.contains(1, 0xABC));
  EXPECT_TRUE(table.erase(1, 0xABC));
  EXPECT_TRUE(table.erase(1, 0xABC));
  EXPECT_FALSE(table.contains(1, 0xABC));
  const std::vector<uint64_t> before = payloadOf(table);
  EXPECT_FALSE(table.erase(1, 0xABC));
  EXPECT_FALSE(table.erase(0, 0xABD));  // present in bucket 1, not in bucket 0
  EXPECT_EQ(payloadOf(table), before);
  expectBucketMatches(table, 1, {0xABD});
  EXPECT_EQ(table.occupiedSlots(), 1u);
}

TYPED_TEST(CuckooTableTest, ReplaceMovesOneCopyAndFailsWithoutChangeWhenFromIsAbsent) {
  TypeParam table;
  allocateOrFail(table, 2, 4, 9);
  ASSERT_TRUE(table.replace(0, 0, 0x1F0));  // from an empty slot: an insert
  ASSERT_TRUE(table.replace(0, 0, 0x1F0));
  ASSERT_TRUE(table.replace(0, 0, 0x00F));
  expectBucketMatches(table, 0, {0x1F0, 0x1F0, 0x00F});

  std::vector<uint64_t> before = payloadOf(table);
  EXPECT_FALSE(table.replace(0, 0x0F0, 0x001));  // absent
  EXPECT_FALSE(table.replace(1, 0x1F0, 0x001));  // present only in the other bucket
  EXPECT_EQ(payloadOf(table), before);

  EXPECT_TRUE(table.replace(0, 0x1F0, 0x1F0));  // to itself: present, nothing changes
  EXPECT_EQ(payloadOf(table), before);

  EXPECT_TRUE(table.replace(0, 0x1F0, 0x0AA));  // one of two copies
  expectBucketMatches(table, 0, {0x1F0, 0x0AA, 0x00F});
  EXPECT_TRUE(table.replace(0, 0x00F, 0));  // to an empty slot: an erase
  expectBucketMatches(table, 0, {0x1F0, 0x0AA});
  EXPECT_TRUE(table.replace(0, 0, 0x1FF));
  EXPECT_TRUE(table.replace(0, 0, 0x001));
  before = payloadOf(table);
  EXPECT_FALSE(table.replace(0, 0, 0x002));  // no empty slot left
  EXPECT_EQ(payloadOf(table), before);
  expectBucketMatches(table, 0, {0x1F0, 0x0AA, 0x1FF, 0x001});
  expectBucketMatches(table, 1, {});
}

// Fills one bucket at a time with all-ones fingerprints (every bit of the
// bucket set), then empties it: neighbours must never see a bit, whichever
// way the bucket straddles its words, and no bit may land past the payload.
TYPED_TEST(CuckooTableTest, BucketsStraddlingWordsLeaveTheirNeighboursAlone) {
  for (uint32_t bits = kMinBits; bits <= kMaxBits; ++bits) {
    SCOPED_TRACE("fingerprintBits " + std::to_string(bits));
    constexpr uint64_t kBuckets = 67;
    TypeParam table;
    allocateOrFail(table, kBuckets, 4, bits);
    const uint32_t top = maxFingerprint(bits);
    const std::vector<uint64_t> empty = payloadOf(table);
    for (uint64_t bucket = 0; bucket < kBuckets; ++bucket) {
      for (int copy = 0; copy < 4; ++copy) ASSERT_TRUE(table.insert(bucket, top));
      expectBucketMatches(table, bucket, {top, top, top, top});
      if (bucket > 0) expectBucketMatches(table, bucket - 1, {});
      if (bucket + 1 < kBuckets) expectBucketMatches(table, bucket + 1, {});
      ASSERT_TRUE(table.isCanonical());
      ASSERT_EQ(table.occupiedSlots(), 4u);
      for (int copy = 0; copy < 4; ++copy) ASSERT_TRUE(table.erase(bucket, top));
      ASSERT_EQ(payloadOf(table), empty);
    }
    // Every bucket full at once: all neighbours written, still canonical.
    for (uint64_t bucket = 0; bucket < kBuckets; ++bucket) {
      for (const uint32_t fingerprint : {top, 1u, top, top ^ 1u}) ASSERT_TRUE(table.insert(bucket, fingerprint));
    }
    EXPECT_TRUE(table.isCanonical());
    EXPECT_EQ(table.occupiedSlots(), 4 * kBuckets);
    for (uint64_t bucket = 0; bucket < kBuckets; ++bucket) {
      expectBucketMatches(table, bucket, {top, 1u, top, top ^ 1u});
    }
    table.clear();
    EXPECT_EQ(payloadOf(table), empty);
    EXPECT_EQ(table.occupiedSlots(), 0u);
  }
}

TYPED_TEST(CuckooTableTest, BitsPastTheLastBucketAreNotCanonical) {
  for (uint32_t bits = kMinBits; bits <= kMaxBits; ++bits) {
    SCOPED_TRACE("fingerprintBits " + std::to_string(bits));
    constexpr uint64_t kBuckets = 3;
    const uint64_t bucketBits = std::is_same_v<TypeParam, SemiSortedTable> ? 4 * bits - 4 : 4 * bits;
    const uint32_t usedInLastWord = static_cast<uint32_t>((kBuckets * bucketBits) % 64);
    if (usedInLastWord == 0) continue;  // the buckets fill the last word exactly
    TypeParam table;
    allocateOrFail(table, kBuckets, 4, bits);
    for (uint64_t bucket = 0; bucket < kBuckets; ++bucket) {
      for (int copy = 0; copy < 4; ++copy) ASSERT_TRUE(table.insert(bucket, maxFingerprint(bits)));
    }
    ASSERT_TRUE(table.isCanonical());
    const uint64_t lastWord = table.words()[table.payloadWords() - 1];
    table.words()[table.payloadWords() - 1] = lastWord | (uint64_t{1} << usedInLastWord);  // first bit past
    EXPECT_FALSE(table.isCanonical());
    table.words()[table.payloadWords() - 1] = lastWord | (uint64_t{1} << 63);
    EXPECT_FALSE(table.isCanonical());
  }
}

// --- PackedTable only: the version-1 layout, and buckets of 2 and 8. ---

TEST(PackedTableTest, SlotsLieEndToEndAsInVersionOneFiles) {
  PackedTable table;
  allocateOrFail(table, 4, 4, 12);
  // Bucket 3, slot 0 starts at bit (3*4 + 0) * 12 = 144: word 2, bit 16.
  ASSERT_TRUE(table.insert(3, 0xABC));
  EXPECT_EQ(table.words()[2], uint64_t{0xABC} << 16);
  EXPECT_EQ(table.get(3, 0), 0xABCu);
  // The next insert into bucket 3 takes slot 1: bit 156.
  ASSERT_TRUE(table.insert(3, 0x123));
  EXPECT_EQ(table.words()[2], (uint64_t{0x123} << 28) | (uint64_t{0xABC} << 16));

  PackedTable straddling;
  allocateOrFail(straddling, 2, 4, 13);
  // Bucket 1, slot 0 at bit 52: 12 bits in word 0, the top bit in word 1.
  ASSERT_TRUE(straddling.insert(1, 0x1FFF));
  EXPECT_EQ(straddling.words()[0], uint64_t{0xFFF} << 52);
  EXPECT_EQ(straddling.words()[1], 1u);
  EXPECT_EQ(straddling.get(1, 0), 0x1FFFu);
  straddling.set(1, 1, 0x1001);  // slot 1 at bit 65
  EXPECT_EQ(straddling.words()[1], 1u | (uint64_t{0x1001} << 1));
  EXPECT_EQ(storedFingerprints(straddling, 1), (std::multiset<uint32_t>{0x1FFF, 0x1001}));
}

TEST(PackedTableTest, BucketsOfTwoAndEightMatchAMultisetModelAtEveryWidth) {
  for (const uint32_t bucketSize : {2u, 8u}) {
    for (uint32_t bits = kMinBits; bits <= kMaxBits; ++bits) {
      runModelCheck<PackedTable>(37, bucketSize, bits, 0x5EED2000 + bits * 16 + bucketSize, 2000);
      if (::testing::Test::HasFailure()) return;
    }
  }
}

// A bucket geometry and whether a table of 8 such buckets may be allocated.
struct Geometry {
  uint32_t bucketSize;
  uint32_t fingerprintBits;
  bool supported;
};

// Allocates one Table with each geometry in turn: allocate() answers `supported`.
template <typename Table>
void expectGeometries(std::initializer_list<Geometry> geometries) {
  Table table;
  for (const Geometry& geometry : geometries) {
    EXPECT_EQ(table.allocate(8, geometry.bucketSize, geometry.fingerprintBits), geometry.supported)
        << "bucketSize " << geometry.bucketSize << ", fingerprintBits " << geometry.fingerprintBits;
  }
}

TEST(PackedTableTest, RejectsUnsupportedGeometry) {
  expectGeometries<PackedTable>({{4, 3, false}, {4, 33, false}, {0, 8, false}, {8, 32, true}});
}

// --- SemiSortedTable only: the index, the canonical bytes, the saving. ---

TEST(SemiSortedTableTest, IndexRanksEverySortedNibbleQuadrupleExactlyOnce) {
  const uint16_t* nibblesByIndex = semi_sorting::sortedNibblesByIndex();
  std::vector<int> seen(semi_sorting::kNibbleMultisetCount, 0);
  int quadruples = 0;
  for (uint32_t d = 0; d < 16; ++d) {
    for (uint32_t c = 0; c <= d; ++c) {
      for (uint32_t b = 0; b <= c; ++b) {
        for (uint32_t a = 0; a <= b; ++a) {
          const uint32_t index = semi_sorting::rankSortedNibbles(a, b, c, d);
          ASSERT_LT(index, semi_sorting::kNibbleMultisetCount);
          ++seen[index];
          ++quadruples;
          EXPECT_EQ(nibblesByIndex[index], a | b << 4 | c << 8 | d << 12);
        }
      }
    }
  }
  EXPECT_EQ(quadruples, 3876);
  EXPECT_EQ(std::count(seen.begin(), seen.end(), 1), 3876);
  EXPECT_EQ(semi_sorting::rankSortedNibbles(0, 0, 0, 0), 0u);  // an all-zero bucket is empty
  EXPECT_EQ(semi_sorting::rankSortedNibbles(15, 15, 15, 15), 3875u);
  for (uint32_t index = semi_sorting::kNibbleMultisetCount; index < 4096; ++index) {
    EXPECT_EQ(nibblesByIndex[index], 0u) << index;
  }
}

TEST(SemiSortedTableTest, SavesOneBitPerSlot) {
  for (uint32_t bits = kMinBits; bits <= kMaxBits; ++bits) {
    EXPECT_EQ(SemiSortedTable::bucketBitsFor(bits), 4 * bits - 4);
    const uint64_t buckets = uint64_t{1} << 20;
    EXPECT_EQ(SemiSortedTable::payloadWordCount(buckets, 4, bits), buckets * (4 * bits - 4) / 64);
    EXPECT_EQ(PackedTable::payloadWordCount(buckets, 4, bits), buckets * 4 * bits / 64);
  }
}

TEST(SemiSortedTableTest, RejectsUnsupportedGeometry) {
  expectGeometries<SemiSortedTable>({{2, 8, false}, {8, 8, false}, {4, 3, false}, {4, 33, false}, {4, 4, true}});
}

// Expected words computed independently of the C++ (a few lines of Python
// following the layout comment in semi_sorted_table.h), so a change to the
// byte format fails here rather than silently breaking saved files.
struct GoldenPayload {
  uint32_t fingerprintBits;
  std::vector<std::vector<uint32_t>> buckets;  // contents, in insertion order
  std::vector<uint64_t> words;
};

TEST(SemiSortedTableTest, PayloadBytesMatchTheDocumentedLayout) {
  const std::vector<GoldenPayload> goldens = {
      // The worked example of the layout comment, then a full bucket of 0xFF.
      {8, {{0x21, 0x13, 0x2F}, {0xFF, 0xFF, 0xFF, 0xFF}}, {0x00FFFFF232120BFFull}},
      // 64-bit buckets: each fills exactly one word.
      {17,
       {{0x1ABCD, 0x00001, 0x1FFFF}, {0x10, 0x0F, 0x1F}, {0x12345, 0x12345}},
       {0xFFFEAF0000000DBCull, 0x0008000002000E9Cull, 0x91A48D0000000069ull}},
      // 124-bit buckets straddling three words.
      {32,
       {{0x12345678, 0x9ABCDEF0, 0xFFFFFFFF, 1}, {0x80000000}, {0xFFFFFFF0, 0x0000000F, 0x7}},
       {0x0000009ABCDEFC6Dull, 0x0FFFFFFF12345670ull, 0, 0x4880000000000000ull, 0x0FFFFFFF0000000Cull, 0}},
  };
  for (const GoldenPayload& golden : goldens) {
    SCOPED_TRACE("fingerprintBits " + std::to_string(golden.fingerprintBits));
    SemiSortedTable table;
    allocateOrFail(table, golden.buckets.size(), 4, golden.fingerprintBits);
    for (size_t bucket = 0; bucket < golden.buckets.size(); ++bucket) {
      for (const uint32_t fingerprint : golden.buckets[bucket]) ASSERT_TRUE(table.insert(bucket, fingerprint));
    }
    EXPECT_EQ(payloadOf(table), golden.words);
    EXPECT_TRUE(table.isCanonical());
    // And the other way: these words read back as the same buckets.
    SemiSortedTable reread;
    allocateOrFail(reread, golden.buckets.size(), 4, golden.fingerprintBits);
    std::copy(golden.words.begin(), golden.words.end(), reread.words());
    EXPECT_TRUE(reread.isCanonical());
    for (size_t bucket = 0; bucket < golden.buckets.size(); ++bucket) {
      expectBucketMatches(reread, bucket,
                          std::multiset<uint32_t>(golden.buckets[bucket].begin(), golden.buckets[bucket].end()));
    }
  }
}

TEST(SemiSortedTableTest, SameMultisetGivesSameBytesWhateverTheInsertionOrder) {
  for (uint32_t bits = kMinBits; bits <= kMaxBits; ++bits) {
    SCOPED_TRACE("fingerprintBits " + std::to_string(bits));
    const uint32_t top = maxFingerprint(bits);
    // Equal nibbles with different high parts, a duplicate, and the extremes.
    std::vector<uint32_t> fingerprints = {top, 1, top, bits > 4 ? 0x11u : 2u};
    std::sort(fingerprints.begin(), fingerprints.end());
    std::vector<uint64_t> first;
    do {
      SemiSortedTable table;
      allocateOrFail(table, 3, 4, bits);
      for (const uint32_t fingerprint : fingerprints) ASSERT_TRUE(table.insert(1, fingerprint));
      if (first.empty()) first = payloadOf(table);
      ASSERT_EQ(payloadOf(table), first);
      // Reaching the same multiset through erase and replace gives it too.
      ASSERT_TRUE(table.erase(1, fingerprints[0]));
      ASSERT_TRUE(table.replace(1, fingerprints[1], 3));
      ASSERT_TRUE(table.insert(1, fingerprints[0]));
      ASSERT_TRUE(table.replace(1, 3, fingerprints[1]));
      ASSERT_EQ(payloadOf(table), first);
    } while (std::next_permutation(fingerprints.begin(), fingerprints.end()));
  }
}

// insert() has its own path for buckets of one word (f <= 17) that never
// decodes the bucket; writeBucket() always sorts and ranks all four slots.
// Both must give the same bits for the same multiset, and neither may touch
// the neighbouring buckets (buckets straddle words).
TEST(SemiSortedTableTest, InsertGivesTheBitsOfWritingTheWholeBucket) {
  std::mt19937_64 random(20261125);
  for (uint32_t bits = kMinBits; bits <= kMaxBits; ++bits) {
    SCOPED_TRACE("fingerprintBits " + std::to_string(bits));
    const uint32_t top = maxFingerprint(bits);
    constexpr uint64_t kBuckets = 9;
    for (int trial = 0; trial < 400; ++trial) {
      SemiSortedTable inserted, written;
      allocateOrFail(inserted, kBuckets, 4, bits);
      allocateOrFail(written, kBuckets, 4, bits);
      // Small values often, so that nibbles and high parts tie.
      const auto draw = [&] {
        const uint32_t range = random() % 3 == 0 ? std::min<uint32_t>(top, 40) : top;
        return static_cast<uint32_t>(1 + random() % range);
      };
      for (uint64_t bucket = 0; bucket < kBuckets; ++bucket) {
        const uint32_t count = static_cast<uint32_t>(random() % 5);
        uint32_t slots[4] = {0, 0, 0, 0};
        for (uint32_t slot = 0; slot < count; ++slot) {
          slots[slot] = draw();
          ASSERT_TRUE(inserted.insert(bucket, slots[slot]));
        }
        if (count == 4) {
          EXPECT_FALSE(inserted.insert(bucket, draw()));
        }
        written.writeBucket(bucket, slots);
      }
      ASSERT_EQ(payloadOf(inserted), payloadOf(written)) << "trial " << trial;
      ASSERT_TRUE(inserted.isCanonical());
    }
  }
}

// Writes bucket 0's index field by hand (bits [0, 12) of word 0).
void setIndexField(SemiSortedTable& table, uint32_t index) {
  table.words()[0] = (table.words()[0] & ~uint64_t{0xFFF}) | index;
}

TEST(SemiSortedTableTest, IndexOutsideTheMultisetsIsNotCanonical) {
  SemiSortedTable table;
  allocateOrFail(table, 2, 4, 8);
  ASSERT_TRUE(table.insert(0, 0x21));
  ASSERT_TRUE(table.isCanonical());
  for (const uint32_t index : {3876u, 4000u, 4095u}) {
    setIndexField(table, index);
    EXPECT_FALSE(table.isCanonical()) << index;
    // Reading a corrupt bucket stays in bounds (the decode table has 4096 entries).
    EXPECT_EQ(table.countOf(0, 0x21), 0u);
  }
  setIndexField(table, 3875);  // a valid index again: canonical
  EXPECT_TRUE(table.isCanonical());
}

TEST(SemiSortedTableTest, EqualNibblesWithDescendingHighPartsAreNotCanonical) {
  SemiSortedTable table;
  allocateOrFail(table, 1, 4, 8);
  // 0x21 and 0x31 share nibble 1: canonical order puts high part 2 before 3,
  // at bits [20, 24) and [24, 28), after the two empty slots' zero high parts.
  ASSERT_TRUE(table.insert(0, 0x21));
  ASSERT_TRUE(table.insert(0, 0x31));
  const uint64_t canonical = table.words()[0];
  ASSERT_EQ((canonical >> 20) & 0xFF, 0x32u);
  ASSERT_TRUE(table.isCanonical());
  table.words()[0] = (canonical & ~(uint64_t{0xFF} << 20)) | (uint64_t{0x23} << 20);  // swapped
  EXPECT_FALSE(table.isCanonical());
  EXPECT_EQ(storedFingerprints(table, 0), (std::multiset<uint32_t>{0x21, 0x31}));  // same multiset

  // An empty slot (0) must precede 0x10, which shares its nibble 0.
  SemiSortedTable withEmpty;
  allocateOrFail(withEmpty, 1, 4, 8);
  ASSERT_TRUE(withEmpty.insert(0, 0x10));
  ASSERT_EQ(withEmpty.words()[0] >> 12, uint64_t{0x1} << 12);  // high parts 0, 0, 0, 1
  withEmpty.words()[0] = (withEmpty.words()[0] & 0xFFF) | (uint64_t{0x1} << 12);  // 1, 0, 0, 0
  EXPECT_FALSE(withEmpty.isCanonical());
}

}  // namespace
}  // namespace cuckoo_bloom
