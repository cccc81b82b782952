// Ribbon filter (Dillinger & Walzer, "Ribbon filter: practically smaller than
// Bloom and Xor", 2021; standard Ribbon with 128-bit coefficient rows, as
// RocksDB's Standard128Ribbon): a static filter, built once from a set of keys
// and then read-only, whose size follows the requested rate at a fraction of
// a bit, not a whole number of fingerprint bits.
//
// The filter is the solution S of a linear system over GF(2): m slots
// (m = 64 * blockCount), each holding r bits. A key gives a start s in
// [0, m - 127], a 128-bit coefficient row c (bit 0 always 1) and an r-bit
// fingerprint; for every key of the set
//   fingerprint(key) = XOR over k with bit k of c set of S[s + k]
// column by column. A key outside the set matches only if its fingerprint,
// drawn independently of s and c, equals that XOR: probability 2^-r.
//
// Construction ("banding on the fly", the paper's section 3): keys are added
// one at a time into a banded matrix with one row per slot. A key's row c,
// placed at s, goes into slot s if it is empty; otherwise the row already
// there is XORed out of it (and its fingerprint out of the key's), the row
// shifts to its next set bit, and so on: Gaussian elimination, one key at a
// time, never touching more than 128 slots. A row that cancels to 0 is either
// implied by the others (its fingerprint also cancelled: a repeated key, kept
// without a slot) or contradicts them: the build fails, and is retried with
// another construction seed. Back-substitution from the last slot down then
// fixes each slot's bits from the 127 after it.
//
// Why 128-bit rows, not 64: the band must leave room for the keys' local
// crowding, which grows with n. Measured over 64-bit rows at 1M keys, one
// attempt succeeded half the time only at 1.09 slots per key (7.3 bits per
// key at a 1% rate, over the 7.2 asked); 128-bit rows need 1.035 there.
//
// Space: slotsPerKey(n) slots per key (1.02 to ~1.05) and r bits each. A rate
// between 2^-L and 2^-(L+1) mixes the two widths (RocksDB's
// InterleavedSolutionStorage): the first blocks hold L columns, the blocks
// from upperStartBlock on hold L + 1, so the rate is the average of 2^-L and
// 2^-(L+1) weighted by the starts in each, and bits per key track
// log2(1 / rate) continuously instead of jumping at each whole bit.
//
// Storage is interleaved column-major: block b (slots 64 b .. 64 b + 63) is
// `columns(b)` words, word j holding bit j of the 64 slots' solutions. A
// lookup reads, per column, the block of its start and the next two (shifted
// together into the 128 slots from s), ANDs with c and takes the parity. A
// later block never has fewer columns, so every column a key uses exists in
// every block it reads.
//
// Derivation of a key's row (part of the format, docs/FORMAT.md):
//   h     = mix64(low + constructionSeed)              (low: the key's XXH3-64)
//   s     = reduceRange(h, 64 blockCount - 127)       (top 32 bits of h)
//   c     = mix64(h XOR kCoefficientSalt) | 1  (slots s .. s + 63)
//           + mix64(h XOR kHighCoefficientSalt) << 64  (slots s + 64 .. s + 127)
//   fp    = low 32 bits of h, its low columns(s / 64) bits used
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "cuckoo_bloom/core/filter_support.h"

namespace cuckoo_bloom {

struct RibbonFilterOptions {
  double falsePositiveRate = 0.0;  // in [2^-32, 1)
  uint64_t seed = 0;               // hash seed (as every filter's)
};

class RibbonFilter : public KeyedFilter<RibbonFilter> {
 public:
  using KeyedFilter::has;
  // Built from its keys (buildFilter in any_filter.h); add is Unsupported.
  static constexpr bool kIsStatic = true;
  // Registry fact (core/type_facts.h): the rate follows from the column widths alone.
  static constexpr EstimateSource kEstimateSource = EstimateSource::FingerprintWidth;
  static constexpr uint32_t kMaxColumns = 32;
  // Slots per key, before the band's end and rounding to whole blocks, is
  // slotsPerKey(n): at least this.
  static constexpr double kMinSlotsPerKey = 1.02;
  // Construction attempts before a build reports Full; every few failures at
  // one size the table grows by a block or 1/64 (see build), so small sets,
  // where the band's end is a large share of the slots, are still built.
  static constexpr uint32_t kMaxAttempts = 64;
  static constexpr uint32_t kAttemptsPerSize = 4;
  static constexpr uint64_t kCoefficientSalt = 0xA0761D6478BD642Full;
  static constexpr uint64_t kHighCoefficientSalt = 0xE7037ED1A0B428DBull;
  static constexpr uint64_t kConstructionSeedSalt = 0x452821E638D01377ull;
  // Starts are reduceRange(h, starts) on h's top 32 bits while the
  // fingerprint takes its low 32 bits: starts <= 2^32 keeps them apart.
  static constexpr uint64_t kMaxBlocks = (uint64_t{1} << 32) / 64 + 1;

  // The parameter block (docs/FORMAT.md): constructionSeed u64, blockCount
  // u32, upperStartBlock u32, lowerColumns u8, reserved 3 bytes = 0.
  struct Params {
    uint64_t constructionSeed = 0;
    uint32_t blockCount = 0;       // 0: the empty filter (no slots)
    uint32_t upperStartBlock = 0;  // blocks from here on hold lowerColumns + 1 columns
    uint8_t lowerColumns = 0;
    CUCKOO_BLOOM_PARAMS_FIELDS(3, constructionSeed, blockCount, upperStartBlock, lowerColumns)
  };

  // Sized by its keys: no option beyond the rate and the seed (kOptions left out).
  static Result<RibbonFilter> build(const RibbonFilterOptions& options, const KeyHash* hashes, size_t count);
  static Result<RibbonFilter> buildFrom(const CoreFilterOptions& options, const KeyHash* hashes, size_t count);
  // A static filter is not created empty and filled: Unsupported, saying so.
  static Result<RibbonFilter> createFrom(const CoreFilterOptions& options);
  static Result<RibbonFilter> fromBlob(const DecodedBlob& blob, const Params& params);

  // The construction seeds tried in turn: SplitMix64 from
  // mix64(seed XOR kConstructionSeedSalt): the same keys and options always
  // give the same bytes.
  static SplitMix64 constructionSeeds(uint64_t seed);
  // Slots per key for n keys, before the band's end (see the .cpp for the measurements).
  static double slotsPerKey(uint64_t keyCount);
  // Blocks for n keys (0 when n is 0; at least 2).
  static uint32_t blocksFor(uint64_t keyCount);
  // floor(log2(1 / rate)) clamped to 1..32 (0 when the rate is below 2^-32).
  static uint32_t lowerColumnsFor(double falsePositiveRate);
  // The first block of lowerColumns + 1 columns: as many blocks as possible
  // keep lowerColumns while the rate over all starts stays <= the target.
  static uint32_t upperStartBlockFor(uint32_t blockCount, uint32_t lowerColumns, double falsePositiveRate);
  // The rate of a geometry: 2^-columns averaged over the starts (0 when empty).
  static double rateOf(const Params& params);

  bool has(const KeyHash& hash) const;

  // Makes this the empty filter (no slots, no key found).
  void clear();

  uint32_t blockCount() const { return params_.blockCount; }
  uint32_t lowerColumns() const { return params_.lowerColumns; }
  uint32_t upperStartBlock() const { return params_.upperStartBlock; }
  uint64_t constructionSeed() const { return params_.constructionSeed; }
  uint64_t slotCount() const { return uint64_t{params_.blockCount} * 64; }
  double estimatedFalsePositiveRate() const { return rateOf(params_); }
  size_t byteLength() const { return static_cast<size_t>(payloadWordsOf(params_) * 8); }
  const uint64_t* words() const { return table_.data(); }
  template <typename Visit>
  void parameters(Visit&& visit) const {
    visit("lowerColumns", lowerColumns());
    visit("upperStartBlock", upperStartBlock());
    // No "blockCount": that name is the blocked Bloom filter's 512-bit blocks
    // in `info`; the 64-slot blocks are slotCount / 64.
    visit("slotCount", static_cast<double>(slotCount()));
  }

  // What the byte format holds (KeyedFilter serializes from it, the parts'
  // payload being the table itself): the header, the parameter block and the
  // payload words.
  template <typename Visit>
  auto visitBlob(Visit&& visit) const {
    return visit(header_, encodeParams(params_), table_.data(), static_cast<size_t>(payloadWordsOf(params_)));
  }

  // Words of the solution: lowerColumns per block before upperStartBlock, one more from it on.
  static uint64_t payloadWordsOf(const Params& params);

 private:
  RibbonFilter() = default;
  Params params_;
  // payloadWordsOf(params_) words plus lowerColumns + 1 spare zero words: a
  // lookup starting at the last start (the first slot of the next-to-last
  // block) reads a third block too (shifted out entirely), so no lookup
  // branches on the end.
  WordBuffer table_;
};

}  // namespace cuckoo_bloom
