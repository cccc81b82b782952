// What every filter type shares when it is created or read, so each type's
// own code is only its structure: the header state, the generic read path
// (common decode, parameter block, payload words), and the capability flags
// the registry (any_filter.h) reads.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include "cuckoo_bloom/core/filter_options.h"
#include "cuckoo_bloom/core/format.h"
#include "cuckoo_bloom/core/hashing.h"
#include "cuckoo_bloom/core/limits.h"
#include "cuckoo_bloom/core/status.h"
#include "cuckoo_bloom/core/type_facts.h"
#include "cuckoo_bloom/core/word_buffer.h"

namespace cuckoo_bloom {

// The options of a type that takes only the shared three (the Bloom family):
// the same three as TypeScript's public FilterOptions (js/src/options.ts),
// under the same name. Every option, as the registry reads it, is
// CoreFilterOptions (filter_options.h).
struct FilterOptions {
  uint64_t capacity = 0;           // keys the filter is sized for (>= 1)
  double falsePositiveRate = 0.0;  // target rate in (0, 1)
  uint64_t seed = 0;               // hash seed; filters to be unioned need the same seed
};

// A fresh header for a filter being created.
inline FilterHeader newHeader(FilterType type, uint64_t capacity, double falsePositiveRate, uint64_t seed) {
  FilterHeader header;
  header.type = type;
  header.seed = seed;
  header.capacity = capacity;
  header.targetFalsePositiveRate = falsePositiveRate;
  return header;
}

// Allocates `wordCount` zeroed words or reports OutOfMemory.
inline Status allocateWords(WordBuffer& words, uint64_t wordCount, FilterType type) {
  if (wordCount > SIZE_MAX / sizeof(uint64_t) || !words.allocate(static_cast<size_t>(wordCount))) {
    return Status::outOfMemory(std::string("out of memory allocating ") + std::to_string(wordCount * 8) +
                               " bytes for a " + filterTypeName(type) + " filter");
  }
  return Status::ok();
}

// The payload of a word-array filter: exactly wordCount little-endian words,
// with no bit set beyond the first usedBits (bits there would be invisible to
// every query and would not survive a round trip).
inline Status readPayloadWords(const DecodedBlob& blob, uint64_t wordCount, uint64_t usedBits, WordBuffer& words) {
  const FilterType type = blob.header.type;
  if (blob.payloadLength % 8 != 0 || blob.payloadLength / 8 != wordCount) {
    return Status::corrupt(std::string(filterTypeName(type)) + " payload is " + std::to_string(blob.payloadLength) +
                           " bytes, but its parameters need " + std::to_string(wordCount * 8));
  }
  Status valid = validateTableBytes(wordCount * 8, filterTypeName(type));
  if (!valid.isOk()) return valid;
  if (blob.owner == nullptr || !blob.owner->adoptInto(blob.payload, static_cast<size_t>(wordCount), words)) {
    Status allocated = allocateWords(words, wordCount, type);
    if (!allocated.isOk()) return allocated;
    bytesToWords(blob.payload, static_cast<size_t>(wordCount), words.data());
  }
  if (usedBits % 64 != 0 && wordCount > 0 && (words[static_cast<size_t>(wordCount - 1)] >> (usedBits % 64)) != 0) {
    return Status::corrupt(std::string(filterTypeName(type)) + ": bits beyond the table are set");
  }
  return Status::ok();
}

// A class's kHashAlgorithm (type_facts.h), Xxh3_64 when it declares none.
template <typename Filter, typename = void>
struct HashAlgorithmOf : std::integral_constant<HashAlgorithm, HashAlgorithm::Xxh3_64> {};
template <typename Filter>
struct HashAlgorithmOf<Filter, std::void_t<decltype(Filter::kHashAlgorithm)>>
    : std::integral_constant<HashAlgorithm, Filter::kHashAlgorithm> {};

// The generic read path of a single-part filter type: the common decode, the
// type's parameter block, then the type's own checks and payload. Bytes that
// name another hash than the type's would answer wrongly for every key.
template <typename Filter>
Result<Filter> readFilter(const DecodedBlob& decoded) {
  if (decoded.header.hashAlgorithm != HashAlgorithmOf<Filter>::value) {
    return Status::corrupt(std::string(filterTypeName(decoded.header.type)) + " filter with hash algorithm " +
                           std::to_string(static_cast<int>(decoded.header.hashAlgorithm)) + ", not its own");
  }
  typename Filter::Params params;
  Status status = decodeParams(decoded, params);
  if (!status.isOk()) return status;
  return Filter::fromBlob(decoded, params);
}
template <typename Filter>
Result<Filter> readFilter(const uint8_t* data, size_t length) {
  Result<DecodedBlob> decoded = decodeBlobOfType(data, length, Filter::kType);
  if (!decoded.isOk()) return decoded.status();
  return readFilter<Filter>(decoded.value());
}

inline KeyHash hashKey(std::string_view key, uint64_t seed) {
  return hashKey(reinterpret_cast<const uint8_t*>(key.data()), key.size(), seed);
}

// What a type supports is what it defines, detected rather than declared
// beside it (so the registry's flags and the methods cannot disagree):
// removal is remove(const KeyHash&), union is unionWith(const Filter&),
// forgetting (keys expire) is advance(double now).
template <typename Filter, typename = void>
struct SupportsRemove : std::false_type {};
template <typename Filter>
struct SupportsRemove<Filter, std::void_t<decltype(std::declval<Filter&>().remove(std::declval<const KeyHash&>()))>>
    : std::true_type {};
template <typename Filter, typename = void>
struct SupportsUnion : std::false_type {};
template <typename Filter>
struct SupportsUnion<Filter, std::void_t<decltype(std::declval<Filter&>().unionWith(std::declval<const Filter&>()))>>
    : std::true_type {};
// A type forgets (its keys expire) when it moves with a clock: advance(now).
template <typename Filter, typename = void>
struct Forgets : std::false_type {};
template <typename Filter>
struct Forgets<Filter, std::void_t<decltype(std::declval<Filter&>().advance(std::declval<double>()))>>
    : std::true_type {};
template <typename Filter>
constexpr bool kSupportsRemove = SupportsRemove<Filter>::value;
template <typename Filter>
constexpr bool kSupportsUnion = SupportsUnion<Filter>::value;
template <typename Filter>
constexpr bool kForgets = Forgets<Filter>::value;

// A stand-in visitor, only to ask (SFINAE) whether a type has visitBlob.
struct BlobVisitorProbe {
  int operator()(const FilterHeader&, const std::vector<uint8_t>&, const uint64_t*, size_t) const { return 0; }
};

// Each class's type id, from its line in filter_types.h: the one place that
// pairs a class with its id and name, so the class does not repeat it.
template <typename Class>
struct FilterTypeOf;

// The concurrent wrappers' one way into a filter's table and count
// (concurrent/concurrent_access.h): a friend, so no plain caller gains a
// mutable table. It adds no behaviour to the filters.
struct ConcurrentAccess;
#define CUCKOO_BLOOM_FILTER_TYPE_OF(enumerator, id, text, Class) \
  class Class;                                                    \
  template <>                                                     \
  struct FilterTypeOf<Class> {                                    \
    static constexpr FilterType value = FilterType::enumerator;   \
  };
CUCKOO_BLOOM_FILTER_TYPES(CUCKOO_BLOOM_FILTER_TYPE_OF)
#undef CUCKOO_BLOOM_FILTER_TYPE_OF

// What every filter type has around its structure: the header state (named
// once, in FilterHeader) and the byte-key forms of its operations, each a
// one-liner over the KeyHash form the type defines (hash once, probe many:
// a chain hashes a key once for all its links, which share its seed).
// A type brings the forms it has into scope with `using KeyedFilter::add;`
// etc.; a form whose KeyHash operation the type lacks does not compile.
template <typename Derived>
class KeyedFilter {
 public:
  // The type id (filter_types.h), e.g. in the header of a new filter.
  static constexpr FilterType kType = FilterTypeOf<Derived>::value;

  // Every type is read the same way (readFilter: the common decode, the
  // type's parameter block, then its fromBlob).
  static Result<Derived> deserialize(const uint8_t* data, size_t length) { return readFilter<Derived>(data, length); }

  const FilterHeader& header() const { return header_; }
  // What count() means is the type's (see each type's header).
  uint64_t count() const { return header_.itemCount; }
  uint64_t seed() const { return header_.seed; }
  uint64_t capacity() const { return header_.capacity; }
  double targetFalsePositiveRate() const { return header_.targetFalsePositiveRate; }

  // The type's own hash (its kHashAlgorithm) with the header's seed.
  KeyHash hashOf(const uint8_t* key, size_t length) const {
    return hashKeyWith<HashAlgorithmOf<Derived>::value>(key, length, header_.seed);
  }
  KeyHash hashOf(std::string_view key) const {
    return hashOf(reinterpret_cast<const uint8_t*>(key.data()), key.size());
  }

  // Return types spelled as "whatever the KeyHash form returns", so that a form
  // the type lacks is simply not there (SFINAE), rather than a deduction error.
  template <typename D = Derived>
  auto add(const uint8_t* key, size_t length) -> decltype(std::declval<D&>().add(KeyHash{})) {
    return self().add(hashOf(key, length));
  }
  template <typename D = Derived>
  auto add(std::string_view key) -> decltype(std::declval<D&>().add(KeyHash{})) {
    return self().add(hashOf(key));
  }
  bool has(const uint8_t* key, size_t length) const { return self().has(hashOf(key, length)); }
  bool has(std::string_view key) const { return self().has(hashOf(key)); }
  template <typename D = Derived>
  auto remove(const uint8_t* key, size_t length) -> decltype(std::declval<D&>().remove(KeyHash{})) {
    return self().remove(hashOf(key, length));
  }
  template <typename D = Derived>
  auto remove(std::string_view key) -> decltype(std::declval<D&>().remove(KeyHash{})) {
    return self().remove(hashOf(key));
  }
  // The byte format, from the type's visitBlob (header, parameter block,
  // payload words): as a fresh vector, written into caller memory of
  // serializedSize() bytes, or in parts whose payload is the table itself.
  template <typename D = Derived>
  auto serializedSize() const -> decltype(std::declval<const D&>().visitBlob(BlobVisitorProbe{}), size_t()) {
    return self().visitBlob([](const FilterHeader&, const std::vector<uint8_t>& params, const uint64_t*, size_t words) {
      return blobByteCount(params.size(), words * 8);
    });
  }
  template <typename D = Derived>
  auto serializeInto(uint8_t* out) const -> decltype(std::declval<const D&>().visitBlob(BlobVisitorProbe{}), void()) {
    self().visitBlob([out](const FilterHeader& header, const std::vector<uint8_t>& params, const uint64_t* words,
                           size_t count) { writeBlob(header, params, words, count, out); });
  }
  template <typename D = Derived>
  auto serialize() const -> decltype(std::declval<const D&>().visitBlob(BlobVisitorProbe{}), std::vector<uint8_t>()) {
    std::vector<uint8_t> out(serializedSize());
    serializeInto(out.data());
    return out;
  }
  template <typename D = Derived>
  auto serializedParts() const -> decltype(std::declval<const D&>().visitBlob(BlobVisitorProbe{}), SerializedParts()) {
    return self().visitBlob([](const FilterHeader& header, const std::vector<uint8_t>& params, const uint64_t* words,
                               size_t count) { return blobParts(header, params, words, count); });
  }

  template <typename D = Derived>
  auto positions(const uint8_t* key, size_t length) const
      -> decltype(std::declval<const D&>().positions(KeyHash{})) {
    return self().positions(hashOf(key, length));
  }

 protected:
  friend struct ConcurrentAccess;
  FilterHeader header_;

 private:
  Derived& self() { return static_cast<Derived&>(*this); }
  const Derived& self() const { return static_cast<const Derived&>(*this); }
};

}  // namespace cuckoo_bloom
