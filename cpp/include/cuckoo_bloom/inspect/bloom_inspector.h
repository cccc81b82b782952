// Inspection of the Bloom family, for visualisations and tests (the web
// demo's Bloom and delete views): one bit of a Bloom filter, one counter of a
// counting Bloom filter. A friend of CountingBloomFilter, as ConcurrentAccess
// is of the word-array filters, so the filters keep no inspection code.
#pragma once

#include <cstdint>

#include "cuckoo_bloom/bloom/bloom_filter.h"
#include "cuckoo_bloom/bloom/counting_bloom_filter.h"

namespace cuckoo_bloom {

struct BloomInspector {
  // Bit `index` of the bit array (0 or 1; 0 out of range): bit i is bit
  // (i % 64) of word (i / 64), as BloomFilter sets it.
  static uint32_t bitAt(const BloomFilter& filter, uint64_t index) {
    if (index >= filter.bitCount()) return 0;
    return static_cast<uint32_t>((filter.words()[index >> 6] >> (index & 63)) & 1);
  }
  // The value (0..15) of counter `index` (0 out of range).
  static uint32_t counterAt(const CountingBloomFilter& filter, uint64_t index) {
    return index < filter.counterCount() ? CountingBloomFilter::readCounter(filter.words(), index) : 0;
  }
};

}  // namespace cuckoo_bloom
