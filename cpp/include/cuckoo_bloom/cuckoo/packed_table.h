// The cuckoo filter's plain storage: bucketCount x bucketSize slots of
// fingerprintBits bits each, bit-packed end to end in little-endian uint64
// words. Slot s of bucket i occupies bits [(i*b + s)*f, (i*b + s)*f + f) of the
// word array (bit k is bit k % 64 of word k / 64), possibly straddling two
// words. Any width from 4 to 32 bits costs exactly f bits per slot. A slot
// holding 0 is empty. This layout is the version-1 file format: keep it.
//
// The table owns the bucket operations (find, count, insert, erase, replace a
// fingerprint in a bucket), so the cuckoo algorithm never sees how slots are
// packed and can run unchanged over SemiSortedTable (semi_sorted_table.h),
// which implements the same interface. To the algorithm a bucket is a
// multiset: it never relies on a fingerprint staying at a slot index.
#pragma once

#include <cassert>
#include <cstddef>
#include <cstdint>

#include "cuckoo_bloom/core/word_buffer.h"

namespace cuckoo_bloom {

// Bit fields in an array of uint64 words, bit k being bit k % 64 of word
// k / 64 (so, with the words stored little-endian, bit k % 8 of byte k / 8).
// Shared by PackedTable and SemiSortedTable.
namespace bit_fields {

// No bit set past the first usedBits of a payload of payloadWords words.
inline bool paddingIsZero(const uint64_t* words, size_t payloadWords, uint64_t usedBits) {
  const uint32_t usedInLastWord = static_cast<uint32_t>(usedBits & 63);
  return usedInLastWord == 0 || payloadWords == 0 || (words[payloadWords - 1] >> usedInLastWord) == 0;
}

inline uint64_t lowBitMask(uint32_t width) {
  return width >= 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1;
}

// The 64 bits starting at `bit`. Always reads the word after the one holding
// `bit`, so the array keeps one spare word past its payload; that makes a
// straddling field straight-line code instead of a branch.
inline uint64_t readWindow(const uint64_t* words, uint64_t bit) {
  const size_t word = static_cast<size_t>(bit >> 6);
  const uint32_t shift = static_cast<uint32_t>(bit & 63);
  // (next << 1) << (63 - shift) is next << (64 - shift), but also defined
  // (and 0) when shift is 0, where a shift by 64 would be undefined.
  return (words[word] >> shift) | ((words[word + 1] << 1) << (63 - shift));
}

// Writes the low `width` (1..64) bits of `value` (which must have no higher
// bits set) at `bit`, leaving every other bit of the array as it was.
inline void write(uint64_t* words, uint64_t bit, uint32_t width, uint64_t value) {
  const size_t word = static_cast<size_t>(bit >> 6);
  const uint32_t shift = static_cast<uint32_t>(bit & 63);
  const uint64_t mask = lowBitMask(width);
  words[word] = (words[word] & ~(mask << shift)) | (value << shift);
  if (shift + width > 64) {
    const uint32_t spilled = 64 - shift;  // bits that went into the first word
    words[word + 1] = (words[word + 1] & ~(mask >> spilled)) | (value >> spilled);
  }
}

// `laneOnes` has bit 0 of each of n lanes of w bits set (sum of 1 << (i*w)),
// `laneTops` the top bit of each lane (laneOnes << (w - 1)). Then
//   (x - laneOnes) & ~x & laneTops
// is non-zero exactly when some lane of x is zero: below the lowest zero lane
// every lane is >= 1, so no borrow reaches it and it becomes all ones (top
// bit set, and clear in x); with no zero lane nothing borrows across lanes
// and each lane's top bit of (v - 1) & ~v is clear. Bits of x above the top
// lane only receive borrows, never send them, so they need no masking.
// (Returned as those bits rather than a bool, so that two tests combine with
// one OR and no branch.)
inline uint64_t zeroLaneFlags(uint64_t lanes, uint64_t laneOnes, uint64_t laneTops) {
  return (lanes - laneOnes) & ~lanes & laneTops;
}

inline uint64_t laneOnesFor(uint32_t laneCount, uint32_t laneBits) {
  uint64_t ones = 0;
  for (uint32_t lane = 0; lane < laneCount; ++lane) ones |= uint64_t{1} << (lane * laneBits);
  return ones;
}

}  // namespace bit_fields

// What both slot layouts (PackedTable here, SemiSortedTable) keep the same
// way: bucketCount buckets of bucketBits bits each, end to end in
// payloadWords words, plus one spare word past the payload, so every read
// and write may touch two words without a bounds branch (the spare word is
// never part of the payload).
class BucketWords {
 public:
  static constexpr uint32_t kMinFingerprintBits = 4;
  static constexpr uint32_t kMaxFingerprintBits = 32;

  // Words holding `bits` bits (no padding beyond the last word).
  static uint64_t wordsFor(uint64_t bits) { return (bits + 63) / 64; }

  uint64_t bucketCount() const { return bucketCount_; }
  uint32_t fingerprintBits() const { return fingerprintBits_; }
  void clear() { words_.clear(); }
  size_t payloadWords() const { return payloadWords_; }
  const uint64_t* words() const { return words_.data(); }
  uint64_t* words() { return words_.data(); }

 protected:
  // Zeroed words for the geometry; false when memory is not available.
  bool allocateBuckets(uint64_t bucketCount, uint32_t fingerprintBits, uint32_t bucketBits) {
    bucketCount_ = bucketCount;
    fingerprintBits_ = fingerprintBits;
    bucketBits_ = bucketBits;
    payloadWords_ = static_cast<size_t>(wordsFor(bucketCount * bucketBits));
    return words_.allocate(payloadWords_ + 1);
  }
  // No bit set past the last bucket in the last payload word.
  bool paddingIsZero() const {
    return bit_fields::paddingIsZero(words_.data(), payloadWords_, bucketCount_ * bucketBits_);
  }

  WordBuffer words_;
  size_t payloadWords_ = 0;
  uint64_t bucketCount_ = 0;
  uint32_t fingerprintBits_ = 0;
  uint32_t bucketBits_ = 0;
};

class PackedTable : public BucketWords {
 public:

  static bool supports(uint32_t bucketSize, uint32_t fingerprintBits) {
    return bucketSize >= 1 && bucketSize <= 8 && fingerprintBits >= kMinFingerprintBits &&
           fingerprintBits <= kMaxFingerprintBits;
  }

  // Words holding bucketCount * bucketSize * fingerprintBits bits (no padding).
  static uint64_t payloadWordCount(uint64_t bucketCount, uint32_t bucketSize,
                                   uint32_t fingerprintBits) {
    return wordsFor(bucketCount * bucketSize * fingerprintBits);
  }

  // A zeroed (all-empty) table; false when memory is not available, or when
  // the geometry is not supported(), a caller error the filter checks first.
  bool allocate(uint64_t bucketCount, uint32_t bucketSize, uint32_t fingerprintBits) {
    if (!supports(bucketSize, fingerprintBits)) return false;
    bucketSize_ = bucketSize;
    slotMask_ = bit_fields::lowBitMask(fingerprintBits);
    // A bucket of at most 64 bits is one window read and one SWAR test.
    bucketInOneWindow_ = bucketSize * fingerprintBits <= 64;
    laneOnes_ = bucketInOneWindow_ ? bit_fields::laneOnesFor(bucketSize, fingerprintBits) : 0;
    laneTops_ = laneOnes_ << (fingerprintBits - 1);
    return allocateBuckets(bucketCount, fingerprintBits, bucketSize * fingerprintBits);
  }

  uint32_t bucketSize() const { return bucketSize_; }

  // Slot-level access, for the version-1 layout and inspection.
  uint32_t get(uint64_t bucket, uint32_t slot) const {
    const uint64_t bit = (bucket * bucketSize_ + slot) * fingerprintBits_;
    return static_cast<uint32_t>(bit_fields::readWindow(words_.data(), bit) & slotMask_);
  }
  void set(uint64_t bucket, uint32_t slot, uint32_t fingerprint) {
    const uint64_t bit = (bucket * bucketSize_ + slot) * fingerprintBits_;
    bit_fields::write(words_.data(), bit, fingerprintBits_, fingerprint & slotMask_);
  }

  // The bucket's bucketSize fingerprints, in slot order (0 = empty).
  void readBucket(uint64_t bucket, uint32_t* out) const {
    for (uint32_t slot = 0; slot < bucketSize_; ++slot) out[slot] = get(bucket, slot);
  }

  // Writes the bucket's bucketSize fingerprints back, slot for slot: readBucket
  // then writeBucket of the same values leaves every bit as it was (the
  // cuckoo walk's exact undo relies on it).
  void writeBucket(uint64_t bucket, const uint32_t* values) {
    for (uint32_t slot = 0; slot < bucketSize_; ++slot) set(bucket, slot, values[slot]);
  }

  // Whether the bucket holds `fingerprint` (with 0: whether it has an empty slot).
  bool contains(uint64_t bucket, uint32_t fingerprint) const {
    if (bucketInOneWindow_) return matchFlags(bucketWindow(bucket), fingerprint) != 0;
    for (uint32_t slot = 0; slot < bucketSize_; ++slot) {
      if (get(bucket, slot) == fingerprint) return true;
    }
    return false;
  }

  // contains(bucket1) || contains(bucket2), with both buckets' words loaded
  // before either is tested, so two cache misses overlap instead of queueing.
  bool containsEither(uint64_t bucket1, uint64_t bucket2, uint32_t fingerprint) const {
    if (bucketInOneWindow_) {
      const uint64_t window1 = bucketWindow(bucket1);
      const uint64_t window2 = bucketWindow(bucket2);
      return (matchFlags(window1, fingerprint) | matchFlags(window2, fingerprint)) != 0;
    }
    return contains(bucket1, fingerprint) || contains(bucket2, fingerprint);
  }

  uint32_t countOf(uint64_t bucket, uint32_t fingerprint) const {
    uint32_t copies = 0;
    for (uint32_t slot = 0; slot < bucketSize_; ++slot) copies += get(bucket, slot) == fingerprint;
    return copies;
  }

  // Whether the bucket has an empty slot.
  bool hasRoom(uint64_t bucket) const {
    uint32_t empty = 0;
    for (uint32_t slot = 0; slot < bucketSize_; ++slot) empty |= get(bucket, slot) == 0;
    return empty != 0;
  }

  // Into the bucket's first empty slot; false (and no change) when it is full.
  bool insert(uint64_t bucket, uint32_t fingerprint) {
    assert(fingerprint != 0 && fingerprint <= slotMask_);
    return replace(bucket, 0, fingerprint);
  }
  // Empties the first slot holding `fingerprint`; false (no change) when none does.
  bool erase(uint64_t bucket, uint32_t fingerprint) {
    assert(fingerprint != 0);
    return replace(bucket, fingerprint, 0);
  }
  // Overwrites the first slot holding `from` (0: an empty slot) with `to`;
  // false (no change) when no slot holds `from`.
  bool replace(uint64_t bucket, uint32_t from, uint32_t to) {
    assert(to <= slotMask_);
    for (uint32_t slot = 0; slot < bucketSize_; ++slot) {
      if (get(bucket, slot) == from) {
        set(bucket, slot, to);
        return true;
      }
    }
    return false;
  }

  uint64_t occupiedSlots() const {
    uint64_t occupied = 0;
    const uint64_t slots = bucketCount_ * bucketSize_;
    for (uint64_t slot = 0, bit = 0; slot < slots; ++slot, bit += fingerprintBits_) {
      occupied += (bit_fields::readWindow(words_.data(), bit) & slotMask_) != 0;
    }
    return occupied;
  }

  // Every slot of this layout is a valid fingerprint or 0; the only way to be
  // non-canonical is a set bit past the last slot in the last payload word.
  bool isCanonical() const {
    return paddingIsZero();
  }

 private:
  uint64_t bucketWindow(uint64_t bucket) const {
    return bit_fields::readWindow(words_.data(), bucket * bucketBits_);
  }
  // Non-zero when the bucket in `window` holds the fingerprint: XOR turns a
  // slot equal to it into a zero lane. The window's bits above the bucket
  // (the next bucket's) lie above the top lane.
  uint64_t matchFlags(uint64_t window, uint32_t fingerprint) const {
    return bit_fields::zeroLaneFlags(window ^ (fingerprint * laneOnes_), laneOnes_, laneTops_);
  }

  uint32_t bucketSize_ = 0;
  bool bucketInOneWindow_ = false;
  uint64_t slotMask_ = 0;
  uint64_t laneOnes_ = 0;  // meaningful when bucketInOneWindow_
  uint64_t laneTops_ = 0;
};

}  // namespace cuckoo_bloom
