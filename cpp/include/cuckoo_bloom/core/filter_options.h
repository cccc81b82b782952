// The one list of filter options: every option any filter type takes, once,
// with its kind and what it means. The options struct (CoreFilterOptions),
// whether each option was given, the bindings' reader (bindings/embind.cpp
// iterates the list) and the generic error texts are generated from it, so
// a new option is one line here plus the types that take it.
//
//   X(Enumerator, name, Kind, "what it means")
//
// The shared three (capacity, falsePositiveRate, seed) are taken by every
// type (0 means "the type's default" for each). Every other option is
// std::optional in the struct ("not given" is the type's default), and a
// type takes it only if its class lists it in `kOptions`
// (e.g. `static constexpr OptionId kOptions[] = {OptionId::Arity};`): the
// registry (any_filter.cpp) refuses, once for every type, an option a type
// does not list, naming the option, the type and the options it does take.
// Range checks of an option stay in the type that takes it.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <optional>
#include <string>
#include <tuple>
#include <type_traits>

#include "cuckoo_bloom/core/limits.h"
#include "cuckoo_bloom/core/status.h"

namespace cuckoo_bloom {

#define CUCKOO_BLOOM_SHARED_OPTIONS(X)                                                           \
  X(Capacity, capacity, Count, "keys the filter is sized for (a growing filter: its first link)") \
  X(FalsePositiveRate, falsePositiveRate, Number, "the target false-positive rate, in (0, 1)")    \
  X(Seed, seed, Count, "the hash seed; filters to be unioned need the same one")

#define CUCKOO_BLOOM_TYPE_OPTIONS(X)                                                                     \
  X(ByteCount, byteCount, Count, "the split-block Bloom bitset's exact bytes: a power of two, 32..128 MiB") \
  X(BucketSize, bucketSize, Integer, "slots per bucket: 2, 4 or 8")                                     \
  X(FingerprintBits, fingerprintBits, Integer, "bits per fingerprint: 4..32")                           \
  X(MaxKicks, maxKicks, Integer, "evictions an insert tries before it reports FULL")                    \
  X(SemiSorted, semiSorted, Flag, "buckets of 4 stored semi-sorted: one bit less per fingerprint")      \
  X(Arity, arity, Integer, "neighbouring segments a key maps to: 3 or 4")                               \
  X(Growth, growth, Number, "each link's capacity over the previous link's")                            \
  X(Tightening, tightening, Number, "each link's false-positive rate over the previous link's")         \
  X(Window, window, Number, "clock units a key is remembered for at least")                             \
  X(Generations, generations, Integer, "filters in rotation: 2..64")                                    \
  X(StartTime, startTime, Number, "the caller's clock reading at creation: the first generation's start") \
  X(ExpectedCapacity, expectedCapacity, Count, "keys an expandable filter expects to grow to: sizes its slots and fingerprints for that end point")

#define CUCKOO_BLOOM_FILTER_OPTIONS(X) \
  CUCKOO_BLOOM_SHARED_OPTIONS(X)       \
  CUCKOO_BLOOM_TYPE_OPTIONS(X)

// What values an option takes. Count: an integer >= 0 (uint64_t); Integer:
// any integer (int64_t, so a negative one reaches the type's range check
// rather than wrapping); Number: a double, not NaN; Flag: true or false
// (from JavaScript a boolean, or 0 or 1).
enum class OptionKind { Count, Integer, Number, Flag };

// The C++ type of each kind's values, in OptionKind's order.
using OptionValueTypes = std::tuple<uint64_t, int64_t, double, bool>;
static_assert(std::tuple_size_v<OptionValueTypes> == static_cast<size_t>(OptionKind::Flag) + 1,
              "one value type for each OptionKind");

template <OptionKind Kind>
struct OptionValueOf {
  using type = std::tuple_element_t<static_cast<size_t>(Kind), OptionValueTypes>;
};

enum class OptionId {
#define CUCKOO_BLOOM_OPTION_ID(enumerator, name, kind, meaning) enumerator,
  CUCKOO_BLOOM_FILTER_OPTIONS(CUCKOO_BLOOM_OPTION_ID)
#undef CUCKOO_BLOOM_OPTION_ID
};

struct OptionInfo {
  OptionId id;
  const char* name;
  OptionKind kind;
  const char* meaning;
  bool shared;  // one of the three every type takes
};

// Every option, in the order of the list (the shared three first).
inline constexpr OptionInfo kFilterOptions[] = {
#define CUCKOO_BLOOM_SHARED_OPTION_INFO(enumerator, name, kind, meaning) \
  {OptionId::enumerator, #name, OptionKind::kind, meaning, true},
    CUCKOO_BLOOM_SHARED_OPTIONS(CUCKOO_BLOOM_SHARED_OPTION_INFO)
#undef CUCKOO_BLOOM_SHARED_OPTION_INFO
#define CUCKOO_BLOOM_TYPE_OPTION_INFO(enumerator, name, kind, meaning) \
  {OptionId::enumerator, #name, OptionKind::kind, meaning, false},
        CUCKOO_BLOOM_TYPE_OPTIONS(CUCKOO_BLOOM_TYPE_OPTION_INFO)
#undef CUCKOO_BLOOM_TYPE_OPTION_INFO
};

inline constexpr const OptionInfo& optionInfo(OptionId id) { return kFilterOptions[static_cast<size_t>(id)]; }

// Every option a filter can be created or built with, as the core reads
// them (TypeScript's CoreFilterOptions, js/src/runtime/core-module.ts: the
// same name on both sides). Checked by the registry against the type's
// kOptions before the type's createFrom/buildFrom sees it.
struct CoreFilterOptions {
#define CUCKOO_BLOOM_SHARED_OPTION_FIELD(enumerator, name, kind, meaning) \
  OptionValueOf<OptionKind::kind>::type name = {};
  CUCKOO_BLOOM_SHARED_OPTIONS(CUCKOO_BLOOM_SHARED_OPTION_FIELD)
#undef CUCKOO_BLOOM_SHARED_OPTION_FIELD
#define CUCKOO_BLOOM_TYPE_OPTION_FIELD(enumerator, name, kind, meaning) \
  std::optional<OptionValueOf<OptionKind::kind>::type> name;
  CUCKOO_BLOOM_TYPE_OPTIONS(CUCKOO_BLOOM_TYPE_OPTION_FIELD)
#undef CUCKOO_BLOOM_TYPE_OPTION_FIELD

  // Whether an option was given (the shared three: always, 0 is their default).
  bool isSet(OptionId id) const {
    switch (id) {
#define CUCKOO_BLOOM_SHARED_OPTION_SET(enumerator, name, kind, meaning) \
  case OptionId::enumerator:                                            \
    return true;
      CUCKOO_BLOOM_SHARED_OPTIONS(CUCKOO_BLOOM_SHARED_OPTION_SET)
#undef CUCKOO_BLOOM_SHARED_OPTION_SET
#define CUCKOO_BLOOM_TYPE_OPTION_SET(enumerator, name, kind, meaning) \
  case OptionId::enumerator:                                          \
    return name.has_value();
      CUCKOO_BLOOM_TYPE_OPTIONS(CUCKOO_BLOOM_TYPE_OPTION_SET)
#undef CUCKOO_BLOOM_TYPE_OPTION_SET
    }
    return false;
  }

  // Sets an option from a number (a flag: 0 or 1), as the bindings read it:
  // InvalidArgument naming the option when the value is not of its kind.
  Status set(OptionId id, double value);
};

// The value as the option's kind takes it, or InvalidArgument naming it.
template <OptionKind Kind>
Status optionValue(const OptionInfo& info, double value, typename OptionValueOf<Kind>::type& out) {
  const auto refuse = [&](const char* wanted) {
    return Status::invalidArgument(std::string(info.name) + " must be " + wanted + ", got " + formatNumber(value));
  };
  // 2^53: every integer a JavaScript number holds exactly.
  constexpr double kLargestExactInteger = 9007199254740992.0;
  if constexpr (Kind == OptionKind::Count) {
    if (!(value >= 0.0 && value <= kLargestExactInteger) || std::floor(value) != value) {
      return refuse("an integer >= 0");
    }
    out = static_cast<uint64_t>(value);
  } else if constexpr (Kind == OptionKind::Integer) {
    if (!(std::fabs(value) <= kLargestExactInteger) || std::floor(value) != value) return refuse("an integer");
    out = static_cast<int64_t>(value);
  } else if constexpr (Kind == OptionKind::Number) {
    if (std::isnan(value)) return refuse("a number");
    out = value;
  } else {
    if (value != 0.0 && value != 1.0) return refuse("true or false");
    out = value == 1.0;
  }
  return Status::ok();
}

inline Status CoreFilterOptions::set(OptionId id, double value) {
  const OptionInfo& info = optionInfo(id);
  switch (id) {
#define CUCKOO_BLOOM_SHARED_OPTION_SETTER(enumerator, name, kind, meaning) \
  case OptionId::enumerator:                                               \
    return optionValue<OptionKind::kind>(info, value, name);
    CUCKOO_BLOOM_SHARED_OPTIONS(CUCKOO_BLOOM_SHARED_OPTION_SETTER)
#undef CUCKOO_BLOOM_SHARED_OPTION_SETTER
#define CUCKOO_BLOOM_TYPE_OPTION_SETTER(enumerator, name, kind, meaning)      \
  case OptionId::enumerator: {                                                \
    OptionValueOf<OptionKind::kind>::type parsed{};                           \
    Status valid = optionValue<OptionKind::kind>(info, value, parsed);        \
    if (valid.isOk()) name = parsed;                                          \
    return valid;                                                             \
  }
    CUCKOO_BLOOM_TYPE_OPTIONS(CUCKOO_BLOOM_TYPE_OPTION_SETTER)
#undef CUCKOO_BLOOM_TYPE_OPTION_SETTER
  }
  return Status::invalidArgument("unknown option");
}

// The options a type takes beyond the shared three: its class's kOptions,
// or none when it declares no list.
struct OptionList {
  const OptionId* ids = nullptr;
  size_t size = 0;
  constexpr const OptionId* begin() const { return ids; }
  constexpr const OptionId* end() const { return ids + size; }
  bool contains(OptionId id) const {
    for (OptionId own : *this) {
      if (own == id) return true;
    }
    return false;
  }
};
template <typename Filter, typename = void>
struct OptionsOf {
  static constexpr OptionList value{};
};
template <typename Filter>
struct OptionsOf<Filter, std::void_t<decltype(Filter::kOptions)>> {
  static constexpr OptionList value{Filter::kOptions, std::size(Filter::kOptions)};
};

// "bucketSize, fingerprintBits and maxKicks" (or "no other option").
inline std::string optionNames(OptionList list) {
  std::string names;
  for (size_t i = 0; i < list.size; ++i) {
    if (i > 0) names += i + 1 == list.size ? " and " : ", ";
    names += optionInfo(list.ids[i]).name;
  }
  return names.empty() ? std::string("no other option") : names;
}

// The one check of which options a type takes: every option given must be
// shared or in the type's list. `typeName` names the type in the message.
inline Status checkTakesOptions(const CoreFilterOptions& options, OptionList takes, const char* typeName) {
  for (const OptionInfo& info : kFilterOptions) {
    if (info.shared || !options.isSet(info.id) || takes.contains(info.id)) continue;
    return Status::invalidArgument(std::string("a ") + typeName + " filter does not take the option " + info.name +
                                   "; beyond capacity, falsePositiveRate and seed it takes " + optionNames(takes));
  }
  return Status::ok();
}

}  // namespace cuckoo_bloom
