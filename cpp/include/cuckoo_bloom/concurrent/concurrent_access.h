// The concurrent wrappers' way into the plain filters they wrap: the table
// words and the stored count (a friend of KeyedFilter, WordArrayFilter and
// CuckooFilter). Only code under concurrent/ uses it.
#pragma once

#include <cstdint>

#include "cuckoo_bloom/bloom/word_array_filter.h"
#include "cuckoo_bloom/concurrent/wait_bound.h"
#include "cuckoo_bloom/cuckoo/cuckoo_filter.h"

namespace cuckoo_bloom {

struct ConcurrentAccess {
  template <typename Filter>
  static uint64_t* words(Filter& filter) {
    return filter.words_.data();
  }
  static uint64_t* words(CuckooFilter& filter) {
    return filter.withTable([](auto& table) { return table.words(); });
  }
  template <typename Filter>
  static void setCount(Filter& filter, uint64_t count) {
    filter.header_.itemCount = count;
  }
  // Takes a stripe lock in `holder`'s name and never releases it: a thread
  // that died inside a call, for the bounded-wait tests.
  template <typename Concurrent>
  static bool holdStripe(Concurrent& filter, uint32_t stripe, uint32_t holder) {
    LockWaiter waiter;
    waiter.holder = holder;
    return filter.lockStripe(stripe, waiter);
  }
  template <typename Concurrent>
  static uint32_t stripeOfBucket(const Concurrent& filter, uint64_t bucket) {
    return filter.stripeOf(bucket);
  }
};

}  // namespace cuckoo_bloom
