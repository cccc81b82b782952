// Semi-sorted buckets of 4 (Fan, Andersen, Kaminsky, Mitzenmacher, "Cuckoo
// Filter: Practically Better Than Bloom", CoNEXT 2014, §5.2): the same
// interface as PackedTable (packed_table.h), one bit per slot smaller.
//
// Why it saves a bit: a bucket is a multiset, so the order of its four
// fingerprints carries no information. Sort them by their low 4 bits (their
// "nibbles"); the four sorted nibbles are one of C(16 + 4 - 1, 4) = C(19, 4) =
// 3876 multisets, which fits in 12 bits instead of the 16 the nibbles took:
// 4f - 4 bits per bucket instead of 4f.
//
// Payload layout (part of the file format, byte-exact):
//   * Bit k of the payload is bit k % 64 of word k / 64; words are stored
//     little-endian, so bit k is bit k % 8 of byte k / 8.
//   * Bucket i occupies payload bits [i * B, (i + 1) * B), B = 4f - 4, buckets
//     end to end with no padding (a bucket may straddle words). Payload bits
//     past the last bucket, up to the end of the last word, are zero.
//   * Canonical order of a bucket's four fingerprints x0..x3 (0 = empty):
//     ascending by (x & 15, x >> 4), i.e. by low nibble, ties by high part.
//     Empty slots (0 = nibble 0, high part 0) therefore come first.
//   * Bucket bits [0, 12), least significant first: the index
//       r = a + C(b + 1, 2) + C(c + 2, 3) + C(d + 3, 4)
//     of the sorted nibbles a <= b <= c <= d (a = x0 & 15, ..., d = x3 & 15).
//     {a, b+1, c+2, d+3} is a 4-subset of 0..18, and r is its rank in the
//     combinatorial number system (colex order), a bijection onto 0..3875.
//     An empty bucket has r = 0, so a zeroed payload is an empty table.
//     r >= 3876 is not an encoding (isCanonical() rejects it).
//   * Bucket bits [12 + s(f-4), 12 + (s+1)(f-4)) for s = 0..3: the high part
//     x_s >> 4 of the s-th fingerprint in canonical order.
// Worked example, f = 8 (B = 28), bucket 0 holding {0x21, 0x13, 0x2F} and
// one empty slot: canonical order 0x00, 0x21, 0x13, 0x2F; nibbles 0, 1, 3, 15
// give r = 0 + C(2,2) + C(5,3) + C(18,4) = 0 + 1 + 10 + 3060 = 3071 = 0xBFF;
// high parts 0, 2, 1, 2; the bucket's 28 bits are 0x2120BFF, so the payload
// starts with bytes FF 0B 12 x2 (its top nibble x being bucket 1's first bits).
//
// The same multiset always gives the same bits, so an insert undone by an
// erase (or a replace undone by the inverse replace) restores the bytes.
//
// Cost: every bucket operation decodes the index through a 4096-entry table
// of 16-bit nibble quadruples (8 KiB); lookups with f = 8..16 use instead a
// 4096-entry table of the nibbles already spread to the high parts' lanes
// (32 KiB per width f, shared by all tables of that width). Both are built at
// first use, not stored in the binary. Encoding ranks arithmetically, so there
// is no 64K-entry encode table as in the reference implementation.
// Measured against PackedTable (bench/cuckoo_table_bench.cpp): lookups take
// about 1.2-1.5x as long, inserts about 3x.
#pragma once

#include <array>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include "cuckoo_bloom/core/word_buffer.h"
#include "cuckoo_bloom/cuckoo/packed_table.h"

namespace cuckoo_bloom {

namespace semi_sorting {

constexpr uint32_t kIndexBits = 12;
constexpr uint32_t kNibbleMultisetCount = 3876;  // C(19, 4): sorted quadruples of nibbles

// The index r of sorted nibbles a <= b <= c <= d (see the layout above).
inline uint32_t rankSortedNibbles(uint32_t a, uint32_t b, uint32_t c, uint32_t d) {
  const uint32_t n2 = b + 1, n3 = c + 2, n4 = d + 3;
  return a + n2 * (n2 - 1) / 2 + n3 * (n3 - 1) * (n3 - 2) / 6 + n4 * (n4 - 1) * (n4 - 2) * (n4 - 3) / 24;
}

// Index -> sorted nibbles, nibble s in bits [4s, 4s + 4). All 4096 values a
// 12-bit field can hold have an entry, so decoding a corrupt payload stays in
// bounds: indexes 3876..4095 decode to 0 (and isCanonical() rejects them).
inline const uint16_t* sortedNibblesByIndex() {
  static const std::array<uint16_t, 1u << kIndexBits> table = [] {
    std::array<uint16_t, 1u << kIndexBits> entries{};
    for (uint32_t d = 0; d < 16; ++d) {
      for (uint32_t c = 0; c <= d; ++c) {
        for (uint32_t b = 0; b <= c; ++b) {
          for (uint32_t a = 0; a <= b; ++a) {
            entries[rankSortedNibbles(a, b, c, d)] = static_cast<uint16_t>(a | b << 4 | c << 8 | d << 12);
          }
        }
      }
    }
    return entries;
  }();
  return table.data();
}

// Sorted nibbles (as above) spread into lanes of `laneBits` bits: nibble s
// moves from bit 4s to bit s * laneBits.
inline uint64_t spreadNibbles(uint64_t nibbles, uint32_t laneBits) {
  const uint32_t widening = laneBits - 4;
  return (nibbles & 0xF) | ((nibbles & 0xF0) << widening) | ((nibbles & 0xF00) << (2 * widening)) |
         ((nibbles & 0xF000) << (3 * widening));
}

// Index -> spreadNibbles(sorted nibbles, laneBits): the lookup's decode in
// one load instead of a load and ten shifts and masks (see laneMatchFlags).
// 4096 words (32 KiB); null when the memory is not available.
inline const uint64_t* buildSpreadNibblesTable(uint32_t laneBits) {
  auto* entries = static_cast<uint64_t*>(std::calloc(size_t{1} << kIndexBits, sizeof(uint64_t)));
  if (entries != nullptr) {
    const uint16_t* nibbles = sortedNibblesByIndex();
    for (size_t index = 0; index < (size_t{1} << kIndexBits); ++index) {
      entries[index] = spreadNibbles(nibbles[index], laneBits);
    }
  }
  return entries;
}

// One table per lane width, built on first use (thread-safely, as a
// function-local static) and shared by all tables of that width; never freed.
template <uint32_t kLaneBits>
const uint64_t* spreadNibblesTable() {
  static const uint64_t* const table = buildSpreadNibblesTable(kLaneBits);
  return table;
}

inline const uint64_t* spreadNibblesByIndex(uint32_t laneBits) {
  switch (laneBits) {
    case 4: return spreadNibblesTable<4>();
    case 5: return spreadNibblesTable<5>();
    case 6: return spreadNibblesTable<6>();
    case 7: return spreadNibblesTable<7>();
    case 8: return spreadNibblesTable<8>();
    case 9: return spreadNibblesTable<9>();
    case 10: return spreadNibblesTable<10>();
    case 11: return spreadNibblesTable<11>();
    case 12: return spreadNibblesTable<12>();
    default: return nullptr;
  }
}

}  // namespace semi_sorting

class SemiSortedTable : public BucketWords {
 public:
  static constexpr uint32_t kBucketSize = 4;

  static bool supports(uint32_t bucketSize, uint32_t fingerprintBits) {
    return bucketSize == kBucketSize && fingerprintBits >= kMinFingerprintBits &&
           fingerprintBits <= kMaxFingerprintBits;
  }
  // 4f - 4: f - 1 bits per slot.
  static uint32_t bucketBitsFor(uint32_t fingerprintBits) { return kBucketSize * (fingerprintBits - 1); }

  // Words holding bucketCount buckets of 4f - 4 bits (bucketSize must be 4).
  static uint64_t payloadWordCount(uint64_t bucketCount, uint32_t bucketSize, uint32_t fingerprintBits) {
    return wordsFor(bucketCount * bucketSize * (fingerprintBits - 1));
  }

  // A zeroed (all-empty) table; false when memory is not available, or when
  // the geometry is not supported(), a caller error the filter checks first.
  bool allocate(uint64_t bucketCount, uint32_t bucketSize, uint32_t fingerprintBits) {
    if (!supports(bucketSize, fingerprintBits)) return false;
    highBits_ = fingerprintBits - 4;
    highMask_ = bit_fields::lowBitMask(highBits_);
    highLanesMask_ = bit_fields::lowBitMask(kBucketSize * highBits_);
    nibblesByIndex_ = semi_sorting::sortedNibblesByIndex();
    // f = 8..16: the four high parts are lanes of f - 4 (4..12) bits in bits
    // [12, 60) of the bucket's first window, each wide enough to take a
    // nibble, so a lookup is a few SWAR steps (see laneMatchFlags).
    spreadNibblesByIndex_ = nullptr;
    if (fingerprintBits >= 8 && fingerprintBits <= 16) {
      spreadNibblesByIndex_ = semi_sorting::spreadNibblesByIndex(highBits_);
      if (spreadNibblesByIndex_ == nullptr) return false;
    }
    const bool laneLookup = spreadNibblesByIndex_ != nullptr;
    highLaneOnes_ = laneLookup ? bit_fields::laneOnesFor(kBucketSize, highBits_) : 0;
    highLaneTops_ = laneLookup ? highLaneOnes_ << (highBits_ - 1) : 0;
    return allocateBuckets(bucketCount, fingerprintBits, bucketBitsFor(fingerprintBits));
  }

  uint32_t bucketSize() const { return kBucketSize; }

  // The bucket's 4 fingerprints in canonical order (empty slots, 0, first).
  void readBucket(uint64_t bucket, uint32_t* out) const { decode(load(bucket), out); }

  // Whether the bucket holds `fingerprint` (with 0: whether it has an empty slot).
  bool contains(uint64_t bucket, uint32_t fingerprint) const {
    const BucketBits bits = load(bucket);
    if (spreadNibblesByIndex_ == nullptr) return slotMatches(bits, fingerprint) != 0;
    return laneMatchFlags(bits, lanePatternsOf(fingerprint)) != 0;
  }

  // contains(bucket1) || contains(bucket2), with both buckets loaded before
  // either is tested, so two cache misses overlap instead of queueing.
  //
  // Why no branch and so few instructions: with the table far bigger than
  // the cache, lookups are bound by how many loads the CPU keeps in flight,
  // that is by how many lookups fit in its out-of-order window. Every
  // instruction waiting on a loaded bucket takes room in that window, and a
  // mispredicted branch on a loaded value empties it. (Measured: a branch
  // skipping the decode when no high part matches made hits 2x slower at
  // 16M buckets; the spread table instead of ten shifts saved another third.)
  bool containsEither(uint64_t bucket1, uint64_t bucket2, uint32_t fingerprint) const {
    const BucketBits bits1 = load(bucket1);
    const BucketBits bits2 = load(bucket2);
    if (spreadNibblesByIndex_ == nullptr) {
      return (slotMatches(bits1, fingerprint) | slotMatches(bits2, fingerprint)) != 0;
    }
    const LanePatterns patterns = lanePatternsOf(fingerprint);
    return (laneMatchFlags(bits1, patterns) | laneMatchFlags(bits2, patterns)) != 0;
  }

  uint32_t countOf(uint64_t bucket, uint32_t fingerprint) const {
    uint32_t fingerprints[kBucketSize];
    decode(load(bucket), fingerprints);
    uint32_t copies = 0;
    for (const uint32_t held : fingerprints) copies += held == fingerprint;
    return copies;
  }

  // Whether the bucket has an empty slot. Empty slots (0) sort first, so
  // that is whether its first canonical slot is empty: nibble 0 and high
  // part 0. Checking that alone spares a full bucket the decode (the
  // eviction walk meets mostly full buckets).
  bool hasRoom(uint64_t bucket) const { return hasRoom(load(bucket)); }

  // Into an empty slot; false (and no change) when the bucket is full.
  bool insert(uint64_t bucket, uint32_t fingerprint) {
    assert(fingerprint != 0);
    if (bucketBits_ <= 64) return insertIntoOneWord(bucket, fingerprint);
    const BucketBits bits = load(bucket);
    if (!hasRoom(bits)) return false;
    uint32_t fingerprints[kBucketSize];
    decode(bits, fingerprints);
    fingerprints[0] = fingerprint;
    store(bucket, encode(fingerprints));
    return true;
  }
  // Removes one copy; false (no change) when the bucket has none.
  bool erase(uint64_t bucket, uint32_t fingerprint) {
    assert(fingerprint != 0);
    return replace(bucket, fingerprint, 0);
  }
  // Replaces one copy of `from` (0: an empty slot) with `to` (0: empties it)
  // and re-encodes the bucket canonically; false (no change) without a `from`.
  bool replace(uint64_t bucket, uint32_t from, uint32_t to) {
    assert(to <= bit_fields::lowBitMask(fingerprintBits_));
    uint32_t fingerprints[kBucketSize];
    decode(load(bucket), fingerprints);
    for (uint32_t& held : fingerprints) {
      if (held == from) {
        held = to;
        store(bucket, encode(fingerprints));
        return true;
      }
    }
    return false;
  }

  // Sets the bucket to hold exactly these four fingerprints (0 = empty), in
  // canonical form: readBucket then writeBucket leaves every bit as it was,
  // whatever order the values come in (the cuckoo walk's exact undo relies on it).
  void writeBucket(uint64_t bucket, const uint32_t* values) {
    uint32_t fingerprints[kBucketSize];
    for (uint32_t slot = 0; slot < kBucketSize; ++slot) fingerprints[slot] = values[slot];
    store(bucket, encode(fingerprints));
  }

  uint64_t occupiedSlots() const {
    uint64_t occupied = 0;
    uint32_t fingerprints[kBucketSize];
    for (uint64_t bucket = 0; bucket < bucketCount_; ++bucket) {
      decode(load(bucket), fingerprints);
      for (const uint32_t held : fingerprints) occupied += held != 0;
    }
    return occupied;
  }

  // Every bucket has a valid index and, among slots with equal nibbles, high
  // parts in ascending order; no bit is set past the last bucket. Exactly the
  // payloads that encode() can produce, so decoding and re-encoding any
  // accepted payload gives back the same bytes.
  bool isCanonical() const {
    for (uint64_t bucket = 0; bucket < bucketCount_; ++bucket) {
      const BucketBits bits = load(bucket);
      const uint32_t index = static_cast<uint32_t>(bits.low & kIndexMask);
      if (index >= semi_sorting::kNibbleMultisetCount) return false;
      const uint32_t nibbles = nibblesByIndex_[index];
      for (uint32_t slot = 0; slot + 1 < kBucketSize; ++slot) {
        const bool sameNibble = ((nibbles >> (4 * slot)) & 15) == ((nibbles >> (4 * slot + 4)) & 15);
        if (sameNibble && highPart(bits, slot) > highPart(bits, slot + 1)) return false;
      }
    }
    return paddingIsZero();
  }

 private:
  static constexpr uint64_t kIndexMask = (uint64_t{1} << semi_sorting::kIndexBits) - 1;

  // A bucket's bits: [0, 64) in `low`, [64, 128) in `high` (B = 4f - 4 is at
  // most 124). Bits past B may hold the next bucket's; readers mask them.
  struct BucketBits {
    uint64_t low;
    uint64_t high;
  };

  // insert() for buckets of at most 64 bits (f <= 17: every rate down to
  // about 6e-5 at b = 4), without decoding the bucket into four fingerprints and
  // sorting them again. The bucket has room exactly when its first
  // canonical slot is empty; dropping that slot leaves the other three in
  // canonical order, so the new fingerprint goes in after the `before` of
  // them that sort below it: the nibbles (4-bit lanes) and the high parts
  // (lanes of f - 4 bits) above that point move up one lane. Only the index
  // of the new nibbles is computed afresh. The bits are exactly encode()'s
  // for the same four fingerprints (a test compares the two). Inserting is
  // most of the cost of adding a key: this path takes 186 instructions a
  // call against 251 for decode, sort and encode (callgrind, 100k keys).
  bool insertIntoOneWord(uint64_t bucket, uint32_t fingerprint) {
    const uint64_t bit = bucket * bucketBits_;
    const uint64_t word = bit_fields::readWindow(words_.data(), bit);
    const uint32_t nibbles = nibblesByIndex_[word & kIndexMask];
    const uint64_t highs = (word >> semi_sorting::kIndexBits) & highLanesMask_;
    if ((nibbles & 15) != 0 || (highs & highMask_) != 0) return false;
    // Slots 1..3 move down to lanes 0..2.
    const uint32_t restNibbles = nibbles >> 4;
    const uint64_t restHighs = highs >> highBits_;
    // The canonical order compares (nibble, high part): one number, nibble
    // on top. Equal keys are equal fingerprints, so either side of a tie
    // gives the same bits.
    const uint32_t newNibble = fingerprint & 15;
    const uint64_t newHigh = fingerprint >> 4;
    const uint64_t newKey = uint64_t{newNibble} << highBits_ | newHigh;
    uint32_t before = 0;
    for (uint32_t lane = 0; lane < kBucketSize - 1; ++lane) {
      const uint64_t key = uint64_t{(restNibbles >> (4 * lane)) & 15} << highBits_ | ((restHighs >> (lane * highBits_)) & highMask_);
      before += key < newKey;
    }
    const uint32_t nibblesBelow = restNibbles & ((1u << (4 * before)) - 1);
    const uint32_t sortedNibbles = nibblesBelow | newNibble << (4 * before) | (restNibbles - nibblesBelow) << 4;
    const uint64_t highsBelow = restHighs & bit_fields::lowBitMask(before * highBits_);
    const uint64_t sortedHighs = highsBelow | newHigh << (before * highBits_) | (restHighs - highsBelow) << highBits_;
    const uint32_t index = semi_sorting::rankSortedNibbles(sortedNibbles & 15, (sortedNibbles >> 4) & 15,
                                                           (sortedNibbles >> 8) & 15, sortedNibbles >> 12);
    bit_fields::write(words_.data(), bit, bucketBits_, index | sortedHighs << semi_sorting::kIndexBits);
    return true;
  }

  bool hasRoom(const BucketBits& bits) const {
    return (nibblesByIndex_[bits.low & kIndexMask] & 15) == 0 && highPart(bits, 0) == 0;
  }

  BucketBits load(uint64_t bucket) const {
    const uint64_t bit = bucket * bucketBits_;
    BucketBits bits{bit_fields::readWindow(words_.data(), bit), 0};
    // The window at bit + 64 starts inside the payload whenever B > 64, so
    // its second word is at worst the spare word.
    if (bucketBits_ > 64) bits.high = bit_fields::readWindow(words_.data(), bit + 64);
    return bits;
  }

  void store(uint64_t bucket, const BucketBits& bits) {
    const uint64_t bit = bucket * bucketBits_;
    if (bucketBits_ <= 64) {
      bit_fields::write(words_.data(), bit, bucketBits_, bits.low);
    } else {
      bit_fields::write(words_.data(), bit, 64, bits.low);
      bit_fields::write(words_.data(), bit + 64, bucketBits_ - 64, bits.high);
    }
  }

  // The high part of the fingerprint in canonical position `slot`.
  uint32_t highPart(const BucketBits& bits, uint32_t slot) const {
    const uint32_t offset = semi_sorting::kIndexBits + slot * highBits_;
    // One word (f <= 17, the common case): no field straddles into `high`.
    if (bucketBits_ <= 64) return static_cast<uint32_t>((bits.low >> offset) & highMask_);
    uint64_t value;
    if (offset >= 64) {
      value = bits.high >> (offset - 64);
    } else {
      value = bits.low >> offset;
      if (offset + highBits_ > 64) value |= bits.high << (64 - offset);
    }
    return static_cast<uint32_t>(value & highMask_);
  }

  void placeHighPart(BucketBits& bits, uint32_t slot, uint64_t value) const {
    const uint32_t offset = semi_sorting::kIndexBits + slot * highBits_;
    if (bucketBits_ <= 64) {
      bits.low |= value << offset;
    } else if (offset >= 64) {
      bits.high |= value << (offset - 64);
    } else {
      bits.low |= value << offset;
      if (offset + highBits_ > 64) bits.high |= value >> (64 - offset);
    }
  }

  void decode(const BucketBits& bits, uint32_t* out) const {
    const uint32_t nibbles = nibblesByIndex_[bits.low & kIndexMask];
    for (uint32_t slot = 0; slot < kBucketSize; ++slot) {
      out[slot] = ((nibbles >> (4 * slot)) & 15) | (highPart(bits, slot) << 4);
    }
  }

  // Any order in, canonical bits out.
  BucketBits encode(const uint32_t* fingerprints) const {
    // Rotating a fingerprint right by 4 (within 32 bits; f <= 32) puts its
    // nibble on top and its high part below, so ascending keys are the
    // canonical order: by nibble, ties by high part.
    uint32_t keys[kBucketSize];
    for (uint32_t slot = 0; slot < kBucketSize; ++slot) {
      keys[slot] = (fingerprints[slot] >> 4) | (fingerprints[slot] << 28);
    }
    // Optimal sorting network for 4: (0,1) (2,3) (0,2) (1,3) (1,2).
    sortPair(keys[0], keys[1]);
    sortPair(keys[2], keys[3]);
    sortPair(keys[0], keys[2]);
    sortPair(keys[1], keys[3]);
    sortPair(keys[1], keys[2]);
    BucketBits bits{semi_sorting::rankSortedNibbles(keys[0] >> 28, keys[1] >> 28, keys[2] >> 28, keys[3] >> 28), 0};
    for (uint32_t slot = 0; slot < kBucketSize; ++slot) placeHighPart(bits, slot, keys[slot] & 0x0FFFFFFFu);
    return bits;
  }

  static void sortPair(uint32_t& first, uint32_t& second) {
    const uint32_t low = first < second ? first : second;
    second = first < second ? second : first;
    first = low;
  }

  // Any f: non-zero when some slot holds the fingerprint. All four slots are
  // compared and OR-ed, without an early exit (which slot matches is random,
  // so a branch per slot would be mispredicted).
  uint32_t slotMatches(const BucketBits& bits, uint32_t fingerprint) const {
    const uint32_t nibbles = nibblesByIndex_[bits.low & kIndexMask];
    uint32_t matches = 0;
    for (uint32_t slot = 0; slot < kBucketSize; ++slot) {
      matches |= (((nibbles >> (4 * slot)) & 15) | (highPart(bits, slot) << 4)) == fingerprint;
    }
    return matches;
  }

  // The lane lookup (f = 8..16). The query's high part and nibble, repeated
  // in every lane of f - 4 bits.
  struct LanePatterns {
    uint64_t highs;
    uint64_t nibbles;
  };
  LanePatterns lanePatternsOf(uint32_t fingerprint) const {
    return {(fingerprint >> 4) * highLaneOnes_, (fingerprint & 15) * highLaneOnes_};
  }
  // Non-zero when some slot holds the query. Lane s of `mismatch` is zero
  // exactly where slot s does: the high parts, XOR-ed with the query's, are
  // zero where they match; the sorted nibbles, spread to the same lanes and
  // XOR-ed with the query's nibble, are zero where those match; OR-ed, a lane
  // is zero only where both do. Bits above the four lanes (the next bucket's)
  // stay in: zeroLaneFlags ignores them.
  uint64_t laneMatchFlags(const BucketBits& bits, const LanePatterns& patterns) const {
    const uint64_t highs = (bits.low >> semi_sorting::kIndexBits) ^ patterns.highs;
    const uint64_t nibbles = spreadNibblesByIndex_[bits.low & kIndexMask] ^ patterns.nibbles;
    const uint64_t mismatch = highs | nibbles;
    return bit_fields::zeroLaneFlags(mismatch, highLaneOnes_, highLaneTops_);
  }

  uint32_t highBits_ = 0;  // f - 4 (bucketBits_ is 4f - 4)
  uint64_t highMask_ = 0;
  uint64_t highLanesMask_ = 0;  // the four high parts' lanes, above the index
  uint64_t highLaneOnes_ = 0;  // bit 0 of each (f-4)-bit lane, for the lane lookup
  uint64_t highLaneTops_ = 0;
  const uint16_t* nibblesByIndex_ = nullptr;
  const uint64_t* spreadNibblesByIndex_ = nullptr;  // f = 8..16 only: the lane lookup
};

}  // namespace cuckoo_bloom
