#include "cuckoo_bloom/bloom/bloom_sizing.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace cuckoo_bloom {
namespace {

// Beyond this m * k * n the exact expectation costs too much to compute on
// every create (the programme is O(m k n)); see bloom_sizing.h for the error.
constexpr double kExactWorkLimit = 50000.0;
constexpr double kApproximationAllowance = 1.01;

// 1 - (1 - 1/m)^(kn): the expected fraction of bits set.
double expectedFill(double bitCount, double probes) { return -std::expm1(probes * std::log1p(-1.0 / bitCount)); }

// E[(X / m)^k], X the number of distinct bits hit by `probes` independent
// uniform probes into m bits: P(X = x) by the occupancy recurrence
// P_{t+1}(x) = P_t(x) x / m + P_t(x - 1) (m - x + 1) / m.
double exactIndependentRate(uint64_t bitCount, uint32_t hashCount, uint64_t probes) {
  const size_t m = static_cast<size_t>(bitCount);
  std::vector<double> occupancy(m + 1, 0.0);
  occupancy[0] = 1.0;
  const double bits = static_cast<double>(bitCount);
  size_t highest = 0;  // no mass above this x yet
  for (uint64_t t = 0; t < probes; ++t) {
    const size_t top = std::min(m, highest + 1);
    for (size_t x = top; x > 0; --x) {
      occupancy[x] = occupancy[x] * (static_cast<double>(x) / bits) +
                     occupancy[x - 1] * (static_cast<double>(m - x + 1) / bits);
    }
    occupancy[0] = 0.0;
    highest = top;
  }
  double rate = 0.0;
  for (size_t x = 1; x <= m; ++x) rate += occupancy[x] * std::pow(static_cast<double>(x) / bits, hashCount);
  return rate;
}

// The arithmetic-progression coincidence term of bloom_sizing.h.
double doubleHashingTerm(double bitCount, double keys, double fill) {
  return 2.0 * keys / (bitCount * bitCount) * (1.0 + 2.0 * fill);
}

}  // namespace

double bloomExpectedFalsePositiveRate(uint64_t bitCount, uint32_t hashCount, uint64_t keys) {
  if (keys == 0) return 0.0;
  const double m = static_cast<double>(bitCount);
  const double probes = static_cast<double>(hashCount) * static_cast<double>(keys);
  const double fill = expectedFill(m, probes);
  const double independent = m * probes <= kExactWorkLimit
                                 ? exactIndependentRate(bitCount, hashCount, static_cast<uint64_t>(probes))
                                 : kApproximationAllowance * std::pow(fill, hashCount);
  return std::min(1.0, independent + doubleHashingTerm(m, static_cast<double>(keys), fill));
}

double bloomFalsePositiveRateFromFill(uint64_t setBits, uint64_t bitCount, uint32_t hashCount, uint64_t keys) {
  const double m = static_cast<double>(bitCount);
  const double fill = static_cast<double>(setBits) / m;
  if (keys == 0 || setBits == 0) return 0.0;
  return std::min(1.0, std::pow(fill, hashCount) + doubleHashingTerm(m, static_cast<double>(keys), fill));
}

Result<BloomSizing> bloomSizingForCreate(uint64_t capacity, double falsePositiveRate, const char* filterName) {
  Status valid = validateCapacityAndRate(capacity, falsePositiveRate);
  if (!valid.isOk()) return valid;
  const BloomSizing sizing = bloomSizingFor(capacity, falsePositiveRate);
  if (sizing.bitCount != UINT64_MAX) return sizing;
  return Status::invalidArgument(std::string(filterName) + ": no table meets falsePositiveRate " +
                                 formatNumber(falsePositiveRate) + " for " + std::to_string(capacity) +
                                 " keys (below about 2 n / m^2 for every table: a key's probes can coincide with "
                                 "another key's); raise the false-positive rate");
}

BloomSizing bloomSizingFor(uint64_t capacity, double falsePositiveRate) {
  const double n = static_cast<double>(capacity);
  const double ln2 = std::log(2.0);
  // The textbook optimum: where the search starts and how wide it looks.
  const double textbookBits = std::max(1.0, std::ceil(-n * std::log(falsePositiveRate) / (ln2 * ln2)));
  if (!(textbookBits < 4.0e18)) return {UINT64_MAX, 1};
  const int textbookProbes = static_cast<int>(std::lround(std::max(1.0, textbookBits / n * ln2)));
  BloomSizing best{UINT64_MAX, 0};
  for (int k = std::max(1, textbookProbes - 3); k <= std::min<int>(kMaxBloomHashCount, textbookProbes + 3); ++k) {
    const uint32_t probes = static_cast<uint32_t>(k);
    // Find an m that meets the target, then the smallest such m (the rate
    // falls as m grows, for fixed k and n).
    uint64_t high = static_cast<uint64_t>(textbookBits);
    while (bloomExpectedFalsePositiveRate(high, probes, capacity) > falsePositiveRate) {
      if (high > (uint64_t{1} << 62)) break;
      high *= 2;
    }
    if (bloomExpectedFalsePositiveRate(high, probes, capacity) > falsePositiveRate) continue;
    uint64_t low = 0;  // rate(low) > target (or low is 0)
    while (high - low > 1) {
      const uint64_t middle = low + (high - low) / 2;
      if (bloomExpectedFalsePositiveRate(middle, probes, capacity) <= falsePositiveRate) high = middle;
      else low = middle;
    }
    if (high < best.bitCount) best = {high, probes};
  }
  return best;
}

}  // namespace cuckoo_bloom
