// The cuckoo filter's storage: bucketCount x bucketSize slots of
// fingerprintBits bits each, bit-packed end to end in little-endian uint64
// words (slot s occupies bits [s*f, s*f + f) of the word array, possibly
// straddling two words). Any width from 4 to 32 bits costs exactly f bits per
// slot. A slot holding 0 is empty.
//
// The algorithm (CuckooFilter) does not know how slots are packed; it only
// reads and writes slot values through this class.
#pragma once

#include <cstddef>
#include <cstdint>

#include "cuckoo_bloom/word_buffer.h"

namespace cuckoo_bloom {

class PackedTable {
 public:
  // Words holding bucketCount * bucketSize * fingerprintBits bits (no padding).
  static uint64_t payloadWordCount(uint64_t bucketCount, uint32_t bucketSize,
                                   uint32_t fingerprintBits) {
    const uint64_t bits = bucketCount * bucketSize * fingerprintBits;
    return (bits + 63) / 64;
  }

  // One extra word past the payload lets every read and write touch two
  // words without a bounds branch.
  bool allocate(uint64_t bucketCount, uint32_t bucketSize, uint32_t fingerprintBits) {
    bucketCount_ = bucketCount;
    bucketSize_ = bucketSize;
    fingerprintBits_ = fingerprintBits;
    slotMask_ = (uint64_t{1} << fingerprintBits) - 1;
    payloadWords_ = static_cast<size_t>(payloadWordCount(bucketCount, bucketSize, fingerprintBits));
    return words_.allocate(payloadWords_ + 1);
  }

  uint32_t get(uint64_t bucket, uint32_t slot) const {
    const uint64_t bit = (bucket * bucketSize_ + slot) * fingerprintBits_;
    const size_t word = static_cast<size_t>(bit >> 6);
    const uint32_t shift = static_cast<uint32_t>(bit & 63);
    uint64_t value = words_[word] >> shift;
    if (shift + fingerprintBits_ > 64) value |= words_[word + 1] << (64 - shift);
    return static_cast<uint32_t>(value & slotMask_);
  }

  void set(uint64_t bucket, uint32_t slot, uint32_t fingerprint) {
    const uint64_t bit = (bucket * bucketSize_ + slot) * fingerprintBits_;
    const size_t word = static_cast<size_t>(bit >> 6);
    const uint32_t shift = static_cast<uint32_t>(bit & 63);
    const uint64_t value = fingerprint & slotMask_;
    words_[word] = (words_[word] & ~(slotMask_ << shift)) | (value << shift);
    if (shift + fingerprintBits_ > 64) {
      const uint32_t spilled = 64 - shift;  // bits that went into the first word
      words_[word + 1] = (words_[word + 1] & ~(slotMask_ >> spilled)) | (value >> spilled);
    }
  }

  uint32_t bucketSize() const { return bucketSize_; }

  // ---- Bucket operations: all the cuckoo walk needs (it never sees the packing).
  void readBucket(uint64_t bucket, uint32_t* out) const {
    for (uint32_t slot = 0; slot < bucketSize_; ++slot) out[slot] = get(bucket, slot);
  }
  // Writes the bucket's bucketSize fingerprints back, slot for slot, so that
  // readBucket then writeBucket of the same values leaves every bit as it was.
  void writeBucket(uint64_t bucket, const uint32_t* values) {
    for (uint32_t slot = 0; slot < bucketSize_; ++slot) set(bucket, slot, values[slot]);
  }
  bool contains(uint64_t bucket, uint32_t fingerprint) const {
    for (uint32_t slot = 0; slot < bucketSize_; ++slot) {
      if (get(bucket, slot) == fingerprint) return true;
    }
    return false;
  }
  bool containsEither(uint64_t bucket1, uint64_t bucket2, uint32_t fingerprint) const {
    return contains(bucket1, fingerprint) || contains(bucket2, fingerprint);
  }
  uint32_t countOf(uint64_t bucket, uint32_t fingerprint) const {
    uint32_t copies = 0;
    for (uint32_t slot = 0; slot < bucketSize_; ++slot) copies += get(bucket, slot) == fingerprint;
    return copies;
  }
  // Into the first empty slot; false (no change) when the bucket is full.
  bool insert(uint64_t bucket, uint32_t fingerprint) { return replace(bucket, 0, fingerprint); }
  // One copy; false (no change) when there is none.
  bool erase(uint64_t bucket, uint32_t fingerprint) { return replace(bucket, fingerprint, 0); }
  // Replaces the first copy of `from` (0 = an empty slot) with `to`.
  bool replace(uint64_t bucket, uint32_t from, uint32_t to) {
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
    for (uint64_t bucket = 0; bucket < bucketCount_; ++bucket) {
      for (uint32_t slot = 0; slot < bucketSize_; ++slot) occupied += get(bucket, slot) != 0;
    }
    return occupied;
  }
  // No bit set past the last slot (deserialization rejects anything else).
  bool isCanonical() const {
    const uint64_t usedBits = bucketCount_ * bucketSize_ * fingerprintBits_;
    return usedBits % 64 == 0 || (words_[payloadWords_ - 1] >> (usedBits % 64)) == 0;
  }

  void clear() { words_.clear(); }
  size_t payloadWords() const { return payloadWords_; }
  const uint64_t* words() const { return words_.data(); }
  uint64_t* words() { return words_.data(); }

 private:
  WordBuffer words_;
  size_t payloadWords_ = 0;
  uint64_t bucketCount_ = 0;
  uint32_t bucketSize_ = 0;
  uint32_t fingerprintBits_ = 0;
  uint64_t slotMask_ = 0;
};

}  // namespace cuckoo_bloom
