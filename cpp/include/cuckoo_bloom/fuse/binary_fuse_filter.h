// Binary fuse filter (Graf & Lemire, "Binary Fuse Filters: Fast and Smaller
// Than Xor Filters", ACM JEA 2022): a static filter, built once from a set of
// keys and then read-only.
//
// Every key maps to `arity` (3 or 4) slots of an array of f-bit fingerprints,
// one slot in each of `arity` consecutive segments of a power-of-two length L,
// and the filter stores fingerprints such that, for every key of the set,
//   fingerprint(key) = slot[p0] XOR slot[p1] XOR ... XOR slot[p(arity-1)].
// A key outside the set passes only if its f-bit fingerprint equals the XOR
// of `arity` table values it has no relation to: probability 2^-f, so
//   f = ceil(log2(1 / falsePositiveRate)),  clamped to 4..32.
//
// Construction is hypergraph peeling: count how many keys touch each slot,
// repeatedly take a slot touched by exactly one key (that key can be given
// that slot last), remove the key, and finally assign slots in the reverse
// order of removal. Peeling succeeds with high probability when the array
// has about 1.125 n slots (3-wise) or 1.075 n (4-wise) for large n, more for
// small n (the paper's size factors, below); when it fails, the positions are
// re-drawn with another construction seed, at most kMaxAttempts times, and
// the construction seed that worked is stored in the parameter block so the
// bytes are self-contained.
//
// Bits per key = f * arrayLength / n: about 1.13 f (3-wise) or 1.08 f (4-wise)
// at millions of keys, a little more for small sets.
//
// Positions and fingerprint of a key (part of the format, docs/FORMAT.md):
//   w    = mix64(low + constructionSeed)                 (low: the key's XXH3-64)
//   p0   = reduceRange(w, segmentCount * L)             (top 32 bits of w)
//   u    = mix64(w)
//   pj   = (p0 + j L) XOR ((u >> 21 (j - 1)) & (L - 1)),  j = 1 .. arity - 1
//   fp   = (low 32 bits of w) & (2^f - 1)
// p0 picks the first segment and an offset in it; each next position lies in
// the next segment (XOR with an offset below L stays inside the segment), so
// every position is below (segmentCount + arity - 1) L = arrayLength for any
// parameters a reader accepts, and the arity positions are distinct. The
// fingerprint uses the low half of w, which the first position does not; the
// offsets come from a second mix of w.
//
// Duplicate keys: keys with the same 64-bit hash get the same positions and
// fingerprint, so they are stored once. They make peeling fail (two equal
// edges never become singletons), so a failed first attempt sorts the hashes
// and drops duplicates before retrying; the item count is the number of
// distinct hashes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "cuckoo_bloom/core/filter_support.h"
#include "cuckoo_bloom/cuckoo/packed_table.h"

namespace cuckoo_bloom {

struct BinaryFuseFilterOptions {
  double falsePositiveRate = 0.0;  // ignored when fingerprintBits is set
  uint32_t fingerprintBits = 0;    // 4..32; 0 derives it from falsePositiveRate
  uint32_t arity = 0;              // 3 or 4; 0 = the default (kDefaultArity)
  uint64_t seed = 0;               // hash seed (as every filter's)
};

class BinaryFuseFilter : public KeyedFilter<BinaryFuseFilter> {
 public:
  using KeyedFilter::has;
  // Built from its keys (buildFilter in any_filter.h); add is Unsupported.
  static constexpr bool kIsStatic = true;
  // Registry fact (core/type_facts.h): the rate follows from the fingerprint width alone.
  static constexpr EstimateSource kEstimateSource = EstimateSource::FingerprintWidth;
  static constexpr uint32_t kMinFingerprintBits = 4;
  static constexpr uint32_t kMaxFingerprintBits = 32;
  // 3-wise: a lookup reads 3 slots instead of 4, and the build was faster at
  // every size measured (10M keys natively: 160-290 ns/key against 270-420
  // for 4-wise, on a loaded 2-core VM); 4-wise saves ~4.5% of the bits
  // (1.076 f against 1.127 f per key at 10M): choose arity 4 for size.
  static constexpr uint32_t kDefaultArity = 3;
  static constexpr uint32_t kMaxSegmentLength = uint32_t{1} << 18;
  // Attempts with fresh construction seeds before a build reports Full. At the
  // paper's sizes one attempt fails with probability well under 1% for large
  // n (a few % for tiny n), so 100 failures mean something else is wrong.
  static constexpr uint32_t kMaxAttempts = 100;
  // The first position is reduceRange(w, segmentCount * L) on w's top 32 bits
  // and the fingerprint takes w's low bits: that needs segmentCount * L <= 2^32.
  static constexpr uint64_t kMaxFirstRange = uint64_t{1} << 32;

  // The parameter block (docs/FORMAT.md): constructionSeed u64, segmentCount
  // u32, segmentLength u32, fingerprintBits u8, arity u8, reserved u16 = 0.
  struct Params {
    uint64_t constructionSeed = 0;
    uint32_t segmentCount = 0;  // 0: the empty filter (no slots)
    uint32_t segmentLength = 0;
    uint8_t fingerprintBits = 0;
    uint8_t arity = 0;
    CUCKOO_BLOOM_PARAMS_FIELDS(2, constructionSeed, segmentCount, segmentLength, fingerprintBits, arity)
  };

  // Builds the filter of the keys whose hashes (hashKey with options.seed)
  // are given; duplicates are stored once.
  // The options it takes beyond the shared three (filter_options.h; it is
  // sized by its keys, so capacity is ignored).
  static constexpr OptionId kOptions[] = {OptionId::FingerprintBits, OptionId::Arity};
  static Result<BinaryFuseFilter> build(const BinaryFuseFilterOptions& options, const KeyHash* hashes, size_t count);
  static Result<BinaryFuseFilter> buildFrom(const CoreFilterOptions& options, const KeyHash* hashes, size_t count);
  // A static filter is not created empty and filled: Unsupported, saying so.
  static Result<BinaryFuseFilter> createFrom(const CoreFilterOptions& options);
  static Result<BinaryFuseFilter> fromBlob(const DecodedBlob& blob, const Params& params);

  // ceil(log2(1 / rate)), or 0 when that is above 32 (the rate is too small).
  static uint32_t fingerprintBitsFor(double falsePositiveRate);
  // The construction seeds tried in turn: SplitMix64 from
  // mix64(seed XOR kConstructionSeedSalt), so the same keys and options
  // always give the same bytes.
  static constexpr uint64_t kConstructionSeedSalt = 0x243F6A8885A308D3ull;
  static SplitMix64 constructionSeeds(uint64_t seed);
  // The geometry for n distinct keys (segmentCount 0 when n is 0).
  static void sizeFor(uint64_t keyCount, uint32_t arity, uint32_t& segmentLength, uint32_t& segmentCount);

  bool has(const KeyHash& hash) const;

  // Makes this the empty filter (no slots, no key found).
  void clear();

  uint32_t fingerprintBits() const { return params_.fingerprintBits; }
  uint32_t arity() const { return params_.arity; }
  uint32_t segmentLength() const { return params_.segmentLength; }
  uint32_t segmentCount() const { return params_.segmentCount; }
  uint64_t constructionSeed() const { return params_.constructionSeed; }
  uint64_t slotCount() const { return arrayLengthOf(params_); }
  // 2^-f: a non-key matches the XOR of its slots by chance (0 when empty).
  double estimatedFalsePositiveRate() const;
  size_t byteLength() const { return static_cast<size_t>(payloadWordsOf(params_) * 8); }
  const uint64_t* words() const { return table_.data(); }
  // The fingerprint stored in a slot (0 past the end), for inspection.
  uint32_t slotAt(uint64_t slot) const;
  template <typename Visit>
  void parameters(Visit&& visit) const {
    visit("fingerprintBits", fingerprintBits());
    visit("arity", arity());
    visit("segmentLength", segmentLength());
    visit("segmentCount", segmentCount());
    visit("slotCount", static_cast<double>(slotCount()));
  }

  // What the byte format holds (KeyedFilter serializes from it, the parts'
  // payload being the table itself): the header, the parameter block and the
  // payload words.
  template <typename Visit>
  auto visitBlob(Visit&& visit) const {
    return visit(header_, encodeParams(params_), table_.data(), static_cast<size_t>(payloadWordsOf(params_)));
  }

  // The slot count of a geometry: (segmentCount + arity - 1) * segmentLength.
  static uint64_t arrayLengthOf(const Params& params);
  static uint64_t payloadWordsOf(const Params& params);

 private:
  BinaryFuseFilter() = default;
  Params params_;
  // payloadWordsOf(params_) words plus one spare zero word, so a fingerprint
  // read is one unaligned 64-bit window (bit_fields::readWindow).
  WordBuffer table_;
};

}  // namespace cuckoo_bloom
