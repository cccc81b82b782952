// Bloom and blocked Bloom filters that many threads add to and query at once
// (issue #31). A bit only ever goes from 0 to 1, so an add is one atomic OR
// per probe, no lock: adds commute, and after any set of adds from any
// threads the table is exactly the table the plain filter gets from the same
// keys in any order (its serialized bytes too; the tests compare them).
//
// has() loads words relaxed (atomic_words.h): it finds every key whose add()
// happens-before it. A key being added while has() runs may be reported
// either way, as with any lock-free set.
#pragma once

#include <cstdint>
#include <string_view>

#include "cuckoo_bloom/bloom/blocked_bloom_filter.h"
#include "cuckoo_bloom/bloom/bloom_filter.h"
#include "cuckoo_bloom/concurrent/concurrent_word_filter.h"

namespace cuckoo_bloom {

class ConcurrentBloomFilter : public ConcurrentWordFilter<BloomFilter> {
 public:
  using ConcurrentWordFilter::ConcurrentWordFilter;

  void add(const KeyHash& hash) {
    const BloomFilter& plain = filter_;
    for (uint32_t probe = 0; probe < plain.hashCount(); ++probe) {
      const uint64_t bit = bloomProbeIndex(hash, probe, plain.bitCount());
      uint64_t* word = words_ + (bit >> 6);
      const uint64_t mask = uint64_t{1} << (bit & 63);
      // A set bit needs no locked RMW (which would take the line exclusive).
      if ((atomic_words::load(word) & mask) == 0) atomic_words::fetchOr(word, mask);
    }
    countAdd();
  }
  bool has(const KeyHash& hash) const {
    const BloomFilter& plain = filter_;
    for (uint32_t probe = 0; probe < plain.hashCount(); ++probe) {
      const uint64_t bit = bloomProbeIndex(hash, probe, plain.bitCount());
      if ((atomic_words::load(words_ + (bit >> 6)) & (uint64_t{1} << (bit & 63))) == 0) return false;
    }
    return true;
  }
  void add(std::string_view key) { add(hashOf(key)); }
  bool has(std::string_view key) const { return has(hashOf(key)); }
};

class ConcurrentBlockedBloomFilter : public ConcurrentWordFilter<BlockedBloomFilter> {
 public:
  using ConcurrentWordFilter::ConcurrentWordFilter;

  void add(const KeyHash& hash) {
    uint64_t* block = blockOf(hash);
    for (uint32_t word = 0; word < kBlockWords; ++word) {
      const uint64_t mask = blockedWordMask(hash, word);
      // Skips the locked RMW when the bit is already set: near the rated
      // fill most are, and a plain load does not take the cache line exclusive.
      if ((atomic_words::load(block + word) & mask) == 0) atomic_words::fetchOr(block + word, mask);
    }
    countAdd();
  }
  bool has(const KeyHash& hash) const {
    const uint64_t* block = blockOf(hash);
    uint64_t missing = 0;
    for (uint32_t word = 0; word < kBlockWords; ++word) {
      const uint64_t mask = blockedWordMask(hash, word);
      missing |= (atomic_words::load(block + word) & mask) ^ mask;
    }
    return missing == 0;
  }
  void add(std::string_view key) { add(hashOf(key)); }
  bool has(std::string_view key) const { return has(hashOf(key)); }

 private:
  uint64_t* blockOf(const KeyHash& hash) const {
    return words_ + blockedBlockIndex(hash, filter_.blockCount()) * kBlockWords;
  }
};

}  // namespace cuckoo_bloom
