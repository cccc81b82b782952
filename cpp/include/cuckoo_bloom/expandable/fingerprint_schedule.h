// How many fingerprint bits the expandable filter gives a new entry at each
// level, so its false-positive rate stays bounded however far it grows
// (docs/EXPANDABLE.md, "Fingerprints that widen"; InfiniFilter and Aleph
// widen newer entries the same way).
//
// Each doubling takes one fingerprint bit of every entry for its address and
// halves the load, so an entry added at level g with F_g bits adds the same
// amount to the rate at every later level: the generation added at level g
// (half the entries of a full level g, a 2^(g-L) share of level L's) with
// F_g - (L - g) bits adds load * 2^-F_g / 2, and level 0's entries (filling
// the whole first table) load * 2^-F_0. A full table at level L therefore
// has
//   rate(L) = load * (2^-F_0 + 1/2 * sum_{g=1..L} 2^-F_g),
// and the rate stays bounded at any growth exactly when that sum converges:
// newer entries must get longer fingerprints.
//
// The schedule: with t = topBits, D = plannedLevel, k = widenEvery,
//   F_g = t + (D - g)          for g < D  (the hint's doublings),
//   F_g = t + (g - D) / k      for g >= D (integer division),
// so each entry added up to the hint's end keeps exactly t bits there (a
// static filter of t-bit fingerprints at the planned size), and past it a
// fingerprint widens by one bit every k doublings. Summed over all levels,
//   rate <= load * 2^-t * (k + 1/2)          (any number of doublings):
// 1 for the generations up to D (each has t bits at D: together the load),
// and 1/2 * (2k - 1) for those past it (k levels at each width beyond t).
// With the hint k = 1 (a wrong hint costs a bit per doubling, and t pays
// only log2(1.5)); without it D = 0 and k >= 8, so the width grows slowly:
// one bit every k doublings, for log2(8.5) bits at the start.
//
// A table's slots hold the longest fingerprint any entry has at its level:
// slotBits(L) = max(F_L, slotBits(L - 1) - 1) (the older entries each gave a
// bit to the address), and values are slotBits + 2 bits wide (the delimiter
// and the void mark; expandable_filter.h).
//
// widenEvery = 0 is the fixed-width layout written before this schedule:
// every entry starts with slotBits bits at every level and the width never
// changes (its rate grows by load * 2^-F / 2 a doubling).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace cuckoo_bloom {

struct FingerprintSchedule {
  // Stream bits a fingerprint may use at most (the table's values stay
  // within 64 bits with the delimiter and void mark).
  static constexpr uint32_t kMaxBits = 56;
  // forRate's topBits for a rate needing 255 bits or more.
  static constexpr uint32_t kSaturatedBits = 255;

  uint32_t topBits = 0;       // t: the bits each entry keeps at the planned level
  uint32_t plannedLevel = 0;  // D: doublings the growth hint plans (0: none)
  uint32_t widenEvery = 0;    // k: doublings per extra bit past D; 0: the fixed-width layout

  // The schedule for a target rate at the load limit, given the planned
  // doublings and whether a hint gave them: the fewest top bits t with
  // load * 2^-t * (k + 1/2) <= rate (k = 1 with a hint, >= 8 without), then
  // the longest k that t still allows (what t's rounding up leaves spare).
  static FingerprintSchedule forRate(double falsePositiveRate, double load, uint32_t plannedDoublings, bool hinted) {
    FingerprintSchedule schedule;
    const double fewestPeriods = hinted ? 1.0 : 8.0;
    // A rate so small that the bits needed pass 254 (or overflow to infinity, at a subnormal
    // rate) saturates at 255: converting more to uint32 is undefined, and createFrom refuses
    // any topBits past kMaxTopBits anyway.
    const double needed = std::ceil(std::log2(load * (fewestPeriods + 0.5) / falsePositiveRate));
    schedule.topBits = needed < 255.0 ? static_cast<uint32_t>(std::max(6.0, needed)) : kSaturatedBits;
    const double periods = std::floor(falsePositiveRate * std::ldexp(1.0, static_cast<int>(schedule.topBits)) / load - 0.5);
    schedule.widenEvery = static_cast<uint32_t>(std::min(255.0, std::max(fewestPeriods, periods)));
    schedule.plannedLevel = plannedDoublings;
    return schedule;
  }

  // The rate bound of the schedule at the load limit, over any number of doublings.
  double rateBound(double load) const {
    return load * std::ldexp(1.0, -static_cast<int>(topBits)) * (static_cast<double>(widenEvery) + 0.5);
  }

  // F_L: a new entry's fingerprint bits at level L (fixed layout: slotBits).
  // Capped so the address and the fingerprint fit the hash's 64 stream bits.
  uint32_t freshBits(uint32_t level, uint32_t fixedSlotBits) const {
    if (widenEvery == 0) return fixedSlotBits;
    const uint32_t scheduled = level < plannedLevel ? topBits + (plannedLevel - level) : topBits + (level - plannedLevel) / widenEvery;
    return std::min({scheduled, kMaxBits, 64u - std::min(level, 64u)});
  }

  // The slot bits at level L (fixed layout: fixedSlotBits at every level).
  uint32_t slotBits(uint32_t level, uint32_t fixedSlotBits) const {
    uint32_t bits = freshBits(0, fixedSlotBits);
    for (uint32_t l = 1; l <= level; ++l) bits = std::max(freshBits(l, fixedSlotBits), bits - 1);
    return bits;
  }
};

}  // namespace cuckoo_bloom
