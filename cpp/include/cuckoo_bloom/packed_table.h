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

  void clear() { words_.clear(); }
  size_t payloadWords() const { return payloadWords_; }
  const uint64_t* words() const { return words_.data(); }
  uint64_t* words() { return words_.data(); }

 private:
  WordBuffer words_;
  size_t payloadWords_ = 0;
  uint32_t bucketSize_ = 0;
  uint32_t fingerprintBits_ = 0;
  uint64_t slotMask_ = 0;
};

}  // namespace cuckoo_bloom
