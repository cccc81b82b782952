// A cuckoo filter that many threads add to, remove from and query at once
// (issue #31), over the plain CuckooFilter's own table (packed layout), so
// release() hands back a plain filter with the same bytes a reader expects.
//
// Writers: striped locks. Bucket i belongs to stripe i % kStripeCount; an
// operation on a key locks the stripes of its two buckets, lower index first
// (so two writers never wait on each other in a cycle), and never holds more
// than two. A slot write is a compare-and-swap on each word it touches that
// changes only that slot's bits: neighbouring buckets share words across
// stripes, and their writers' bits survive.
//
// Kicks (libcuckoo's order, not the plain filter's walk): when both buckets
// are full, add() first searches an eviction path without changing anything
// (a random walk with one step of lookahead, at most maxKicks moves), then
// performs it from its free end backwards. Each move copies a fingerprint
// into its other bucket and then clears it from the first, both under the
// two buckets' locks: at every instant every stored fingerprint is in one of
// its two buckets. A move whose source no longer holds the fingerprint, or
// whose target has filled meanwhile, stops the path (the moves made are
// valid on their own) and add() tries again. No path within maxKicks: Full,
// and nothing was lost; unlike the plain filter the table may then differ
// from before (fingerprints moved between their own two buckets).
//
// Readers: optimistic, with no lock (MemC3). Each stripe's lock word is also
// its version: odd while a writer holds it (the holder's thread id in bits
// 1-20, so a wait that gives up can name it), its counter (bits 21-63)
// bumped on release. has() reads
// both versions, both buckets, then the versions again, and retries when a
// version was odd or changed. A move changes both of its buckets under both
// of their locks, so a reader either sees the fingerprint in one bucket or
// sees a version change: a kick never hides a key from a reader.
//
// Bounded waits (issue #47): the try* forms take a LockWaiter; a lock held
// past its bound makes them return Stuck naming the stripe and its holder,
// with every lock they took released (nothing half done: a kick path stops
// between moves, each valid on its own). releaseHolder() frees the stripes a
// dead thread held; its moves were each copy-then-clear, so at worst a
// fingerprint is in both its buckets (a key is never lost). The Status forms
// wait as long as it takes (native threads do not die mid-call).
//
// count() is an atomic of stored fingerprints (relaxed). remove() may only be
// given a key that was added (as single-threaded); two concurrent removes of
// one added key is the caller's bug. serialize() may run while threads add:
// it locks every stripe, so its bytes hold every add that returned before it
// began, and their count is the occupied slots. release() needs every
// thread stopped. Only the packed layout (semiSorted: false) is supported:
// semi-sorted buckets re-encode a whole bucket per change, which step 1 does
// not attempt (docs/CONCURRENCY.md).
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "cuckoo_bloom/concurrent/atomic_words.h"
#include "cuckoo_bloom/concurrent/concurrent_access.h"
#include "cuckoo_bloom/concurrent/wait_bound.h"
#include "cuckoo_bloom/cuckoo/cuckoo_filter.h"

namespace cuckoo_bloom {

class ConcurrentCuckooFilter {
 public:
  static constexpr uint32_t kStripeCount = 4096;  // a power of two
  // Rounds of (direct insert, path search) before a busy add() gives up.
  static constexpr uint32_t kMaxAddRounds = 64;

  // InvalidArgument for a semi-sorted filter (see above).
  static Result<std::unique_ptr<ConcurrentCuckooFilter>> wrap(CuckooFilter&& filter);
  ConcurrentCuckooFilter(const ConcurrentCuckooFilter&) = delete;
  ConcurrentCuckooFilter& operator=(const ConcurrentCuckooFilter&) = delete;

  // What a bounded call did. Stuck: a lock was held past the waiter's bound
  // (waiter.stuckStripe, waiter.stuckHolder); nothing of this call is held.
  enum class Outcome : uint8_t { Ok, Absent, Full, Stuck };
  static constexpr uint32_t kHolderBits = 20;
  static constexpr uint32_t kMaxHolder = (1u << kHolderBits) - 1;

  // Ok, Full (every key stored before is still found), Stuck (the key may or
  // may not be stored: a retry is safe).
  Outcome tryAdd(const KeyHash& hash, LockWaiter& waiter);
  // Ok (may be present), Absent, Stuck (a writer held a bucket past the bound).
  Outcome tryHas(const KeyHash& hash, LockWaiter& waiter) const;
  // tryHas of hashes[0, count), 1 (Ok) or 0 (Absent) into out[i]: the plain
  // filter's lookup (both buckets' words loaded, then one SWAR test each) in
  // a loop with no call per key and no wait, so the loads of neighbouring
  // keys overlap as they do in the main build's batch; only a key whose
  // buckets a writer held or changed meanwhile goes through tryHas. Returns
  // count, or the index of the key that was Stuck (answers before it written).
  size_t tryHasMany(const KeyHash* hashes, size_t count, uint8_t* out, LockWaiter& waiter) const;
  // Ok (one matching fingerprint removed), Absent, Stuck (nothing removed).
  Outcome tryRemove(const KeyHash& hash, LockWaiter& waiter);
  // The bytes serialize() gives, written into `out` (serializedSize() bytes)
  // under every stripe lock; Ok or Stuck (nothing written, no lock held).
  size_t serializedSize() const { return filter_.serializedSize(); }
  Outcome trySerializeInto(uint8_t* out, LockWaiter& waiter);
  // Frees every stripe `holder` holds (a thread that died inside a call, and
  // only such a thread: its writes stop where they are). The count of stripes freed.
  uint32_t releaseHolder(uint32_t holder);

  // Ok, or Full (every key stored before is still found).
  Status add(const KeyHash& hash);
  bool has(const KeyHash& hash) const;
  // Removes one matching fingerprint; NotFound when the key's buckets hold none.
  Status remove(const KeyHash& hash);
  Status add(std::string_view key) { return add(filter_.hashOf(key)); }
  bool has(std::string_view key) const { return has(filter_.hashOf(key)); }
  Status remove(std::string_view key) { return remove(filter_.hashOf(key)); }
  KeyHash hashOf(std::string_view key) const { return filter_.hashOf(key); }

  uint64_t count() const { return count_.load(std::memory_order_relaxed); }
  // has() calls that read a bucket while it changed and read again (a measure
  // of the optimistic path at work, for tests and the bench).
  uint64_t retriedReads() const { return retriedReads_.load(std::memory_order_relaxed); }
  // The plain filter, for its parameters; its table only once threads stopped.
  const CuckooFilter& filter() const { return filter_; }

  // A consistent snapshot, taken under every stripe lock (other threads wait
  // meanwhile): valid bytes with every key whose add returned before it began.
  std::vector<uint8_t> serialize();
  // No thread may use the filter meanwhile.
  CuckooFilter release() &&;

 private:
  friend struct ConcurrentAccess;
  explicit ConcurrentCuckooFilter(CuckooFilter&& filter);

  // One fingerprint moving from bucket `from` to its other bucket.
  struct Move {
    uint64_t from;
    uint32_t fingerprint;
  };

  // Stripe lock words: bit 0 held, bits 1-20 the holder, the counter above.
  static constexpr uint32_t kCounterShift = kHolderBits + 1;

  uint32_t stripeOf(uint64_t bucket) const { return static_cast<uint32_t>(bucket & (kStripeCount - 1)); }
  // False (and the waiter names the stripe and holder) when held past the bound.
  bool lockStripe(uint32_t stripe, LockWaiter& waiter);
  void unlockStripe(uint32_t stripe);
  bool lockPair(uint64_t bucket1, uint64_t bucket2, LockWaiter& waiter);
  void unlockPair(uint64_t bucket1, uint64_t bucket2);

  uint64_t alternate(uint64_t bucket, uint32_t fingerprint) const;
  uint64_t slotBit(uint64_t bucket, uint32_t slot) const { return (bucket * bucketSize_ + slot) * fingerprintBits_; }
  uint32_t readSlot(uint64_t bucket, uint32_t slot) const;
  // Whether bucket1 or bucket2 holds `fingerprint` (atomic loads, no version check).
  bool eitherHolds(uint64_t bucket1, uint64_t bucket2, uint32_t fingerprint) const;
  // One optimistic read of the key's buckets: false when a version was odd
  // or changed (the answer in `found` then means nothing).
  bool readOnce(uint64_t bucket1, uint64_t bucket2, uint32_t fingerprint, bool& found) const;
  // After a read that failed: reads again until the versions hold still, at
  // most the waiter's bound (each try counted in retriedReads).
  Outcome hasRetrying(uint64_t bucket1, uint64_t bucket2, uint32_t fingerprint, LockWaiter& waiter) const;
  void writeSlot(uint64_t bucket, uint32_t slot, uint32_t fingerprint);
  // The first slot of the bucket holding `fingerprint` (0: an empty slot); bucketSize_ when none.
  uint32_t findSlot(uint64_t bucket, uint32_t fingerprint) const;
  // Replaces one `from` (0: an empty slot) by `to`; false when none.
  bool replaceIn(uint64_t bucket, uint32_t from, uint32_t to);

  // Searches a path freeing a slot in bucket1 or bucket2 and performs it:
  // Ok, Full when no path of at most maxKicks moves was found, Stuck.
  Outcome makeRoom(uint64_t bucket1, uint64_t bucket2, uint64_t walkSeed, LockWaiter& waiter);
  // False only when a lock was held past the bound (a path that met a changed table stops quietly).
  bool performPath(const Move* path, size_t length, LockWaiter& waiter);

  CuckooFilter filter_;
  uint64_t* words_;
  uint32_t bucketSize_;
  uint32_t fingerprintBits_;
  uint64_t slotMask_;
  // A bucket of at most 64 bits is one window and one SWAR test (packed_table.h).
  bool bucketInOneWindow_;
  uint64_t laneOnes_;
  uint64_t laneTops_;
  std::atomic<uint64_t> count_;
  mutable std::atomic<uint64_t> retriedReads_{0};
  // Stripe lock words, also the versions the readers check (odd: held).
  std::atomic<uint64_t> versions_[kStripeCount] = {};
};

}  // namespace cuckoo_bloom
