// Sizing a Bloom filter (classic or counting: the same probes) so that its
// expected false-positive rate meets the target for every capacity n >= 1.
//
// The textbook optimum, m = -n ln(e) / (ln 2)^2 and k = (m / n) ln 2, rests on
// two approximations that fail for small tables:
//  1. the fill: (1 - e^{-kn/m})^k assumes the number of set bits is exactly
//     its mean; the exact rate of independent probes is E[(X / m)^k] over the
//     occupancy distribution of X (kn probes into m bits), which is higher
//     when m is small (Bose et al. 2008);
//  2. the probes: ours are double hashing in 64-bit space,
//     probe i = reduceRange(low + i * high, m) (hashing.h), so a key's probes
//     form an arithmetic progression. A query whose (low, high) lies within
//     about 1/m of a stored key's matches that key's probes together, with
//     probability about 2/m^2 per stored key, whatever k (measured:
//     1.7..2.2 n / m^2 for a single key, rising towards 4 n / m^2 at half
//     fill, where a near-match's remaining probes land on set bits). At
//     n = 1, e = 0.1% the textbook m = 15, k = 10 measured 2.4%, not 0.1%.
// So the expected rate used here is
//   rate(m, k, n) = E[(X / m)^k] + (2 n / m^2) (1 + 2 q),  q = 1 - (1 - 1/m)^{kn}
// with E[(X / m)^k] computed exactly (dynamic programme over X) while
// m k n <= kExactWorkLimit, and beyond it as 1.01 q^k (the exact value is
// within 1% of q^k there: measured 1.8% above at m k n = 175,000, 1% at
// 700,000, falling as m grows). Sizing searches, for k near the textbook k,
// the smallest m whose rate(m, k, n) <= target, and keeps the smallest m
// (the fewer probes on a tie).
#pragma once

#include <cstdint>

#include "cuckoo_bloom/core/limits.h"
#include "cuckoo_bloom/core/status.h"

namespace cuckoo_bloom {

struct BloomSizing {
  uint64_t bitCount = 0;  // UINT64_MAX when no table under 2^63 bits meets the target
  uint32_t hashCount = 0;
};

constexpr uint32_t kMaxBloomHashCount = 64;

// The expected false-positive rate of m bits, k probes, n keys (above).
double bloomExpectedFalsePositiveRate(uint64_t bitCount, uint32_t hashCount, uint64_t keys);

// The rate a filter's current contents give: (setBits / m)^k plus the
// double-hashing term above for `keys` stored.
double bloomFalsePositiveRateFromFill(uint64_t setBits, uint64_t bitCount, uint32_t hashCount, uint64_t keys);

// The smallest table (and its probe count) whose expected rate at `capacity`
// keys is at most `falsePositiveRate`.
BloomSizing bloomSizingFor(uint64_t capacity, double falsePositiveRate);

// The sizing a filter that probes like the classic one (Bloom, counting) is
// created with: InvalidArgument for an invalid capacity or rate, or for a
// rate no table meets (bloomSizingFor gave UINT64_MAX: below the
// double-hashing floor of about 2 n / m^2 for every m < 2^62); `filterName`
// names the class in the error.
Result<BloomSizing> bloomSizingForCreate(uint64_t capacity, double falsePositiveRate, const char* filterName);

}  // namespace cuckoo_bloom
