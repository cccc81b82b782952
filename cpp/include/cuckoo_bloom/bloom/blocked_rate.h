// The false-positive rate of a blocked Bloom filter that sets one bit in each
// word of one block per key: the library's BlockedBloomFilter (8 words of 64
// bits) and Parquet's split-block filter (8 words of 32 bits) both use it.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace cuckoo_bloom {

// A block receives Poisson(lambda) keys (lambda = keys per block), and a
// query's rate is the average over that distribution:
//   sum_j Pois(j; lambda) * (1 - (1 - 1/bitsPerWord)^j)^wordsPerBlock,
// summed over mean +- 12 sd, which holds all but a negligible tail of the mass.
inline double blockedFalsePositiveRate(double keysPerBlock, uint32_t bitsPerWord, uint32_t wordsPerBlock) {
  const double lambda = keysPerBlock;
  if (lambda <= 0) return 0.0;
  const double spread = 12.0 * std::sqrt(lambda) + 16.0;
  const int64_t first = static_cast<int64_t>(std::max(0.0, std::floor(lambda - spread)));
  const int64_t last = static_cast<int64_t>(std::ceil(lambda + spread));
  const double logKeep = std::log1p(-1.0 / static_cast<double>(bitsPerWord));
  double rate = 0.0;
  for (int64_t j = first; j <= last; ++j) {
    const double jj = static_cast<double>(j);
    const double logPoisson = -lambda + jj * std::log(lambda) - std::lgamma(jj + 1.0);
    rate += std::exp(logPoisson) * std::pow(1.0 - std::exp(jj * logKeep), wordsPerBlock);
  }
  return rate;
}

}  // namespace cuckoo_bloom
