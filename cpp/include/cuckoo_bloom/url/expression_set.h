// The exact companion of a URL blocklist (type 33, "url-expression-set";
// docs/FORMAT.md): the sorted 64-bit hashes of every listed expression,
// Golomb/Rice-coded the way Safe Browsing v4 codes its hash prefixes, so a
// filter's "maybe" can be confirmed exactly.
//
// Why a companion and not a second filter: a filter's "maybe" is wrong at
// its false-positive rate; this set's "yes" is wrong only when an expression
// checked has the same 64-bit hash as a listed one (about L * N / 2^64 per
// URL for N expressions and L lookups). Its "no" is certain, so a filter's
// maybe that the set does not hold is a clear URL.
//
// Hash: XXH3-64 of the expression's UTF-8 bytes with the seed stored in the
// header (kExpressionSetDefaultSeed unless given), independent of the
// filter's own hashing.
//
// Layout: the package's 56-byte header (format.h) with type 33, then
//   params  blocklistChecksum u64, streamBits u64, riceBits u8,
//           blockShift u8, 6 reserved bytes (0)                    = 24 bytes
//   payload index: one (firstValue u64, bitOffset u64) per block of
//           2^blockShift sorted hashes; then the bit stream: for each
//           block, every hash after its first as gap = hash - previous - 1,
//           Rice-coded: gap >> riceBits as that many 1 bits and a 0 bit,
//           then the low riceBits bits of gap, least significant first;
//           bits fill bytes from the least significant bit; the last byte's
//           unused bits are 0.
//   header  seed = hash seed; itemCount = capacity = distinct hashes N;
//           target rate = N / 2^64 (the chance an absent hash is held).
// blocklistChecksum is the trailing checksum (format.h) of the blocklist
// file whose filter this set confirms: a set is only ever paired with the
// filter it was built with (a set of another list could turn a listed URL
// clear).
//
// A lookup binary-searches the index and decodes one block. Reading trusts
// nothing: sizes are checked before anything is allocated (never more than
// the input's length), the checksum is verified, and every block is decoded
// once (strictly increasing hashes, each block ending where the next starts,
// the stream ending at streamBits, padding 0), so a damaged set is CORRUPT
// and never gives a wrong answer.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "cuckoo_bloom/core/status.h"

namespace cuckoo_bloom {

// The type id in the header (format.h's ids 32 and above are not filters).
constexpr uint8_t kExpressionSetTypeId = 33;
// "exactset" as a little-endian word: any fixed value other than a filter's seed.
constexpr uint64_t kExpressionSetDefaultSeed = 0x7465737463617865ull;
// 256 hashes per block: an index entry costs 0.5 bit per hash, a lookup decodes at most 255 codes.
constexpr uint8_t kExpressionSetDefaultBlockShift = 8;
constexpr uint8_t kExpressionSetMaxBlockShift = 16;

// The hash of one expression (its bytes) under `seed`.
uint64_t expressionHash(const uint8_t* data, size_t length, uint64_t seed);

// The Rice parameter for n hashes spread over 2^64: about log2 of 0.69 x the mean gap.
uint8_t expressionSetRiceBits(uint64_t distinctCount);

// The companion's bytes for these hashes (any order, repeats stored once).
std::vector<uint8_t> encodeExpressionSet(std::vector<uint64_t> hashes, uint64_t seed, uint64_t blocklistChecksum,
                                         uint8_t blockShift = kExpressionSetDefaultBlockShift);

class ExpressionSet {
 public:
  // Reads and checks the bytes (see above). CORRUPT, WRONG_TYPE (another
  // blob of the package), UNSUPPORTED_VERSION, or OUT_OF_MEMORY (nothing
  // thrown: the tables are allocated with new (std::nothrow), which also
  // keeps std::vector's growth and abort paths out of core.reader.wasm).
  static Result<ExpressionSet> read(const uint8_t* data, size_t length);

  bool containsHash(uint64_t hash) const;
  // Every hash held, ascending (to merge sets, or encode one without a hash).
  std::vector<uint64_t> hashes() const;
  bool contains(const uint8_t* expression, size_t length) const {
    return containsHash(expressionHash(expression, length, seed_));
  }

  uint64_t seed() const { return seed_; }
  uint64_t count() const { return count_; }
  uint64_t blocklistChecksum() const { return blocklistChecksum_; }
  uint8_t riceBits() const { return riceBits_; }
  uint8_t blockShift() const { return blockShift_; }
  // Bits of index and stream per hash: what the companion costs.
  uint64_t payloadBytes() const { return blockCount_ * 16 + streamBytes_; }

 private:
  ExpressionSet() = default;
  // Decodes block `block` and calls visit(value) for each hash in order;
  // stops early when visit returns false. Returns the bit offset after the
  // block's last code, or an error for damaged bits (only at read time).
  template <typename Visit>
  Status decodeBlock(size_t block, uint64_t& endBit, Visit visit) const;

  uint64_t seed_ = 0;
  uint64_t count_ = 0;
  uint64_t blocklistChecksum_ = 0;
  uint64_t streamBits_ = 0;
  uint8_t riceBits_ = 0;
  uint8_t blockShift_ = kExpressionSetDefaultBlockShift;
  size_t blockCount_ = 0;
  size_t streamBytes_ = 0;
  std::unique_ptr<uint64_t[]> firstValues_;
  std::unique_ptr<uint64_t[]> bitOffsets_;
  std::unique_ptr<uint8_t[]> stream_;
};

}  // namespace cuckoo_bloom
