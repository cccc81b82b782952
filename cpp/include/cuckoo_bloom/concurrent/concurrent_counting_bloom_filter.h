// A counting Bloom filter that many threads add to, remove from and query at
// once (issue #31). Each 4-bit counter changes by a compare-and-swap of its
// word that saturates as the plain filter does: a counter at 15 is never
// raised or lowered again, so a key that was added never loses a counter it
// needs, whatever the interleaving.
//
// Adds alone commute (each counter ends at min(15, hits)), so after adds from
// any threads the bytes equal the plain filter's for the same keys.
// remove() may only be given a key that was added and not yet removed, as
// single-threaded; removing the same added key twice at once is the caller's
// bug (both may pass the presence check, and counters of other keys drop).
// Removing a key at the same time as its own add is also the caller's race.
#pragma once

#include <cstdint>
#include <string_view>

#include "cuckoo_bloom/bloom/counting_bloom_filter.h"
#include "cuckoo_bloom/concurrent/concurrent_word_filter.h"

namespace cuckoo_bloom {

class ConcurrentCountingBloomFilter : public ConcurrentWordFilter<CountingBloomFilter> {
 public:
  using ConcurrentWordFilter::ConcurrentWordFilter;
  static constexpr uint32_t kCounterMax = CountingBloomFilter::kCounterMax;

  void add(const KeyHash& hash) {
    for (uint32_t probe = 0; probe < filter_.hashCount(); ++probe) {
      step(bloomProbeIndex(hash, probe, filter_.counterCount()), +1);
    }
    countAdd();
  }
  bool has(const KeyHash& hash) const {
    for (uint32_t probe = 0; probe < filter_.hashCount(); ++probe) {
      if (counter(bloomProbeIndex(hash, probe, filter_.counterCount())) == 0) return false;
    }
    return true;
  }
  // NotFound (and no change) when a counter of the key reads 0.
  Status remove(const KeyHash& hash) {
    return removeIfPresent(hash) ? Status::ok() : Status::notFound("key is not in the filter");
  }
  // remove() without a Status: false (and no change) when a counter of the key
  // reads 0. It allocates nothing (a NotFound's message is a heap string on
  // wasm32), so the shared module's remove of an absent key never waits on
  // the allocator (bindings/shared_allocator.cpp).
  bool removeIfPresent(const KeyHash& hash) {
    if (!has(hash)) return false;
    // A counter hit by two of the key's probes is stepped down twice, as add()
    // stepped it up twice.
    for (uint32_t probe = 0; probe < filter_.hashCount(); ++probe) {
      step(bloomProbeIndex(hash, probe, filter_.counterCount()), -1);
    }
    countRemove();
    return true;
  }
  void add(std::string_view key) { add(hashOf(key)); }
  bool has(std::string_view key) const { return has(hashOf(key)); }
  Status remove(std::string_view key) { return remove(hashOf(key)); }

 private:
  // Counter i is nibble (i % 16) of word (i / 16), low nibble first (as the plain filter).
  uint32_t counter(uint64_t index) const {
    return static_cast<uint32_t>((atomic_words::load(words_ + (index >> 4)) >> ((index & 15) * 4)) & 0xF);
  }
  // One counter up or down by one, unless it is saturated (15) or, going
  // down, already 0: a CAS loop on its word, so a concurrent change to any
  // other counter of the word is never overwritten.
  void step(uint64_t index, int direction) {
    uint64_t* word = words_ + (index >> 4);
    const uint32_t shift = static_cast<uint32_t>((index & 15) * 4);
    uint64_t current = atomic_words::load(word);
    for (;;) {
      const uint32_t value = static_cast<uint32_t>((current >> shift) & 0xF);
      if (value == kCounterMax || (direction < 0 && value == 0)) return;
      const uint64_t next = direction > 0 ? current + (uint64_t{1} << shift) : current - (uint64_t{1} << shift);
      if (atomic_words::compareExchange(word, current, next)) return;
    }
  }
};

}  // namespace cuckoo_bloom
