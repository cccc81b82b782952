// The shared-memory module (core.shared.wasm, the `cuckoo-bloom-wasm/shared`
// entry; issue #31): the four concurrent filters (cpp/include/cuckoo_bloom/
// concurrent/) behind C exports, in a -pthread build whose memory is one
// shared WebAssembly.Memory that every thread's instance imports.
//
// Filters live in a table of slots in static memory (so at the same address
// for every instance). JavaScript names a filter by (slot, generation); every
// call enters the slot first, which fails (kFreed) once the generation moved
// on, so a thread holding a handle to a freed filter gets an error, never a
// read of freed memory:
//   state = generation << 32 | kClosing | users (calls in flight)
// A call CASes users up only while the generation matches and kClosing is
// clear, and steps it down when done. free() sets kClosing (new calls fail),
// waits for the calls in flight to leave, deletes the filter and bumps the
// generation. The slot is then reusable under the new generation.
//
// Contract with js/src/shared (shared-module.ts):
// - Keys cross as (pointer, length) into this memory, batches as an arena
//   plus uint32 offsets (key i is [data + offsets[i] - offsets[0], ... + offsets[i + 1] - offsets[0])).
// - Negative results are errors: kFreed (the handle names no live filter of
//   that type), kFull (cuckoo add). remove() answers 1 (removed) or 0 (not found).
// - Nothing here reads or writes thread-local storage or calls into
//   JavaScript: each instance only needs its own stack (set by the loader
//   before the first call) and the shared malloc (emmalloc takes its spin
//   lock under -pthread).
#include <emscripten/emscripten.h>

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <string>
#include <string_view>
#include <vector>

#include "cuckoo_bloom/concurrent/concurrent_bloom_filter.h"
#include "cuckoo_bloom/concurrent/concurrent_counting_bloom_filter.h"
#include "cuckoo_bloom/concurrent/concurrent_cuckoo_filter.h"
#include "cuckoo_bloom/core/status.h"

using namespace cuckoo_bloom;

namespace {

// Filter types as js/src/shared/shared-module.ts numbers them.
enum SharedType : uint32_t { kBloom = 1, kBlocked = 2, kCounting = 3, kCuckoo = 4 };

constexpr int kFreed = -1;
constexpr int kFull = -2;

constexpr uint32_t kSlotCount = 4096;
constexpr uint64_t kClosing = uint64_t{1} << 31;
constexpr uint64_t kUsers = kClosing - 1;

struct Slot {
  std::atomic<uint64_t> state{0};
  std::atomic<uint32_t> taken{0};  // 1 from create until free() is done
  uint32_t type = 0;
  void* filter = nullptr;
};
Slot slots[kSlotCount];

// The loader's bootstrap: a thread attaching its own instance has no stack
// yet. It takes this lock from JavaScript (Atomics on the shared memory),
// runs malloc for its own stack on this small stack, then releases it.
alignas(16) uint8_t bootstrapStack[16384];
alignas(4) int32_t bootstrapLock = 0;
// Written once by the creating thread: the loader checks it before it lets a
// handle's memory be instantiated (a memory that is not this runtime's).
alignas(8) uint32_t runtimeMark[2] = {0, 0};

const char* asChars(uintptr_t pointer) { return reinterpret_cast<const char*>(pointer); }

// The filter of (slot, generation) while in scope, or null (then the call returns kFreed).
class Entered {
 public:
  Entered(uint32_t slotIndex, uint32_t generation, uint32_t type) {
    if (slotIndex >= kSlotCount || generation == 0) return;
    Slot& slot = slots[slotIndex];
    uint64_t state = slot.state.load(std::memory_order_acquire);
    for (;;) {
      if ((state >> 32) != generation || (state & kClosing) != 0) return;
      if (slot.state.compare_exchange_weak(state, state + 1, std::memory_order_acquire)) break;
    }
    slot_ = &slot;
    // type and filter were written before the release store that published this generation.
    if (slot.type == type) filter_ = slot.filter;
  }
  ~Entered() {
    if (slot_ != nullptr) slot_->state.fetch_sub(1, std::memory_order_release);
  }
  Entered(const Entered&) = delete;
  Entered& operator=(const Entered&) = delete;
  template <typename Filter>
  Filter* as() const {
    return static_cast<Filter*>(filter_);
  }
  bool ok() const { return filter_ != nullptr; }

 private:
  Slot* slot_ = nullptr;
  void* filter_ = nullptr;
};

void deleteFilter(uint32_t type, void* filter) {
  switch (type) {
    case kBloom: delete static_cast<ConcurrentBloomFilter*>(filter); break;
    case kBlocked: delete static_cast<ConcurrentBlockedBloomFilter*>(filter); break;
    case kCounting: delete static_cast<ConcurrentCountingBloomFilter*>(filter); break;
    case kCuckoo: delete static_cast<ConcurrentCuckooFilter*>(filter); break;
    default: break;
  }
}

// What cbw_shared_create writes for JavaScript.
struct CreateResult {
  int32_t status;  // a StatusCode; 0: ok
  uint32_t slot;
  uint32_t generation;
  char message[244];
};

void fail(CreateResult* out, const Status& status) {
  out->status = static_cast<int32_t>(status.code());
  std::strncpy(out->message, status.message().c_str(), sizeof(out->message) - 1);
  out->message[sizeof(out->message) - 1] = '\0';
}

// Publishes `filter` in a free slot; false when all are taken.
bool publish(CreateResult* out, uint32_t type, void* filter) {
  for (uint32_t index = 0; index < kSlotCount; ++index) {
    Slot& slot = slots[index];
    uint32_t expected = 0;
    if (!slot.taken.compare_exchange_strong(expected, 1, std::memory_order_acquire)) continue;
    uint32_t generation = static_cast<uint32_t>(slot.state.load(std::memory_order_relaxed) >> 32);
    if (generation == 0) generation = 1;
    slot.type = type;
    slot.filter = filter;
    slot.state.store(uint64_t{generation} << 32, std::memory_order_release);
    out->status = 0;
    out->slot = index;
    out->generation = generation;
    return true;
  }
  return false;
}

template <typename Plain, typename Concurrent>
void createWordFilter(CreateResult* out, uint32_t type, const FilterOptions& options) {
  Result<Plain> plain = Plain::create(options);
  if (!plain.isOk()) return fail(out, plain.status());
  auto* filter = new (std::nothrow) Concurrent(std::move(plain).value());
  if (filter == nullptr) return fail(out, Status(StatusCode::OutOfMemory, "out of wasm memory for the filter"));
  if (!publish(out, type, filter)) {
    delete filter;
    fail(out, Status(StatusCode::OutOfMemory, "every one of the 4096 shared filter slots is in use"));
  }
}

template <typename Filter>
int hasIn(const Entered& entered, uintptr_t key, uint32_t length) {
  return entered.as<Filter>()->has(std::string_view(asChars(key), length)) ? 1 : 0;
}

// Key i of a batch (see the contract above).
std::string_view keyOf(uintptr_t data, const uint32_t* offsets, uint32_t i) {
  return std::string_view(asChars(data) + (offsets[i] - offsets[0]), offsets[i + 1] - offsets[i]);
}

template <typename Filter>
void hasMany(const Entered& entered, uintptr_t data, const uint32_t* offsets, uint32_t count, uint8_t* out) {
  const Filter& filter = *entered.as<Filter>();
  for (uint32_t i = 0; i < count; ++i) out[i] = filter.has(keyOf(data, offsets, i)) ? 1 : 0;
}

template <typename Filter>
void addMany(const Entered& entered, uintptr_t data, const uint32_t* offsets, uint32_t count) {
  Filter& filter = *entered.as<Filter>();
  for (uint32_t i = 0; i < count; ++i) filter.add(keyOf(data, offsets, i));
}

}  // namespace

extern "C" {

// Leaf functions (no stack frame): the loader calls them before its instance has a stack.
EMSCRIPTEN_KEEPALIVE uintptr_t cbw_shared_bootstrap_stack() { return reinterpret_cast<uintptr_t>(bootstrapStack); }
EMSCRIPTEN_KEEPALIVE uint32_t cbw_shared_bootstrap_stack_size() { return sizeof(bootstrapStack); }
EMSCRIPTEN_KEEPALIVE uintptr_t cbw_shared_bootstrap_lock() { return reinterpret_cast<uintptr_t>(&bootstrapLock); }
EMSCRIPTEN_KEEPALIVE uintptr_t cbw_shared_runtime_mark() { return reinterpret_cast<uintptr_t>(runtimeMark); }

EMSCRIPTEN_KEEPALIVE const char* cbw_shared_status_name(int code) {
  return statusCodeName(static_cast<StatusCode>(code));
}

// Creates a filter of `type` (numbers cross as doubles: exact up to 2^53).
// Cuckoo filters are always packed (semiSorted false): the concurrent cuckoo
// filter supports that layout only.
EMSCRIPTEN_KEEPALIVE void cbw_shared_create(CreateResult* out, uint32_t type, double capacity, double rate, double seed,
                                            uint32_t bucketSize, uint32_t fingerprintBits, uint32_t maxKicks) {
  const FilterOptions options{static_cast<uint64_t>(capacity), rate, static_cast<uint64_t>(seed)};
  switch (type) {
    case kBloom: return createWordFilter<BloomFilter, ConcurrentBloomFilter>(out, type, options);
    case kBlocked: return createWordFilter<BlockedBloomFilter, ConcurrentBlockedBloomFilter>(out, type, options);
    case kCounting: return createWordFilter<CountingBloomFilter, ConcurrentCountingBloomFilter>(out, type, options);
    case kCuckoo: {
      CuckooFilterOptions cuckoo;
      cuckoo.capacity = options.capacity;
      cuckoo.falsePositiveRate = rate;
      cuckoo.seed = options.seed;
      cuckoo.bucketSize = bucketSize;
      cuckoo.fingerprintBits = fingerprintBits;
      cuckoo.maxKicks = maxKicks;
      cuckoo.semiSorted = false;
      Result<CuckooFilter> plain = CuckooFilter::create(cuckoo);
      if (!plain.isOk()) return fail(out, plain.status());
      Result<std::unique_ptr<ConcurrentCuckooFilter>> wrapped = ConcurrentCuckooFilter::wrap(std::move(plain).value());
      if (!wrapped.isOk()) return fail(out, wrapped.status());
      ConcurrentCuckooFilter* filter = wrapped.value().release();
      if (!publish(out, type, filter)) {
        delete filter;
        fail(out, Status(StatusCode::OutOfMemory, "every one of the 4096 shared filter slots is in use"));
      }
      return;
    }
    default: return fail(out, Status::invalidArgument("unknown shared filter type"));
  }
}

// 1 when (slot, generation) names a live filter of `type`, else 0.
EMSCRIPTEN_KEEPALIVE int cbw_shared_check(uint32_t slot, uint32_t generation, uint32_t type) {
  return Entered(slot, generation, type).ok() ? 1 : 0;
}

// Frees the filter: 1 when this call freed it, 0 when it was already freed
// (or is being freed by another thread). Waits for calls in flight on other
// threads to leave the slot first.
EMSCRIPTEN_KEEPALIVE int cbw_shared_free(uint32_t slotIndex, uint32_t generation) {
  if (slotIndex >= kSlotCount || generation == 0) return 0;
  Slot& slot = slots[slotIndex];
  uint64_t state = slot.state.load(std::memory_order_relaxed);
  for (;;) {
    if ((state >> 32) != generation || (state & kClosing) != 0) return 0;
    if (slot.state.compare_exchange_weak(state, state | kClosing, std::memory_order_acquire)) break;
  }
  // Calls in flight are short (one key, or one batch): spin until they left.
  while ((slot.state.load(std::memory_order_acquire) & kUsers) != 0) {
  }
  deleteFilter(slot.type, slot.filter);
  slot.filter = nullptr;
  slot.type = 0;
  uint32_t next = generation + 1;
  if (next == 0) next = 1;
  slot.state.store((uint64_t{next} << 32) | kClosing, std::memory_order_release);
  slot.taken.store(0, std::memory_order_release);
  return 1;
}

EMSCRIPTEN_KEEPALIVE int cbw_shared_has(uint32_t slot, uint32_t generation, uint32_t type, uintptr_t key,
                                        uint32_t length) {
  Entered entered(slot, generation, type);
  if (!entered.ok()) return kFreed;
  switch (type) {
    case kBloom: return hasIn<ConcurrentBloomFilter>(entered, key, length);
    case kBlocked: return hasIn<ConcurrentBlockedBloomFilter>(entered, key, length);
    case kCounting: return hasIn<ConcurrentCountingBloomFilter>(entered, key, length);
    default: return hasIn<ConcurrentCuckooFilter>(entered, key, length);
  }
}

// 0 when added, kFull (cuckoo), kFreed.
EMSCRIPTEN_KEEPALIVE int cbw_shared_add(uint32_t slot, uint32_t generation, uint32_t type, uintptr_t key,
                                        uint32_t length) {
  Entered entered(slot, generation, type);
  if (!entered.ok()) return kFreed;
  const std::string_view view(asChars(key), length);
  switch (type) {
    case kBloom: entered.as<ConcurrentBloomFilter>()->add(view); return 0;
    case kBlocked: entered.as<ConcurrentBlockedBloomFilter>()->add(view); return 0;
    case kCounting: entered.as<ConcurrentCountingBloomFilter>()->add(view); return 0;
    default: return entered.as<ConcurrentCuckooFilter>()->add(view).isOk() ? 0 : kFull;
  }
}

// 1 when removed, 0 when not found, kFreed (counting Bloom and cuckoo only).
EMSCRIPTEN_KEEPALIVE int cbw_shared_remove(uint32_t slot, uint32_t generation, uint32_t type, uintptr_t key,
                                           uint32_t length) {
  Entered entered(slot, generation, type);
  if (!entered.ok()) return kFreed;
  const std::string_view view(asChars(key), length);
  if (type == kCounting) return entered.as<ConcurrentCountingBloomFilter>()->remove(view).isOk() ? 1 : 0;
  if (type == kCuckoo) return entered.as<ConcurrentCuckooFilter>()->remove(view).isOk() ? 1 : 0;
  return kFreed;
}

// Writes 1/0 per key of the batch to `out`; 0, or kFreed.
EMSCRIPTEN_KEEPALIVE int cbw_shared_has_many(uint32_t slot, uint32_t generation, uint32_t type, uintptr_t data,
                                             const uint32_t* offsets, uint32_t count, uint8_t* out) {
  Entered entered(slot, generation, type);
  if (!entered.ok()) return kFreed;
  switch (type) {
    case kBloom: hasMany<ConcurrentBloomFilter>(entered, data, offsets, count, out); break;
    case kBlocked: hasMany<ConcurrentBlockedBloomFilter>(entered, data, offsets, count, out); break;
    case kCounting: hasMany<ConcurrentCountingBloomFilter>(entered, data, offsets, count, out); break;
    default: hasMany<ConcurrentCuckooFilter>(entered, data, offsets, count, out); break;
  }
  return 0;
}

// Adds every key of the batch: the count added (all of them), or for a full
// cuckoo filter the index of the first key not stored as kFull - index
// (every key before it was stored), or kFreed.
EMSCRIPTEN_KEEPALIVE int cbw_shared_add_many(uint32_t slot, uint32_t generation, uint32_t type, uintptr_t data,
                                             const uint32_t* offsets, uint32_t count) {
  Entered entered(slot, generation, type);
  if (!entered.ok()) return kFreed;
  switch (type) {
    case kBloom: addMany<ConcurrentBloomFilter>(entered, data, offsets, count); break;
    case kBlocked: addMany<ConcurrentBlockedBloomFilter>(entered, data, offsets, count); break;
    case kCounting: addMany<ConcurrentCountingBloomFilter>(entered, data, offsets, count); break;
    default: {
      ConcurrentCuckooFilter& filter = *entered.as<ConcurrentCuckooFilter>();
      for (uint32_t i = 0; i < count; ++i) {
        if (!filter.add(keyOf(data, offsets, i)).isOk()) return kFull - static_cast<int>(i);
      }
    }
  }
  return static_cast<int>(count);
}

// Keys added (Bloom family) or fingerprints stored (cuckoo), as a double; -1: kFreed.
EMSCRIPTEN_KEEPALIVE double cbw_shared_count(uint32_t slot, uint32_t generation, uint32_t type) {
  Entered entered(slot, generation, type);
  if (!entered.ok()) return kFreed;
  switch (type) {
    case kBloom: return static_cast<double>(entered.as<ConcurrentBloomFilter>()->count());
    case kBlocked: return static_cast<double>(entered.as<ConcurrentBlockedBloomFilter>()->count());
    case kCounting: return static_cast<double>(entered.as<ConcurrentCountingBloomFilter>()->count());
    default: return static_cast<double>(entered.as<ConcurrentCuckooFilter>()->count());
  }
}

// The plain filter's bytes in a malloc'd buffer (the caller frees it) whose
// length goes to *length; 0 with *length 0: kFreed; 0 with *length 1: out of memory.
EMSCRIPTEN_KEEPALIVE uint8_t* cbw_shared_serialize(uint32_t slot, uint32_t generation, uint32_t type,
                                                   uint32_t* length) {
  *length = 0;
  Entered entered(slot, generation, type);
  if (!entered.ok()) return nullptr;
  std::vector<uint8_t> bytes;
  switch (type) {
    case kBloom: bytes = entered.as<ConcurrentBloomFilter>()->serialize(); break;
    case kBlocked: bytes = entered.as<ConcurrentBlockedBloomFilter>()->serialize(); break;
    case kCounting: bytes = entered.as<ConcurrentCountingBloomFilter>()->serialize(); break;
    default: bytes = entered.as<ConcurrentCuckooFilter>()->serialize(); break;
  }
  auto* out = static_cast<uint8_t*>(std::malloc(bytes.size()));
  if (out == nullptr) {
    *length = 1;
    return nullptr;
  }
  std::memcpy(out, bytes.data(), bytes.size());
  *length = static_cast<uint32_t>(bytes.size());
  return out;
}

// Bytes of the table (for the memory figures in docs and tests); -1: kFreed.
EMSCRIPTEN_KEEPALIVE double cbw_shared_table_bytes(uint32_t slot, uint32_t generation, uint32_t type) {
  Entered entered(slot, generation, type);
  if (!entered.ok()) return kFreed;
  switch (type) {
    case kBloom: return static_cast<double>(entered.as<ConcurrentBloomFilter>()->filter().byteLength());
    case kBlocked: return static_cast<double>(entered.as<ConcurrentBlockedBloomFilter>()->filter().byteLength());
    case kCounting: return static_cast<double>(entered.as<ConcurrentCountingBloomFilter>()->filter().byteLength());
    default: return static_cast<double>(entered.as<ConcurrentCuckooFilter>()->filter().byteLength());
  }
}

}  // extern "C"
