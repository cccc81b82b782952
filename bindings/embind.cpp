// Thin embind layer: binds the core's filters, converts nothing but types.
//
// Contract with js/src (the TypeScript layer owns all ergonomics):
// - Keys cross as (pointer, length) into wasm memory the caller filled; batches
//   as one byte buffer plus a uint32 offsets array of count + 1 entries.
// - Nothing throws. Fallible calls return a StatusCode number (0 = ok); a
//   failed create/deserialize returns a handle whose ok() is false and whose
//   errorCode()/errorMessage() explain why. TypeScript turns those into a
//   FilterError and deletes the handle.
// - 64-bit values cross as doubles (exact up to 2^53, far above any count).
#include <emscripten/bind.h>
#include <emscripten/emscripten.h>
#include <emscripten/val.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "cuckoo_bloom/cuckoo_bloom.h"

using namespace emscripten;
using namespace cuckoo_bloom;

namespace {

const uint8_t* bytesAt(uintptr_t pointer) { return reinterpret_cast<const uint8_t*>(pointer); }

// Everything every filter type binds the same way.
template <typename Filter>
class Handle {
 public:
  explicit Handle(Result<Filter> result) : result_(std::move(result)) {}

  bool ok() const { return result_.isOk(); }
  // The handle's address, for the plain-C fast path below.
  uintptr_t address() const { return reinterpret_cast<uintptr_t>(this); }
  int errorCode() const { return static_cast<int>(result_.status().code()); }
  std::string errorMessage() const { return result_.status().message(); }

  bool has(uintptr_t key, uint32_t length) const { return filter().has(bytesAt(key), length); }

  void hasMany(uintptr_t data, uintptr_t offsets, uint32_t count, uintptr_t out) const {
    const uint8_t* bytes = bytesAt(data);
    const uint32_t* ends = reinterpret_cast<const uint32_t*>(offsets);
    uint8_t* results = reinterpret_cast<uint8_t*>(out);
    for (uint32_t i = 0; i < count; ++i) {
      results[i] = filter().has(bytes + ends[i], ends[i + 1] - ends[i]) ? 1 : 0;
    }
  }

  // The serialized bytes stay owned here until the next serialize(); JS copies them.
  val serialize() {
    serialized_ = filter().serialize();
    return val(typed_memory_view(serialized_.size(), serialized_.data()));
  }
  void releaseSerialized() { std::vector<uint8_t>().swap(serialized_); }

  double count() const { return static_cast<double>(filter().count()); }
  double capacity() const { return static_cast<double>(filter().capacity()); }
  double seed() const { return static_cast<double>(filter().seed()); }
  double byteLength() const { return static_cast<double>(filter().byteLength()); }
  double targetFalsePositiveRate() const { return filter().targetFalsePositiveRate(); }
  double estimatedFalsePositiveRate() const { return filter().estimatedFalsePositiveRate(); }
  void clear() { filter().clear(); }

  Filter& filter() { return result_.value(); }
  const Filter& filter() const { return result_.value(); }

 protected:
  Result<Filter> result_;
  std::vector<uint8_t> serialized_;
};

// Bloom-family filters: add never fails.
template <typename Filter>
class BloomFamilyHandle : public Handle<Filter> {
 public:
  using Handle<Filter>::Handle;
  using Handle<Filter>::filter;
  void add(uintptr_t key, uint32_t length) { filter().add(bytesAt(key), length); }
  uint32_t addMany(uintptr_t data, uintptr_t offsets, uint32_t count) {
    const uint8_t* bytes = bytesAt(data);
    const uint32_t* ends = reinterpret_cast<const uint32_t*>(offsets);
    for (uint32_t i = 0; i < count; ++i) filter().add(bytes + ends[i], ends[i + 1] - ends[i]);
    return count;
  }
  val positions(uintptr_t key, uint32_t length) const {
    val out = val::array();
    for (const uint64_t position : filter().positions(bytesAt(key), length)) {
      out.call<void>("push", static_cast<double>(position));
    }
    return out;
  }
};

using BloomHandle = BloomFamilyHandle<BloomFilter>;
using BlockedBloomHandle = BloomFamilyHandle<BlockedBloomFilter>;
using CountingBloomHandle = BloomFamilyHandle<CountingBloomFilter>;

BloomHandle* createBloom(double capacity, double rate, double seed) {
  return new BloomHandle(BloomFilter::create({static_cast<uint64_t>(capacity), rate, static_cast<uint64_t>(seed)}));
}
BloomHandle* deserializeBloom(uintptr_t data, uint32_t length) {
  return new BloomHandle(BloomFilter::deserialize(bytesAt(data), length));
}
int unionBloom(BloomHandle& target, const BloomHandle& other) {
  return static_cast<int>(target.filter().unionWith(other.filter()).code());
}
std::string unionBloomMessage(BloomHandle& target, const BloomHandle& other) {
  return target.filter().unionWith(other.filter()).message();
}
double bloomBitCount(const BloomHandle& handle) { return static_cast<double>(handle.filter().bitCount()); }
uint32_t bloomHashCount(const BloomHandle& handle) { return handle.filter().hashCount(); }
double bloomSetBitCount(const BloomHandle& handle) { return static_cast<double>(handle.filter().setBitCount()); }
// Read-only view of the bit array (for visualisations): valid until the filter is freed.
val bloomWords(const BloomHandle& handle) {
  const BloomFilter& filter = handle.filter();
  return val(typed_memory_view(filter.byteLength(), reinterpret_cast<const uint8_t*>(filter.words())));
}

BlockedBloomHandle* createBlockedBloom(double capacity, double rate, double seed) {
  return new BlockedBloomHandle(
      BlockedBloomFilter::create({static_cast<uint64_t>(capacity), rate, static_cast<uint64_t>(seed)}));
}
BlockedBloomHandle* deserializeBlockedBloom(uintptr_t data, uint32_t length) {
  return new BlockedBloomHandle(BlockedBloomFilter::deserialize(bytesAt(data), length));
}
int unionBlockedBloom(BlockedBloomHandle& target, const BlockedBloomHandle& other) {
  return static_cast<int>(target.filter().unionWith(other.filter()).code());
}
double blockedBlockCount(const BlockedBloomHandle& handle) {
  return static_cast<double>(handle.filter().blockCount());
}

CountingBloomHandle* createCountingBloom(double capacity, double rate, double seed) {
  return new CountingBloomHandle(
      CountingBloomFilter::create({static_cast<uint64_t>(capacity), rate, static_cast<uint64_t>(seed)}));
}
CountingBloomHandle* deserializeCountingBloom(uintptr_t data, uint32_t length) {
  return new CountingBloomHandle(CountingBloomFilter::deserialize(bytesAt(data), length));
}
int countingRemove(CountingBloomHandle& handle, uintptr_t key, uint32_t length) {
  return static_cast<int>(handle.filter().remove(bytesAt(key), length).code());
}
double countingCounterCount(const CountingBloomHandle& handle) {
  return static_cast<double>(handle.filter().counterCount());
}
uint32_t countingHashCount(const CountingBloomHandle& handle) { return handle.filter().hashCount(); }
uint32_t countingCounterAt(const CountingBloomHandle& handle, double index) {
  return handle.filter().counterAt(static_cast<uint64_t>(index));
}

class CuckooHandle : public Handle<CuckooFilter> {
 public:
  using Handle<CuckooFilter>::Handle;
  int add(uintptr_t key, uint32_t length) { return static_cast<int>(filter().add(bytesAt(key), length).code()); }
  // Adds keys in order and stops at the first that does not fit: returns how
  // many were stored (count means all). Keys before the failure stay stored.
  uint32_t addMany(uintptr_t data, uintptr_t offsets, uint32_t count) {
    const uint8_t* bytes = bytesAt(data);
    const uint32_t* ends = reinterpret_cast<const uint32_t*>(offsets);
    for (uint32_t i = 0; i < count; ++i) {
      if (!filter().add(bytes + ends[i], ends[i + 1] - ends[i]).isOk()) return i;
    }
    return count;
  }
  int remove(uintptr_t key, uint32_t length) {
    return static_cast<int>(filter().remove(bytesAt(key), length).code());
  }
  double bucketCount() const { return static_cast<double>(filter().bucketCount()); }
  uint32_t bucketSize() const { return filter().bucketSize(); }
  uint32_t fingerprintBits() const { return filter().fingerprintBits(); }
  uint32_t maxKicks() const { return filter().maxKicks(); }
  double loadFactor() const { return filter().loadFactor(); }
  uint32_t slotAt(double bucket, uint32_t slot) const {
    return filter().slotAt(static_cast<uint64_t>(bucket), slot);
  }
  // [bucket1, bucket2, fingerprint] of a key, without touching the table.
  val locate(uintptr_t key, uint32_t length) const {
    uint64_t bucket1 = 0, bucket2 = 0;
    uint32_t fingerprint = 0;
    filter().locate(bytesAt(key), length, bucket1, bucket2, fingerprint);
    val out = val::array();
    out.call<void>("push", static_cast<double>(bucket1), static_cast<double>(bucket2), fingerprint);
    return out;
  }
  // Flat [bucket, slot, fingerprint, ...] of the last add's eviction walk.
  val lastKickPath() const {
    val out = val::array();
    for (const CuckooKick& kick : filter().lastKickPath()) {
      out.call<void>("push", static_cast<double>(kick.bucket), kick.slot, kick.fingerprint);
    }
    return out;
  }
};

CuckooHandle* createCuckoo(double capacity, double rate, uint32_t bucketSize, uint32_t fingerprintBits,
                           uint32_t maxKicks, double seed) {
  CuckooFilterOptions options;
  options.capacity = static_cast<uint64_t>(capacity);
  options.falsePositiveRate = rate;
  options.bucketSize = bucketSize;
  options.fingerprintBits = fingerprintBits;
  options.maxKicks = maxKicks;
  options.seed = static_cast<uint64_t>(seed);
  return new CuckooHandle(CuckooFilter::create(options));
}
CuckooHandle* deserializeCuckoo(uintptr_t data, uint32_t length) {
  return new CuckooHandle(CuckooFilter::deserialize(bytesAt(data), length));
}

// A URL blocklist envelope, encoded or decoded (see url_blocklist.h).
class BlocklistEnvelopeHandle {
 public:
  static BlocklistEnvelopeHandle* encode(uintptr_t filter, uint32_t length, uint32_t scheme, double entryCount) {
    auto* handle = new BlocklistEnvelopeHandle();
    Result<std::vector<uint8_t>> encoded =
        encodeUrlBlocklist(bytesAt(filter), length, scheme, static_cast<uint64_t>(entryCount));
    if (encoded.isOk()) handle->encoded_ = std::move(encoded).value();
    else handle->status_ = encoded.status();
    return handle;
  }
  static BlocklistEnvelopeHandle* decode(uintptr_t data, uint32_t length) {
    auto* handle = new BlocklistEnvelopeHandle();
    Result<UrlBlocklistEnvelope> decoded = decodeUrlBlocklist(bytesAt(data), length);
    if (decoded.isOk()) {
      handle->decoded_ = decoded.value();
      handle->filterOffset_ = static_cast<uint32_t>(decoded.value().filter - bytesAt(data));
    } else {
      handle->status_ = decoded.status();
    }
    return handle;
  }
  bool ok() const { return status_.isOk(); }
  int errorCode() const { return static_cast<int>(status_.code()); }
  std::string errorMessage() const { return status_.message(); }
  val bytes() const { return val(typed_memory_view(encoded_.size(), encoded_.data())); }
  uint32_t scheme() const { return decoded_.expressionScheme; }
  double entryCount() const { return static_cast<double>(decoded_.entryCount); }
  uint32_t filterType() const { return static_cast<uint32_t>(decoded_.filterType); }
  uint32_t filterOffset() const { return filterOffset_; }
  uint32_t filterLength() const { return static_cast<uint32_t>(decoded_.filterLength); }

 private:
  Status status_;
  std::vector<uint8_t> encoded_;
  UrlBlocklistEnvelope decoded_;
  uint32_t filterOffset_ = 0;
};

// The type byte of a blob, or 0 when the bytes are too short or lack the magic.
// Only a routing hint: the chosen deserialize() still validates everything.
uint32_t filterTypeOf(uintptr_t data, uint32_t length) {
  const uint8_t* bytes = bytesAt(data);
  if (length < kHeaderBytes) return 0;
  for (int i = 0; i < 4; ++i) {
    if (bytes[i] != kFormatMagic[i]) return 0;
  }
  return bytes[6];
}

// Methods inherited from Handle<Filter> are re-typed as members of H: embind
// registers a method under the class its member pointer names, and the base
// class itself is never bound.
template <typename H, typename R, typename B, typename... Args>
auto asMember(R (B::*method)(Args...) const) {
  return static_cast<R (H::*)(Args...) const>(method);
}
template <typename H, typename R, typename B, typename... Args>
auto asMember(R (B::*method)(Args...)) {
  return static_cast<R (H::*)(Args...)>(method);
}

template <typename H>
class_<H> bindCommon(const char* name) {
  return class_<H>(name)
      .function("ok", asMember<H>(&H::ok))
      .function("address", asMember<H>(&H::address))
      .function("errorCode", asMember<H>(&H::errorCode))
      .function("errorMessage", asMember<H>(&H::errorMessage))
      .function("has", asMember<H>(&H::has))
      .function("hasMany", asMember<H>(&H::hasMany))
      .function("add", asMember<H>(&H::add))
      .function("addMany", asMember<H>(&H::addMany))
      .function("serialize", asMember<H>(&H::serialize))
      .function("releaseSerialized", asMember<H>(&H::releaseSerialized))
      .function("count", asMember<H>(&H::count))
      .function("capacity", asMember<H>(&H::capacity))
      .function("seed", asMember<H>(&H::seed))
      .function("byteLength", asMember<H>(&H::byteLength))
      .function("targetFalsePositiveRate", asMember<H>(&H::targetFalsePositiveRate))
      .function("estimatedFalsePositiveRate", asMember<H>(&H::estimatedFalsePositiveRate))
      .function("clear", asMember<H>(&H::clear));
}

}  // namespace

// The fast path for single keys: plain C exports called straight from JS
// with (handle address, key pointer, length). An embind method call costs
// ~100 ns of argument marshalling per key; a direct wasm call costs a few.
// Only TypeScript calls these, with addresses from handle.address() of live
// handles of the matching type.
extern "C" {
EMSCRIPTEN_KEEPALIVE int cbw_bloom_has(uintptr_t handle, uintptr_t key, uint32_t length) {
  return reinterpret_cast<const BloomHandle*>(handle)->has(key, length);
}
EMSCRIPTEN_KEEPALIVE void cbw_bloom_add(uintptr_t handle, uintptr_t key, uint32_t length) {
  reinterpret_cast<BloomHandle*>(handle)->add(key, length);
}
EMSCRIPTEN_KEEPALIVE int cbw_blocked_bloom_has(uintptr_t handle, uintptr_t key, uint32_t length) {
  return reinterpret_cast<const BlockedBloomHandle*>(handle)->has(key, length);
}
EMSCRIPTEN_KEEPALIVE void cbw_blocked_bloom_add(uintptr_t handle, uintptr_t key, uint32_t length) {
  reinterpret_cast<BlockedBloomHandle*>(handle)->add(key, length);
}
EMSCRIPTEN_KEEPALIVE int cbw_counting_bloom_has(uintptr_t handle, uintptr_t key, uint32_t length) {
  return reinterpret_cast<const CountingBloomHandle*>(handle)->has(key, length);
}
EMSCRIPTEN_KEEPALIVE void cbw_counting_bloom_add(uintptr_t handle, uintptr_t key, uint32_t length) {
  reinterpret_cast<CountingBloomHandle*>(handle)->add(key, length);
}
EMSCRIPTEN_KEEPALIVE int cbw_cuckoo_has(uintptr_t handle, uintptr_t key, uint32_t length) {
  return reinterpret_cast<const CuckooHandle*>(handle)->has(key, length);
}
EMSCRIPTEN_KEEPALIVE int cbw_cuckoo_add(uintptr_t handle, uintptr_t key, uint32_t length) {
  return reinterpret_cast<CuckooHandle*>(handle)->add(key, length);
}
}

EMSCRIPTEN_BINDINGS(cuckoo_bloom) {
  constant("formatVersion", static_cast<uint32_t>(kFormatVersion));
  function("filterTypeOf", &filterTypeOf);

  bindCommon<BloomHandle>("BloomHandle")
      .function("positions", &BloomHandle::positions)
      .function("bitCount", &bloomBitCount)
      .function("hashCount", &bloomHashCount)
      .function("setBitCount", &bloomSetBitCount)
      .function("words", &bloomWords)
      .function("unionWith", &unionBloom)
      .function("unionMessage", &unionBloomMessage);
  function("createBloom", &createBloom, allow_raw_pointers());
  function("deserializeBloom", &deserializeBloom, allow_raw_pointers());

  bindCommon<BlockedBloomHandle>("BlockedBloomHandle")
      .function("positions", &BlockedBloomHandle::positions)
      .function("blockCount", &blockedBlockCount)
      .function("unionWith", &unionBlockedBloom);
  function("createBlockedBloom", &createBlockedBloom, allow_raw_pointers());
  function("deserializeBlockedBloom", &deserializeBlockedBloom, allow_raw_pointers());

  bindCommon<CountingBloomHandle>("CountingBloomHandle")
      .function("positions", &CountingBloomHandle::positions)
      .function("remove", &countingRemove)
      .function("counterCount", &countingCounterCount)
      .function("hashCount", &countingHashCount)
      .function("counterAt", &countingCounterAt);
  function("createCountingBloom", &createCountingBloom, allow_raw_pointers());
  function("deserializeCountingBloom", &deserializeCountingBloom, allow_raw_pointers());

  bindCommon<CuckooHandle>("CuckooHandle")
      .function("remove", &CuckooHandle::remove)
      .function("bucketCount", &CuckooHandle::bucketCount)
      .function("bucketSize", &CuckooHandle::bucketSize)
      .function("fingerprintBits", &CuckooHandle::fingerprintBits)
      .function("maxKicks", &CuckooHandle::maxKicks)
      .function("loadFactor", &CuckooHandle::loadFactor)
      .function("slotAt", &CuckooHandle::slotAt)
      .function("locate", &CuckooHandle::locate)
      .function("lastKickPath", &CuckooHandle::lastKickPath);
  function("createCuckoo", &createCuckoo, allow_raw_pointers());

  class_<BlocklistEnvelopeHandle>("BlocklistEnvelopeHandle")
      .function("ok", &BlocklistEnvelopeHandle::ok)
      .function("errorCode", &BlocklistEnvelopeHandle::errorCode)
      .function("errorMessage", &BlocklistEnvelopeHandle::errorMessage)
      .function("bytes", &BlocklistEnvelopeHandle::bytes)
      .function("scheme", &BlocklistEnvelopeHandle::scheme)
      .function("entryCount", &BlocklistEnvelopeHandle::entryCount)
      .function("filterType", &BlocklistEnvelopeHandle::filterType)
      .function("filterOffset", &BlocklistEnvelopeHandle::filterOffset)
      .function("filterLength", &BlocklistEnvelopeHandle::filterLength);
  function("encodeUrlBlocklist", &BlocklistEnvelopeHandle::encode, allow_raw_pointers());
  function("decodeUrlBlocklist", &BlocklistEnvelopeHandle::decode, allow_raw_pointers());
  function("deserializeCuckoo", &deserializeCuckoo, allow_raw_pointers());
}
