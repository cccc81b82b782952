#include "cuckoo_bloom/expandable/expandable_filter.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <utility>

namespace cuckoo_bloom {
namespace {

constexpr double kLoad = static_cast<double>(ExpandableFilter::kLoadPercent) / 100.0;

uint64_t lowMask(uint32_t bits) { return bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1; }

// The widening layout's top bits may pass the fixed-width layout's 32 (its
// schedule adds log2(8.5) bits without a hint): rates down to ~1e-11.
constexpr uint32_t kMaxTopBits = 40;

// Whether level L's new entries get all their scheduled bits (F(L), before the
// caps of fingerprint_schedule.h): the address's L bits and F(L) within the
// hash's 64 stream bits and a slot's 56. Past that the table does not double
// (FULL, nothing changed), as the fixed-width layout stops at L + F > 64, so
// the rate bound never silently gives way.
bool scheduledBitsFit(const FingerprintSchedule& schedule, uint32_t level) {
  if (schedule.widenEvery == 0) return true;
  const uint64_t scheduled = level < schedule.plannedLevel ? uint64_t{schedule.topBits} + (schedule.plannedLevel - level)
                                                           : uint64_t{schedule.topBits} + (level - schedule.plannedLevel) / schedule.widenEvery;
  return scheduled <= FingerprintSchedule::kMaxBits && level + scheduled <= 64;
}

}  // namespace

#if CUCKOO_BLOOM_FAST_BITS_DISPATCH
bool ExpandableFilter::hasWithFastBits(const KeyHash& hash) const {
  const KeyProbe probe = probeOf(hash);
  return table_.anyInRunFastBits(probe.slot, probe);
}
#endif

uint32_t ExpandableFilter::plannedDoublings(uint64_t capacity, uint64_t expectedCapacity) {
  uint32_t doublings = 0;
  while (doublings < 40 && (capacity << (doublings + 1)) <= expectedCapacity) ++doublings;
  return doublings;
}

uint64_t ExpandableFilter::baseSlotsFor(uint64_t capacity, uint64_t expectedCapacity) {
  // The end point (the hint, else the capacity) lands at the load limit after
  // the last planned doubling: M * 2^D * 0.85 >= end, M as small as that allows.
  const uint64_t end = std::max(capacity, expectedCapacity);
  const uint64_t perBase = kLoadPercent << plannedDoublings(capacity, expectedCapacity);
  return std::max(kMinBaseSlots, (end * 100 + perBase - 1) / perBase);
}

FingerprintSchedule ExpandableFilter::scheduleFor(double falsePositiveRate, uint32_t doublings, bool hinted) {
  // fingerprint_schedule.h has the rate of a full table after any number of
  // doublings: load * 2^-topBits * (widenEvery + 1/2). The level-0 entries'
  // t + D bits stay within a slot's 56: a hint planning more doublings than
  // that plans fewer (the rest widen by a bit a doubling, as past any hint).
  FingerprintSchedule schedule = FingerprintSchedule::forRate(falsePositiveRate, kLoad, hinted ? doublings : 0, hinted);
  if (schedule.topBits < FingerprintSchedule::kMaxBits) {
    schedule.plannedLevel = std::min(schedule.plannedLevel, FingerprintSchedule::kMaxBits - schedule.topBits);
  }
  return schedule;
}

Result<ExpandableFilter> ExpandableFilter::createFrom(const CoreFilterOptions& options) {
  Status valid = validateCapacityAndRate(options.capacity, options.falsePositiveRate);
  if (!valid.isOk()) return valid;
  const uint64_t expected = options.expectedCapacity.value_or(0);
  if (options.expectedCapacity) {
    if (expected < options.capacity) {
      return Status::invalidArgument(QuotientTable::withNumbers("expectedCapacity (", expected, ") must be at least the initial capacity (",
                                                         options.capacity, "): it is the count the filter is expected to grow to"));
    }
    if (expected > kMaxCapacity) {
      return Status::invalidArgument(QuotientTable::withNumbers("expectedCapacity must be at most ", kMaxCapacity, ", got ", expected, ""));
    }
  }
  const uint32_t doublings = plannedDoublings(options.capacity, expected);
  const FingerprintSchedule schedule = scheduleFor(options.falsePositiveRate, doublings, options.expectedCapacity.has_value());
  if (schedule.topBits > kMaxTopBits) {
    return Status::invalidArgument("falsePositiveRate " + formatNumber(options.falsePositiveRate) +
                                   " needs fingerprints of " +
                                   (schedule.topBits == FingerprintSchedule::kSaturatedBits ? std::string("at least 255")
                                                                                             : std::to_string(schedule.topBits)) +
                                   " bits; an expandable filter holds at most " + std::to_string(kMaxTopBits));
  }
  ExpandableFilter filter;
  filter.params_.baseSlots = baseSlotsFor(options.capacity, expected);
  filter.params_.expectedCapacity = expected;
  filter.params_.schedule = StoredSchedule::of(schedule);
  filter.params_.fingerprintBits = static_cast<uint8_t>(schedule.slotBits(0, 0));
  filter.freshBits_ = freshBitsOf(filter.params_);
  if (filter.params_.baseSlots > kMaxSlots) return validateTableBytes(UINT64_MAX, "ExpandableFilter");
  const uint64_t slots = physicalSlots(filter.params_.baseSlots);
  valid = validateTableBytes(QuotientTable::payloadWordsFor(slots, filter.params_.fingerprintBits + 2) * 8,
                             "ExpandableFilter");
  if (!valid.isOk()) return valid;
  if (!filter.table_.allocate(slots, filter.params_.fingerprintBits + 2)) {
    return Status::outOfMemory(QuotientTable::withNumbers("out of memory allocating an expandable filter of ", slots, " slots"));
  }
  filter.header_ = newHeader(kType, options.capacity, options.falsePositiveRate, options.seed);
  return filter;
}

uint64_t ExpandableFilter::quotientAt(uint64_t slot) const {
  const uint32_t steps = params_.growthSteps;
  uint64_t quotient = slot * kGrowthSteps / (kGrowthSteps + steps);
  while (slotOf(quotient + 1) <= slot) ++quotient;
  while (quotient > 0 && slotOf(quotient) > slot) --quotient;
  return quotient;
}

bool ExpandableFilter::canDoubleTo(const Params& params, uint32_t level) {
  if (level > 40 || !levelFits(params, level) || !scheduledBitsFit(scheduleOf(params), level)) return false;
  const uint64_t quotients = params.baseSlots << level;
  return quotients <= kMaxSlots && (quotients >> level) == params.baseSlots;
}

uint32_t ExpandableFilter::freshBitsOf(const Params& params) {
  const uint32_t ahead = params.growthSteps > 0 ? 1u : 0u;
  return scheduleOf(params).freshBits(params.level + ahead, params.fingerprintBits - ahead) + ahead;
}

Status ExpandableFilter::grow() {
  // Tables of the fixed-width layout (read from older bytes) keep doubling
  // their slots with their quotients, as they were written to.
  if (params_.schedule.widenEvery == 0 || params_.growthSteps + 1u == kGrowthSteps) {
    return rebuild(params_.level + 1u, 0);
  }
  return rebuild(params_.level, params_.growthSteps + 1u);
}

Status ExpandableFilter::rebuild(uint32_t level, uint32_t steps) {
  const bool doubling = level != params_.level;
  // The first step past a level's quotients already holds entries of the
  // next level (see the header): the quotients must be able to double.
  if ((doubling || params_.growthSteps == 0) && !canDoubleTo(params_, params_.level + 1u)) {
    return Status::full(QuotientTable::withNumbers("expandable filter is full: doubling to level ", params_.level + 1u,
                                            " would need more address bits than its hashes have (", count(),
                                            " keys stored; every one is still there)"));
  }
  Params grownParams = params_;
  grownParams.level = static_cast<uint8_t>(level);
  grownParams.growthSteps = static_cast<uint8_t>(steps);
  const uint64_t nominal = slotsFor(grownParams.baseSlots << level, steps);
  const uint64_t slots = physicalSlots(nominal);
  // The slots hold the longest entry: a doubling takes a bit from each (the
  // new level's fresh entries may be longer), a step keeps each and adds
  // entries with the next level's bits plus one.
  const uint32_t oldBits = params_.fingerprintBits;
  const uint32_t kept = doubling ? oldBits - 1u : oldBits;
  const uint32_t fresh = freshBitsOf(grownParams);  // (the fixed layout's: its width, oldBits)
  const uint32_t grownBits = std::max(fresh, kept);
  grownParams.fingerprintBits = static_cast<uint8_t>(grownBits);
  const uint32_t valueBits = grownBits + 2u;
  const auto grownVoid = [grownBits](uint64_t age) { return (uint64_t{1} << (grownBits + 1)) | age; };
  if (!validateTableBytes(QuotientTable::payloadWordsFor(slots, valueBits) * 8, "ExpandableFilter").isOk()) {
    return Status::full(QuotientTable::withNumbers("expandable filter is full: growing to ", nominal,
                                            " slots would pass the table size limit; every key stored is still there"));
  }
  QuotientTable grown;
  if (!grown.allocate(slots, valueBits)) {
    return Status::outOfMemory(QuotientTable::withNumbers("out of memory growing an expandable filter to ", nominal,
                                                   " slots; every key stored is still there"));
  }
  // Runs come in quotient order, so the new table is built by appending. A
  // step moves each run whole to its quotient's new slot; a doubling splits
  // quotient a's run into the runs of 2a and 2a + 1 by the first bit of each
  // fingerprint (voids go to both, one age older).
  bool fits = true;
  uint64_t entries = 0;
  std::vector<uint64_t> high;
  table_.forEachRun([&](uint64_t canonical, const uint64_t* values, size_t count) {
    if (!fits) return;
    const uint64_t quotient = quotientAt(canonical);
    if (!doubling) {
      const uint64_t at = slotOf(quotient, steps);
      for (size_t i = 0; i < count; ++i) {
        const uint64_t v = values[i];
        fits = fits && grown.append(at, isVoid(v) ? grownVoid(v & lowMask(oldBits + 1)) : v);
      }
      entries += count;
      return;
    }
    high.clear();
    const uint64_t low = slotOf(quotient << 1, steps);
    const uint64_t highSlot = slotOf((quotient << 1) + 1, steps);
    for (size_t i = 0; i < count; ++i) {
      const uint64_t v = values[i];
      if (isVoid(v)) {
        const uint64_t older = grownVoid((v & lowMask(oldBits + 1)) + 1);
        fits = fits && grown.append(low, older);
        high.push_back(older);
        entries += 2;
        continue;
      }
      const uint32_t length = 63u - static_cast<uint32_t>(__builtin_clzll(v));
      const uint64_t moved = length == 1 ? grownVoid(0) : (uint64_t{1} << (length - 1)) | (v & lowMask(length - 1));
      if ((v >> (length - 1)) & 1) {
        high.push_back(moved);
      } else {
        fits = fits && grown.append(low, moved);
      }
      ++entries;
    }
    for (uint64_t v : high) fits = fits && grown.append(highSlot, v);
  });
  if (!fits) {
    return Status::full("expandable filter is full: a cluster ran past the end of the grown table; every key stored is still there");
  }
  table_ = std::move(grown);
  params_ = grownParams;
  freshBits_ = fresh;
  entries_ = entries;
  return Status::ok();
}

Status ExpandableFilter::add(const KeyHash& hash) {
  if (entries_ + 1 > loadLimit()) {
    Status grown = grow();
    if (!grown.isOk()) return grown;
  }
  if (!table_.insert(canonicalSlot(hash), newEntryOf(hash))) {
    // The last cluster reached the padding's end: grow, then it fits.
    Status grown = grow();
    if (!grown.isOk()) return grown;
    if (!table_.insert(canonicalSlot(hash), newEntryOf(hash))) {
      return Status::full("expandable filter is full: no room at the end of the table");
    }
  }
  ++entries_;
  ++header_.itemCount;
  return Status::ok();
}

Status ExpandableFilter::remove(const KeyHash& hash) {
  const uint64_t quotient = quotientOf(hash);
  const uint64_t q = slotOf(quotient);
  const uint64_t stream = streamOf(hash);
  // The most specific match: the longest fingerprint, else the youngest void.
  uint64_t best = 0;
  uint32_t bestLength = 0;
  uint64_t youngestVoid = UINT64_MAX;
  table_.anyInRun(q, [&](uint64_t v) {
    if (isVoid(v)) {
      youngestVoid = std::min(youngestVoid, v & lowMask(params_.fingerprintBits + 1));
    } else if (matches(v, stream)) {
      const uint32_t length = 63u - static_cast<uint32_t>(__builtin_clzll(v));
      if (length > bestLength) {
        bestLength = length;
        best = v;
      }
    }
    return false;
  });
  if (bestLength > 0) {
    table_.erase(q, best);
    --entries_;
    --header_.itemCount;
    return Status::ok();
  }
  if (youngestVoid == UINT64_MAX) return Status::notFound("no matching entry in the key's slot");
  // A void of age k: one copy in each of the 2^k quotients of its aligned group.
  const uint64_t value = voidValue(youngestVoid);
  const uint64_t first = quotient & ~lowMask(static_cast<uint32_t>(youngestVoid));
  const uint64_t copies = uint64_t{1} << youngestVoid;
  for (uint64_t a = first; a < first + copies; ++a) {
    if (!table_.anyInRun(slotOf(a), [&](uint64_t v) { return v == value; })) {
      return QuotientTable::corruptAt("expandable: a void entry's copy is missing from quotient ", a, "");
    }
  }
  for (uint64_t a = first; a < first + copies; ++a) table_.erase(slotOf(a), value);
  entries_ -= copies;
  --header_.itemCount;
  return Status::ok();
}

void ExpandableFilter::clear() {
  QuotientTable fresh;
  const FingerprintSchedule schedule = scheduleOf(params_);
  const uint32_t firstBits = schedule.slotBits(0, params_.fingerprintBits);
  if ((params_.level > 0 || params_.growthSteps > 0) && fresh.allocate(physicalSlots(params_.baseSlots), firstBits + 2u)) {
    table_ = std::move(fresh);
    params_.level = 0;
    params_.growthSteps = 0;
    params_.fingerprintBits = static_cast<uint8_t>(firstBits);
    freshBits_ = freshBitsOf(params_);
  } else {
    table_.clear();  // the smaller table could not be had: empty this one (same answers, its level kept)
  }
  entries_ = 0;
  header_.itemCount = 0;
}

double ExpandableFilter::estimatedFalsePositiveRate() const {
  double matches = 0.0;
  table_.forEachRun([&](uint64_t, const uint64_t* values, size_t count) {
    for (size_t i = 0; i < count; ++i) {
      const uint64_t v = values[i];
      matches += isVoid(v) ? 1.0 : std::ldexp(1.0, -static_cast<int>(63 - __builtin_clzll(v)));
    }
  });
  return std::min(1.0, matches / static_cast<double>(quotientCount()));
}

static_assert(ExpandableFilter::kMaxFingerprintBits == 32, "fromBlob's message spells the range out");

Result<ExpandableFilter> ExpandableFilter::fromBlob(const DecodedBlob& blob, const Params& params) {
  if (blob.header.formatVersion < 2) return Status::corrupt("expandable filters exist from format version 2");
  const uint32_t bits = params.fingerprintBits;
  if (params.schedule.widenEvery == 0) {
    // The fixed-width layout (written before the schedule): every entry
    // starts with `bits` bits, and the schedule's bytes are 0.
    if (params.schedule.topBits != 0 || params.schedule.plannedLevel != 0) {
      return Status::corrupt("expandable: a fixed-width table (widenEvery 0) with a fingerprint schedule");
    }
    if (bits < kMinFingerprintBits || bits > kMaxFingerprintBits) {
      return QuotientTable::corruptAt("expandable fingerprint bits ", bits, " outside ", kMinFingerprintBits, "..32");
    }
  } else if (params.schedule.topBits < kMinFingerprintBits || params.schedule.topBits > kMaxTopBits || params.schedule.plannedLevel > 40 ||
             params.schedule.topBits + params.schedule.plannedLevel > FingerprintSchedule::kMaxBits) {
    return QuotientTable::corruptAt("expandable fingerprint schedule (top bits ", params.schedule.topBits, ", planned level ",
                                    params.schedule.plannedLevel, ") out of range");
  }
  if (params.baseSlots < kMinBaseSlots || params.baseSlots > kMaxSlots) {
    return QuotientTable::corruptAt("expandable base slot count ", params.baseSlots, " out of range");
  }
  if (params.growthSteps >= kGrowthSteps || (params.growthSteps > 0 && params.schedule.widenEvery == 0)) {
    return QuotientTable::corruptAt("expandable growth steps ", params.growthSteps, " out of range for its layout");
  }
  if (!levelFits(params, params.level) || !scheduledBitsFit(scheduleOf(params), params.level) || params.level > 40 || (params.baseSlots << params.level) > kMaxSlots ||
      ((params.baseSlots << params.level) >> params.level) != params.baseSlots ||
      (params.growthSteps > 0 && !canDoubleTo(params, params.level + 1u))) {
    return QuotientTable::corruptAt("expandable level ", params.level, " is past what the format addresses");
  }
  // With the schedule, the slots' width is the schedule's, not a free choice:
  // its level's (the next level's plus one while growth steps are under way).
  const uint32_t ahead = params.growthSteps > 0 ? 1u : 0u;
  const uint32_t scheduledBits = scheduleOf(params).slotBits(params.level + ahead, bits) + ahead;
  if (params.schedule.widenEvery != 0 && bits != scheduledBits) {
    return QuotientTable::corruptAt("expandable fingerprint bits ", bits, " are not the schedule's ", scheduledBits, "");
  }
  const uint64_t quotients = params.baseSlots << params.level;
  const uint64_t nominal = slotsFor(quotients, params.growthSteps);
  const uint64_t slots = physicalSlots(nominal);
  const uint64_t wordCount = QuotientTable::payloadWordsFor(slots, bits + 2);
  if (blob.payloadLength % 8 != 0 || blob.payloadLength / 8 != wordCount) {
    return Status::corrupt(QuotientTable::withNumbers("expandable payload is ", blob.payloadLength, " bytes, but ", slots, " slots need ") +
                           std::to_string(wordCount * 8));
  }
  Status valid = validateTableBytes(wordCount * 8, "ExpandableFilter");
  if (!valid.isOk()) return valid;
  ExpandableFilter filter;
  filter.params_ = params;
  if (!filter.table_.allocate(slots, bits + 2)) {
    return Status::outOfMemory(QuotientTable::withNumbers("out of memory reading an expandable filter of ", wordCount * 8, " bytes"));
  }
  bytesToWords(blob.payload, static_cast<size_t>(wordCount), filter.table_.words());
  // Every entry well formed and in a quotient's slot; voids counted per
  // (age, quotient) to check that each group holds the same number of copies
  // in every quotient.
  uint64_t normal = 0, entries = 0;
  std::map<std::pair<uint64_t, uint64_t>, uint64_t> voidCopies;  // (age, quotient) -> copies
  valid = filter.table_.checkLayout(nominal, [&](uint64_t canonical, uint64_t v) {
    ++entries;
    const uint64_t quotient = filter.quotientAt(canonical);
    if (filter.slotOf(quotient) != canonical) {
      return QuotientTable::corruptAt("expandable: a run at slot ", canonical, ", which is no quotient's");
    }
    if (filter.isVoid(v)) {
      const uint64_t age = v & lowMask(bits + 1);
      if ((v >> (bits + 1)) != 1 || age > params.level) {
        return QuotientTable::corruptAt("expandable: slot value ", v, " is not an entry");
      }
      ++voidCopies[{age, quotient}];
      return Status::ok();
    }
    if (v < 2) return Status::corrupt("expandable: an entry with no fingerprint bits and no void mark");
    ++normal;
    return Status::ok();
  });
  if (!valid.isOk()) return valid;
  // In (age, quotient) order each group's 2^age quotients come one after
  // another, from its first (aligned) one: walked once, so this is linear.
  uint64_t voidKeys = 0;
  for (auto it = voidCopies.begin(); it != voidCopies.end();) {
    const uint64_t age = it->first.first;
    const uint64_t first = it->first.second & ~lowMask(static_cast<uint32_t>(age));
    const uint64_t copies = it->second;
    for (uint64_t s = first; s < first + (uint64_t{1} << age); ++s, ++it) {
      if (it == voidCopies.end() || it->first != std::make_pair(age, s) || it->second != copies) {
        return QuotientTable::corruptAt("expandable: a void entry of age ", age, " is missing a copy in quotient ", s, "");
      }
    }
    voidKeys += copies;
  }
  if (normal + voidKeys != blob.header.itemCount) {
    return QuotientTable::corruptAt("item count ", blob.header.itemCount, " disagrees with the ", normal + voidKeys,
                                    " keys the table holds");
  }
  filter.table_.rebuildSpill();  // the lookup's derived per-block counts, from the bits just checked
  filter.entries_ = entries;
  filter.freshBits_ = freshBitsOf(params);
  filter.header_ = blob.header;
  return filter;
}

}  // namespace cuckoo_bloom
