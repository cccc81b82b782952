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
// A part (header flag bit 0; docs/FORMAT.md "Parts"): the same layout over a
// contiguous range [rangeFirst, rangeLast] of the hash space, its parameters
// 40 bytes (the 24 above, then rangeFirst u64, rangeLast u64), every hash in
// the range and riceBits taken from the range's own width and count, so the
// parts of a split cost about what the whole set does. A set with flags 0 is
// the whole set (range [0, 2^64 - 1]); its bytes are what they always were.
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

// The Rice parameter for n hashes spread over a range of `rangeWidth` + 1
// values (the whole 2^64 by default): about log2 of 0.69 x the mean gap.
uint8_t expressionSetRiceBits(uint64_t distinctCount, uint64_t rangeWidth = ~uint64_t{0});

// Header flag of a part (a set over a range of the hash space, 40 parameter bytes).
constexpr uint32_t kExpressionSetPartFlag = 1;
// A split (docs/FORMAT.md, type 34): 512 hashes a part, two blocks of 256, about 3.2 KB at
// 100k expressions (6.2 bytes a hash; at most 7.2 at the smallest lists): a part stays under
// 4 KB, and its own 104 bytes of header, parameters and checksum plus its 16-byte entry in
// the index add about 3.7% to the whole set.
constexpr uint32_t kExpressionSetDefaultPartHashes = 512;

// The companion's bytes for these hashes (any order, repeats stored once).
std::vector<uint8_t> encodeExpressionSet(std::vector<uint64_t> hashes, uint64_t seed, uint64_t blocklistChecksum,
                                         uint8_t blockShift = kExpressionSetDefaultBlockShift);

// The companion split by hash prefix (docs/FORMAT.md, type 34): an index
// and parts, each part a set over its range (see above).
struct ExpressionSetParts {
  std::vector<uint8_t> index;
  std::vector<std::vector<uint8_t>> parts;
};
// Splits the hashes into parts of about `partHashes` hashes, each range
// starting at a 32-bit prefix (the index stores the prefix), and encodes each
// part and the index, all bound to `blocklistChecksum`.
ExpressionSetParts encodeExpressionSetParts(std::vector<uint64_t> hashes, uint64_t seed, uint64_t blocklistChecksum,
                                            uint32_t partHashes = kExpressionSetDefaultPartHashes);

// The part's bytes for these hashes over [rangeFirst, rangeLast] (all within it).
std::vector<uint8_t> encodeExpressionSetPart(std::vector<uint64_t> hashes, uint64_t seed, uint64_t blocklistChecksum,
                                             uint64_t rangeFirst, uint64_t rangeLast);

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
  // The range of the hash space it covers: [0, 2^64 - 1] unless it is a part.
  bool isPart() const { return isPart_; }
  uint64_t rangeFirst() const { return rangeFirst_; }
  uint64_t rangeLast() const { return rangeLast_; }
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
  bool isPart_ = false;
  uint64_t rangeFirst_ = 0;
  uint64_t rangeLast_ = ~uint64_t{0};
  size_t blockCount_ = 0;
  size_t streamBytes_ = 0;
  std::unique_ptr<uint64_t[]> firstValues_;
  std::unique_ptr<uint64_t[]> bitOffsets_;
  std::unique_ptr<uint8_t[]> stream_;
};

// The index of a split companion (type 34; docs/FORMAT.md): which part holds
// which range of hashes, each part's size and trailing checksum, the total
// count, the hash seed and the blocklist it confirms. A part is only taken
// when it is exactly the part the index names (checkPart).
class ExpressionSetIndex {
 public:
  // CORRUPT, WRONG_TYPE, UNSUPPORTED_VERSION, OUT_OF_MEMORY, as ExpressionSet::read.
  static Result<ExpressionSetIndex> read(const uint8_t* data, size_t length);

  uint64_t seed() const { return seed_; }
  uint64_t count() const { return count_; }
  uint64_t blocklistChecksum() const { return blocklistChecksum_; }
  uint32_t partCount() const { return partCount_; }
  // The part whose range holds this hash (an expression's, under seed()).
  uint32_t partOfHash(uint64_t hash) const;
  uint32_t partOf(const uint8_t* expression, size_t length) const {
    return partOfHash(expressionHash(expression, length, seed_));
  }
  uint64_t partFirst(uint32_t part) const { return uint64_t{prefixes_[part]} << 32; }
  uint64_t partLast(uint32_t part) const {
    return part + 1 < partCount_ ? (uint64_t{prefixes_[part + 1]} << 32) - 1 : ~uint64_t{0};
  }
  uint32_t partBytes(uint32_t part) const { return sizes_[part]; }
  uint64_t partChecksum(uint32_t part) const { return checksums_[part]; }
  // Whether these bytes are part `part` of this split: its size and trailing
  // checksum as the index records them, then a valid part (ExpressionSet::read)
  // over exactly its range, with this index's seed and blocklist checksum.
  // CORRUPT for damaged bytes or another part's (named), INVALID_ARGUMENT for a
  // part number out of range, WRONG_TYPE / UNSUPPORTED_VERSION as read.
  Result<ExpressionSet> checkPart(uint32_t part, const uint8_t* data, size_t length) const;

 private:
  ExpressionSetIndex() = default;
  uint64_t seed_ = 0;
  uint64_t count_ = 0;
  uint64_t blocklistChecksum_ = 0;
  uint32_t partCount_ = 0;
  std::unique_ptr<uint32_t[]> prefixes_;
  std::unique_ptr<uint32_t[]> sizes_;
  std::unique_ptr<uint64_t[]> checksums_;
};

// The type id of a split's index.
constexpr uint8_t kExpressionSetIndexTypeId = 34;

}  // namespace cuckoo_bloom
