// The table under the expandable filter: a quotient filter (Bender et al.,
// "Don't thrash", VLDB 2012) of fixed-width values with the three classic
// metadata bits per slot, kept as three bit vectors so a lookup navigates
// 64 slots per word (rank/select over words, as the RSQF does over blocks).
//
// Layout invariant (the one rule every operation keeps and the reader
// checks): the entries, sorted by canonical slot (the "quotient"), sit
// one per slot at pos = max(canonical, previous entry's pos + 1). So
//   occupied[c]     : some entry has canonical slot c (indexed by canonical);
//   continuation[s] : slot s holds an entry of the same run as slot s - 1;
//   shifted[s]      : the entry in slot s is not in its canonical slot.
// A slot is empty exactly when its three bits are 0 (an occupied canonical
// slot that were empty would hold its own run's first entry). A cluster (a
// maximal stretch of used slots) starts at an unshifted slot.
//
// Spill (in memory only, derived from the bits; not in the bytes): spill[b]
// is how many slots from block b's first slot on hold entries whose
// canonical slot is in an earlier block. Entries are in canonical order, so
// those are exactly slots 64b .. 64b + spill[b] - 1, and from 64b + spill[b]
// on every run start (a used slot that does not continue a run) belongs to a
// canonical slot >= 64b, in order. The run of canonical q (block b) is then
// the k-th run start from 64b + spill[b], k = occupied bits of block b up to
// q: a lookup reads q's block (and the next when runs spill past it), never
// the block before, and spill[] (2 bytes a block: 1/256 of the table at
// 12-bit values) mostly stays in cache. Absent keys mostly stop at the
// occupied bit; an unshifted occupied q is its own run's start.
//
// An insert goes at the end of its run (or where its run goes) and moves the
// rest of the cluster one slot right into the empty slot after it; an erase
// moves the shifted entries after it one slot left, following their
// canonical slots through the runs. Either changes spill[b] by one exactly
// for the blocks b with q < 64b <= the last slot moved (an entry of an
// earlier block moves into or out of block b's first slots). A cluster at
// the loads the filter keeps (<= 0.85) is tens of slots.
// Slots past the nominal count are padding for the last clusters to run into;
// when an insert would run past the physical end it reports no room and the
// table is unchanged.
//
// Payload (the bytes, and the words in memory): blocks of 64 slots, each
// 3 + valueBits words: the block's occupied, continuation and shifted words,
// then its 64 values of valueBits bits end to end (exactly valueBits words).
// One block keeps a lookup's metadata and values together: a key's run is
// one or two adjacent cache lines, not four arrays apart.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "cuckoo_bloom/core/fast_bits.h"
#include "cuckoo_bloom/core/status.h"
#include "cuckoo_bloom/core/word_buffer.h"

// The lookup's run-start search: inlined natively, one out-of-line copy in
// wasm (see QuotientTable::shiftedRunStart).
#if defined(__wasm__)
#define CUCKOO_BLOOM_LOOKUP_INLINE __attribute__((noinline))
#else
#define CUCKOO_BLOOM_LOOKUP_INLINE __attribute__((always_inline)) inline
#endif

namespace cuckoo_bloom {

class QuotientTable {
 public:
  static uint64_t blocksFor(uint64_t slots) { return (slots + 63) / 64; }
  static uint64_t payloadWordsFor(uint64_t slots, uint32_t valueBits) { return blocksFor(slots) * (3 + valueBits); }

  // A zeroed (empty) table; false when the memory is not available.
  bool allocate(uint64_t slots, uint32_t valueBits);
  // Empties the table (its size stays).
  void clear();
  // Derives spill[] from the bits: after the words were written directly
  // (read from bytes) and checkLayout() accepted them.
  void rebuildSpill();
  // Whether every spill[b] equals what the bits give (tests: the incremental
  // upkeep by insert, erase and append against a recount).
  bool spillMatchesLayout() const;

  uint64_t slots() const { return slots_; }
  uint32_t valueBits() const { return valueBits_; }
  uint64_t* words() { return words_.data(); }
  const uint64_t* words() const { return words_.data(); }
  size_t payloadWords() const { return words_.size(); }
  // Bytes in memory besides the payload: spill[] (see the top).
  size_t spillBytes() const { return static_cast<size_t>(blocksFor(slots_)) * sizeof(uint16_t); }

  bool occupied(uint64_t s) const { return bit(kOccupied, s); }
  bool continuation(uint64_t s) const { return bit(kContinuation, s); }
  bool shifted(uint64_t s) const { return bit(kShifted, s); }
  bool used(uint64_t s) const { return (usedWord(s >> 6) >> (s & 63)) & 1; }
  uint64_t value(uint64_t s) const { return valueIn(block(s >> 6), static_cast<uint32_t>(s & 63)); }

  // Calls match(value) for each entry of canonical slot q's run until one
  // returns true; false when none does or q has no run. The lookup path: one
  // block's metadata word decides most absent keys; the run's start comes
  // from spill[] and the block's own run starts (see the top), walked with
  // block pointers, a run's length read from its continuation words.
  template <typename Match>
  bool anyInRun(uint64_t q, Match&& match) const {
    const uint64_t b = q >> 6;
    const uint64_t* at = block(b);
    const uint32_t i = static_cast<uint32_t>(q & 63);
    // Ask for q's value word and spill[b] before the occupied bit is known:
    // the run starts at q or a few slots on, so those loads overlap the miss
    // on the metadata instead of following it.
    prefetch(at + 3 + ((i * valueBits_) >> 6));
    const uint32_t spill = spill_.get()[b];
    const uint64_t occupiedWord = at[kOccupied];
    if (((occupiedWord >> i) & 1) == 0) return false;
    if (((at[kShifted] >> i) & 1) == 0) return scanRun(at, q & ~uint64_t{63}, i, match);
    const uint64_t s = shiftedRunStart(q, occupiedWord, spill);
    return scanRun(block(s >> 6), s & ~uint64_t{63}, static_cast<uint32_t>(s & 63), match);
  }
#if CUCKOO_BLOOM_FAST_BITS_DISPATCH || CUCKOO_BLOOM_FAST_BITS_ALWAYS
  // anyInRun with the run-start search in POPCNT and PDEP (core/fast_bits.h),
  // for callers compiled for them. The same steps as anyInRun: code for
  // other instructions is only inlined into functions marked for them, so
  // the whole path carries the mark.
  template <typename Match>
  CUCKOO_BLOOM_FAST_BITS_TARGET bool anyInRunFastBits(uint64_t q, Match&& match) const {
    const uint64_t b = q >> 6;
    const uint64_t* at = block(b);
    const uint32_t i = static_cast<uint32_t>(q & 63);
    prefetch(at + 3 + ((i * valueBits_) >> 6));
    const uint32_t spill = spill_.get()[b];
    const uint64_t occupiedWord = at[kOccupied];
    if (((occupiedWord >> i) & 1) == 0) return false;
    // No branch on the shifted bit (unpredictable: about a third of the
    // occupied slots are not shifted): the search finds an unshifted q as
    // its own run's start too, since the runs from the spill on up to q's
    // are exactly those of the block's occupied slots up to q. With PDEP the
    // search costs less than the mispredicted branch it replaces (measured:
    // 8-10% of a lookup at 1M keys).
    const uint64_t s = runStartFastBits(q, occupiedWord, spill);
    return scanRun(block(s >> 6), s & ~uint64_t{63}, static_cast<uint32_t>(s & 63), match);
  }
#endif
  // The first slot of canonical q's run (q must be occupied).
  uint64_t runStart(uint64_t q) const;

  // Adds an entry to q's run. False (and no change) when the cluster would
  // run past the physical end.
  bool insert(uint64_t canonical, uint64_t value);
  // Removes one entry of q's run equal to value; false (no change) when none.
  bool erase(uint64_t canonical, uint64_t value);

  // Building in canonical order (a fresh table, entries by non-decreasing
  // canonical): false when the entry would fall past the physical end.
  bool append(uint64_t canonical, uint64_t value);

  // Every run in canonical order: fn(canonical, values, count).
  template <typename Fn>
  void forEachRun(Fn&& fn) const {
    std::vector<uint64_t> run;
    uint64_t canonical = 0;
    bool first = true;
    for (uint64_t s = 0; s < slots_; ++s) {
      if (!used(s)) continue;
      if (!continuation(s)) {
        if (!run.empty()) fn(canonical, run.data(), run.size());
        run.clear();
        canonical = nextOccupied(first ? 0 : canonical + 1);
        first = false;
      }
      run.push_back(value(s));
    }
    if (!run.empty()) fn(canonical, run.data(), run.size());
  }

  // The reader's check of the layout invariant (and that no bit lies beyond
  // the table or in an empty slot), calling entry(canonical, value) -> Status
  // for each entry in order. Occupied bits must lie below `nominalSlots`.
  template <typename EntryCheck>
  Status checkLayout(uint64_t nominalSlots, EntryCheck&& entry) const;
  // Messages before + n + after (+ m + last), and Corrupt with one: built out
  // of line, once, instead of inline at every check and error of the table
  // and the filter (the wasm module's size).
  static std::string withNumbers(const char* before, uint64_t n, const char* after);
  static std::string withNumbers(const char* before, uint64_t n, const char* between, uint64_t m, const char* after);
  static Status corruptAt(const char* before, uint64_t n, const char* after);
  static Status corruptAt(const char* before, uint64_t n, const char* between, uint64_t m, const char* after);

 private:
  // The three metadata words of a block, in this order.
  static constexpr size_t kOccupied = 0, kContinuation = 1, kShifted = 2;
  // spill[] saturates here; a block at it is recounted from the bits when an
  // insert or erase changes it (a cluster that long is not seen at the loads
  // kept, but a table read from bytes may hold one).
  static constexpr uint16_t kSpillMax = UINT16_MAX;
  uint64_t meta(size_t kind, uint64_t block) const { return words_[static_cast<size_t>(block * blockWords_) + kind]; }
  uint64_t usedWord(uint64_t block) const {
    const uint64_t* at = words_.data() + block * blockWords_;
    return at[kOccupied] | at[kContinuation] | at[kShifted];
  }
  const uint64_t* block(uint64_t b) const { return words_.data() + b * blockWords_; }
  // The value of slot i of the block at `at`.
  uint64_t valueIn(const uint64_t* at, uint32_t i) const {
    const uint32_t bitIndex = i * valueBits_;
#if defined(__SIZEOF_INT128__) && !defined(__wasm__)
    // Without a branch on whether the value crosses a word (about a quarter
    // of them do at 12 bits, unpredictably): the word holding its last bit
    // and the one before it, shifted as one 128-bit number. The word before
    // is inside the block even for the first values: the shifted word.
    const uint32_t lastWord = (bitIndex + valueBits_ - 1) >> 6;
    const uint64_t* high = at + 3 + lastWord;
    __extension__ typedef unsigned __int128 Pair;  // __extension__: GCC and Clang's, without a -Wpedantic warning
    const Pair pair = (static_cast<Pair>(high[0]) << 64) | high[-1];
    return static_cast<uint64_t>(pair >> (bitIndex + 64 - lastWord * 64)) & valueMask_;
#else
    const uint64_t* word = at + 3 + (bitIndex >> 6);
    const uint32_t offset = bitIndex & 63;
    uint64_t v = word[0] >> offset;
    if (offset + valueBits_ > 64) v |= word[1] << (64 - offset);
    return v & valueMask_;
#endif
  }
  static void prefetch(const uint64_t* word) {
#if defined(__GNUC__) && !defined(__wasm__)
    __builtin_prefetch(word);
#else
    static_cast<void>(word);  // wasm has no prefetch
#endif
  }
  // The first slot of occupied, shifted canonical q's run (its block's
  // occupied word and spill): the k-th run start from the block's spill on,
  // k = occupied bits of the block up to q (see the top). Inlined natively
  // (measured: 5-8% of a lookup as a call); one copy in wasm, where the
  // module's size counts and the JS call dominates a lookup.
  CUCKOO_BLOOM_LOOKUP_INLINE uint64_t shiftedRunStart(uint64_t q, uint64_t occupiedWord, uint32_t spill) const {
    if (spill == kSpillMax) return runStartOfRank(q, 0);  // saturated: recount from the cluster's start
    const uint32_t i = static_cast<uint32_t>(q & 63);
    uint32_t k = popcount64(occupiedWord & (i == 63 ? ~uint64_t{0} : (uint64_t{2} << i) - 1));
    const uint64_t from = (q & ~uint64_t{63}) + spill;
    // The k-th run start (a used slot that does not continue a run) from `from`.
    uint64_t b = from >> 6;
    const uint64_t* at = block(b);
    uint64_t bits = ((at[kOccupied] | at[kShifted]) & ~at[kContinuation]) & (~uint64_t{0} << (from & 63));
    uint64_t upTo = cumulativeByteCounts(bits);
    while (k > (upTo >> 56)) {  // the total is the top byte's count
      k -= static_cast<uint32_t>(upTo >> 56);
      ++b;
      at += blockWords_;
      bits = (at[kOccupied] | at[kShifted]) & ~at[kContinuation];
      upTo = cumulativeByteCounts(bits);
    }
    return b * 64 + selectInWord(bits, upTo, k);
  }
#if CUCKOO_BLOOM_FAST_BITS_DISPATCH || CUCKOO_BLOOM_FAST_BITS_ALWAYS
  // The first slot of occupied q's run (shifted or not): shiftedRunStart
  // with one instruction for each count and two for the select (measured:
  // the broadword search was a third of a lookup at 1M keys, natively).
  CUCKOO_BLOOM_FAST_BITS_TARGET uint64_t runStartFastBits(uint64_t q, uint64_t occupiedWord, uint32_t spill) const {
    if (spill == kSpillMax) return runStartOfRank(q, 0);
    const uint32_t i = static_cast<uint32_t>(q & 63);
    uint32_t k = fastPopcount(occupiedWord & (i == 63 ? ~uint64_t{0} : (uint64_t{2} << i) - 1));
    const uint64_t from = (q & ~uint64_t{63}) + spill;
    uint64_t b = from >> 6;
    const uint64_t* at = block(b);
    uint64_t bits = ((at[kOccupied] | at[kShifted]) & ~at[kContinuation]) & (~uint64_t{0} << (from & 63));
    uint32_t count = fastPopcount(bits);
    while (k > count) {
      k -= count;
      ++b;
      at += blockWords_;
      bits = (at[kOccupied] | at[kShifted]) & ~at[kContinuation];
      count = fastPopcount(bits);
    }
    return b * 64 + fastSelect(bits, k);
  }
#endif
  // Without the popcnt instruction (x86-64's baseline) __builtin_popcountll
  // is a call into libgcc; the broadword count inline is cheaper on the
  // lookup path. wasm and arm64 have the instruction.
  static uint32_t popcount64(uint64_t x) {
#if defined(__POPCNT__) || defined(__wasm__) || defined(__aarch64__)
    return static_cast<uint32_t>(__builtin_popcountll(x));
#else
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return static_cast<uint32_t>((x * 0x0101010101010101ULL) >> 56);
#endif
  }
  static constexpr uint64_t kOnes8 = 0x0101010101010101ULL, kHigh8 = 0x8080808080808080ULL;
  // Byte j of the result: the set bits of x in its bytes 0..j.
  static uint64_t cumulativeByteCounts(uint64_t x) {
    uint64_t counts = x - ((x >> 1) & 0x5555555555555555ULL);
    counts = (counts & 0x3333333333333333ULL) + ((counts >> 2) & 0x3333333333333333ULL);
    counts = (counts + (counts >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return counts * kOnes8;
  }
  // How many bytes of `upTo` (each at most 64) are at most r: when they grow
  // byte by byte, the index of the first above r.
  static uint32_t bytesAtMost(uint64_t upTo, uint64_t r) {
    const uint64_t past = (((r * kOnes8) | kHigh8) - upTo) & kHigh8;  // high bit: byte <= r
    return static_cast<uint32_t>(((past >> 7) * kOnes8) >> 56);
  }
  // The position of the r-th (from 0) set bit of `byte`, which has more than
  // r: the byte's bits spread one to a byte (bit j to byte j), counted
  // cumulatively. Byte j of the product holds bit j of `byte` at bit j;
  // adding 0x80 - 2^j carries it into the byte's high bit.
  static uint32_t selectInByte(uint64_t byte, uint64_t r) {
    const uint64_t spread = ((((byte * kOnes8) & 0x8040201008040201ULL) + 0x00406070787C7E7FULL) >> 7) & kOnes8;
    return bytesAtMost(spread * kOnes8, r);
  }
  // The position of the k-th (k >= 1) set bit of x, which has at least k
  // (upTo: cumulativeByteCounts(x)). Broadword (Vigna, "Broadword
  // implementation of rank/select queries", 2008): the byte by a parallel
  // compare of the cumulative counts, then the bit in it the same way; no
  // branch on k, which is up to the block's run count.
  static uint32_t selectInWord(uint64_t x, uint64_t upTo, uint32_t k) {
    const uint64_t rank = k - 1;
    const uint32_t place = bytesAtMost(upTo, rank) * 8;
    const uint64_t before = ((upTo << 8) >> place) & 0xFF;  // set bits below byte place / 8
    return place + selectInByte((x >> place) & 0xFF, rank - before);
  }
  // spill[b] recounted from the bits (b >= 1), uncapped.
  uint64_t spillFromLayout(uint64_t b) const;
  // spill[b] += delta (+1 or -1) for the blocks b with q < 64b <= last.
  void adjustSpill(uint64_t q, uint64_t last, int delta);
  // The run from slot i of the block at `at` (whose first slot is `base`) on.
  template <typename Match>
  bool scanRun(const uint64_t* at, uint64_t base, uint32_t i, Match&& match) const {
    for (;;) {
      if (match(valueIn(at, i))) return true;
      if (i == 63) {
        base += 64;
        if (base >= slots_) return false;
        at += blockWords_;
        i = 0;
      } else {
        ++i;
      }
      if (((at[kContinuation] >> i) & 1) == 0) return false;
    }
  }
  bool bit(size_t kind, uint64_t s) const { return (meta(kind, s >> 6) >> (s & 63)) & 1; }
  void setBit(size_t kind, uint64_t s, bool on) {
    uint64_t& word = words_[static_cast<size_t>((s >> 6) * blockWords_) + kind];
    const uint64_t mask = uint64_t{1} << (s & 63);
    word = on ? (word | mask) : (word & ~mask);
  }
  void setValue(uint64_t s, uint64_t v);
  // The first occupied canonical slot >= from, or slots_ when none.
  uint64_t nextOccupied(uint64_t from) const;
  // The highest unshifted slot <= q (slot 0 is never shifted).
  uint64_t clusterStart(uint64_t q) const;
  // The start of the run `back` runs before canonical q's in q's cluster
  // (q occupied; back 0: q's own).
  uint64_t runStartOfRank(uint64_t q, uint64_t back) const;
  // The last slot of the run starting at `start`.
  uint64_t runEnd(uint64_t start) const;
  // The first empty slot >= from, or slots_ when none.
  uint64_t firstUnused(uint64_t from) const;
  void clearSlot(uint64_t s);

  WordBuffer words_;
  MallocBlock<uint16_t> spill_;  // one per block (see the top)
  uint64_t slots_ = 0;
  uint32_t valueBits_ = 0;
  uint64_t valueMask_ = 0;
  uint64_t blockWords_ = 0;  // 3 + valueBits
  // append()'s cursor: the next free slot and the last canonical written.
  uint64_t appendCursor_ = 0;
  uint64_t appendLast_ = UINT64_MAX;
};

template <typename EntryCheck>
Status QuotientTable::checkLayout(uint64_t nominalSlots, EntryCheck&& entry) const {
  if (slots_ % 64 != 0) {
    // The last block's slots past the table: no metadata bit, no value bit.
    const uint64_t last = blocksFor(slots_) - 1;
    const uint64_t beyond = ~uint64_t{0} << (slots_ % 64);
    if ((usedWord(last) & beyond) != 0) return Status::corrupt("expandable: metadata bits beyond the last slot are set");
    const uint64_t firstBit = (slots_ % 64) * valueBits_;
    const uint64_t* values = words_.data() + last * blockWords_ + 3;
    for (uint64_t w = firstBit / 64; w < valueBits_; ++w) {
      const uint64_t mask = w == firstBit / 64 ? ~uint64_t{0} << (firstBit % 64) : ~uint64_t{0};
      if ((values[w] & mask) != 0) return Status::corrupt("expandable: value bits beyond the last slot are set");
    }
  }
  uint64_t canonical = 0;
  bool first = true;
  for (uint64_t s = 0; s < slots_; ++s) {
    const bool previousUsed = s > 0 && used(s - 1);
    if (!used(s)) {
      if (value(s) != 0) return corruptAt("expandable: empty slot ", s, " holds a value");
      continue;
    }
    if (!continuation(s)) {
      canonical = nextOccupied(first ? 0 : canonical + 1);
      first = false;
      if (canonical >= slots_) return corruptAt("expandable: slot ", s, " starts a run no occupied bit names");
    } else if (!previousUsed) {
      return corruptAt("expandable: slot ", s, " continues a run after an empty slot");
    }
    if (canonical >= nominalSlots) return corruptAt("expandable: canonical slot ", canonical, " is past the table");
    // pos = max(canonical, previous pos + 1): after an empty slot an entry sits
    // at its canonical slot; after a used one at or beyond it.
    if (canonical > s || (!previousUsed && canonical != s)) {
      return corruptAt("expandable: the entry in slot ", s, " (canonical ", canonical, ") is not where the layout puts it");
    }
    if (shifted(s) != (canonical != s)) return corruptAt("expandable: wrong shifted bit at slot ", s, "");
    Status valid = entry(canonical, value(s));
    if (!valid.isOk()) return valid;
  }
  if (nextOccupied(first ? 0 : canonical + 1) < slots_) return Status::corrupt("expandable: an occupied bit names a run that is not there");
  return Status::ok();
}

}  // namespace cuckoo_bloom
