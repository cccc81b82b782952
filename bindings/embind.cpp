// Thin embind layer: one handle type for every filter, dispatching in C++
// through the registry (cuckoo_bloom/any_filter.h). It converts types and
// nothing else; the TypeScript layer owns all ergonomics.
//
// Contract with js/src:
// - Keys cross as (pointer, length) into wasm memory the caller filled; batches
//   as one byte buffer plus a uint32 offsets array of count + 1 entries.
// - Nothing throws (handle_status.h, the convention of every module): fallible
//   calls return a status code number (0 = ok) whose name statusCodeNames()
//   gives; a failed create/deserialize returns a handle whose ok() is false
//   and whose errorCode()/errorMessage() explain why. TypeScript turns those
//   into a FilterError and deletes the handle (js/src/core/wasm-status.ts).
// - Type names, type ids and status names come from here (filterTypes(),
//   statusCodeNames()), never copied by hand into TypeScript.
// - 64-bit values cross as doubles (exact up to 2^53, far above any count).
#include <emscripten/bind.h>
#include <emscripten/emscripten.h>
#include <emscripten/val.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <new>
#include <string>
#include <utility>
#include <vector>

#include "cuckoo_bloom/cuckoo_bloom.h"
#include "filter_handle.h"
#include "handle_status_embind.h"

using namespace emscripten;
using namespace cuckoo_bloom;

namespace {

const uint8_t* bytesAt(uintptr_t pointer) { return reinterpret_cast<const uint8_t*>(pointer); }
int codeOf(const Status& status) { return static_cast<int>(status.code()); }

// Every option of the one list (filter_options.h) the JS options object
// has; an absent one is "not given" (the type's default). A flag crosses as
// a boolean or as 0 or 1. One reader for create and build, so an option given
// to either reaches the registry, which refuses the ones a type does not take.
Result<CoreFilterOptions> readFilterOptions(const val& options) {
  CoreFilterOptions parsed;
  for (const OptionInfo& info : kFilterOptions) {
    const val value = options[info.name];
    if (value.isUndefined()) continue;
    double number = 0.0;
    if (value.isTrue() || value.isFalse()) {
      number = value.isTrue() ? 1.0 : 0.0;
    } else if (value.isNumber()) {
      number = value.as<double>();
    } else {
      return Status::invalidArgument(std::string(info.name) + " must be a number, got a " +
                                     value.typeOf().as<std::string>());
    }
    Status valid = parsed.set(info.id, number);
    if (!valid.isOk()) return valid;
  }
  return parsed;
}

class FilterHandle : public HandleStatus {
 public:
  static FilterHandle* create(const std::string& typeName, const val& options) {
    auto* handle = new FilterHandle();
    FilterType type;
    if (!handle->findType(typeName, type)) return handle;
    Result<CoreFilterOptions> parsed = readFilterOptions(options);
    if (!parsed.isOk()) return handle->fail(parsed.status());
    handle->adopt(createFilter(type, parsed.value()));
    return handle;
  }
  // A filter of the keys whose hashes (cbw_hash_many with options.seed) are
  // at `hashes`: a static type is built from them; any other type is created
  // and given them (buildFilter in any_filter.h). Options as create()'s, all
  // optional (capacity 0: the key count).
  static FilterHandle* build(const std::string& typeName, const val& options, uintptr_t hashes, uint32_t count) {
    auto* handle = new FilterHandle();
    FilterType type;
    if (!handle->findType(typeName, type)) return handle;
    Result<CoreFilterOptions> parsed = readFilterOptions(options);
    if (!parsed.isOk()) return handle->fail(parsed.status());
    handle->adopt(buildFilter(type, parsed.value(), reinterpret_cast<const KeyHash*>(hashes), count));
    return handle;
  }
  static FilterHandle* deserialize(uintptr_t data, uint32_t length) {
    auto* handle = new FilterHandle();
    handle->adopt(deserializeFilter(bytesAt(data), length));
    return handle;
  }
  // Reads the bytes JS copied into a BlobBuffer (cbw_blob_buffer_new), and
  // deletes the buffer: a word-array filter keeps its memory as the table.
  static FilterHandle* deserializeBuffer(uintptr_t buffer) {
    std::unique_ptr<BlobBuffer> owned(reinterpret_cast<BlobBuffer*>(buffer));
    auto* handle = new FilterHandle();
    handle->adopt(deserializeFilter(*owned));
    return handle;
  }

  // Made when it holds a filter (its status is the last failed call's).
  bool made() const { return filter_ != nullptr; }
  // The handle's address, for the plain-C fast path below.
  uintptr_t address() const { return reinterpret_cast<uintptr_t>(this); }
  AnyFilter& filter() { return *filter_; }
  const AnyFilter& filter() const { return *filter_; }

  std::string typeName() const { return filterTypeName(filter_->type()); }
  double count() const { return static_cast<double>(filter_->header().itemCount); }
  double capacity() const { return static_cast<double>(filter_->header().capacity); }
  double seed() const { return static_cast<double>(filter_->header().seed); }
  double byteLength() const { return static_cast<double>(filter_->byteLength()); }
  double targetFalsePositiveRate() const { return filter_->header().targetFalsePositiveRate; }
  double estimatedFalsePositiveRate() const { return filter_->estimatedFalsePositiveRate(); }
  void clear() { filter_->clear(); }
  val parameters() const {
    val out = val::object();
    for (const auto& [name, value] : filter_->parameters()) out.set(name, value);
    return out;
  }
  // The serialized bytes in parts (AnyFilter::serializedParts): `head` is a
  // view of the header and parameters followed by the 8 checksum bytes, and
  // the payload is the filter's table itself, at `payload` (an address) for
  // `payloadLength` bytes. JavaScript assembles head + payload + checksum
  // into its own buffer, so wasm memory never holds a second copy of the
  // table. Valid until releaseSerialized() or the next change to the filter.
  // Null when the parts cannot be made (a chain's links need one allocation
  // of their size: OutOfMemory near the memory limit); errorCode() and
  // lastMessage() say why, and the filter is unchanged.
  val serializeParts() {
    Result<SerializedParts> made = filter_->serializedParts();
    if (!made.isOk()) {
      remember(made.status());
      return val::null();
    }
    parts_ = std::move(made).value();
    for (size_t i = 0; i < 8; ++i) parts_.head.push_back(static_cast<uint8_t>(parts_.checksum >> (8 * i)));
    val out = val::object();
    out.set("head", val(typed_memory_view(parts_.head.size(), parts_.head.data())));
    out.set("payload", static_cast<double>(reinterpret_cast<uintptr_t>(parts_.payload)));
    out.set("payloadLength", static_cast<double>(parts_.payloadLength));
    return out;
  }
  void releaseSerialized() { parts_ = SerializedParts(); }
  // Status code; the message of a failure is lastMessage().
  int unionWith(FilterHandle& other) { return remember(filter_->unionWith(other.filter())); }
  // Why a batch add stopped (cbw_add_many): errorCode() and lastMessage() read it.
  void rememberFailure(Status status) { remember(std::move(status)); }

 private:
  FilterHandle* fail(Status status) {
    remember(std::move(status));
    return this;
  }
  bool findType(const std::string& typeName, FilterType& type) {
    if (filterTypeFromName(typeName.c_str(), type)) return true;
    remember(Status::invalidArgument("unknown filter type '" + typeName + "'"));
    return false;
  }
  void adopt(Result<std::unique_ptr<AnyFilter>> made) {
    if (!made.isOk()) {
      remember(made.status());
      return;
    }
    filter_ = std::move(made).value();
    type_ = filter_->type();
    switch (type_) {
#define CUCKOO_BLOOM_CONCRETE_OF(enumerator, id, text, Class) \
  case FilterType::enumerator:                               \
    concrete_ = filter_->as<Class>();                         \
    break;
      CUCKOO_BLOOM_FILTER_TYPES(CUCKOO_BLOOM_CONCRETE_OF)
#undef CUCKOO_BLOOM_CONCRETE_OF
      default:
        break;
    }
  }

  std::unique_ptr<AnyFilter> filter_;
  SerializedParts parts_;

 public:
  // The concrete filter and its type, read once: cbw_has dispatches on them
  // with a switch whose cases inline the hash and the probe, instead of a
  // virtual call through AnyFilter.
  FilterType type_ = FilterType::Bloom;
  void* concrete_ = nullptr;
};

// A URL blocklist envelope, encoded or decoded (see url_blocklist.h).
class BlocklistEnvelopeHandle : public HandleStatus {
 public:
  static BlocklistEnvelopeHandle* encode(uintptr_t filter, uint32_t length, uint32_t scheme, double entryCount,
                                         uint32_t depth) {
    auto* handle = new BlocklistEnvelopeHandle();
    Result<std::vector<uint8_t>> encoded =
        encodeUrlBlocklist(bytesAt(filter), length, scheme, static_cast<uint64_t>(entryCount), depth);
    if (encoded.isOk()) handle->encoded_ = std::move(encoded).value();
    else handle->remember(encoded.status());
    return handle;
  }
  // Scheme 3 with its exception set (a type-33 blob of `exceptionsLength` bytes; 0: none).
  static BlocklistEnvelopeHandle* encodeWithExceptions(uintptr_t filter, uint32_t length, uint32_t scheme,
                                                       double entryCount, uint32_t depth, uintptr_t exceptions,
                                                       uint32_t exceptionsLength) {
    auto* handle = new BlocklistEnvelopeHandle();
    Result<std::vector<uint8_t>> encoded = encodeUrlBlocklist(bytesAt(filter), length, scheme,
                                                              static_cast<uint64_t>(entryCount), depth,
                                                              bytesAt(exceptions), exceptionsLength);
    if (encoded.isOk()) handle->encoded_ = std::move(encoded).value();
    else handle->remember(encoded.status());
    return handle;
  }
  static BlocklistEnvelopeHandle* decode(uintptr_t data, uint32_t length) {
    auto* handle = new BlocklistEnvelopeHandle();
    Result<UrlBlocklistEnvelope> decoded = decodeUrlBlocklist(bytesAt(data), length);
    if (decoded.isOk()) {
      handle->decoded_ = decoded.value();
      handle->filterOffset_ = static_cast<uint32_t>(decoded.value().filter - bytesAt(data));
      if (decoded.value().exceptions != nullptr) {
        handle->exceptionsOffset_ = static_cast<uint32_t>(decoded.value().exceptions - bytesAt(data));
      }
    } else {
      handle->remember(decoded.status());
    }
    return handle;
  }
  val bytes() const { return val(typed_memory_view(encoded_.size(), encoded_.data())); }
  uint32_t scheme() const { return decoded_.expressionScheme; }
  uint32_t depth() const { return decoded_.depth; }
  double entryCount() const { return static_cast<double>(decoded_.entryCount); }
  std::string filterType() const { return filterTypeName(decoded_.filterType); }
  uint32_t filterOffset() const { return filterOffset_; }
  uint32_t filterLength() const { return static_cast<uint32_t>(decoded_.filterLength); }
  // Scheme 3's exception set, inside the decoded bytes (length 0: none).
  uint32_t exceptionsOffset() const { return exceptionsOffset_; }
  uint32_t exceptionsLength() const { return static_cast<uint32_t>(decoded_.exceptionsLength); }

 private:
  std::vector<uint8_t> encoded_;
  UrlBlocklistEnvelope decoded_;
  uint32_t filterOffset_ = 0;
  uint32_t exceptionsOffset_ = 0;
};

// The type name in a blob's header, or "" when the bytes are too short or lack
// the magic. Only a routing hint: the chosen reader still validates everything.
std::string filterTypeOf(uintptr_t data, uint32_t length) {
  const uint8_t* bytes = bytesAt(data);
  if (length < kHeaderBytes) return "";
  for (int i = 0; i < 4; ++i) {
    if (bytes[i] != kFormatMagic[i]) return "";
  }
  if (!isKnownFilterType(bytes[6])) return "";
  return filterTypeName(static_cast<FilterType>(bytes[6]));
}

// [{ name, id, supportsRemove, supportsUnion, isStatic, forgets, options,
//    growth, growingStandIn, estimateSource, defaultCapacity, optionLimits }, ...]
// in the registry's order (FilterTypeInfo, any_filter.h): options, the names
// of the options the type takes beyond capacity, falsePositiveRate and seed
// (its class's kOptions); growth, 'none', 'chaining' or 'in-place';
// growingStandIn, the name of the growing type made instead when the number
// of keys is unknown, or null; estimateSource, { name, phrase };
// defaultCapacity, 0 when a capacity is required; optionLimits,
// { <option>: { min, minInclusive, max, maxInclusive, integer, default } }
// (an infinite bound crosses as Infinity, no default as null).
val filterTypes() {
  val out = val::array();
  for (const FilterTypeInfo& info : registeredFilterTypes()) {
    val entry = val::object();
    entry.set("name", std::string(info.name));
    entry.set("id", static_cast<uint32_t>(info.type));
    entry.set("supportsRemove", info.supportsRemove);
    entry.set("supportsUnion", info.supportsUnion);
    entry.set("isStatic", info.isStatic);
    entry.set("forgets", info.forgets);
    val options = val::array();
    for (OptionId id : info.options) options.call<void>("push", std::string(optionInfo(id).name));
    entry.set("options", options);
    entry.set("growth", std::string(filterGrowthName(info.growth)));
    entry.set("growingStandIn", info.hasGrowingStandIn ? val(std::string(filterTypeName(info.growingStandIn))) : val::null());
    const EstimateSourceInfo source = estimateSourceInfo(info.estimateSource);
    val estimate = val::object();
    estimate.set("name", std::string(source.name));
    estimate.set("phrase", std::string(source.phrase));
    entry.set("estimateSource", estimate);
    entry.set("defaultCapacity", static_cast<double>(info.defaultCapacity));
    val limits = val::object();
    for (const OptionLimit& limit : info.optionLimits) {
      val range = val::object();
      range.set("min", limit.min);
      range.set("minInclusive", limit.minInclusive);
      range.set("max", limit.max);
      range.set("maxInclusive", limit.maxInclusive);
      range.set("integer", limit.integer);
      range.set("default", limit.hasDefault() ? val(limit.defaultValue) : val::null());
      limits.set(std::string(optionInfo(limit.id).name), range);
    }
    entry.set("optionLimits", limits);
    out.call<void>("push", entry);
  }
  return out;
}

// Status names indexed by code number.
val statusCodeNames() {
  val out = val::array();
#define CUCKOO_BLOOM_STATUS_NAME(name, number, text, ...) out.set(number, std::string(text));
  CUCKOO_BLOOM_STATUS_CODES(CUCKOO_BLOOM_STATUS_NAME)
#undef CUCKOO_BLOOM_STATUS_NAME
  return out;
}

}  // namespace

// The filter behind a handle's address(), for the other binding files (filter_handle.h).
AnyFilter& filterOfHandle(uintptr_t handle) { return reinterpret_cast<FilterHandle*>(handle)->filter(); }

// cbw_add's case for one type: the concrete add, or the registry's for a
// static type (which answers UNSUPPORTED).
template <typename Class>
int addDirect(FilterHandle& handle, const uint8_t* key, uint32_t length) {
  if constexpr (IsStaticFilter<Class>::value) {
    return codeOf(handle.filter().add(key, length));
  } else {
    Class& filter = *static_cast<Class*>(handle.concrete_);
    if constexpr (std::is_void_v<decltype(filter.add(key, length))>) {
      filter.add(key, length);
      return 0;
    } else {
      return codeOf(filter.add(key, length));
    }
  }
}

// The fast path: plain C exports called straight from JS with (handle
// address, key pointer, length). An embind method call costs ~100 ns of
// argument marshalling per key; a direct wasm call costs a few. Only
// TypeScript calls these, with addresses from address() of live handles.
extern "C" {
EMSCRIPTEN_KEEPALIVE int cbw_has(uintptr_t handle, uintptr_t key, uint32_t length) {
  const FilterHandle& filter = *reinterpret_cast<const FilterHandle*>(handle);
  switch (filter.type_) {
#define CUCKOO_BLOOM_HAS_CASE(enumerator, id, text, Class) \
  case FilterType::enumerator:                            \
    return static_cast<const Class*>(filter.concrete_)->has(bytesAt(key), length);
    CUCKOO_BLOOM_FILTER_TYPES(CUCKOO_BLOOM_HAS_CASE)
#undef CUCKOO_BLOOM_HAS_CASE
    default:
      return filter.filter().has(bytesAt(key), length);
  }
}
EMSCRIPTEN_KEEPALIVE int cbw_add(uintptr_t handle, uintptr_t key, uint32_t length) {
  FilterHandle& filter = *reinterpret_cast<FilterHandle*>(handle);
  switch (filter.type_) {
#define CUCKOO_BLOOM_ADD_CASE(enumerator, id, text, Class) \
  case FilterType::enumerator:                            \
    return addDirect<Class>(filter, bytesAt(key), length);
    CUCKOO_BLOOM_FILTER_TYPES(CUCKOO_BLOOM_ADD_CASE)
#undef CUCKOO_BLOOM_ADD_CASE
    default:
      return codeOf(filter.filter().add(bytesAt(key), length));
  }
}
// 1: added (new); 0: already reported present, nothing stored; negative: minus
// the failure's status code (-2: FULL).
EMSCRIPTEN_KEEPALIVE int cbw_add_if_new(uintptr_t handle, uintptr_t key, uint32_t length) {
  AnyFilter& filter = reinterpret_cast<FilterHandle*>(handle)->filter();
  bool added = false;
  const Status status = filter.addIfNew(filter.hashOf(bytesAt(key), length), added);
  return status.isOk() ? (added ? 1 : 0) : -codeOf(status);
}
EMSCRIPTEN_KEEPALIVE int cbw_remove(uintptr_t handle, uintptr_t key, uint32_t length) {
  return codeOf(reinterpret_cast<FilterHandle*>(handle)->filter().remove(bytesAt(key), length));
}
// An expiring filter's clock (ExpiringBloomFilter::advance): the number of
// generations dropped (>= 0), or minus the status code (-1: INVALID_ARGUMENT,
// a reading that is not finite or a filter of another type).
EMSCRIPTEN_KEEPALIVE int cbw_advance(uintptr_t handle, double now) {
  ExpiringBloomFilter* expiring = reinterpret_cast<FilterHandle*>(handle)->filter().as<ExpiringBloomFilter>();
  if (expiring == nullptr) return -static_cast<int>(StatusCode::InvalidArgument);
  const Result<uint32_t> dropped = expiring->advance(now);
  return dropped.isOk() ? static_cast<int>(dropped.value()) : -codeOf(dropped.status());
}
// Batches (AnyFilter::hasMany and friends): `count` keys, key i the bytes
// [data + offsets[i] - offsets[0], data + offsets[i + 1] - offsets[0]).
// One byte per key at `out` (1 = may be present).
EMSCRIPTEN_KEEPALIVE void cbw_has_many(uintptr_t handle, uintptr_t data, uintptr_t offsets, uint32_t count,
                                       uintptr_t out) {
  reinterpret_cast<const FilterHandle*>(handle)->filter().hasMany(bytesAt(data), reinterpret_cast<const uint32_t*>(offsets),
                                                                   count, reinterpret_cast<uint8_t*>(out));
}
// Hashes a batch (the cbw_has_many layout) with `seed` (a safe integer, as
// JS numbers are) into count KeyHash values at `out` (16 bytes each, low
// then high): how keys reach buildFilter, a batch at a time.
EMSCRIPTEN_KEEPALIVE void cbw_hash_many(double seed, uintptr_t data, uintptr_t offsets, uint32_t count,
                                        uintptr_t out) {
  const uint8_t* bytes = bytesAt(data);
  const uint32_t* ends = reinterpret_cast<const uint32_t*>(offsets);
  KeyHash* hashes = reinterpret_cast<KeyHash*>(out);
  const uint64_t seedValue = static_cast<uint64_t>(seed);
  for (uint32_t i = 0; i < count; ++i) hashes[i] = hashKey(bytes + (ends[i] - ends[0]), ends[i + 1] - ends[i], seedValue);
}
// Adds keys in order and stops at the first that is not stored (FULL, or
// OUT_OF_MEMORY when a growing filter cannot grow): returns how many were
// stored (count means all); keys before it stay stored. When it stopped
// early, why is the handle's errorCode() and lastMessage() until its next
// failing call.
EMSCRIPTEN_KEEPALIVE uint32_t cbw_add_many(uintptr_t handle, uintptr_t data, uintptr_t offsets, uint32_t count) {
  FilterHandle& filter = *reinterpret_cast<FilterHandle*>(handle);
  Status stopped;
  const size_t stored = filter.filter().addMany(bytesAt(data), reinterpret_cast<const uint32_t*>(offsets), count, &stopped);
  if (stored != count) filter.rememberFailure(std::move(stopped));
  return static_cast<uint32_t>(stored);
}
// Removes each key once: 1 per key removed, 0 per key not found, at `out`.
// Returns the status code (UNSUPPORTED for types without removal).
EMSCRIPTEN_KEEPALIVE int cbw_remove_many(uintptr_t handle, uintptr_t data, uintptr_t offsets, uint32_t count,
                                         uintptr_t out) {
  return codeOf(reinterpret_cast<FilterHandle*>(handle)->filter().removeMany(
      bytesAt(data), reinterpret_cast<const uint32_t*>(offsets), count, reinterpret_cast<uint8_t*>(out)));
}
// A BlobBuffer for `length` bytes of a blob whose payload starts at
// `payloadOffset` (0 on failure: out of memory). JS copies the bytes to
// cbw_blob_buffer_data(), then hands it to deserializeBuffer (which frees it)
// or frees it with cbw_blob_buffer_free.
EMSCRIPTEN_KEEPALIVE uintptr_t cbw_blob_buffer_new(uint32_t length, uint32_t payloadOffset) {
  auto* buffer = new (std::nothrow) BlobBuffer();
  if (buffer == nullptr) return 0;
  if (!buffer->allocate(length, payloadOffset)) {
    delete buffer;
    return 0;
  }
  return reinterpret_cast<uintptr_t>(buffer);
}
EMSCRIPTEN_KEEPALIVE uintptr_t cbw_blob_buffer_data(uintptr_t buffer) {
  return reinterpret_cast<uintptr_t>(reinterpret_cast<BlobBuffer*>(buffer)->data());
}
EMSCRIPTEN_KEEPALIVE void cbw_blob_buffer_free(uintptr_t buffer) { delete reinterpret_cast<BlobBuffer*>(buffer); }
// A batch of strings encoded in one TextEncoder call: UTF-16 unit offsets to
// byte offsets, in place (utf8_offsets.h). 1 on success, 0: encode key by key.
EMSCRIPTEN_KEEPALIVE int cbw_utf8_offsets(uintptr_t data, uint32_t byteLength, uintptr_t offsets, uint32_t count) {
  return utf16OffsetsToUtf8(bytesAt(data), byteLength, reinterpret_cast<uint32_t*>(offsets), count) ? 1 : 0;
}
// A batch of strings as UTF-16 units (Node's route for batches that are not
// ASCII): encoded into UTF-8 at `data`, unit offsets rewritten as byte
// offsets (utf8_offsets.h). Returns the bytes written.
EMSCRIPTEN_KEEPALIVE uint32_t cbw_utf16_keys(uintptr_t units, uintptr_t offsets, uint32_t count, uintptr_t data) {
  return static_cast<uint32_t>(
      utf16KeysToUtf8(bytesAt(units), reinterpret_cast<uint32_t*>(offsets), count, reinterpret_cast<uint8_t*>(data)));
}
// One key the same way (a single has/add/remove of a string that is not
// ASCII): `unitCount` units at `units` into UTF-8 at `data`; returns the bytes.
EMSCRIPTEN_KEEPALIVE uint32_t cbw_utf16_key(uintptr_t units, uint32_t unitCount, uintptr_t data) {
  uint32_t offsets[2] = {0, unitCount};
  return static_cast<uint32_t>(utf16KeysToUtf8(bytesAt(units), offsets, 1, reinterpret_cast<uint8_t*>(data)));
}
}

EMSCRIPTEN_BINDINGS(cuckoo_bloom) {
  constant("formatVersion", static_cast<uint32_t>(kFormatVersion));
  function("filterTypeOf", &filterTypeOf);
  function("filterTypes", &filterTypes);
  function("statusCodeNames", &statusCodeNames);

  bindHandleStatus(class_<FilterHandle>("FilterHandle"))
      .function("address", &FilterHandle::address)
      .function("typeName", &FilterHandle::typeName)
      .function("count", &FilterHandle::count)
      .function("capacity", &FilterHandle::capacity)
      .function("seed", &FilterHandle::seed)
      .function("byteLength", &FilterHandle::byteLength)
      .function("targetFalsePositiveRate", &FilterHandle::targetFalsePositiveRate)
      .function("estimatedFalsePositiveRate", &FilterHandle::estimatedFalsePositiveRate)
      .function("clear", &FilterHandle::clear)
      .function("parameters", &FilterHandle::parameters)
      .function("serializeParts", &FilterHandle::serializeParts)
      .function("releaseSerialized", &FilterHandle::releaseSerialized)
      .function("unionWith", &FilterHandle::unionWith);
  function("createFilter", &FilterHandle::create, allow_raw_pointers());
  function("deserializeBuffer", &FilterHandle::deserializeBuffer, allow_raw_pointers());
  function("deserializeFilter", &FilterHandle::deserialize, allow_raw_pointers());
  function("buildFilter", &FilterHandle::build, allow_raw_pointers());

  bindHandleStatus(class_<BlocklistEnvelopeHandle>("BlocklistEnvelopeHandle"))
      .function("bytes", &BlocklistEnvelopeHandle::bytes)
      .function("scheme", &BlocklistEnvelopeHandle::scheme)
      .function("depth", &BlocklistEnvelopeHandle::depth)
      .function("entryCount", &BlocklistEnvelopeHandle::entryCount)
      .function("filterType", &BlocklistEnvelopeHandle::filterType)
      .function("filterOffset", &BlocklistEnvelopeHandle::filterOffset)
      .function("filterLength", &BlocklistEnvelopeHandle::filterLength)
      .function("exceptionsOffset", &BlocklistEnvelopeHandle::exceptionsOffset)
      .function("exceptionsLength", &BlocklistEnvelopeHandle::exceptionsLength);
  function("encodeUrlBlocklist", &BlocklistEnvelopeHandle::encode, allow_raw_pointers());
  function("encodeUrlBlocklistWithExceptions", &BlocklistEnvelopeHandle::encodeWithExceptions, allow_raw_pointers());
  function("decodeUrlBlocklist", &BlocklistEnvelopeHandle::decode, allow_raw_pointers());
}

// The exact companion of a URL blocklist (url/expression_set.h): built from
// the expressions a blocklist stores, read back to confirm a filter's "maybe".
// (Its includes are here, beside the only code that needs them.)
#include <optional>

#include "cuckoo_bloom/url/expression_set.h"

namespace {

class ExpressionSetHandle;

// Collects the hashes of expressions as a blocklist stores them (8 bytes
// each), and encodes the set once the list is complete.
class ExpressionSetBuilderHandle {
 public:
  // The default seed (a 64-bit constant no double holds exactly: it never crosses to JS).
  ExpressionSetBuilderHandle() = default;
  void add(uintptr_t expression, uint32_t length) { hashes_.push_back(expressionHash(bytesAt(expression), length, seed_)); }
  // Every hash of a set read with the same seed (a blocklist's exceptions, merged with new ones).
  void addSet(const ExpressionSetHandle& set);
  double size() const { return static_cast<double>(hashes_.size()); }
  // The set's bytes, bound to the blocklist whose trailing checksum is high:low.
  val encode(uint32_t checksumLow, uint32_t checksumHigh) {
    encoded_ = encodeExpressionSet(hashes_, seed_, (uint64_t{checksumHigh} << 32) | checksumLow);
    return val(typed_memory_view(encoded_.size(), encoded_.data()));
  }
  // The set split by hash prefix (expression_set.h, type 34): encodes the
  // index and parts, returns how many parts; splitIndex() and splitPart(i)
  // are views into wasm memory, valid until the next split().
  uint32_t split(uint32_t checksumLow, uint32_t checksumHigh, uint32_t partHashes) {
    split_ = encodeExpressionSetParts(hashes_, seed_, (uint64_t{checksumHigh} << 32) | checksumLow, partHashes);
    return static_cast<uint32_t>(split_.parts.size());
  }
  val splitIndex() { return val(typed_memory_view(split_.index.size(), split_.index.data())); }
  val splitPart(uint32_t part) { return val(typed_memory_view(split_.parts[part].size(), split_.parts[part].data())); }

 private:
  uint64_t seed_ = kExpressionSetDefaultSeed;
  std::vector<uint64_t> hashes_;
  std::vector<uint8_t> encoded_;
  ExpressionSetParts split_;
};

// The index of a split companion read from bytes: names the part an
// expression's hash falls in, and checks a part's bytes against it.
class ExpressionSetIndexHandle : public HandleStatus {
 public:
  static ExpressionSetIndexHandle* read(uintptr_t data, uint32_t length) {
    auto* handle = new ExpressionSetIndexHandle();
    handle->keep(ExpressionSetIndex::read(bytesAt(data), length), handle->index_);
    return handle;
  }
  uint32_t partCount() const { return index_->partCount(); }
  double count() const { return static_cast<double>(index_->count()); }
  uint32_t checksumLow() const { return static_cast<uint32_t>(index_->blocklistChecksum()); }
  uint32_t checksumHigh() const { return static_cast<uint32_t>(index_->blocklistChecksum() >> 32); }
  uint32_t partOf(uintptr_t expression, uint32_t length) const { return index_->partOf(bytesAt(expression), length); }
  uint32_t partBytes(uint32_t part) const { return part < index_->partCount() ? index_->partBytes(part) : 0; }
  // The first 32 bits of the part's range (its prefix), for info.
  uint32_t partPrefix(uint32_t part) const { return static_cast<uint32_t>(index_->partFirst(part) >> 32); }
  // Checks bytes as part `part`: "" when they are it, else the status name (checkMessage() explains).
  std::string checkPart(uint32_t part, uintptr_t data, uint32_t length) {
    Result<ExpressionSet> set = index_->checkPart(part, bytesAt(data), length);
    check_ = set.isOk() ? Status::ok() : set.status();
    return set.isOk() ? std::string() : std::string(statusCodeName(check_.code()));
  }
  std::string checkMessage() const { return check_.message(); }

 private:
  Status check_;
  std::optional<ExpressionSetIndex> index_;
};

// A companion read from bytes (copied: the caller frees its buffer after the call).
class ExpressionSetHandle : public HandleStatus {
 public:
  static ExpressionSetHandle* read(uintptr_t data, uint32_t length) {
    auto* handle = new ExpressionSetHandle();
    handle->keep(ExpressionSet::read(bytesAt(data), length), handle->set_);
    return handle;
  }
  bool contains(uintptr_t expression, uint32_t length) const { return set_->contains(bytesAt(expression), length); }
  // How many of the newline-separated expressions at data are held: the
  // batch path of the tests' million-URL check (one crossing per batch).
  double countContained(uintptr_t data, uint32_t length) const {
    const uint8_t* bytes = bytesAt(data);
    double held = 0;
    uint32_t start = 0;
    for (uint32_t i = 0; i <= length; ++i) {
      if (i == length || bytes[i] == '\n') {
        if (i > start && set_->contains(bytes + start, i - start)) ++held;
        start = i + 1;
      }
    }
    return held;
  }
  // The set's bytes without this expression's hash (an exception that became a
  // listed entry): a view into wasm memory, valid until the next call.
  val without(uintptr_t expression, uint32_t length) {
    std::vector<uint64_t> hashes = set_->hashes();
    const uint64_t hash = expressionHash(bytesAt(expression), length, set_->seed());
    hashes.erase(std::remove(hashes.begin(), hashes.end(), hash), hashes.end());
    encoded_ = encodeExpressionSet(std::move(hashes), set_->seed(), set_->blocklistChecksum());
    return val(typed_memory_view(encoded_.size(), encoded_.data()));
  }
  // The ExpressionSet's address, for cbw_url_first_hit (valid while this handle lives).
  uintptr_t address() const { return reinterpret_cast<uintptr_t>(&*set_); }
  const ExpressionSet& set() const { return *set_; }
  double count() const { return static_cast<double>(set_->count()); }
  double payloadBytes() const { return static_cast<double>(set_->payloadBytes()); }
  uint32_t checksumLow() const { return static_cast<uint32_t>(set_->blocklistChecksum()); }
  uint32_t checksumHigh() const { return static_cast<uint32_t>(set_->blocklistChecksum() >> 32); }

 private:
  std::optional<ExpressionSet> set_;
  std::vector<uint8_t> encoded_;
};

void ExpressionSetBuilderHandle::addSet(const ExpressionSetHandle& set) {
  const std::vector<uint64_t> hashes = set.set().hashes();
  hashes_.insert(hashes_.end(), hashes.begin(), hashes.end());
}

}  // namespace

extern "C" {
// A URL's expressions checked in one crossing (js/src/url/check-url.ts): a
// batch in the cbw_has_many layout, in order; returns the index of the first
// one the filter reports and the blocklist's exceptions (an ExpressionSet's
// address, 0: none) do not hold, or -1. Each expression is hashed once for
// the filter; only a reported one is hashed again, for the exceptions.
EMSCRIPTEN_KEEPALIVE int cbw_url_first_hit(uintptr_t handle, uintptr_t exceptions, uintptr_t data, uintptr_t offsets,
                                           uint32_t count) {
  const ExpressionSet* skip = reinterpret_cast<const ExpressionSet*>(exceptions);
  const uint8_t* bytes = bytesAt(data);
  const uint32_t* ends = reinterpret_cast<const uint32_t*>(offsets);
  for (uint32_t i = 0; i < count; ++i) {
    const uint8_t* key = bytes + (ends[i] - ends[0]);
    const uint32_t length = ends[i + 1] - ends[i];
    // Through cbw_has, not its switch inlined again: one copy of every type's lookup in the module.
    if (cbw_has(handle, reinterpret_cast<uintptr_t>(key), length) != 0 && (skip == nullptr || !skip->contains(key, length))) {
      return static_cast<int>(i);
    }
  }
  return -1;
}
}

EMSCRIPTEN_BINDINGS(cuckoo_bloom_expression_set) {
  class_<ExpressionSetBuilderHandle>("ExpressionSetBuilderHandle")
      .constructor<>()
      .function("add", &ExpressionSetBuilderHandle::add)
      .function("addSet", &ExpressionSetBuilderHandle::addSet)
      .function("size", &ExpressionSetBuilderHandle::size)
      .function("encode", &ExpressionSetBuilderHandle::encode)
      .function("split", &ExpressionSetBuilderHandle::split)
      .function("splitIndex", &ExpressionSetBuilderHandle::splitIndex)
      .function("splitPart", &ExpressionSetBuilderHandle::splitPart);
  bindHandleStatus(class_<ExpressionSetIndexHandle>("ExpressionSetIndexHandle"))
      .function("partCount", &ExpressionSetIndexHandle::partCount)
      .function("count", &ExpressionSetIndexHandle::count)
      .function("checksumLow", &ExpressionSetIndexHandle::checksumLow)
      .function("checksumHigh", &ExpressionSetIndexHandle::checksumHigh)
      .function("partOf", &ExpressionSetIndexHandle::partOf)
      .function("partBytes", &ExpressionSetIndexHandle::partBytes)
      .function("partPrefix", &ExpressionSetIndexHandle::partPrefix)
      .function("checkPart", &ExpressionSetIndexHandle::checkPart)
      .function("checkMessage", &ExpressionSetIndexHandle::checkMessage);
  function("readExpressionSetIndex", &ExpressionSetIndexHandle::read, allow_raw_pointers());
  bindHandleStatus(class_<ExpressionSetHandle>("ExpressionSetHandle"))
      .function("contains", &ExpressionSetHandle::contains)
      .function("countContained", &ExpressionSetHandle::countContained)
      .function("without", &ExpressionSetHandle::without)
      .function("address", &ExpressionSetHandle::address)
      .function("count", &ExpressionSetHandle::count)
      .function("payloadBytes", &ExpressionSetHandle::payloadBytes)
      .function("checksumLow", &ExpressionSetHandle::checksumLow)
      .function("checksumHigh", &ExpressionSetHandle::checksumHigh);
  function("readExpressionSet", &ExpressionSetHandle::read, allow_raw_pointers());
}
