// The registry of filter types: one type-erased interface over every filter
// listed in filter_types.h, with create and read by type, and what each type
// supports. The bindings, the fuzz targets and the typed tests use this, so a
// new type added to the list reaches all of them without further edits.
#pragma once

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "cuckoo_bloom/core/filter_support.h"
#include "cuckoo_bloom/registry/filter_classes.h"

namespace cuckoo_bloom {

// A class's kOptionLimits, as a list (empty when it declares none).
struct OptionLimitList {
  const OptionLimit* limits = nullptr;
  size_t size = 0;
  constexpr const OptionLimit* begin() const { return limits; }
  constexpr const OptionLimit* end() const { return limits + size; }
};

// One registered type, as the registry describes it.
struct FilterTypeInfo {
  FilterType type;
  const char* name;
  bool supportsRemove;
  bool supportsUnion;
  // Built once from its keys (buildFilter), then read-only: createFilter
  // refuses it and add() is Unsupported.
  bool isStatic;
  // Its keys expire (it moves with a clock, advance(now)): a key added is
  // not answered forever, so it cannot hold a list that must not lose keys.
  bool forgets;
  // The options it takes beyond capacity, falsePositiveRate and seed (its
  // class's kOptions); createFilter and buildFilter refuse any other.
  OptionList options;
  // The facts its class declares (core/type_facts.h), each read from there only.
  // How it takes more keys than it was sized for: not at all, by appending
  // links (the growing chains), or in place (the expandable filter).
  FilterGrowth growth;
  // The growing type made instead when the number of keys is unknown (the
  // CLI reading a pipe without --capacity): itself when it grows; none
  // (hasGrowingStandIn false) for a static type or one that forgets.
  bool hasGrowingStandIn;
  FilterType growingStandIn;
  // What estimatedFalsePositiveRate() reads.
  EstimateSource estimateSource;
  // Keys it is sized for when no capacity is given; 0: a capacity is required.
  uint64_t defaultCapacity;
  // The range and default of each of its own options that declares them.
  OptionLimitList optionLimits;
  // How its keys are hashed (kHashAlgorithm): what a caller of buildFilter
  // hashes them with (hashKeyWith), and what its bytes' header says.
  HashAlgorithm hashAlgorithm;
};


// Whether a filter class is static (declares kIsStatic = true).
template <typename Filter, typename = void>
struct IsStaticFilter : std::false_type {};
template <typename Filter>
struct IsStaticFilter<Filter, std::void_t<decltype(Filter::kIsStatic)>>
    : std::integral_constant<bool, Filter::kIsStatic> {};

// The facts of core/type_facts.h, each with its default for a class that
// does not declare it.
template <typename Filter, typename = void>
struct GrowthOf : std::integral_constant<FilterGrowth, FilterGrowth::None> {};
template <typename Filter>
struct GrowthOf<Filter, std::void_t<decltype(Filter::kGrowth)>>
    : std::integral_constant<FilterGrowth, Filter::kGrowth> {};

template <typename Filter, typename = void>
struct GrowingStandInOf {
  static constexpr bool exists = GrowthOf<Filter>::value != FilterGrowth::None;
  static constexpr FilterType value = Filter::kType;
};
template <typename Filter>
struct GrowingStandInOf<Filter, std::void_t<decltype(Filter::kGrowingStandIn)>> {
  static constexpr bool exists = true;
  static constexpr FilterType value = Filter::kGrowingStandIn;
};

template <typename Filter, typename = void>
struct DefaultCapacityOf : std::integral_constant<uint64_t, 0> {};
template <typename Filter>
struct DefaultCapacityOf<Filter, std::void_t<decltype(Filter::kDefaultCapacity)>>
    : std::integral_constant<uint64_t, Filter::kDefaultCapacity> {};

template <typename Filter, typename = void>
struct OptionLimitsOf {
  static constexpr OptionLimitList value{};
};
template <typename Filter>
struct OptionLimitsOf<Filter, std::void_t<decltype(Filter::kOptionLimits)>> {
  static constexpr OptionLimitList value{Filter::kOptionLimits, std::size(Filter::kOptionLimits)};
};

template <typename Filter, typename = void>
struct DeclaresEstimateSource : std::false_type {};
template <typename Filter>
struct DeclaresEstimateSource<Filter, std::void_t<decltype(Filter::kEstimateSource)>> : std::true_type {};

// Every registered type, in the order of filter_types.h.
const std::vector<FilterTypeInfo>& registeredFilterTypes();

class AnyFilter {
 public:
  virtual ~AnyFilter() = default;
  virtual FilterType type() const = 0;
  virtual const FilterHeader& header() const = 0;
  virtual KeyHash hashOf(const uint8_t* key, size_t length) const = 0;
  // Ok, or Full (cuckoo: nothing changed, nothing lost); Unsupported for a
  // static type.
  virtual Status add(const KeyHash& hash) = 0;
  virtual bool has(const KeyHash& hash) const = 0;
  // Ok, NotFound, or Unsupported for types without removal.
  virtual Status remove(const KeyHash& hash) = 0;
  // InvalidArgument unless `other` is the same type with the same sizing and
  // seed; Unsupported for types without union.
  virtual Status unionWith(const AnyFilter& other) = 0;
  // The bit or counter indexes of a key (empty for types without positions).
  virtual std::vector<uint64_t> positions(const KeyHash& hash) const = 0;
  virtual void clear() = 0;
  virtual size_t byteLength() const = 0;
  virtual double estimatedFalsePositiveRate() const = 0;
  // The type's own parameters by name (bitCount, hashCount, bucketCount, ...).
  virtual std::vector<std::pair<std::string, double>> parameters() const = 0;
  virtual std::vector<uint8_t> serialize() const = 0;
  // The same bytes in parts whose payload is the table's own memory (valid
  // until the filter changes): the bindings copy it straight out, so
  // serializing needs no second copy of the table in wasm memory.
  virtual Result<SerializedParts> serializedParts() const = 0;

  // The dedupe step, on one hash: adds the key unless the filter already
  // reports it present. `added` says which; the status is add()'s (Full).
  // In a filter with removal a key skipped as a false positive is not stored.
  Status addIfNew(const KeyHash& hash, bool& added) {
    added = false;
    if (has(hash)) return Status::ok();
    Status status = add(hash);
    added = status.isOk();
    return status;
  }

  // The byte-key forms: one virtual call each (hash and probe inlined behind
  // it), the path every key from JavaScript takes.
  virtual Status add(const uint8_t* key, size_t length) = 0;
  virtual bool has(const uint8_t* key, size_t length) const = 0;
  virtual Status remove(const uint8_t* key, size_t length) = 0;

  // Batches, the layout JavaScript hands over in one call: `count` keys whose
  // bytes lie one after another from `data`; key i is the bytes
  // [data + offsets[i] - offsets[0], data + offsets[i + 1] - offsets[0]), so
  // `offsets` (count + 1 entries) may be a window of a larger offsets array.
  // Keys are hashed a small group at a time, then probed: the group's table
  // reads are independent, so their cache misses overlap.
  //
  // hasMany writes one byte per key to `out` (1: may be present, 0: absent).
  virtual void hasMany(const uint8_t* data, const uint32_t* offsets, size_t count, uint8_t* out) const = 0;
  // Adds keys in order and stops at the first that is not stored (Full, or
  // OutOfMemory when a growing filter cannot make its next link or table;
  // nothing of that key changed): returns how many were stored, and when it
  // stopped early, that key's status in `stopped` (unless null): a batch says
  // why it stopped exactly as add() of that key would.
  virtual size_t addMany(const uint8_t* data, const uint32_t* offsets, size_t count, Status* stopped) = 0;
  size_t addMany(const uint8_t* data, const uint32_t* offsets, size_t count) {
    return addMany(data, offsets, count, nullptr);
  }
  // Removes each key once; writes 1 per key removed, 0 per key not found.
  // Unsupported (nothing written) for types without removal.
  virtual Status removeMany(const uint8_t* data, const uint32_t* offsets, size_t count, uint8_t* out) = 0;

  // The concrete filter, or nullptr when this is another type.
  template <typename Filter>
  Filter* as() {
    return type() == Filter::kType ? static_cast<Filter*>(concrete()) : nullptr;
  }
  template <typename Filter>
  const Filter* as() const {
    return type() == Filter::kType ? static_cast<const Filter*>(concrete()) : nullptr;
  }

 protected:
  virtual void* concrete() = 0;
  virtual const void* concrete() const = 0;
};

// An empty filter of a dynamic type; Unsupported for a static type (build it
// from its keys).
Result<std::unique_ptr<AnyFilter>> createFilter(FilterType type, const CoreFilterOptions& options);
// A filter holding the keys whose hashes (hashKeyWith the type's hashAlgorithm, options.seed) are
// given. A static type is built from them (duplicates stored once); a dynamic
// type is created (capacity: options.capacity, or the key count when 0) and
// each key added in order, the first failure (cuckoo: Full) returned.
Result<std::unique_ptr<AnyFilter>> buildFilter(FilterType type, const CoreFilterOptions& options, const KeyHash* hashes,
                                               size_t count);
// Reads any registered type (WrongType for a URL blocklist or an unknown type).
Result<std::unique_ptr<AnyFilter>> deserializeFilter(const uint8_t* data, size_t length);
// The same, from bytes in a BlobBuffer: a word-array filter (Bloom, blocked,
// counting) keeps the buffer's allocation as its table instead of copying it.
Result<std::unique_ptr<AnyFilter>> deserializeFilter(BlobBuffer& buffer);

}  // namespace cuckoo_bloom
