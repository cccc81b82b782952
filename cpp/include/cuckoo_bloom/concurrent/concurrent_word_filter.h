// What the three concurrent Bloom-family filters share: they own a plain
// filter (moved in) and update its words in place with atomic operations, so
// the table is the plain filter's and so are its bytes. The count is an
// atomic beside it, written back to the plain filter's header when it is
// serialized or released.
//
// While threads run: add(), has() (and remove() for counting) from any
// thread; count() is a relaxed read (it may lag adds in flight). Not while
// threads run: serialize() and release(), which read the table plainly; the
// caller joins its threads (or otherwise makes every add happen-before them).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <utility>
#include <vector>

#include "cuckoo_bloom/concurrent/atomic_words.h"
#include "cuckoo_bloom/concurrent/concurrent_access.h"

namespace cuckoo_bloom {

template <typename Filter>
class ConcurrentWordFilter {
 public:
  explicit ConcurrentWordFilter(Filter&& filter)
      : filter_(std::move(filter)), words_(ConcurrentAccess::words(filter_)), count_(filter_.count()) {}
  // Threads hold a reference to it: it never moves.
  ConcurrentWordFilter(const ConcurrentWordFilter&) = delete;
  ConcurrentWordFilter& operator=(const ConcurrentWordFilter&) = delete;

  // Keys added (every add counted, as the plain filter counts them).
  uint64_t count() const { return count_.load(std::memory_order_relaxed); }
  // The plain filter, for its parameters (seed, sizes): its table and count
  // are only current once threads have stopped (see above).
  const Filter& filter() const { return filter_; }

  KeyHash hashOf(std::string_view key) const { return filter_.hashOf(key); }
  KeyHash hashOf(const uint8_t* key, size_t length) const { return filter_.hashOf(key, length); }

  // No thread may add, remove or query meanwhile.
  std::vector<uint8_t> serialize() {
    syncCount();
    return filter_.serialize();
  }
  // serialize() into caller memory of serializedSize() bytes (the caller
  // allocates first: a failed allocation here would abort the wasm builds).
  size_t serializedSize() const { return filter_.serializedSize(); }
  void serializeInto(uint8_t* out) {
    syncCount();
    filter_.serializeInto(out);
  }
  // Hands the plain filter back (this one is then empty and unusable).
  Filter release() && {
    syncCount();
    words_ = nullptr;
    return std::move(filter_);
  }

 protected:
  void countAdd() { count_.fetch_add(1, std::memory_order_relaxed); }
  void countRemove() { count_.fetch_sub(1, std::memory_order_relaxed); }
  void syncCount() { ConcurrentAccess::setCount(filter_, count()); }

  Filter filter_;
  uint64_t* words_;
  std::atomic<uint64_t> count_;
};

}  // namespace cuckoo_bloom
