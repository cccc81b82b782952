#include "cuckoo_bloom/expandable/quotient_table.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string>

namespace cuckoo_bloom {
namespace {

uint32_t lowestBit(uint64_t x) { return static_cast<uint32_t>(__builtin_ctzll(x)); }
uint32_t highestBit(uint64_t x) { return 63u - static_cast<uint32_t>(__builtin_clzll(x)); }

}  // namespace

std::string QuotientTable::withNumbers(const char* before, uint64_t n, const char* after) {
  return before + std::to_string(n) + after;
}

std::string QuotientTable::withNumbers(const char* before, uint64_t n, const char* between, uint64_t m, const char* after) {
  return before + std::to_string(n) + between + std::to_string(m) + after;
}

Status QuotientTable::corruptAt(const char* before, uint64_t n, const char* after) {
  return Status::corrupt(withNumbers(before, n, after));
}

Status QuotientTable::corruptAt(const char* before, uint64_t n, const char* between, uint64_t m, const char* after) {
  return Status::corrupt(withNumbers(before, n, between, m, after));
}

bool QuotientTable::allocate(uint64_t slots, uint32_t valueBits) {
  if (!words_.allocate(static_cast<size_t>(payloadWordsFor(slots, valueBits)))) return false;
  spill_.reset(static_cast<uint16_t*>(std::calloc(std::max<size_t>(1, static_cast<size_t>(blocksFor(slots))), sizeof(uint16_t))));
  if (spill_ == nullptr) {
    words_ = WordBuffer();
    return false;
  }
  slots_ = slots;
  valueBits_ = valueBits;
  valueMask_ = valueBits >= 64 ? ~uint64_t{0} : (uint64_t{1} << valueBits) - 1;
  blockWords_ = 3 + uint64_t{valueBits};
  appendCursor_ = 0;
  appendLast_ = UINT64_MAX;
  return true;
}

void QuotientTable::clear() {
  words_.clear();
  if (spill_ != nullptr) std::memset(spill_.get(), 0, static_cast<size_t>(blocksFor(slots_)) * sizeof(uint16_t));
}

uint64_t QuotientTable::spillFromLayout(uint64_t b) const {
  const uint64_t first = b * 64;
  // An empty or unshifted first slot holds no entry of an earlier block.
  if (first >= slots_ || !shifted(first)) return 0;
  // The last run of an earlier canonical slot ends where the spill does:
  // runs are in canonical order.
  uint64_t c = first - 1;
  uint64_t bits = meta(kOccupied, c >> 6) & ((uint64_t{2} << (c & 63)) - 1);
  uint64_t w = c >> 6;
  while (bits == 0) bits = meta(kOccupied, --w);  // a shifted slot proves an earlier run
  c = w * 64 + highestBit(bits);
  return runEnd(runStart(c)) + 1 - first;
}

void QuotientTable::adjustSpill(uint64_t q, uint64_t last, int delta) {
  uint16_t* spill = spill_.get();
  for (uint64_t b = (q >> 6) + 1; b <= (last >> 6); ++b) {
    if (spill[b] == kSpillMax) {
      // Saturated: "at least kSpillMax". One more stays so; one less needs
      // the true count, recounted from the bits (already updated).
      if (delta < 0) spill[b] = static_cast<uint16_t>(std::min<uint64_t>(kSpillMax, spillFromLayout(b)));
    } else {
      spill[b] = static_cast<uint16_t>(spill[b] + delta);
    }
  }
}

void QuotientTable::rebuildSpill() {
  // The entries of canonical slots before block b end at the last one's
  // slot: spill[b] = max(0, that slot + 1 - 64b). One pass in slot order,
  // settling each block when the first entry of a later block comes.
  const uint64_t blocks = blocksFor(slots_);
  uint16_t* spill = spill_.get();
  uint64_t settled = 0;     // spill[0 .. settled) are set
  uint64_t lastSlot = 0;    // slot after the last entry seen, 0 when none
  uint64_t canonical = 0;
  bool first = true;
  const auto settleThrough = [&](uint64_t block) {  // blocks [settled, block]
    for (; settled <= block && settled < blocks; ++settled) {
      const uint64_t start = settled * 64;
      spill[settled] = static_cast<uint16_t>(lastSlot > start ? std::min<uint64_t>(kSpillMax, lastSlot - start) : 0);
    }
  };
  for (uint64_t s = 0; s < slots_; ++s) {
    if (!used(s)) continue;
    if (!continuation(s)) {
      canonical = nextOccupied(first ? 0 : canonical + 1);
      first = false;
      settleThrough(canonical >> 6);  // blocks up to canonical's: every earlier entry is before them
    }
    lastSlot = s + 1;
  }
  settleThrough(blocks);
}

bool QuotientTable::spillMatchesLayout() const {
  for (uint64_t b = 1; b < blocksFor(slots_); ++b) {
    if (spill_.get()[b] != std::min<uint64_t>(kSpillMax, spillFromLayout(b))) return false;
  }
  return spill_.get()[0] == 0;
}

void QuotientTable::setValue(uint64_t s, uint64_t v) {
  const uint64_t bitIndex = (s & 63) * valueBits_;
  uint64_t* at = words_.data() + (s >> 6) * blockWords_ + 3 + (bitIndex >> 6);
  const uint32_t offset = static_cast<uint32_t>(bitIndex & 63);
  at[0] = (at[0] & ~(valueMask_ << offset)) | (v << offset);
  if (offset + valueBits_ > 64) {
    const uint32_t spill = 64 - offset;
    at[1] = (at[1] & ~(valueMask_ >> spill)) | (v >> spill);
  }
}

uint64_t QuotientTable::nextOccupied(uint64_t from) const {
  if (from >= slots_) return slots_;
  uint64_t w = from >> 6;
  uint64_t bits = meta(kOccupied, w) & (~uint64_t{0} << (from & 63));
  const uint64_t blocks = blocksFor(slots_);
  while (bits == 0) {
    if (++w >= blocks) return slots_;
    bits = meta(kOccupied, w);
  }
  return w * 64 + lowestBit(bits);
}

uint64_t QuotientTable::clusterStart(uint64_t q) const {
  uint64_t w = q >> 6;
  const uint32_t top = static_cast<uint32_t>(q & 63);
  const uint64_t* at = block(w);
  uint64_t bits = ~at[kShifted] & (top == 63 ? ~uint64_t{0} : (uint64_t{2} << top) - 1);
  while (bits == 0) {  // slot 0 is never shifted
    at -= blockWords_;
    --w;
    bits = ~at[kShifted];
  }
  return w * 64 + highestBit(bits);
}

uint64_t QuotientTable::runStart(uint64_t q) const {
  // An occupied slot that holds an unshifted entry holds its own run's start.
  if (!shifted(q)) return q;
  return runStartOfRank(q, 0);
}

uint64_t QuotientTable::runStartOfRank(uint64_t q, uint64_t back) const {
  const uint64_t start = clusterStart(q);
  // Runs to count from the cluster's start: its occupied canonical slots up to
  // q (on the lookup path: mostly one word, q's, sometimes the one before).
  const uint64_t first = start >> 6, last = q >> 6;
  const uint64_t* at = block(first);
  const uint64_t upToQ = (q & 63) == 63 ? ~uint64_t{0} : (uint64_t{2} << (q & 63)) - 1;
  const uint64_t fromStart = ~uint64_t{0} << (start & 63);
  uint64_t runs;
  if (first == last) {
    runs = popcount64(at[kOccupied] & fromStart & upToQ);
  } else {
    runs = popcount64(at[kOccupied] & fromStart);
    const uint64_t* w = at;
    for (uint64_t b = first + 1; b < last; ++b) runs += popcount64((w += blockWords_)[kOccupied]);
    runs += popcount64(block(last)[kOccupied] & upToQ);
  }
  runs -= back;
  // The runs-th run start (a used slot that does not continue a run) from `start`.
  uint64_t w = first;
  uint64_t bits = (at[kOccupied] | at[kShifted]) & ~at[kContinuation] & fromStart;
  for (;;) {
    const uint32_t here = popcount64(bits);
    if (runs <= here) break;
    runs -= here;
    ++w;
    at += blockWords_;
    bits = (at[kOccupied] | at[kShifted]) & ~at[kContinuation];
  }
  while (--runs > 0) bits &= bits - 1;
  return w * 64 + lowestBit(bits);
}

void QuotientTable::clearSlot(uint64_t s) {
  setValue(s, 0);
  setBit(kContinuation, s, false);
  setBit(kShifted, s, false);
}

uint64_t QuotientTable::firstUnused(uint64_t from) const {
  if (from >= slots_) return slots_;
  uint64_t w = from >> 6;
  uint64_t bits = ~usedWord(w) & (~uint64_t{0} << (from & 63));
  const uint64_t blocks = blocksFor(slots_);
  while (bits == 0) {
    if (++w >= blocks) return slots_;
    bits = ~usedWord(w);
  }
  return std::min(slots_, w * 64 + lowestBit(bits));
}

uint64_t QuotientTable::runEnd(uint64_t start) const {
  uint64_t s = start;
  while (s + 1 < slots_ && continuation(s + 1)) ++s;
  return s;
}

bool QuotientTable::insert(uint64_t canonical, uint64_t v) {
  if (!used(canonical)) {
    // An empty slot: no run covers it, so the entry sits in its own slot.
    setValue(canonical, v);
    setBit(kOccupied, canonical, true);
    return true;
  }
  // Where the entry goes: after q's run, or (a new run) after the run of the
  // last occupied canonical slot before q, which q's used slot proves exists.
  const bool runExists = occupied(canonical);
  uint64_t at;
  if (runExists) {
    at = runEnd(runStart(canonical)) + 1;
  } else {
    setBit(kOccupied, canonical, true);  // q's run-to-be ranks after the runs before it
    at = runEnd(runStartOfRank(canonical, 1)) + 1;
    setBit(kOccupied, canonical, false);
  }
  // Every entry from `at` to the cluster's end moves one slot right (a cluster
  // has no gaps, so each lands past its canonical slot: shifted).
  const uint64_t end = firstUnused(at);
  if (end >= slots_) return false;
  for (uint64_t s = end; s > at; --s) {
    setValue(s, value(s - 1));
    setBit(kContinuation, s, continuation(s - 1));
    setBit(kShifted, s, true);
  }
  setValue(at, v);
  setBit(kContinuation, at, runExists);
  setBit(kShifted, at, at != canonical);
  setBit(kOccupied, canonical, true);
  adjustSpill(canonical, end, +1);
  return true;
}

bool QuotientTable::erase(uint64_t canonical, uint64_t v) {
  if (!occupied(canonical)) return false;
  const uint64_t start = runStart(canonical);
  const uint64_t end = runEnd(start);
  uint64_t at = start;
  while (at <= end && value(at) != v) ++at;
  if (at > end) return false;
  const bool runLeft = start != end;
  // Entries after it move one slot left while they are shifted (an unshifted
  // entry is in its canonical slot and stays); each one's canonical slot is
  // followed through the runs to set its shifted bit.
  uint64_t runCanonical = canonical;
  uint64_t to = at;
  bool firstMove = true;
  for (uint64_t s = at + 1; s < slots_ && shifted(s); ++s) {
    const bool continues = continuation(s);
    if (!continues) runCanonical = nextOccupied(runCanonical + 1);
    setValue(to, value(s));
    // The entry after a deleted run start becomes the run's start.
    setBit(kContinuation, to, continues && !(firstMove && !continuation(at) && to == at));
    setBit(kShifted, to, to != runCanonical);
    firstMove = false;
    to = s;
  }
  clearSlot(to);
  if (!runLeft) setBit(kOccupied, canonical, false);
  adjustSpill(canonical, to, -1);
  return true;
}

bool QuotientTable::append(uint64_t canonical, uint64_t v) {
  const uint64_t pos = std::max(appendCursor_, canonical);
  if (pos >= slots_) return false;
  setValue(pos, v);
  setBit(kContinuation, pos, canonical == appendLast_);
  setBit(kShifted, pos, pos != canonical);
  setBit(kOccupied, canonical, true);
  adjustSpill(canonical, pos, +1);
  appendCursor_ = pos + 1;
  appendLast_ = canonical;
  return true;
}

}  // namespace cuckoo_bloom
