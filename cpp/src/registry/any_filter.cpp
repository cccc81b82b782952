#include "cuckoo_bloom/registry/any_filter.h"

#include <new>
#include <type_traits>

namespace cuckoo_bloom {
namespace {

// Whether a filter type has positions(KeyHash) (the Bloom family does).
template <typename Filter, typename = void>
struct HasPositions : std::false_type {};
template <typename Filter>
struct HasPositions<Filter, std::void_t<decltype(std::declval<const Filter&>().positions(KeyHash{}))>>
    : std::true_type {};

// Whether a filter type exposes its payload words for serializing (visitBlob).
template <typename Filter, typename = void>
struct ExposesPayload : std::false_type {};
template <typename Filter>
struct ExposesPayload<Filter, std::void_t<decltype(std::declval<const Filter&>().serializedParts())>>
    : std::true_type {};

// Adapts one concrete filter type to AnyFilter; its capability flags decide
// which operations exist.
template <typename Filter>
class RegisteredFilter final : public AnyFilter {
 public:
  explicit RegisteredFilter(Filter filter) : filter_(std::move(filter)) {}

  FilterType type() const override { return Filter::kType; }
  const FilterHeader& header() const override { return filter_.header(); }
  KeyHash hashOf(const uint8_t* key, size_t length) const override { return filter_.hashOf(key, length); }
  Status add(const KeyHash& hash) override {
    if constexpr (IsStaticFilter<Filter>::value) {
      (void)hash;
      return Status::unsupported(std::string("a ") + filterTypeName(Filter::kType) +
                                 " filter is static: it is built once from its keys; build a new one to change them");
    } else if constexpr (std::is_void_v<decltype(filter_.add(hash))>) {
      filter_.add(hash);
      return Status::ok();
    } else {
      return filter_.add(hash);
    }
  }
  bool has(const KeyHash& hash) const override { return filter_.has(hash); }
  Status add(const uint8_t* key, size_t length) override { return add(filter_.hashOf(key, length)); }
  bool has(const uint8_t* key, size_t length) const override { return filter_.has(filter_.hashOf(key, length)); }
  Status remove(const uint8_t* key, size_t length) override { return remove(filter_.hashOf(key, length)); }
  Status remove(const KeyHash& hash) override {
    if constexpr (kSupportsRemove<Filter>) {
      return filter_.remove(hash);
    } else {
      (void)hash;
      return Status::unsupported(std::string("a ") + filterTypeName(Filter::kType) +
                                 " filter cannot remove keys (use a counting-bloom or cuckoo filter)");
    }
  }
  void hasMany(const uint8_t* data, const uint32_t* offsets, size_t count, uint8_t* out) const override {
    KeyHash hashes[kBatchGroup];
    for (size_t start = 0; start < count; start += kBatchGroup) {
      const size_t group = count - start < kBatchGroup ? count - start : kBatchGroup;
      hashGroup(data, offsets, start, group, hashes);
      for (size_t j = 0; j < group; ++j) out[start + j] = filter_.has(hashes[j]) ? 1 : 0;
    }
  }
  size_t addMany(const uint8_t* data, const uint32_t* offsets, size_t count, Status* stopped) override {
    KeyHash hashes[kBatchGroup];
    for (size_t start = 0; start < count; start += kBatchGroup) {
      const size_t group = count - start < kBatchGroup ? count - start : kBatchGroup;
      hashGroup(data, offsets, start, group, hashes);
      for (size_t j = 0; j < group; ++j) {
        Status status = add(hashes[j]);
        if (!status.isOk()) {
          // The status travels with the count: a caller that only saw the
          // count would have to guess why (and said FULL for out of memory).
          if (stopped != nullptr) *stopped = std::move(status);
          return start + j;
        }
      }
    }
    return count;
  }
  Status removeMany(const uint8_t* data, const uint32_t* offsets, size_t count, uint8_t* out) override {
    if constexpr (kSupportsRemove<Filter>) {
      for (size_t i = 0; i < count; ++i) {
        const uint8_t* key = data + (offsets[i] - offsets[0]);
        const Status status = filter_.remove(filter_.hashOf(key, offsets[i + 1] - offsets[i]));
        if (!status.isOk() && status.code() != StatusCode::NotFound) return status;
        out[i] = status.isOk() ? 1 : 0;
      }
      return Status::ok();
    } else {
      (void)data, (void)offsets, (void)count, (void)out;
      return remove(KeyHash{});  // the Unsupported status with its message
    }
  }
  Status unionWith(const AnyFilter& other) override {
    if constexpr (kSupportsUnion<Filter>) {
      const Filter* same = other.as<Filter>();
      if (same == nullptr) {
        return Status::invalidArgument(std::string("union needs another ") + filterTypeName(Filter::kType) +
                                       " filter, got a " + filterTypeName(other.type()) + " filter");
      }
      return filter_.unionWith(*same);
    } else {
      (void)other;
      return Status::unsupported(std::string("a ") + filterTypeName(Filter::kType) + " filter has no union");
    }
  }
  std::vector<uint64_t> positions(const KeyHash& hash) const override {
    if constexpr (HasPositions<Filter>::value) {
      return filter_.positions(hash);
    } else {
      (void)hash;
      return {};
    }
  }
  void clear() override { filter_.clear(); }
  size_t byteLength() const override { return filter_.byteLength(); }
  double estimatedFalsePositiveRate() const override { return filter_.estimatedFalsePositiveRate(); }
  std::vector<std::pair<std::string, double>> parameters() const override {
    std::vector<std::pair<std::string, double>> out;
    filter_.parameters([&out](const char* name, double value) { out.emplace_back(name, value); });
    return out;
  }
  std::vector<uint8_t> serialize() const override { return filter_.serialize(); }
  Result<SerializedParts> serializedParts() const override {
    if constexpr (ExposesPayload<Filter>::value) {
      return filter_.serializedParts();  // the table itself: nothing allocated beyond the head
    } else {
      return filter_.serializedPartsChecked();  // a chain: its links written into one checked allocation
    }
  }

 protected:
  void* concrete() override { return &filter_; }
  const void* concrete() const override { return &filter_; }

 private:
  // Keys hashed before any is probed. 8 keeps the hashes in registers and
  // cache while giving the memory system several independent reads.
  static constexpr size_t kBatchGroup = 8;
  void hashGroup(const uint8_t* data, const uint32_t* offsets, size_t start, size_t group, KeyHash* hashes) const {
    for (size_t j = 0; j < group; ++j) {
      const size_t i = start + j;
      hashes[j] = filter_.hashOf(data + (offsets[i] - offsets[0]), offsets[i + 1] - offsets[i]);
    }
  }

  Filter filter_;
};

// Whether a type reads through readFilter<F> (a fromBlob over a DecodedBlob).
template <typename Filter, typename = void>
struct ReadsFromBlob : std::false_type {};
template <typename Filter>
struct ReadsFromBlob<Filter, std::void_t<decltype(Filter::fromBlob(std::declval<const DecodedBlob&>(),
                                                                   std::declval<const typename Filter::Params&>()))>>
    : std::true_type {};

template <typename Filter>
Result<Filter> readDecoded(const DecodedBlob& decoded, const uint8_t* data, size_t length) {
  if constexpr (ReadsFromBlob<Filter>::value) {
    return readFilter<Filter>(decoded);
  } else {
    (void)decoded;
    return Filter::deserialize(data, length);
  }
}

template <typename Filter>
Result<std::unique_ptr<AnyFilter>> adopt(Result<Filter> made) {
  if (!made.isOk()) return made.status();
  auto* adapted = new (std::nothrow) RegisteredFilter<Filter>(std::move(made).value());
  if (adapted == nullptr) return Status::outOfMemory("out of memory");
  return std::unique_ptr<AnyFilter>(adapted);
}

}  // namespace

namespace {

// The facts of one class, checked here where the compiler can: a class must
// say where its estimate comes from, and what it declares must fit together
// (a static type or one that forgets has no growing stand-in; a growing type
// stands in for itself). The rest (a stand-in grows; each limit names an
// option the type takes and is the one create() enforces) type_facts_test.cpp
// checks.
template <typename Class>
FilterTypeInfo typeInfoOf(const char* name) {
  static_assert(DeclaresEstimateSource<Class>::value,
                "a filter class declares kEstimateSource (core/type_facts.h): where its estimated rate comes from");
  static_assert(!(GrowingStandInOf<Class>::exists && (IsStaticFilter<Class>::value || kForgets<Class>)),
                "a static type, or one that forgets, has no growing stand-in");
  static_assert(GrowthOf<Class>::value == FilterGrowth::None || GrowingStandInOf<Class>::value == Class::kType,
                "a type that grows stands in for itself");
  static_assert((GrowthOf<Class>::value == FilterGrowth::None) == (DefaultCapacityOf<Class>::value == 0),
                "a type that grows has a default capacity (its first link or table), and only such a type");
  return {Class::kType,
          name,
          kSupportsRemove<Class>,
          kSupportsUnion<Class>,
          IsStaticFilter<Class>::value,
          kForgets<Class>,
          OptionsOf<Class>::value,
          GrowthOf<Class>::value,
          GrowingStandInOf<Class>::exists,
          GrowingStandInOf<Class>::value,
          Class::kEstimateSource,
          DefaultCapacityOf<Class>::value,
          OptionLimitsOf<Class>::value,
          HashAlgorithmOf<Class>::value};
}

}  // namespace

const std::vector<FilterTypeInfo>& registeredFilterTypes() {
  static const std::vector<FilterTypeInfo> types = {
#define CUCKOO_BLOOM_FILTER_TYPE_INFO(enumerator, id, text, Class) typeInfoOf<Class>(text),
      CUCKOO_BLOOM_FILTER_TYPES(CUCKOO_BLOOM_FILTER_TYPE_INFO)
#undef CUCKOO_BLOOM_FILTER_TYPE_INFO
  };
  return types;
}

namespace {

// The one check of which options a type takes (filter_options.h), for
// every type, before its createFrom or buildFrom sees them.
template <typename Class>
Status checkOptionsOf(const CoreFilterOptions& options) {
  return checkTakesOptions(options, OptionsOf<Class>::value, filterTypeName(Class::kType));
}

}  // namespace

Result<std::unique_ptr<AnyFilter>> createFilter(FilterType type, const CoreFilterOptions& options) {
  switch (type) {
#define CUCKOO_BLOOM_FILTER_TYPE_CREATE(enumerator, id, text, Class) \
  case FilterType::enumerator: {                                    \
    Status valid = checkOptionsOf<Class>(options);                  \
    if (!valid.isOk()) return valid;                                \
    return adopt(Class::createFrom(options));                       \
  }
    CUCKOO_BLOOM_FILTER_TYPES(CUCKOO_BLOOM_FILTER_TYPE_CREATE)
#undef CUCKOO_BLOOM_FILTER_TYPE_CREATE
    default:
      return Status::invalidArgument(std::string("cannot create a ") + filterTypeName(type) + " filter this way");
  }
}

namespace {

// A static type: its own build from the hashes.
template <typename Filter>
Result<std::unique_ptr<AnyFilter>> buildAs(const CoreFilterOptions& options, const KeyHash* hashes, size_t count) {
  Status valid = checkOptionsOf<Filter>(options);
  if (!valid.isOk()) return valid;
  if constexpr (IsStaticFilter<Filter>::value) {
    return adopt(Filter::buildFrom(options, hashes, count));
  } else {
    CoreFilterOptions sized = options;
    if (sized.capacity == 0) sized.capacity = count == 0 ? 1 : count;
    Result<std::unique_ptr<AnyFilter>> made = adopt(Filter::createFrom(sized));
    if (!made.isOk()) return made;
    if (count > 0 && hashes == nullptr) return Status::invalidArgument("no key hashes given");
    for (size_t i = 0; i < count; ++i) {
      Status added = made.value()->add(hashes[i]);
      if (!added.isOk()) return added;
    }
    return made;
  }
}

}  // namespace

Result<std::unique_ptr<AnyFilter>> buildFilter(FilterType type, const CoreFilterOptions& options, const KeyHash* hashes,
                                               size_t count) {
  switch (type) {
#define CUCKOO_BLOOM_FILTER_TYPE_BUILD(enumerator, id, text, Class) \
  case FilterType::enumerator:                                     \
    return buildAs<Class>(options, hashes, count);
    CUCKOO_BLOOM_FILTER_TYPES(CUCKOO_BLOOM_FILTER_TYPE_BUILD)
#undef CUCKOO_BLOOM_FILTER_TYPE_BUILD
    default:
      return Status::invalidArgument(std::string("cannot build a ") + filterTypeName(type) + " filter this way");
  }
}

Result<std::unique_ptr<AnyFilter>> deserializeFilter(const uint8_t* data, size_t length) {
  Result<DecodedBlob> decoded = decodeBlob(data, length);
  if (!decoded.isOk()) return decoded.status();
  switch (decoded.value().header.type) {
#define CUCKOO_BLOOM_FILTER_TYPE_READ(enumerator, id, text, Class) \
  case FilterType::enumerator:                                    \
    return adopt(Class::deserialize(data, length));
    CUCKOO_BLOOM_FILTER_TYPES(CUCKOO_BLOOM_FILTER_TYPE_READ)
#undef CUCKOO_BLOOM_FILTER_TYPE_READ
    default:
      return Status::wrongType(std::string("these bytes are a ") + filterTypeName(decoded.value().header.type) +
                               ", not a filter of the registry");
  }
}

Result<std::unique_ptr<AnyFilter>> deserializeFilter(BlobBuffer& buffer) {
  Result<DecodedBlob> decoded = decodeBlob(buffer.data(), buffer.length());
  if (!decoded.isOk()) return decoded.status();
  DecodedBlob blob = decoded.value();
  blob.owner = &buffer;
  switch (blob.header.type) {
#define CUCKOO_BLOOM_FILTER_TYPE_READ_BUFFER(enumerator, id, text, Class) \
  case FilterType::enumerator:                                           \
    return adopt(readDecoded<Class>(blob, buffer.data(), buffer.length()));
    CUCKOO_BLOOM_FILTER_TYPES(CUCKOO_BLOOM_FILTER_TYPE_READ_BUFFER)
#undef CUCKOO_BLOOM_FILTER_TYPE_READ_BUFFER
    default:
      return Status::wrongType(std::string("these bytes are a ") + filterTypeName(blob.header.type) +
                               ", not a single filter");
  }
}

}  // namespace cuckoo_bloom
