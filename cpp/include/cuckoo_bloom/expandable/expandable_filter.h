// Expandable filter: one quotient-filter table (quotient_table.h) that
// doubles in place of a chain of links, after InfiniFilter (Dayan et al.,
// SIGMOD 2023) and Aleph Filter (Dayan et al., VLDB 2024). docs/EXPANDABLE.md
// has the rates and the bounds; here is the mechanism.
//
// Addresses. A key's hash gives a base slot b = reduceRange(hash.low, M)
// (M: the base slot count, any integer, chosen from the growth hint) and a
// bit stream hash.high, read from its top bit down. At level L (after L
// doublings of the address space) there are Q = M * 2^L quotients and the
// key's quotient is
//   (b << L) | (the stream's first L bits),
// so each doubling appends the stream's next bit to the address: quotient a
// splits into 2a and 2a + 1, which keeps the runs in order. The key's
// fingerprint at level L is the stream's next F bits. Keys are never stored
// and never rehashed: a doubling moves each entry by the first bit of its
// own fingerprint, which becomes the address's new last bit.
//
// Slots. The table does not double its slots with its quotients: it grows
// in eighths. With s growth steps (0..7) it has N = Q + floor(Q * s / 8)
// slots and quotient a's canonical slot is a + floor(a * s / 8): strictly
// increasing (runs stay in quotient order, one quotient a slot) and below N.
// When one more entry would pass 0.85 N the table is rebuilt one step
// larger (the same entries, spread), and at the eighth step the quotients
// double instead (N = 2Q = the doubled Q: s back to 0). So just after a
// step the load is 0.85 * 8/9 = 0.756 at the least, where doubling the
// slots with the quotients left 0.425 (issue #45: bits per key at any
// count, docs/EXPANDABLE.md "Growth in eighths"). Between doublings (s > 0)
// new entries belong to the next level: they get its fingerprint plus the
// one bit its address will take, so every entry matches the same keys, and
// the rate is the same, as if the table had doubled at the first step.
//
// Values. A slot holds F + 2 bits (F = fingerprintBits, the longest
// fingerprint an entry has at this level; fingerprint_schedule.h):
//   normal entry, l fingerprint bits (1 <= l <= F, the first one highest):
//     (1 << l) | bits, so bit
//     F + 1 is 0 and the highest set bit is the delimiter that gives l
//     (unary padding: variable-length fingerprints in fixed-width slots);
//   void entry (its fingerprint ran out), age k: (1 << (F + 1)) | k.
// A new entry gets the schedule's bits for the level (fingerprint_schedule.h:
// newer entries get longer fingerprints, so the rate stays bounded at any
// growth); each doubling shortens every entry by one, and the doubled table's
// slots are as wide as its longest entry needs. An
// entry with one bit left gives it to the address and becomes a void of age
// 0; at each further doubling a void of age k is copied into both child
// slots with age k + 1 (Aleph's duplication: a lookup stays one run, and a
// void matches any key of its slot). The 2^k copies of a void of age k fill
// the aligned group of 2^k slots that share the canonical slot's high bits.
//
// Lookup: the run of the key's canonical slot; an entry matches when its l
// bits equal the key's next l stream bits, or it is a void.
// Remove (of an added key only, as in a cuckoo filter) takes the longest
// matching entry, and among voids the youngest (smallest group), and for a
// void removes one copy of age k from every slot of its group: whichever
// key owned the removed entry, the key removed had an entry at least as
// specific that still answers for it, so no other key is lost.
//
// count() is keys (a void's copies count once); the table grows when one
// more entry would pass the load limit (0.85 of its slots).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "cuckoo_bloom/core/filter_support.h"
#include "cuckoo_bloom/expandable/fingerprint_schedule.h"
#include "cuckoo_bloom/expandable/quotient_table.h"

namespace cuckoo_bloom {

class ExpandableFilter : public KeyedFilter<ExpandableFilter> {
 public:
  using KeyedFilter::add;
  using KeyedFilter::has;
  using KeyedFilter::remove;

  static constexpr uint32_t kMinFingerprintBits = 6;
  static constexpr uint32_t kMaxFingerprintBits = 32;
  static constexpr uint64_t kMinBaseSlots = 8;
  // Entries per slot a table holds before it grows.
  static constexpr uint64_t kLoadPercent = 85;
  // Slots past the nominal count the last clusters may run into.
  static constexpr uint64_t kMaxPaddingSlots = 128;
  // Quotients a table may address (a doubling beyond is FULL).
  static constexpr uint64_t kMaxSlots = uint64_t{1} << 40;
  // Growth steps a doubling of the quotients takes: the slots grow by an
  // eighth of the quotients a step (see the top).
  static constexpr uint32_t kGrowthSteps = 8;
  // Registry facts (core/type_facts.h): it grows by doubling its one table,
  // so from a pipe it is itself the growing type, from kDefaultCapacity keys.
  static constexpr FilterGrowth kGrowth = FilterGrowth::InPlace;
  static constexpr uint64_t kDefaultCapacity = 1000;
  static constexpr EstimateSource kEstimateSource = EstimateSource::EntriesStored;

  // The fingerprint schedule (fingerprint_schedule.h) as the parameter block
  // stores it: widenEvery u8, topBits u8, plannedLevel u8 (createFrom and
  // fromBlob keep each in range). widenEvery 0 (topBits and plannedLevel 0
  // too) is the fixed-width layout written before the schedule: read and
  // grown as then.
  struct StoredSchedule {
    uint8_t widenEvery = 0;
    uint8_t topBits = 0;
    uint8_t plannedLevel = 0;
    CUCKOO_BLOOM_PARAMS_FIELDS(0, widenEvery, topBits, plannedLevel)
    static StoredSchedule of(const FingerprintSchedule& schedule) {
      return {static_cast<uint8_t>(schedule.widenEvery), static_cast<uint8_t>(schedule.topBits),
              static_cast<uint8_t>(schedule.plannedLevel)};
    }
    FingerprintSchedule unpacked() const {
      FingerprintSchedule schedule;
      schedule.topBits = topBits;
      schedule.plannedLevel = plannedLevel;
      schedule.widenEvery = widenEvery;
      return schedule;
    }
  };

  // The parameter block (docs/FORMAT.md): baseSlots u64, expectedCapacity
  // u64 (the growth hint, 0 when none), level u8, fingerprintBits u8 (the
  // slots' longest fingerprint), then the stored schedule, growthSteps u8
  // (0..7, the slots past the quotients in eighths of them; 0 in bytes
  // written before growth in eighths, which doubled its slots) and 2
  // reserved bytes.
  struct Params {
    uint64_t baseSlots = 0;
    uint64_t expectedCapacity = 0;
    uint8_t level = 0;
    uint8_t fingerprintBits = 0;
    StoredSchedule schedule;
    uint8_t growthSteps = 0;
    CUCKOO_BLOOM_PARAMS_FIELDS(2, baseSlots, expectedCapacity, level, fingerprintBits, schedule, growthSteps)
  };

  static constexpr OptionId kOptions[] = {OptionId::ExpectedCapacity};
  static Result<ExpandableFilter> createFrom(const CoreFilterOptions& options);
  static Result<ExpandableFilter> fromBlob(const DecodedBlob& blob, const Params& params);

  // Sizing: doublings planned to go from capacity to expectedCapacity, the
  // base slot count, and the fingerprint schedule that keeps the rate at or
  // below the target through any number of doublings (docs/EXPANDABLE.md).
  static uint32_t plannedDoublings(uint64_t capacity, uint64_t expectedCapacity);
  static uint64_t baseSlotsFor(uint64_t capacity, uint64_t expectedCapacity);
  static FingerprintSchedule scheduleFor(double falsePositiveRate, uint32_t doublings, bool hinted);

  // Ok; Full when the table must double and cannot (the format's address
  // bits or the size limit): then nothing changed.
  Status add(const KeyHash& hash);
  bool has(const KeyHash& hash) const {
#if CUCKOO_BLOOM_FAST_BITS_DISPATCH
    if (cpuHasFastBits()) return hasWithFastBits(hash);
#endif
#if CUCKOO_BLOOM_FAST_BITS_ALWAYS
    const KeyProbe probe = probeOf(hash);
    return table_.anyInRunFastBits(probe.slot, probe);
#else
    const KeyProbe probe = probeOf(hash);
    return table_.anyInRun(probe.slot, probe);
#endif
  }
  // Removes the key's most specific matching entry; NotFound (no change) when none.
  Status remove(const KeyHash& hash);

  // Removes every key: back to the table it was created with (level 0), the
  // bytes of a fresh filter of the same options.
  void clear();

  uint64_t baseSlots() const { return params_.baseSlots; }
  // Doublings of the quotients so far.
  uint32_t level() const { return params_.level; }
  // Steps of an eighth the slots have grown past the quotients (0..7).
  uint32_t growthSteps() const { return params_.growthSteps; }
  // The longest fingerprint a slot holds (slots are 2 bits wider).
  uint32_t fingerprintBits() const { return params_.fingerprintBits; }
  // A new entry's fingerprint bits at this level, and the schedule behind them.
  uint32_t newEntryBits() const { return freshBits_; }
  FingerprintSchedule schedule() const { return scheduleOf(params_); }
  uint64_t expectedCapacity() const { return params_.expectedCapacity; }
  uint64_t quotientCount() const { return params_.baseSlots << params_.level; }
  // The table's slots (the load limit is 0.85 of them).
  uint64_t nominalSlots() const { return slotsFor(quotientCount(), params_.growthSteps); }
  // Entries in the table (a void's copies each count).
  uint64_t entries() const { return entries_; }
  double loadFactor() const { return static_cast<double>(entries_) / static_cast<double>(nominalSlots()); }
  // The chance an absent key matches: the sum over entries of 2^-l (1 for a
  // void copy), over the quotients.
  double estimatedFalsePositiveRate() const;
  // In memory: the table's words (the serialized payload) and the lookup's
  // per-block spill counts (2 bytes a block, derived, not serialized).
  size_t byteLength() const { return table_.payloadWords() * sizeof(uint64_t) + table_.spillBytes(); }
  template <typename Visit>
  void parameters(Visit&& visit) const {
    visit("baseSlots", static_cast<double>(baseSlots()));
    visit("level", level());
    visit("growthSteps", growthSteps());
    visit("quotientCount", static_cast<double>(quotientCount()));
    visit("slotCount", static_cast<double>(nominalSlots()));
    visit("fingerprintBits", fingerprintBits());
    visit("newEntryBits", newEntryBits());
    visit("expectedCapacity", static_cast<double>(expectedCapacity()));
    visit("loadFactor", loadFactor());
  }

  template <typename Visit>
  auto visitBlob(Visit&& visit) const {
    return visit(header_, encodeParams(params_), table_.words(), table_.payloadWords());
  }

 private:
  ExpandableFilter() = default;
  static uint64_t physicalSlots(uint64_t nominal) { return nominal + std::min(nominal, kMaxPaddingSlots); }
  uint64_t loadLimit() const { return nominalSlots() / 100 * kLoadPercent + nominalSlots() % 100 * kLoadPercent / 100; }
  static uint64_t slotsFor(uint64_t quotients, uint32_t steps) { return quotients + ((quotients * steps) >> 3); }
  // Quotient a's canonical slot with `steps` growth steps (see the top).
  // (At s = 0, the table's state at a hinted count, a lookup skips the multiply.)
  static uint64_t slotOf(uint64_t quotient, uint32_t steps) { return steps == 0 ? quotient : quotient + ((quotient * steps) >> 3); }
  uint64_t slotOf(uint64_t quotient) const { return slotOf(quotient, params_.growthSteps); }
  // The quotient whose canonical slot is `slot`, if one is (else the one
  // below it): slotOf is strictly increasing, and a * 8 / (8 + s) is within
  // one of the answer.
  uint64_t quotientAt(uint64_t slot) const;
  uint64_t quotientOf(const KeyHash& hash) const {
    const uint64_t base = reduceRange(hash.low, params_.baseSlots);
    return (base << params_.level) | (params_.level == 0 ? 0 : hash.high >> (64 - params_.level));
  }
  uint64_t canonicalSlot(const KeyHash& hash) const { return slotOf(quotientOf(hash)); }
  // The key's bits after the address's: its fingerprint at this level, from the top.
  uint64_t streamOf(const KeyHash& hash) const { return hash.high << params_.level; }
  uint64_t newEntryOf(const KeyHash& hash) const {
    return (uint64_t{1} << freshBits_) | (streamOf(hash) >> (64 - freshBits_));
  }
  static FingerprintSchedule scheduleOf(const Params& params) { return params.schedule.unpacked(); }
  // Whether the table can double: the fixed-width layout needs its fingerprint
  // bits past the address's (the widening schedule caps its own).
  static bool levelFits(const Params& params, uint32_t level) {
    return params.schedule.widenEvery != 0 || level + params.fingerprintBits <= 64;
  }
  // A normal entry (1 << l) | bits matches when its l bits are the stream's first l.
  static bool matches(uint64_t v, uint64_t stream) {
    const uint32_t length = 63u - static_cast<uint32_t>(__builtin_clzll(v));
    return (stream >> (64 - length)) == (v ^ (uint64_t{1} << length));
  }
  uint64_t voidValue(uint64_t age) const { return (uint64_t{1} << (params_.fingerprintBits + 1)) | age; }
  bool isVoid(uint64_t v) const { return (v >> (params_.fingerprintBits + 1)) != 0; }
  // A lookup's key: its canonical slot, and which entries of the slot's run
  // match it (a void, or a fingerprint that is a prefix of its stream).
  struct KeyProbe {
    uint64_t slot;
    uint64_t stream;
    uint32_t voidBit;
    bool operator()(uint64_t v) const { return (v >> voidBit) != 0 || matches(v, stream); }
  };
  KeyProbe probeOf(const KeyHash& hash) const { return {canonicalSlot(hash), streamOf(hash), params_.fingerprintBits + 1u}; }
#if CUCKOO_BLOOM_FAST_BITS_DISPATCH
  // has() compiled for POPCNT and BMI2 (core/fast_bits.h): out of line, as
  // code for those cannot be inlined into code for any x86-64.
  CUCKOO_BLOOM_FAST_BITS_TARGET bool hasWithFastBits(const KeyHash& hash) const;
#endif
  // One growth step: the slots an eighth more, or at the eighth step the
  // quotients doubled (see the top); Full when it cannot (nothing changed).
  Status grow();
  // The table rebuilt at `level` (params_.level or one more: a doubling) and
  // `steps`; Full or OutOfMemory with nothing changed.
  Status rebuild(uint32_t level, uint32_t steps);
  // Whether the quotients can double to `level`: the address bits, the
  // schedule's bits and the size limit (growth past them is FULL).
  static bool canDoubleTo(const Params& params, uint32_t level);
  // A new entry's bits: the schedule's for the level its entries belong to
  // (the next one while s > 0) plus the bit its address will take then.
  static uint32_t freshBitsOf(const Params& params);

  Params params_;
  QuotientTable table_;
  uint64_t entries_ = 0;
  uint32_t freshBits_ = 0;  // newEntryBits(): freshBitsOf(params_)
};

}  // namespace cuckoo_bloom
