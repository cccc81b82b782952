// Bounded waits for the concurrent filters (issue #47): a thread that holds a
// lock can die inside a call (a Web Worker or worker_thread terminated
// mid-call stops wherever it is), and a waiter that spins for ever then hangs
// its own thread. Every wait on another thread's lock is given a bound; past
// it the call gives up and reports the lock and the thread holding it.
//
// The clock is read only after kSpinsPerClockRead spins: a lock is held for a
// few slot writes, so nearly every wait ends before the first read.
#pragma once

#include <cstdint>
#include <limits>

#ifdef __EMSCRIPTEN__
#include <emscripten/emscripten.h>
#else
#include <chrono>
#endif

namespace cuckoo_bloom {

// Milliseconds on a monotonic clock (only differences mean anything).
inline double waitClockMs() {
#ifdef __EMSCRIPTEN__
  return emscripten_get_now();
#else
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
#endif
}

// Who waits, for how long at most, and (when it gave up) on what.
struct LockWaiter {
  static constexpr double kForever = std::numeric_limits<double>::infinity();
  static constexpr uint32_t kSpinsPerClockRead = 64;

  // The waiting thread's id, written into the locks it takes (0: unnamed, the native default).
  uint32_t holder = 0;
  // How long one wait may last before the call gives up.
  double boundMs = kForever;
  // Set when a wait gave up: the lock (a cuckoo stripe) and the thread holding it.
  uint32_t stuckStripe = 0;
  uint32_t stuckHolder = 0;

  // Called on each spin of a wait begun at `*startMs` (0: not read yet); false once past the bound.
  // The first kSpinsPerClockRead spins never read the clock; after them the
  // waiters yield the core on every spin (concurrent_cuckoo_filter.cpp), which
  // on a loaded machine can take milliseconds each, so the clock is read on each.
  bool keepWaiting(uint32_t spins, double* startMs) const {
    if (boundMs == kForever || spins < kSpinsPerClockRead) return true;
    const double now = waitClockMs();
    if (*startMs == 0) {
      *startMs = now;  // 0: not started, or started over after progress
      return true;
    }
    return now - *startMs < boundMs;
  }
};

}  // namespace cuckoo_bloom
