// Expandable filter: one quotient-filter table (quotient_table.h) that
// doubles in place of a chain of links, after InfiniFilter (Dayan et al.,
// SIGMOD 2023) and Aleph Filter (Dayan et al., VLDB 2024). docs/EXPANDABLE.md
// has the rates and the bounds; here is the mechanism.
//
// Addresses. A key's hash gives a base slot b = reduceRange(hash.low, M)
// (M: the base slot count, any integer, chosen from the growth hint) and a
// bit stream hash.high, read from its top bit down. At level L (after L
// doublings) the table has S = M * 2^L nominal slots and the key's
// canonical slot is
//   (b << L) | (the stream's first L bits),
// so each doubling appends the stream's next bit to the address: slot a
// splits into 2a and 2a + 1, which keeps the runs in order. The key's
// fingerprint at level L is the stream's next F bits. Keys are never stored
// and never rehashed: a doubling moves each entry by the first bit of its
// own fingerprint, which becomes the address's new last bit.
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
// more entry would pass the load limit (0.85 of the nominal slots).
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
  // Entries per nominal slot a table holds before it doubles.
  static constexpr uint64_t kLoadPercent = 85;
  // Slots past the nominal count the last clusters may run into.
  static constexpr uint64_t kMaxPaddingSlots = 128;
  // Nominal slots a table may address (a doubling beyond is FULL).
  static constexpr uint64_t kMaxSlots = uint64_t{1} << 40;
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
  // slots' longest fingerprint at this level), then the stored schedule and
  // 3 reserved bytes.
  struct Params {
    uint64_t baseSlots = 0;
    uint64_t expectedCapacity = 0;
    uint8_t level = 0;
    uint8_t fingerprintBits = 0;
    StoredSchedule schedule;
    CUCKOO_BLOOM_PARAMS_FIELDS(3, baseSlots, expectedCapacity, level, fingerprintBits, schedule)
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
  uint32_t level() const { return params_.level; }
  // The longest fingerprint a slot holds at this level (slots are 2 bits wider).
  uint32_t fingerprintBits() const { return params_.fingerprintBits; }
  // A new entry's fingerprint bits at this level, and the schedule behind them.
  uint32_t newEntryBits() const { return freshBits_; }
  FingerprintSchedule schedule() const { return scheduleOf(params_); }
  uint64_t expectedCapacity() const { return params_.expectedCapacity; }
  uint64_t nominalSlots() const { return params_.baseSlots << params_.level; }
  // Entries in the table (a void's copies each count).
  uint64_t entries() const { return entries_; }
  double loadFactor() const { return static_cast<double>(entries_) / static_cast<double>(nominalSlots()); }
  // The chance an absent key matches: the sum over entries of 2^-l (1 for a
  // void copy), over the nominal slots.
  double estimatedFalsePositiveRate() const;
  // In memory: the table's words (the serialized payload) and the lookup's
  // per-block spill counts (2 bytes a block, derived, not serialized).
  size_t byteLength() const { return table_.payloadWords() * sizeof(uint64_t) + table_.spillBytes(); }
  template <typename Visit>
  void parameters(Visit&& visit) const {
    visit("baseSlots", static_cast<double>(baseSlots()));
    visit("level", level());
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
  uint64_t canonicalSlot(const KeyHash& hash) const {
    const uint64_t base = reduceRange(hash.low, params_.baseSlots);
    return (base << params_.level) | (params_.level == 0 ? 0 : hash.high >> (64 - params_.level));
  }
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
  // One doubling: a new table one level up, or Full (nothing changed).
  Status expand();

  Params params_;
  QuotientTable table_;
  uint64_t entries_ = 0;
  uint32_t freshBits_ = 0;  // newEntryBits(): the schedule's bits at params_.level
};

}  // namespace cuckoo_bloom
