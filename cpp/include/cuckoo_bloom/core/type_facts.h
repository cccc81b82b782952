// The facts a filter class declares about itself, beside its options, for the
// registry to collect (FilterTypeInfo, any_filter.h) and the bindings to
// export (filterTypes(), bindings/embind.cpp). TypeScript, the CLI, the demo
// and the docs read them from there, so a fact is written once, here or in
// the class, never restated in another language.
//
// A class declares (every one optional unless said):
//   kGrowth           FilterGrowth: None (the default), ByChaining (the
//                     growing chains' base declares it) or InPlace.
//   kGrowingStandIn   FilterType of the growing type built instead when the
//                     number of keys is unknown (a pipe without --capacity).
//                     Default: the type itself when it grows, else none.
//   kEstimateSource   EstimateSource: what estimatedFalsePositiveRate()
//                     reads. Required: the registry refuses a class without it.
//   kDefaultCapacity  keys it is sized for when no capacity is given (a
//                     growing type's first link or table); default 0: the
//                     capacity must be given.
//   kOptionLimits     OptionLimit per option of its own whose range and
//                     default it checks (create/createFrom use the same
//                     constants, and a registry test checks the two agree).
//   kHashAlgorithm    HashAlgorithm its keys are hashed with (hashing.h);
//                     default Xxh3_64. The header records it and a read
//                     refuses bytes that name another (filter_support.h).
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>

#include "cuckoo_bloom/core/filter_options.h"

namespace cuckoo_bloom {

// How a type takes more keys than it was sized for.
//   X(Enumerator, "name")
#define CUCKOO_BLOOM_FILTER_GROWTHS(X) \
  X(None, "none")                      \
  X(ByChaining, "chaining")            \
  X(InPlace, "in-place")

enum class FilterGrowth : uint8_t {
#define CUCKOO_BLOOM_GROWTH_ENUMERATOR(enumerator, text) enumerator,
  CUCKOO_BLOOM_FILTER_GROWTHS(CUCKOO_BLOOM_GROWTH_ENUMERATOR)
#undef CUCKOO_BLOOM_GROWTH_ENUMERATOR
};

inline const char* filterGrowthName(FilterGrowth growth) {
  switch (growth) {
#define CUCKOO_BLOOM_GROWTH_NAME(enumerator, text) \
  case FilterGrowth::enumerator:                   \
    return text;
    CUCKOO_BLOOM_FILTER_GROWTHS(CUCKOO_BLOOM_GROWTH_NAME)
#undef CUCKOO_BLOOM_GROWTH_NAME
  }
  return "none";
}

// Where a type's estimated false-positive rate comes from, and the phrase
// that says so after a rate ("0.1% (from the bits actually set)").
//   X(Enumerator, "name", "phrase")
#define CUCKOO_BLOOM_ESTIMATE_SOURCES(X)                                                                         \
  X(BitsSet, "bits-set", "from the bits actually set")                                                          \
  X(CountersNonZero, "counters-non-zero", "from the counters actually non-zero")                                \
  X(FingerprintsStored, "fingerprints-stored", "from the fingerprints actually stored")                         \
  X(FingerprintWidth, "fingerprint-width",                                                                      \
    "from its fingerprint width: a lookup of a key never added matches with probability 2^−f")                \
  X(EntriesStored, "entries-stored", "from the entries actually stored and the fingerprint bits each has left")

enum class EstimateSource : uint8_t {
#define CUCKOO_BLOOM_ESTIMATE_ENUMERATOR(enumerator, text, phrase) enumerator,
  CUCKOO_BLOOM_ESTIMATE_SOURCES(CUCKOO_BLOOM_ESTIMATE_ENUMERATOR)
#undef CUCKOO_BLOOM_ESTIMATE_ENUMERATOR
};

struct EstimateSourceInfo {
  const char* name;
  const char* phrase;
};

inline EstimateSourceInfo estimateSourceInfo(EstimateSource source) {
  switch (source) {
#define CUCKOO_BLOOM_ESTIMATE_INFO(enumerator, text, phrase) \
  case EstimateSource::enumerator:                           \
    return {text, phrase};
    CUCKOO_BLOOM_ESTIMATE_SOURCES(CUCKOO_BLOOM_ESTIMATE_INFO)
#undef CUCKOO_BLOOM_ESTIMATE_INFO
  }
  return {"", ""};
}

// The range a type accepts for one of its own options, and its default:
// `min` and `max` bound it (each inclusive or not), `integer` when only whole
// numbers are taken; `defaultValue` is NaN when not given means something
// other than a number (a growth hint of none, a start read from the clock).
struct OptionLimit {
  OptionId id;
  double min;
  bool minInclusive;
  double max;
  bool maxInclusive;
  bool integer;
  double defaultValue;

  bool hasDefault() const { return !std::isnan(defaultValue); }
  bool admits(double value) const {
    if (std::isnan(value)) return false;
    if (minInclusive ? value < min : value <= min) return false;
    if (maxInclusive ? value > max : value >= max) return false;
    return !integer || std::floor(value) == value;
  }
};

// No default: the value NaN stands for.
constexpr double kNoDefault = std::numeric_limits<double>::quiet_NaN();
constexpr double kUnbounded = std::numeric_limits<double>::infinity();

}  // namespace cuckoo_bloom
