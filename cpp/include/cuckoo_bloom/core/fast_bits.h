// Bit instructions beyond x86-64's baseline (POPCNT, BMI2's PDEP), chosen
// at run time: the library is built for any x86-64 CPU, and the few hot
// loops that gain from these compile a second copy for them and call it when
// the CPU has them.
//
// Why PDEP: selecting the k-th set bit of a word (a quotient filter's
// run-start search) is PDEP(1 << (k - 1), word) then a trailing-zero count,
// two instructions; without it, a broadword select is a chain of about 30
// dependent operations, which measured as the larger part of an expandable
// filter's lookup. AMD's Zen 1 and Zen 2 run PDEP in microcode (tens to
// hundreds of cycles), so they keep the portable code.
//
//   CUCKOO_BLOOM_FAST_BITS_DISPATCH  1 when a run-time choice is made (x86-64,
//                                    GCC or Clang, built without -mbmi2).
//   CUCKOO_BLOOM_FAST_BITS_ALWAYS    1 when the build itself targets them
//                                    (-mbmi2 -mpopcnt, e.g. -march=native).
//   CUCKOO_BLOOM_FAST_BITS_TARGET    the attribute of a function that may use
//                                    them (empty when the build already does).
//   cpuHasFastBits()                 whether this CPU runs them fast (once).
#pragma once

#include <cstdint>

#if (defined(__x86_64__) || defined(_M_X64)) && (defined(__GNUC__) || defined(__clang__)) && !defined(__wasm__)
#include <immintrin.h>
#if defined(__BMI2__) && defined(__POPCNT__)
#define CUCKOO_BLOOM_FAST_BITS_ALWAYS 1
#define CUCKOO_BLOOM_FAST_BITS_DISPATCH 0
#define CUCKOO_BLOOM_FAST_BITS_TARGET
#else
#define CUCKOO_BLOOM_FAST_BITS_ALWAYS 0
#define CUCKOO_BLOOM_FAST_BITS_DISPATCH 1
#define CUCKOO_BLOOM_FAST_BITS_TARGET __attribute__((target("popcnt,bmi2")))
#endif
#else
#define CUCKOO_BLOOM_FAST_BITS_ALWAYS 0
#define CUCKOO_BLOOM_FAST_BITS_DISPATCH 0
#define CUCKOO_BLOOM_FAST_BITS_TARGET
#endif

namespace cuckoo_bloom {

#if CUCKOO_BLOOM_FAST_BITS_DISPATCH
namespace detail {
inline bool detectFastBits() {
  __builtin_cpu_init();  // static initializers may run before the CPU model is read
  if (!__builtin_cpu_supports("popcnt") || !__builtin_cpu_supports("bmi2")) return false;
  return !__builtin_cpu_is("znver1") && !__builtin_cpu_is("znver2");
}
// Read once, when the program starts; every lookup then branches on a
// constant (always predicted).
inline const bool kCpuHasFastBits = detectFastBits();
}  // namespace detail
inline bool cpuHasFastBits() { return detail::kCpuHasFastBits; }
#else
inline bool cpuHasFastBits() { return CUCKOO_BLOOM_FAST_BITS_ALWAYS != 0; }
#endif

#if CUCKOO_BLOOM_FAST_BITS_DISPATCH || CUCKOO_BLOOM_FAST_BITS_ALWAYS
// Only called from code compiled for the instructions (a function marked
// CUCKOO_BLOOM_FAST_BITS_TARGET, or a build that targets them).
CUCKOO_BLOOM_FAST_BITS_TARGET inline uint32_t fastPopcount(uint64_t x) { return static_cast<uint32_t>(__builtin_popcountll(x)); }
// The position of the k-th (k >= 1) set bit of x, which has at least k.
CUCKOO_BLOOM_FAST_BITS_TARGET inline uint32_t fastSelect(uint64_t x, uint32_t k) {
  return static_cast<uint32_t>(__builtin_ctzll(_pdep_u64(uint64_t{1} << (k - 1), x)));
}
#endif

}  // namespace cuckoo_bloom
