// The shared-memory module (core.shared.wasm, the `cuckoo-bloom-wasm/shared`
// entry; issues #31, #47): the four concurrent filters (cpp/include/
// cuckoo_bloom/concurrent/) behind C exports, in a -pthread build whose
// memory is one shared WebAssembly.Memory that every thread's instance imports.
//
// Filters live in a table of slots in static memory (so at the same address
// for every instance). JavaScript names a filter by (slot, generation):
//   slot state = generation << 32 | kClosing
// Generations are drawn from one counter per memory, scrambled with the
// memory's random mark: no two filters of a memory share one, and a handle
// with another slot's number does not name that slot's filter (issue #40).
//
// Calls in flight are marked per thread, not per slot (issue #47): each
// thread that uses the memory registers once and gets a record on a cache
// line of its own. A call stores "in slot s" into its own record, then reads
// the slot's state (both sequentially consistent, as every wasm atomic is);
// free() sets kClosing, then reads every record (the same pair the other way
// round), so either the call sees kClosing and leaves, or free() sees the
// call and waits for it. A lookup thus writes only its own line: no
// read-modify-write on a line that other threads' calls write too.
//
// No wait is unbounded: free() waits at most kWaitBoundMs (500 ms) for a call in
// flight, a cuckoo call at most that for a stripe lock; past it the call
// fails with kLocked and the thread's record names the holder (a thread that
// died inside a call: a worker terminated mid-call). recover() declares the
// threads inside this filter's calls that made no progress for the bound
// dead, clears their marks and frees the stripe locks they held. A trap or
// abort (an allocation that failed inside the C++ library) unwinds to
// JavaScript without running destructors: the loader then calls
// cbw_shared_unwind(), which releases what this thread held.
//
// Contract with js/src/shared (shared-filter.ts, shared-place.ts, shared-runtime.ts):
// - Every call names the calling thread (from cbw_shared_register_thread), and
//   a filter type by its registry id (listed by cbw_shared_type_*).
// - Keys cross as (pointer, length) into this memory, batches as an arena
//   plus uint32 offsets (key i is [data + offsets[i] - offsets[0], ... + offsets[i + 1] - offsets[0])),
//   laid out by the main build's routes (shared-keys.ts; cbw_shared_utf8_offsets, cbw_shared_utf16_*).
// - Negative results are errors: kFreed (the handle names no live filter of
//   that type), kFull (cuckoo add), kLocked (see above; the details in the
//   thread's record, cbw_shared_failure). remove() answers 1 (removed) or 0 (not found).
// - Nothing here reads or writes thread-local storage or calls into
//   JavaScript but for the clock (emscripten_get_now) in a wait that lasts:
//   each instance only needs its own stack (set by the loader before the
//   first call) and the shared malloc (emmalloc behind the allocator lock of
//   shared_allocator.cpp, whose waits end: a thread killed inside malloc
//   makes later allocations fail, never spin for ever).
#include <emscripten/emscripten.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "cuckoo_bloom/concurrent/concurrent_bloom_filter.h"
#include "cuckoo_bloom/concurrent/concurrent_counting_bloom_filter.h"
#include "cuckoo_bloom/concurrent/concurrent_cuckoo_filter.h"
#include "cuckoo_bloom/concurrent/wait_bound.h"
#include "cuckoo_bloom/core/filter_support.h"
#include "cuckoo_bloom/core/format.h"
#include "cuckoo_bloom/core/hashing.h"
#include "cuckoo_bloom/core/status.h"
#include "cuckoo_bloom/core/utf8_offsets.h"
#include "handle_status.h"

using namespace cuckoo_bloom;

namespace {

// Filter types by the registry's ids (cuckoo_bloom/registry/filter_types.h),
// as the byte format and the main build number them: each shared type is the
// concurrent form of a plain class and takes that class's id. JavaScript reads
// them from here (cbw_shared_type_id, cbw_shared_type_name), not from a copy.
template <typename Plain>
constexpr uint32_t typeIdOf() {
  return static_cast<uint32_t>(FilterTypeOf<Plain>::value);
}
constexpr uint32_t kBloom = typeIdOf<BloomFilter>();
constexpr uint32_t kBlocked = typeIdOf<BlockedBloomFilter>();
constexpr uint32_t kCounting = typeIdOf<CountingBloomFilter>();
constexpr uint32_t kCuckoo = typeIdOf<CuckooFilter>();
// The types this module makes (0 in a slot's `type`: none; registry ids start at 1).
constexpr uint32_t kSharedTypes[] = {kBloom, kBlocked, kCounting, kCuckoo};
constexpr uint32_t kSharedTypeCount = sizeof(kSharedTypes) / sizeof(kSharedTypes[0]);

// utf16KeysToUtf8's table (utf8_offsets.h) is a function-local static. It is
// filled here, by the static constructors, which run once on the creating
// thread before any other thread has an instance: filled on first use, two
// threads could meet in its guard, whose wait needs the pthread runtime this
// loader does not start (docs/CONCURRENCY.md).
[[maybe_unused]] const uint32_t* const utf8OfUnitFilled = utf8OfUnitTable();

constexpr int kFreed = -1;
constexpr int kFull = -2;
constexpr int kLocked = -3;

// What a kLocked failure waited on (the thread record's `failure`).
enum WaitedOn : uint32_t { kWaitedOnCall = 1, kWaitedOnStripe = 2 };

constexpr uint32_t kSlotCount = 4096;
constexpr uint64_t kClosing = uint64_t{1} << 31;
// How long a call waits on another thread (a call in flight, a stripe lock)
// before it fails with kLocked. Calls hold locks for a few slot writes and
// stay in a slot for one key or one batch (at most 16,384 keys: milliseconds):
// a wait this long means a thread that stopped inside a call, or one preempted
// for that long on a machine far over its cores (a margin: the 4-worker
// tests run at load average 20 on 2 cores here). A cuckoo lock wait starts
// over whenever the lock changed hands (progress).
constexpr double kWaitBoundMs = 500;

struct Slot {
  std::atomic<uint64_t> state{0};
  std::atomic<uint32_t> taken{0};  // 1 from create until free() is done
  uint32_t type = 0;
  void* filter = nullptr;
};
Slot slots[kSlotCount];

// Threads are numbered from 1 (0: none) in the order they register; each
// owns one record, alone on its cache line (64 bytes), so a call's marks
// never move a line another thread's calls write.
constexpr uint32_t kThreadCount = 1024;
struct alignas(64) ThreadRecord {
  // (call number << 32) | (slot + 1) while a call is in a slot, 0 between
  // calls. The call number changes every call, so a waiter tells a thread
  // that keeps making calls on the slot from one stuck inside one.
  std::atomic<uint64_t> inCall{0};
  uint32_t calls = 0;  // written by the owner only
  // The last kLocked failure of this thread's calls, for JavaScript to read.
  uint32_t failureWaitedOn = 0;
  uint32_t failureHolder = 0;
  uint32_t failureStripe = 0;
  uint32_t failureIndex = 0;  // a batch: the first key not done
  // 1 once recover() found the thread stopped inside a call.
  std::atomic<uint32_t> stopped{0};
};
ThreadRecord threadRecords[kThreadCount];
std::atomic<uint32_t> registeredThreads{0};
std::atomic<uint32_t> generationCounter{0};

// The loader's bootstrap: a thread attaching its own instance has no stack
// yet. It takes this lock from JavaScript (Atomics on the shared memory),
// runs malloc for its own stack on this small stack, then releases it.
alignas(16) uint8_t bootstrapStack[16384];
alignas(4) int32_t bootstrapLock = 0;
// Written once by the creating thread: the loader checks it before it lets a
// handle's memory be instantiated (a memory that is not this runtime's).
alignas(8) uint32_t runtimeMark[2] = {0, 0};

const char* asChars(uintptr_t pointer) { return reinterpret_cast<const char*>(pointer); }

ThreadRecord* recordOf(uint32_t thread) {
  if (thread == 0 || thread > kThreadCount) return nullptr;
  return &threadRecords[thread - 1];
}

// murmur3's 32-bit finalizer: a bijection, so distinct counters give distinct generations.
uint32_t scramble(uint32_t value) { return xorShiftMultiply<uint32_t>(value, 16, 0x85ebca6bu, 13, 0xc2b2ae35u, 16); }

// A generation no other filter of this memory had (until 2^32 filters were
// made), not guessable from another slot's without the memory's mark.
uint32_t nextGeneration() {
  for (;;) {
    const uint32_t counter = generationCounter.fetch_add(1, std::memory_order_relaxed);
    const uint32_t generation = scramble(counter ^ runtimeMark[0]) ^ runtimeMark[1];
    if (generation != 0) return generation;
  }
}

// The filter of (slot, generation) while in scope, or null (then the call
// returns kFreed). Marks the thread's own record only.
class Entered {
 public:
  Entered(uint32_t thread, uint32_t slotIndex, uint32_t generation, uint32_t type) {
    ThreadRecord* record = recordOf(thread);
    if (record == nullptr || slotIndex >= kSlotCount || generation == 0) return;
    Slot& slot = slots[slotIndex];
    record->calls += 1;
    record->inCall.store((uint64_t{record->calls} << 32) | (slotIndex + 1), std::memory_order_seq_cst);
    const uint64_t state = slot.state.load(std::memory_order_seq_cst);
    // type and filter were written before the release store that published this generation.
    if ((state >> 32) != generation || (state & kClosing) != 0 || slot.type != type) {
      record->inCall.store(0, std::memory_order_release);
      return;
    }
    record_ = record;
    filter_ = slot.filter;
  }
  ~Entered() {
    if (record_ != nullptr) record_->inCall.store(0, std::memory_order_release);
  }
  Entered(const Entered&) = delete;
  Entered& operator=(const Entered&) = delete;
  template <typename Filter>
  Filter* as() const {
    return static_cast<Filter*>(filter_);
  }
  bool ok() const { return filter_ != nullptr; }
  ThreadRecord& record() const { return *record_; }

 private:
  ThreadRecord* record_ = nullptr;
  void* filter_ = nullptr;
};

// A waiter for the cuckoo filter's stripe locks, in this thread's name.
LockWaiter waiterFor(uint32_t thread) {
  LockWaiter waiter;
  waiter.holder = thread;
  waiter.boundMs = kWaitBoundMs;
  return waiter;
}

int lockedOnStripe(ThreadRecord& record, const LockWaiter& waiter, uint32_t index = 0) {
  record.failureWaitedOn = kWaitedOnStripe;
  record.failureHolder = waiter.stuckHolder;
  record.failureStripe = waiter.stuckStripe;
  record.failureIndex = index;
  return kLocked;
}

// Waits until no other thread is inside a call on `slotIndex`, at most
// kWaitBoundMs; 0, or the first thread still inside when the bound passed.
uint32_t waitForCallsToLeave(uint32_t self, uint32_t slotIndex) {
  const uint32_t threads = std::min(registeredThreads.load(std::memory_order_seq_cst), kThreadCount);
  const double start = waitClockMs();
  for (uint32_t thread = 1; thread <= threads; ++thread) {
    if (thread == self) continue;
    ThreadRecord& record = threadRecords[thread - 1];
    const uint64_t seen = record.inCall.load(std::memory_order_seq_cst);
    if (static_cast<uint32_t>(seen) != slotIndex + 1) continue;
    // Any change means that call left (a new call on this slot sees kClosing).
    for (uint32_t spins = 1; record.inCall.load(std::memory_order_acquire) == seen; ++spins) {
      if (spins % LockWaiter::kSpinsPerClockRead == 0 && waitClockMs() - start >= kWaitBoundMs) return thread;
    }
  }
  return 0;
}

void deleteFilter(uint32_t type, void* filter) {
  switch (type) {
    case kBloom: delete static_cast<ConcurrentBloomFilter*>(filter); break;
    case kBlocked: delete static_cast<ConcurrentBlockedBloomFilter*>(filter); break;
    case kCounting: delete static_cast<ConcurrentCountingBloomFilter*>(filter); break;
    case kCuckoo: delete static_cast<ConcurrentCuckooFilter*>(filter); break;
    default: break;
  }
}

// What cbw_shared_create writes for JavaScript: a failure as every module
// gives one (handle_status.h), its code number (cbw_status_name names it)
// and its message.
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
    const uint32_t generation = nextGeneration();
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

// Keys hashed a group at a time, then probed (the main build's batch path,
// any_filter.cpp): each key is hashed once, and the group's probes are
// independent reads the CPU overlaps (wasm has no prefetch instruction).
// `probe(i, hash)` returns false to stop the batch there.
constexpr uint32_t kHashGroup = 8;
// `probeGroup(start, hashes, group)` gets each group's hashes at once (keys
// start.. start + group - 1) and returns false to stop the batch there.
template <typename Filter, typename ProbeGroup>
void forEachHashedGroup(const Filter& filter, uintptr_t data, const uint32_t* offsets, uint32_t count,
                        ProbeGroup probeGroup) {
  KeyHash hashes[kHashGroup];
  for (uint32_t start = 0; start < count; start += kHashGroup) {
    const uint32_t group = std::min(kHashGroup, count - start);
    for (uint32_t j = 0; j < group; ++j) hashes[j] = filter.hashOf(keyOf(data, offsets, start + j));
    if (!probeGroup(start, static_cast<const KeyHash*>(hashes), group)) return;
  }
}
template <typename Filter, typename Probe>
void forEachHashed(const Filter& filter, uintptr_t data, const uint32_t* offsets, uint32_t count, Probe probe) {
  forEachHashedGroup(filter, data, offsets, count, [&](uint32_t start, const KeyHash* hashes, uint32_t group) {
    for (uint32_t j = 0; j < group; ++j) {
      if (!probe(start + j, hashes[j])) return false;
    }
    return true;
  });
}

template <typename Filter>
void hasMany(const Entered& entered, uintptr_t data, const uint32_t* offsets, uint32_t count, uint8_t* out) {
  const Filter& filter = *entered.as<Filter>();
  forEachHashed(filter, data, offsets, count, [&](uint32_t i, const KeyHash& hash) {
    out[i] = filter.has(hash) ? 1 : 0;
    return true;
  });
}

template <typename Filter>
void addMany(const Entered& entered, uintptr_t data, const uint32_t* offsets, uint32_t count) {
  Filter& filter = *entered.as<Filter>();
  forEachHashed(filter, data, offsets, count, [&](uint32_t, const KeyHash& hash) {
    filter.add(hash);
    return true;
  });
}

template <typename Filter>
size_t serializedSizeOf(const Entered& entered) {
  return entered.as<Filter>()->serializedSize();
}

}  // namespace

extern "C" {

// Leaf functions (no stack frame): the loader calls them before its instance has a stack.
EMSCRIPTEN_KEEPALIVE uintptr_t cbw_shared_bootstrap_stack() { return reinterpret_cast<uintptr_t>(bootstrapStack); }
EMSCRIPTEN_KEEPALIVE uint32_t cbw_shared_bootstrap_stack_size() { return sizeof(bootstrapStack); }
EMSCRIPTEN_KEEPALIVE uintptr_t cbw_shared_bootstrap_lock() { return reinterpret_cast<uintptr_t>(&bootstrapLock); }
EMSCRIPTEN_KEEPALIVE uintptr_t cbw_shared_runtime_mark() { return reinterpret_cast<uintptr_t>(runtimeMark); }

// The filter types this module makes: their count, then each one's registry
// id and name by index (0 and null past the count). js/src/shared reads them
// once per instance and names types by these ids in every call.
EMSCRIPTEN_KEEPALIVE uint32_t cbw_shared_type_count() { return kSharedTypeCount; }
EMSCRIPTEN_KEEPALIVE uint32_t cbw_shared_type_id(uint32_t index) {
  return index < kSharedTypeCount ? kSharedTypes[index] : 0;
}
EMSCRIPTEN_KEEPALIVE const char* cbw_shared_type_name(uint32_t index) {
  return index < kSharedTypeCount ? filterTypeName(static_cast<FilterType>(kSharedTypes[index])) : nullptr;
}

// The main build's key routes (bindings/embind.cpp's cbw_utf8_offsets,
// cbw_utf16_keys and cbw_utf16_key, over utf8_offsets.h), for the same
// layouts: js/src/shared/shared-keys.ts. They touch only the calling
// thread's scratch region (no filter, no mark).
// A batch of strings written as one UTF-8 string: UTF-16 unit offsets to
// byte offsets, in place. 1 on success, 0: write the batch key by key.
EMSCRIPTEN_KEEPALIVE int cbw_shared_utf8_offsets(uintptr_t data, uint32_t byteLength, uint32_t* offsets, uint32_t count) {
  return utf16OffsetsToUtf8(reinterpret_cast<const uint8_t*>(data), byteLength, offsets, count) ? 1 : 0;
}
// A batch of strings as UTF-16 units: encoded into UTF-8 at `data` (room for 3
// bytes a unit plus 4), unit offsets rewritten as byte offsets. The bytes written.
EMSCRIPTEN_KEEPALIVE uint32_t cbw_shared_utf16_keys(uintptr_t units, uint32_t* offsets, uint32_t count, uint8_t* data) {
  return static_cast<uint32_t>(utf16KeysToUtf8(reinterpret_cast<const uint8_t*>(units), offsets, count, data));
}
// One key the same way: `unitCount` units into UTF-8 at `data`; the bytes written.
EMSCRIPTEN_KEEPALIVE uint32_t cbw_shared_utf16_key(uintptr_t units, uint32_t unitCount, uint8_t* data) {
  uint32_t offsets[2] = {0, unitCount};
  return static_cast<uint32_t>(utf16KeysToUtf8(reinterpret_cast<const uint8_t*>(units), offsets, 1, data));
}

// This thread's number for every later call (1..1024), or 0 when 1024
// threads have registered with this memory already.
EMSCRIPTEN_KEEPALIVE uint32_t cbw_shared_register_thread() {
  const uint32_t thread = registeredThreads.fetch_add(1, std::memory_order_seq_cst) + 1;
  return thread <= kThreadCount ? thread : 0;
}

// The thread's record of its last kLocked failure: 4 uint32 (what it waited
// on: 1 a call in flight, 2 a stripe lock; the holding thread; the stripe;
// the batch index), then the stopped flag.
EMSCRIPTEN_KEEPALIVE uintptr_t cbw_shared_failure(uint32_t thread) {
  ThreadRecord* record = recordOf(thread);
  return record == nullptr ? 0 : reinterpret_cast<uintptr_t>(&record->failureWaitedOn);
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
EMSCRIPTEN_KEEPALIVE int cbw_shared_check(uint32_t thread, uint32_t slot, uint32_t generation, uint32_t type) {
  return Entered(thread, slot, generation, type).ok() ? 1 : 0;
}

// Frees the filter: 1 when this call freed it, 0 when it was already freed
// (or is being freed by another thread), kLocked when a call in flight on
// another thread did not leave within the bound (the filter stays live; the
// record names that thread: recover() first if it died).
EMSCRIPTEN_KEEPALIVE int cbw_shared_free(uint32_t thread, uint32_t slotIndex, uint32_t generation) {
  ThreadRecord* self = recordOf(thread);
  if (self == nullptr || slotIndex >= kSlotCount || generation == 0) return 0;
  Slot& slot = slots[slotIndex];
  uint64_t state = slot.state.load(std::memory_order_relaxed);
  for (;;) {
    if ((state >> 32) != generation || (state & kClosing) != 0) return 0;
    if (slot.state.compare_exchange_weak(state, state | kClosing, std::memory_order_seq_cst)) break;
  }
  if (const uint32_t holder = waitForCallsToLeave(thread, slotIndex)) {
    // Only this call sets and clears kClosing of a live generation.
    slot.state.store(uint64_t{generation} << 32, std::memory_order_seq_cst);
    self->failureWaitedOn = kWaitedOnCall;
    self->failureHolder = holder;
    self->failureStripe = 0;
    self->failureIndex = 0;
    return kLocked;
  }
  deleteFilter(slot.type, slot.filter);
  slot.filter = nullptr;
  slot.type = 0;
  // Generation 0 names nothing: old handles fail, and publish() draws a new one.
  slot.state.store(kClosing, std::memory_order_release);
  slot.taken.store(0, std::memory_order_release);
  return 1;
}

// After a worker died inside a call on this filter: the threads found inside
// one of its calls that made no progress for the bound are marked stopped,
// their marks cleared and (cuckoo) their stripe locks freed. Call it only
// once such a thread is known to be gone (a live thread stalled that long
// would lose its locks while it writes). The count of threads recovered, or kFreed.
EMSCRIPTEN_KEEPALIVE int cbw_shared_recover(uint32_t thread, uint32_t slotIndex, uint32_t generation, uint32_t type) {
  Entered entered(thread, slotIndex, generation, type);
  if (!entered.ok()) return kFreed;
  const uint32_t threads = std::min(registeredThreads.load(std::memory_order_seq_cst), kThreadCount);
  // Each other thread's mark as first seen (on the stack: no malloc here, whose
  // lock a thread that died inside it would hold).
  uint64_t seen[kThreadCount];
  for (uint32_t other = 1; other <= threads; ++other) {
    const uint64_t mark = threadRecords[other - 1].inCall.load(std::memory_order_seq_cst);
    seen[other - 1] = other != thread && static_cast<uint32_t>(mark) == slotIndex + 1 ? mark : 0;
  }
  const double start = waitClockMs();
  int recovered = 0;
  for (uint32_t other = 1; other <= threads; ++other) {
    if (seen[other - 1] == 0) continue;
    ThreadRecord& record = threadRecords[other - 1];
    bool moved = false;
    for (uint32_t spins = 1;; ++spins) {
      if (record.inCall.load(std::memory_order_acquire) != seen[other - 1]) {
        moved = true;
        break;
      }
      if (spins % LockWaiter::kSpinsPerClockRead == 0 && waitClockMs() - start >= kWaitBoundMs) break;
    }
    if (moved) continue;
    record.stopped.store(1, std::memory_order_release);
    if (type == kCuckoo) entered.as<ConcurrentCuckooFilter>()->releaseHolder(other);
    uint64_t expected = seen[other - 1];
    record.inCall.compare_exchange_strong(expected, 0, std::memory_order_seq_cst);
    ++recovered;
  }
  return recovered;
}

// After a trap or abort unwound this thread out of a call (the loader catches
// it): frees the stripe locks the call held and its mark. 1 when it was
// inside a call, else 0.
EMSCRIPTEN_KEEPALIVE int cbw_shared_unwind(uint32_t thread) {
  ThreadRecord* record = recordOf(thread);
  if (record == nullptr) return 0;
  const uint64_t seen = record->inCall.load(std::memory_order_seq_cst);
  if (seen == 0) return 0;
  // Our mark kept free() from deleting the filter (it waits for it, or fails).
  Slot& slot = slots[static_cast<uint32_t>(seen) - 1];
  if (slot.type == kCuckoo && slot.filter != nullptr) static_cast<ConcurrentCuckooFilter*>(slot.filter)->releaseHolder(thread);
  record->inCall.store(0, std::memory_order_seq_cst);
  return 1;
}

EMSCRIPTEN_KEEPALIVE int cbw_shared_has(uint32_t thread, uint32_t slot, uint32_t generation, uint32_t type,
                                        uintptr_t key, uint32_t length) {
  Entered entered(thread, slot, generation, type);
  if (!entered.ok()) return kFreed;
  switch (type) {
    case kBloom: return hasIn<ConcurrentBloomFilter>(entered, key, length);
    case kBlocked: return hasIn<ConcurrentBlockedBloomFilter>(entered, key, length);
    case kCounting: return hasIn<ConcurrentCountingBloomFilter>(entered, key, length);
    default: {
      auto& filter = *entered.as<ConcurrentCuckooFilter>();
      LockWaiter waiter = waiterFor(thread);
      switch (filter.tryHas(filter.hashOf(std::string_view(asChars(key), length)), waiter)) {
        case ConcurrentCuckooFilter::Outcome::Ok: return 1;
        case ConcurrentCuckooFilter::Outcome::Stuck: return lockedOnStripe(entered.record(), waiter);
        default: return 0;
      }
    }
  }
}

// 0 when added, kFull (cuckoo), kLocked (cuckoo), kFreed.
EMSCRIPTEN_KEEPALIVE int cbw_shared_add(uint32_t thread, uint32_t slot, uint32_t generation, uint32_t type,
                                        uintptr_t key, uint32_t length) {
  Entered entered(thread, slot, generation, type);
  if (!entered.ok()) return kFreed;
  const std::string_view view(asChars(key), length);
  switch (type) {
    case kBloom: entered.as<ConcurrentBloomFilter>()->add(view); return 0;
    case kBlocked: entered.as<ConcurrentBlockedBloomFilter>()->add(view); return 0;
    case kCounting: entered.as<ConcurrentCountingBloomFilter>()->add(view); return 0;
    default: {
      auto& filter = *entered.as<ConcurrentCuckooFilter>();
      LockWaiter waiter = waiterFor(thread);
      switch (filter.tryAdd(filter.hashOf(view), waiter)) {
        case ConcurrentCuckooFilter::Outcome::Ok: return 0;
        case ConcurrentCuckooFilter::Outcome::Stuck: return lockedOnStripe(entered.record(), waiter);
        default: return kFull;
      }
    }
  }
}

// 1 when removed, 0 when not found, kLocked (cuckoo), kFreed (counting Bloom and cuckoo only).
EMSCRIPTEN_KEEPALIVE int cbw_shared_remove(uint32_t thread, uint32_t slot, uint32_t generation, uint32_t type,
                                           uintptr_t key, uint32_t length) {
  Entered entered(thread, slot, generation, type);
  if (!entered.ok()) return kFreed;
  const std::string_view view(asChars(key), length);
  if (type == kCounting) {
    auto& filter = *entered.as<ConcurrentCountingBloomFilter>();
    return filter.removeIfPresent(filter.hashOf(view)) ? 1 : 0;
  }
  if (type == kCuckoo) {
    auto& filter = *entered.as<ConcurrentCuckooFilter>();
    LockWaiter waiter = waiterFor(thread);
    switch (filter.tryRemove(filter.hashOf(view), waiter)) {
      case ConcurrentCuckooFilter::Outcome::Ok: return 1;
      case ConcurrentCuckooFilter::Outcome::Stuck: return lockedOnStripe(entered.record(), waiter);
      default: return 0;
    }
  }
  return kFreed;
}

// Writes 1/0 per key of the batch to `out`; 0, kLocked (cuckoo: the answers
// before the record's index are written), or kFreed.
EMSCRIPTEN_KEEPALIVE int cbw_shared_has_many(uint32_t thread, uint32_t slot, uint32_t generation, uint32_t type,
                                             uintptr_t data, const uint32_t* offsets, uint32_t count, uint8_t* out) {
  Entered entered(thread, slot, generation, type);
  if (!entered.ok()) return kFreed;
  switch (type) {
    case kBloom: hasMany<ConcurrentBloomFilter>(entered, data, offsets, count, out); break;
    case kBlocked: hasMany<ConcurrentBlockedBloomFilter>(entered, data, offsets, count, out); break;
    case kCounting: hasMany<ConcurrentCountingBloomFilter>(entered, data, offsets, count, out); break;
    default: {
      // A group at a time (tryHasMany: no call and no wait per key, as the main build's batch).
      const auto& filter = *entered.as<ConcurrentCuckooFilter>();
      LockWaiter waiter = waiterFor(thread);
      int result = 0;
      forEachHashedGroup(filter, data, offsets, count, [&](uint32_t start, const KeyHash* hashes, uint32_t group) {
        const size_t answered = filter.tryHasMany(hashes, group, out + start, waiter);
        if (answered != group) result = lockedOnStripe(entered.record(), waiter, start + static_cast<uint32_t>(answered));
        return result == 0;
      });
      return result;
    }
  }
  return 0;
}

// Adds every key of the batch: the count added (all of them), or for a full
// cuckoo filter the index of the first key not stored as kFull - index
// (every key before it was stored), kLocked (cuckoo: the record's index is
// the first key not stored), or kFreed.
EMSCRIPTEN_KEEPALIVE int cbw_shared_add_many(uint32_t thread, uint32_t slot, uint32_t generation, uint32_t type,
                                             uintptr_t data, const uint32_t* offsets, uint32_t count) {
  Entered entered(thread, slot, generation, type);
  if (!entered.ok()) return kFreed;
  switch (type) {
    case kBloom: addMany<ConcurrentBloomFilter>(entered, data, offsets, count); break;
    case kBlocked: addMany<ConcurrentBlockedBloomFilter>(entered, data, offsets, count); break;
    case kCounting: addMany<ConcurrentCountingBloomFilter>(entered, data, offsets, count); break;
    default: {
      ConcurrentCuckooFilter& filter = *entered.as<ConcurrentCuckooFilter>();
      LockWaiter waiter = waiterFor(thread);
      int result = static_cast<int>(count);
      forEachHashed(filter, data, offsets, count, [&](uint32_t i, const KeyHash& hash) {
        const auto outcome = filter.tryAdd(hash, waiter);
        if (outcome == ConcurrentCuckooFilter::Outcome::Stuck) result = lockedOnStripe(entered.record(), waiter, i);
        else if (outcome != ConcurrentCuckooFilter::Outcome::Ok) result = kFull - static_cast<int>(i);
        return outcome == ConcurrentCuckooFilter::Outcome::Ok;
      });
      return result;
    }
  }
  return static_cast<int>(count);
}

// Removes every key of the batch (counting Bloom and cuckoo), writing 1
// (removed) or 0 (not found) per key to `out`: 0, kLocked (cuckoo: the keys
// before the record's index were done), or kFreed.
EMSCRIPTEN_KEEPALIVE int cbw_shared_remove_many(uint32_t thread, uint32_t slot, uint32_t generation, uint32_t type,
                                                uintptr_t data, const uint32_t* offsets, uint32_t count,
                                                uint8_t* out) {
  Entered entered(thread, slot, generation, type);
  if (!entered.ok()) return kFreed;
  if (type == kCounting) {
    auto& filter = *entered.as<ConcurrentCountingBloomFilter>();
    forEachHashed(filter, data, offsets, count, [&](uint32_t i, const KeyHash& hash) {
      out[i] = filter.removeIfPresent(hash) ? 1 : 0;
      return true;
    });
    return 0;
  }
  if (type != kCuckoo) return kFreed;
  auto& filter = *entered.as<ConcurrentCuckooFilter>();
  LockWaiter waiter = waiterFor(thread);
  int result = 0;
  forEachHashed(filter, data, offsets, count, [&](uint32_t i, const KeyHash& hash) {
    const auto outcome = filter.tryRemove(hash, waiter);
    if (outcome == ConcurrentCuckooFilter::Outcome::Stuck) result = lockedOnStripe(entered.record(), waiter, i);
    out[i] = outcome == ConcurrentCuckooFilter::Outcome::Ok ? 1 : 0;
    return result == 0;
  });
  return result;
}

// Keys added (Bloom family) or fingerprints stored (cuckoo), as a double; -1: kFreed.
EMSCRIPTEN_KEEPALIVE double cbw_shared_count(uint32_t thread, uint32_t slot, uint32_t generation, uint32_t type) {
  Entered entered(thread, slot, generation, type);
  if (!entered.ok()) return kFreed;
  switch (type) {
    case kBloom: return static_cast<double>(entered.as<ConcurrentBloomFilter>()->count());
    case kBlocked: return static_cast<double>(entered.as<ConcurrentBlockedBloomFilter>()->count());
    case kCounting: return static_cast<double>(entered.as<ConcurrentCountingBloomFilter>()->count());
    default: return static_cast<double>(entered.as<ConcurrentCuckooFilter>()->count());
  }
}

// The plain filter's bytes in a malloc'd buffer (the caller frees it) whose
// length goes to *length; 0 with *length 0: kFreed; 1: out of memory (no
// lock taken: the buffer is allocated first); 2: kLocked (cuckoo).
EMSCRIPTEN_KEEPALIVE uint8_t* cbw_shared_serialize(uint32_t thread, uint32_t slot, uint32_t generation, uint32_t type,
                                                   uint32_t* length) {
  *length = 0;
  Entered entered(thread, slot, generation, type);
  if (!entered.ok()) return nullptr;
  size_t size = 0;
  switch (type) {
    case kBloom: size = serializedSizeOf<ConcurrentBloomFilter>(entered); break;
    case kBlocked: size = serializedSizeOf<ConcurrentBlockedBloomFilter>(entered); break;
    case kCounting: size = serializedSizeOf<ConcurrentCountingBloomFilter>(entered); break;
    default: size = serializedSizeOf<ConcurrentCuckooFilter>(entered); break;
  }
  auto* out = static_cast<uint8_t*>(std::malloc(size));
  if (out == nullptr) {
    *length = 1;
    return nullptr;
  }
  switch (type) {
    case kBloom: entered.as<ConcurrentBloomFilter>()->serializeInto(out); break;
    case kBlocked: entered.as<ConcurrentBlockedBloomFilter>()->serializeInto(out); break;
    case kCounting: entered.as<ConcurrentCountingBloomFilter>()->serializeInto(out); break;
    default: {
      LockWaiter waiter = waiterFor(thread);
      if (entered.as<ConcurrentCuckooFilter>()->trySerializeInto(out, waiter) != ConcurrentCuckooFilter::Outcome::Ok) {
        std::free(out);
        lockedOnStripe(entered.record(), waiter);
        *length = 2;
        return nullptr;
      }
    }
  }
  *length = static_cast<uint32_t>(size);
  return out;
}

// Bytes of the table (for the memory figures in docs and tests); -1: kFreed.
EMSCRIPTEN_KEEPALIVE double cbw_shared_table_bytes(uint32_t thread, uint32_t slot, uint32_t generation, uint32_t type) {
  Entered entered(thread, slot, generation, type);
  if (!entered.ok()) return kFreed;
  switch (type) {
    case kBloom: return static_cast<double>(entered.as<ConcurrentBloomFilter>()->filter().byteLength());
    case kBlocked: return static_cast<double>(entered.as<ConcurrentBlockedBloomFilter>()->filter().byteLength());
    case kCounting: return static_cast<double>(entered.as<ConcurrentCountingBloomFilter>()->filter().byteLength());
    default: return static_cast<double>(entered.as<ConcurrentCuckooFilter>()->filter().byteLength());
  }
}

}  // extern "C"

CBW_STATUS_NAME_EXPORT()
