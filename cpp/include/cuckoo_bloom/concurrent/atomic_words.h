// Atomic access to a filter's existing uint64 words, so a concurrent filter
// shares the plain filter's table and bytes (docs/CONCURRENCY.md).
//
// Why builtins and not std::atomic_ref: the project is C++17 (CMakeLists.txt)
// and std::atomic_ref is C++20. The table is a plain uint64_t array (calloc'd,
// or a blob adopted in place: both 8-byte aligned), which cannot become an
// array of std::atomic<uint64_t> without changing every filter. GCC's and
// Clang's __atomic builtins act on the plain words, are what atomic_ref
// compiles to, are understood by ThreadSanitizer, and Emscripten lowers them
// to wasm atomics in a shared-memory build.
//
// Memory order: the words only ever hold filter bits, never pointers or
// publication flags, so every access is relaxed. A has() still sees every
// add() that happens-before it (a thread join, a mutex, a release/acquire
// flag): read-read and write-read coherence on each word give that without
// any fence. The cuckoo filter's version counters order its bucket reads
// (concurrent_cuckoo_filter.h).
#pragma once

#include <cstdint>

namespace cuckoo_bloom {
namespace atomic_words {

inline uint64_t load(const uint64_t* word) { return __atomic_load_n(word, __ATOMIC_RELAXED); }
inline void fetchOr(uint64_t* word, uint64_t bits) { __atomic_fetch_or(word, bits, __ATOMIC_RELAXED); }
// Replaces `expected` by `desired`; false (and `expected` updated to the
// current value) when the word no longer held `expected`.
inline bool compareExchange(uint64_t* word, uint64_t& expected, uint64_t desired) {
  return __atomic_compare_exchange_n(word, &expected, desired, /*weak=*/true, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
}
// Sets the bits under `mask` to `value` (no bits outside `mask`) and leaves
// every other bit as the word holds it now: neighbours' bits written by other
// threads at the same time survive.
inline void writeMasked(uint64_t* word, uint64_t mask, uint64_t value) {
  uint64_t current = load(word);
  while (!compareExchange(word, current, (current & ~mask) | value)) {
  }
}

// The 64 bits starting at bit `bit` (bit_fields::readWindow with atomic loads:
// it reads word + 1 too, the table's spare word past its payload).
inline uint64_t readWindow(const uint64_t* words, uint64_t bit) {
  const uint64_t word = bit >> 6;
  const uint32_t shift = static_cast<uint32_t>(bit & 63);
  return (load(words + word) >> shift) | ((load(words + word + 1) << 1) << (63 - shift));
}
// Writes the low `width` (1..32) bits of `value` at `bit` (bit_fields::write
// with one masked atomic write per word the field touches).
inline void writeField(uint64_t* words, uint64_t bit, uint32_t width, uint64_t value) {
  const uint64_t word = bit >> 6;
  const uint32_t shift = static_cast<uint32_t>(bit & 63);
  const uint64_t mask = (uint64_t{1} << width) - 1;
  writeMasked(words + word, mask << shift, value << shift);
  if (shift + width > 64) {
    const uint32_t spilled = 64 - shift;
    writeMasked(words + word + 1, mask >> spilled, value >> spilled);
  }
}

}  // namespace atomic_words
}  // namespace cuckoo_bloom
