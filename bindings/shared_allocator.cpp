// The shared module's allocator lock (core.shared.wasm only): malloc, free and
// their relatives, in front of emmalloc, behind one lock whose waits end.
//
// Why: under -pthread emmalloc guards its heap with a spin lock that waits for
// ever. A worker terminated while inside malloc or free (a thread attaching, a
// batch's scratch region growing, serialize, free) keeps that lock, and every
// later allocation of every thread on the memory then spins for ever: on the
// main thread too, where no timer can interrupt it (a CI run hung so, in
// tests/shared/shared-recovery.test.mjs).
//
// So every allocation here first takes `allocatorLock`, a counter that is odd
// while held (taken: +1, released: +1 again). A waiter gives up once one hold
// (the same odd value) has lasted kAllocatorWaitMs (later waits on that hold
// give up at once): malloc returns null, free
// keeps the block (a leak, not a hang), and the give-up is counted in
// `allocatorGiveUps` for JavaScript, which answers LOCKED. emmalloc's own spin
// lock is only ever taken by this lock's holder, so it is never contended.
//
// A hold by a thread that died never ends: emmalloc's heap may be half updated,
// so nothing releases it, and from then on this memory can allocate nothing
// (attach, new filters, serialize: LOCKED). The same holds for a call cut short
// inside malloc by a JavaScript exception (a stack overflow): it may have
// stopped inside emmalloc too. Every filter already in the memory keeps
// answering: lookups, Bloom-family adds and removes, and batches that fit a
// thread's scratch region allocate nothing (a cuckoo add whose kick path
// passes 256 moves does). The loader keeps the window small: a thread's stack,
// TLS block and first scratch region are allocated as it attaches, and later
// only when a batch outgrows the scratch region.
//
// Holds are short: the lock covers emmalloc's bookkeeping only; calloc zeroes
// and realloc copies after releasing it. emscripten_tls_init() allocates through
// emmalloc directly (emscripten_builtin_memalign): the loader takes this lock
// around it (cbw_shared_allocator_take / _release).
#include <emscripten/emmalloc.h>
#include <emscripten/emscripten.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "cuckoo_bloom/concurrent/wait_bound.h"

namespace {

// Longer than any allocation takes, even preempted on a loaded machine; the
// filters' waits use the same bound (bindings/shared.cpp, kWaitBoundMs).
constexpr double kAllocatorWaitMs = 500;

// Together, so JavaScript finds both at one address (cbw_shared_allocator_state).
struct AllocatorState {
  std::atomic<uint32_t> lock{0};      // odd while held
  std::atomic<uint32_t> giveUps{0};   // waits that passed the bound
  // The hold (odd lock value) a wait last gave up on: later waits on that same
  // hold give up at once, so a call that allocates ten times waits once.
  std::atomic<uint32_t> stuckHold{0};
};
AllocatorState allocatorState;

bool takeAllocator() {
  uint32_t hold = allocatorState.lock.load(std::memory_order_relaxed);
  double start = 0;
  for (uint32_t spins = 0;; ++spins) {
    uint32_t state = allocatorState.lock.load(std::memory_order_relaxed);
    if (state != hold) {
      // Another hold began or ended: progress, the bound starts over.
      hold = state;
      start = 0;
      spins = 0;
    }
    if ((state & 1) == 0) {
      if (allocatorState.lock.compare_exchange_weak(state, state + 1, std::memory_order_acquire, std::memory_order_relaxed)) {
        return true;
      }
      continue;
    }
    if (spins < cuckoo_bloom::LockWaiter::kSpinsPerClockRead) continue;
    const bool given = allocatorState.stuckHold.load(std::memory_order_relaxed) == state;
    const double now = cuckoo_bloom::waitClockMs();
    if (start == 0 && !given) {
      start = now;
    } else if (given || now - start >= kAllocatorWaitMs) {
      allocatorState.stuckHold.store(state, std::memory_order_relaxed);
      allocatorState.giveUps.fetch_add(1, std::memory_order_seq_cst);
      return false;
    }
  }
}

void releaseAllocator() { allocatorState.lock.fetch_add(1, std::memory_order_release); }

// One emmalloc call under the lock; `failed` when the lock was not had.
template <typename Call, typename Result>
Result underAllocatorLock(Call call, Result failed) {
  if (!takeAllocator()) return failed;
  Result result = call();
  releaseAllocator();
  return result;
}

}  // namespace

extern "C" {

// Strong definitions: emmalloc's malloc, free, ... are weak, and these replace
// them for everything linked into core.shared.wasm (operator new included).
void* malloc(size_t size) {
  return underAllocatorLock([&] { return emmalloc_malloc(size); }, static_cast<void*>(nullptr));
}

void free(void* pointer) {
  if (pointer == nullptr) return;
  if (!takeAllocator()) return;  // kept: the allocator is held by a thread that stopped
  emmalloc_free(pointer);
  releaseAllocator();
}

void* memalign(size_t alignment, size_t size) {
  return underAllocatorLock([&] { return emmalloc_memalign(alignment, size); }, static_cast<void*>(nullptr));
}

void* aligned_alloc(size_t alignment, size_t size) {
  if (alignment % sizeof(void*) != 0 || size % alignment != 0) return nullptr;
  return memalign(alignment, size);
}

int posix_memalign(void** out, size_t alignment, size_t size) {
  if (alignment % sizeof(void*) != 0) return 22;  // EINVAL
  *out = memalign(alignment, size);
  return *out != nullptr ? 0 : 12;  // ENOMEM
}

size_t malloc_usable_size(void* pointer) {
  if (pointer == nullptr) return 0;
  return underAllocatorLock([&] { return emmalloc_usable_size(pointer); }, size_t{0});
}

void* calloc(size_t count, size_t size) {
  if (size != 0 && count > SIZE_MAX / size) return nullptr;
  void* pointer = malloc(count * size);
  if (pointer != nullptr) std::memset(pointer, 0, count * size);
  return pointer;
}

// emmalloc's realloc calls free() inside (which takes this lock): resize in
// place under the lock, else a new block, the copy and free() outside it.
void* realloc(void* pointer, size_t size) {
  if (pointer == nullptr) return malloc(size);
  if (size == 0) {
    free(pointer);
    return nullptr;
  }
  void* resized = underAllocatorLock([&] { return emmalloc_realloc_try(pointer, size); }, static_cast<void*>(nullptr));
  if (resized != nullptr) return resized;
  const size_t old = malloc_usable_size(pointer);
  // 0 for a live block means the lock was not had: fail, the block kept whole.
  if (old == 0) return nullptr;
  void* moved = malloc(size);
  if (moved == nullptr) return nullptr;
  std::memcpy(moved, pointer, old < size ? old : size);
  free(pointer);
  return moved;
}

// For the loader (js/src/shared/shared-runtime.ts): the lock word and the
// give-up count (two uint32), and the lock around emscripten_tls_init().
EMSCRIPTEN_KEEPALIVE uintptr_t cbw_shared_allocator_state() { return reinterpret_cast<uintptr_t>(&allocatorState); }
EMSCRIPTEN_KEEPALIVE int cbw_shared_allocator_take() { return takeAllocator() ? 1 : 0; }
EMSCRIPTEN_KEEPALIVE void cbw_shared_allocator_release() { releaseAllocator(); }

}  // extern "C"
