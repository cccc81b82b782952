#include "cuckoo_bloom/concurrent/concurrent_cuckoo_filter.h"

#include <algorithm>
#include <new>
#include <string>
#include <thread>
#include <utility>

namespace cuckoo_bloom {
namespace {

// A lock word is held for a few slot writes: spin briefly, then yield the
// core (on 2 cores shared by more threads, spinning on a preempted holder
// only burns its time slice).
constexpr uint32_t kSpinsBeforeYield = 64;

}  // namespace

Result<std::unique_ptr<ConcurrentCuckooFilter>> ConcurrentCuckooFilter::wrap(CuckooFilter&& filter) {
  if (filter.semiSorted()) {
    return Status::invalidArgument(
        "ConcurrentCuckooFilter needs the packed slot layout: create the CuckooFilter with semiSorted: false");
  }
  // nothrow: in the wasm builds a failed plain new aborts (no exceptions), and
  // the table the filter owns would then never be freed.
  auto* wrapped = new (std::nothrow) ConcurrentCuckooFilter(std::move(filter));
  if (wrapped == nullptr) return Status::outOfMemory("no memory for the concurrent cuckoo filter's stripe locks");
  return std::unique_ptr<ConcurrentCuckooFilter>(wrapped);
}

ConcurrentCuckooFilter::ConcurrentCuckooFilter(CuckooFilter&& filter)
    : filter_(std::move(filter)),
      words_(ConcurrentAccess::words(filter_)),
      bucketSize_(filter_.bucketSize()),
      fingerprintBits_(filter_.fingerprintBits()),
      slotMask_((uint64_t{1} << filter_.fingerprintBits()) - 1),
      bucketInOneWindow_(bucketSize_ * fingerprintBits_ <= 64),
      laneOnes_(bucketInOneWindow_ ? bit_fields::laneOnesFor(bucketSize_, fingerprintBits_) : 0),
      laneTops_(laneOnes_ << (fingerprintBits_ - 1)),
      count_(filter_.count()) {}

std::vector<uint8_t> ConcurrentCuckooFilter::serialize() {
  std::vector<uint8_t> bytes(serializedSize());
  LockWaiter forever;
  trySerializeInto(bytes.data(), forever);
  return bytes;
}

ConcurrentCuckooFilter::Outcome ConcurrentCuckooFilter::trySerializeInto(uint8_t* out, LockWaiter& waiter) {
  // Safe while other threads add, remove and query: every stripe is locked,
  // in index order as writers lock theirs (so no cycle of waits), which
  // leaves no slot write and no kick move half done while the table is read
  // (a move copies, then clears, under the locks of both its buckets; a
  // plain read across the table could meet the target before the copy and
  // the source after the clear, and lose the key). Readers retry meanwhile.
  // The count is the table's own: count_ lags a write whose locks were
  // already released, and the reader checks the count against the occupied
  // slots. The output is the caller's (allocated before any lock is taken:
  // an allocation that fails here must not leave every stripe locked).
  for (uint32_t stripe = 0; stripe < kStripeCount; ++stripe) {
    if (!lockStripe(stripe, waiter)) {
      while (stripe-- > 0) unlockStripe(stripe);
      return Outcome::Stuck;
    }
  }
  uint64_t stored = 0;
  const uint64_t buckets = filter_.bucketCount();
  for (uint64_t bucket = 0; bucket < buckets; ++bucket) {
    for (uint32_t slot = 0; slot < bucketSize_; ++slot) stored += readSlot(bucket, slot) != 0 ? 1 : 0;
  }
  ConcurrentAccess::setCount(filter_, stored);
  filter_.serializeInto(out);
  for (uint32_t stripe = 0; stripe < kStripeCount; ++stripe) unlockStripe(stripe);
  return Outcome::Ok;
}

CuckooFilter ConcurrentCuckooFilter::release() && {
  ConcurrentAccess::setCount(filter_, count());
  words_ = nullptr;
  return std::move(filter_);
}

// --- locks and versions (a seqlock per stripe) ---

bool ConcurrentCuckooFilter::lockStripe(uint32_t stripe, LockWaiter& waiter) {
  std::atomic<uint64_t>& version = versions_[stripe];
  const uint64_t mine = (uint64_t{waiter.holder & kMaxHolder} << 1) | 1;
  double waitStart = 0;
  uint64_t last = 0;
  for (uint32_t spins = 0;; ++spins) {
    uint64_t seen = version.load(std::memory_order_relaxed);
    if ((seen & 1) == 0 && version.compare_exchange_weak(seen, seen | mine, std::memory_order_acquire)) break;
    // The bound is on one holding of the lock: a word that changed means other
    // threads took and released it meanwhile (progress), and the wait starts over.
    if (seen != last) {
      last = seen;
      waitStart = 0;
    }
    if (!waiter.keepWaiting(spins, &waitStart)) {
      seen = version.load(std::memory_order_relaxed);
      waiter.stuckStripe = stripe;
      waiter.stuckHolder = static_cast<uint32_t>((seen >> 1) & kMaxHolder);
      return false;
    }
    if (spins >= kSpinsBeforeYield) std::this_thread::yield();
  }
  // Orders the odd version before every slot write that follows: a reader
  // that sees one of those writes then sees the odd version on its recheck
  // (its acquire fence pairs with this release fence).
  std::atomic_thread_fence(std::memory_order_release);
  return true;
}

void ConcurrentCuckooFilter::unlockStripe(uint32_t stripe) {
  // Even again with the next counter (no holder): a reader that saw the
  // version before the lock sees it changed. A plain store: only the holder
  // writes a held word.
  const uint64_t held = versions_[stripe].load(std::memory_order_relaxed);
  versions_[stripe].store(((held >> kCounterShift) + 1) << kCounterShift, std::memory_order_release);
}

uint32_t ConcurrentCuckooFilter::releaseHolder(uint32_t holder) {
  uint32_t released = 0;
  for (uint32_t stripe = 0; stripe < kStripeCount; ++stripe) {
    uint64_t held = versions_[stripe].load(std::memory_order_acquire);
    if ((held & 1) == 0 || ((held >> 1) & kMaxHolder) != (holder & kMaxHolder)) continue;
    if (versions_[stripe].compare_exchange_strong(held, ((held >> kCounterShift) + 1) << kCounterShift,
                                                  std::memory_order_acq_rel)) {
      ++released;
    }
  }
  return released;
}

bool ConcurrentCuckooFilter::lockPair(uint64_t bucket1, uint64_t bucket2, LockWaiter& waiter) {
  uint32_t first = stripeOf(bucket1), second = stripeOf(bucket2);
  if (second < first) std::swap(first, second);
  if (!lockStripe(first, waiter)) return false;
  if (second != first && !lockStripe(second, waiter)) {
    unlockStripe(first);
    return false;
  }
  return true;
}

void ConcurrentCuckooFilter::unlockPair(uint64_t bucket1, uint64_t bucket2) {
  const uint32_t first = stripeOf(bucket1), second = stripeOf(bucket2);
  unlockStripe(first);
  if (second != first) unlockStripe(second);
}

// --- slots (the packed layout, packed_table.h, with atomic word access) ---

uint64_t ConcurrentCuckooFilter::alternate(uint64_t bucket, uint32_t fingerprint) const {
  return filter_.addressing() == CuckooAddressing::SubtractModulo
             ? cuckooAltBucketIndexModulo(bucket, fingerprint, filter_.bucketCount())
             : cuckooAltBucketIndexXor(bucket, fingerprint, filter_.bucketCount());
}

uint32_t ConcurrentCuckooFilter::readSlot(uint64_t bucket, uint32_t slot) const {
  return static_cast<uint32_t>(atomic_words::readWindow(words_, slotBit(bucket, slot)) & slotMask_);
}

void ConcurrentCuckooFilter::writeSlot(uint64_t bucket, uint32_t slot, uint32_t fingerprint) {
  atomic_words::writeField(words_, slotBit(bucket, slot), fingerprintBits_, fingerprint);
}

uint32_t ConcurrentCuckooFilter::findSlot(uint64_t bucket, uint32_t fingerprint) const {
  if (bucketSize_ * fingerprintBits_ <= 64) {  // the whole bucket in one window: one or two loads
    const uint64_t window = atomic_words::readWindow(words_, slotBit(bucket, 0));
    for (uint32_t slot = 0; slot < bucketSize_; ++slot) {
      if (((window >> (slot * fingerprintBits_)) & slotMask_) == fingerprint) return slot;
    }
    return bucketSize_;
  }
  for (uint32_t slot = 0; slot < bucketSize_; ++slot) {
    if (readSlot(bucket, slot) == fingerprint) return slot;
  }
  return bucketSize_;
}

bool ConcurrentCuckooFilter::replaceIn(uint64_t bucket, uint32_t from, uint32_t to) {
  const uint32_t slot = findSlot(bucket, from);
  if (slot == bucketSize_) return false;
  writeSlot(bucket, slot, to);
  return true;
}

// --- operations ---

bool ConcurrentCuckooFilter::eitherHolds(uint64_t bucket1, uint64_t bucket2, uint32_t fingerprint) const {
  if (bucketInOneWindow_) {
    // PackedTable::containsEither with atomic loads: both windows before either test.
    const uint64_t window1 = atomic_words::readWindow(words_, slotBit(bucket1, 0));
    const uint64_t window2 = atomic_words::readWindow(words_, slotBit(bucket2, 0));
    const uint64_t pattern = fingerprint * laneOnes_;
    return (bit_fields::zeroLaneFlags(window1 ^ pattern, laneOnes_, laneTops_) |
            bit_fields::zeroLaneFlags(window2 ^ pattern, laneOnes_, laneTops_)) != 0;
  }
  return findSlot(bucket1, fingerprint) != bucketSize_ || findSlot(bucket2, fingerprint) != bucketSize_;
}

bool ConcurrentCuckooFilter::readOnce(uint64_t bucket1, uint64_t bucket2, uint32_t fingerprint, bool& found) const {
  const std::atomic<uint64_t>& version1 = versions_[stripeOf(bucket1)];
  const std::atomic<uint64_t>& version2 = versions_[stripeOf(bucket2)];
  const uint64_t before1 = version1.load(std::memory_order_acquire);
  const uint64_t before2 = version2.load(std::memory_order_acquire);
  // Read even when a version is odd (the loads are atomic, the answer is then
  // dropped): no branch between the version loads and the bucket loads.
  found = eitherHolds(bucket1, bucket2, fingerprint);
  // Pairs with lockStripe's release fence (see there). No instruction in the
  // wasm build: every wasm atomic load is sequentially consistent already.
  std::atomic_thread_fence(std::memory_order_acquire);
  return ((before1 | before2) & 1) == 0 && version1.load(std::memory_order_relaxed) == before1 &&
         version2.load(std::memory_order_relaxed) == before2;
}

ConcurrentCuckooFilter::Outcome ConcurrentCuckooFilter::tryHas(const KeyHash& hash, LockWaiter& waiter) const {
  uint64_t bucket1 = 0, bucket2 = 0;
  uint32_t fingerprint = 0;
  filter_.locate(hash, bucket1, bucket2, fingerprint);
  bool found = false;
  if (readOnce(bucket1, bucket2, fingerprint, found)) return found ? Outcome::Ok : Outcome::Absent;
  return hasRetrying(bucket1, bucket2, fingerprint, waiter);
}

size_t ConcurrentCuckooFilter::tryHasMany(const KeyHash* hashes, size_t count, uint8_t* out, LockWaiter& waiter) const {
  for (size_t i = 0; i < count; ++i) {
    uint64_t bucket1 = 0, bucket2 = 0;
    uint32_t fingerprint = 0;
    filter_.locate(hashes[i], bucket1, bucket2, fingerprint);
    bool found = false;
    if (!readOnce(bucket1, bucket2, fingerprint, found)) {
      const Outcome outcome = hasRetrying(bucket1, bucket2, fingerprint, waiter);
      if (outcome == Outcome::Stuck) return i;
      found = outcome == Outcome::Ok;
    }
    out[i] = found ? 1 : 0;
  }
  return count;
}

ConcurrentCuckooFilter::Outcome ConcurrentCuckooFilter::hasRetrying(uint64_t bucket1, uint64_t bucket2,
                                                                    uint32_t fingerprint, LockWaiter& waiter) const {
  const std::atomic<uint64_t>& version1 = versions_[stripeOf(bucket1)];
  const std::atomic<uint64_t>& version2 = versions_[stripeOf(bucket2)];
  double waitStart = 0;
  uint64_t last1 = 0, last2 = 0;
  for (uint32_t tries = 0;; ++tries) {
    // Written only on a retry: the read path writes nothing shared otherwise.
    retriedReads_.fetch_add(1, std::memory_order_relaxed);
    const uint64_t before1 = version1.load(std::memory_order_relaxed);
    const uint64_t before2 = version2.load(std::memory_order_relaxed);
    if (before1 != last1 || before2 != last2) {  // progress: the bound starts over (see lockStripe)
      last1 = before1;
      last2 = before2;
      waitStart = 0;
    }
    bool found = false;
    if (((before1 | before2) & 1) == 0 && readOnce(bucket1, bucket2, fingerprint, found)) {
      return found ? Outcome::Ok : Outcome::Absent;
    }
    if (!waiter.keepWaiting(tries, &waitStart)) {
      const uint64_t held = (before1 & 1) != 0 ? before1 : before2;
      waiter.stuckStripe = stripeOf((before1 & 1) != 0 ? bucket1 : bucket2);
      waiter.stuckHolder = static_cast<uint32_t>((held >> 1) & kMaxHolder);
      return Outcome::Stuck;
    }
    if (tries >= kSpinsBeforeYield) std::this_thread::yield();
  }
}

bool ConcurrentCuckooFilter::has(const KeyHash& hash) const {
  LockWaiter forever;
  return tryHas(hash, forever) == Outcome::Ok;
}

ConcurrentCuckooFilter::Outcome ConcurrentCuckooFilter::tryAdd(const KeyHash& hash, LockWaiter& waiter) {
  uint64_t bucket1 = 0, bucket2 = 0;
  uint32_t fingerprint = 0;
  filter_.locate(hash, bucket1, bucket2, fingerprint);
  for (uint32_t round = 0; round < kMaxAddRounds; ++round) {
    if (!lockPair(bucket1, bucket2, waiter)) return Outcome::Stuck;
    const bool stored = replaceIn(bucket1, 0, fingerprint) || replaceIn(bucket2, 0, fingerprint);
    unlockPair(bucket1, bucket2);
    if (stored) {
      count_.fetch_add(1, std::memory_order_relaxed);
      return Outcome::Ok;
    }
    // Both full: move fingerprints out of the way, then try again (another
    // writer may take the freed slot first; then another round).
    const Outcome room = makeRoom(bucket1, bucket2, hash.low ^ (uint64_t{round} * 0x9E3779B97F4A7C15ull), waiter);
    if (room != Outcome::Ok) return room;
  }
  return Outcome::Full;
}

Status ConcurrentCuckooFilter::add(const KeyHash& hash) {
  LockWaiter forever;
  const Outcome outcome = tryAdd(hash, forever);
  if (outcome == Outcome::Ok) return Status::ok();
  return Status::full("cuckoo filter is full: no eviction path of at most " + std::to_string(filter_.maxKicks()) +
                      " moves, or the key's buckets were filled by other writers " + std::to_string(kMaxAddRounds) +
                      " times in a row (load " +
                      formatNumber(static_cast<double>(count()) / static_cast<double>(filter_.slotCount())) +
                      "); every key stored before is still there");
}

ConcurrentCuckooFilter::Outcome ConcurrentCuckooFilter::makeRoom(uint64_t bucket1, uint64_t bucket2,
                                                                 uint64_t walkSeed, LockWaiter& waiter) {
  // The search reads without locks: what it sees may be stale, and
  // performPath checks every move again under the locks. Short paths (nearly
  // all) stay on the stack: no malloc, whose lock a thread killed inside it
  // would hold for ever (issue #47); longer ones spill to the heap.
  SplitMix64 random(mix64(walkSeed));
  constexpr size_t kStackPath = 256;
  Move onStack[kStackPath];
  std::vector<Move> spilled;
  size_t length = 0;
  const auto push = [&](Move move) {
    if (length < kStackPath) {
      onStack[length++] = move;
      return;
    }
    if (spilled.empty()) spilled.assign(onStack, onStack + kStackPath);
    spilled.push_back(move);
    ++length;
  };
  uint64_t bucket = (random.next() & 1) ? bucket1 : bucket2;
  uint32_t slots[CuckooFilter::kMaxBucketSize];
  const auto readBucket = [&](uint64_t which) {
    for (uint32_t slot = 0; slot < bucketSize_; ++slot) slots[slot] = readSlot(which, slot);
  };
  const auto hasRoom = [&](uint64_t which) { return findSlot(which, 0) != bucketSize_; };
  for (uint32_t step = 0; step <= filter_.maxKicks(); ++step) {
    readBucket(bucket);
    if (std::find(slots, slots + bucketSize_, 0u) != slots + bucketSize_) {  // the path's free end
      const Move* path = length <= kStackPath ? onStack : spilled.data();
      return performPath(path, length, waiter) ? Outcome::Ok : Outcome::Stuck;
    }
    if (step == filter_.maxKicks()) break;
    // One step of lookahead, as the plain walk: a resident whose other
    // bucket has room ends the path at once.
    const uint32_t start = static_cast<uint32_t>(random.next() % bucketSize_);
    uint32_t chosen = start;
    for (uint32_t i = 0; i < bucketSize_; ++i) {
      const uint32_t candidate = (start + i) % bucketSize_;
      if (slots[candidate] != 0 && hasRoom(alternate(bucket, slots[candidate]))) {
        chosen = candidate;
        break;
      }
    }
    push({bucket, slots[chosen]});
    bucket = alternate(bucket, slots[chosen]);
  }
  return Outcome::Full;
}

bool ConcurrentCuckooFilter::performPath(const Move* path, size_t length, LockWaiter& waiter) {
  for (size_t step = length; step-- > 0;) {
    const Move& move = path[step];
    const uint64_t to = alternate(move.from, move.fingerprint);
    if (!lockPair(move.from, to, waiter)) return false;
    // Copy first, then clear: the fingerprint is in one of its buckets
    // throughout (and readers see both changes at once, by the versions).
    const bool moved = findSlot(move.from, move.fingerprint) != bucketSize_ && replaceIn(to, 0, move.fingerprint);
    if (moved) replaceIn(move.from, move.fingerprint, 0);
    unlockPair(move.from, to);
    if (!moved) return true;  // the table changed under the path: add() searches again
  }
  return true;
}

ConcurrentCuckooFilter::Outcome ConcurrentCuckooFilter::tryRemove(const KeyHash& hash, LockWaiter& waiter) {
  uint64_t bucket1 = 0, bucket2 = 0;
  uint32_t fingerprint = 0;
  filter_.locate(hash, bucket1, bucket2, fingerprint);
  // Both buckets locked: a kick cannot carry the fingerprint from the bucket
  // not yet looked at into the one already looked at.
  if (!lockPair(bucket1, bucket2, waiter)) return Outcome::Stuck;
  const bool erased = replaceIn(bucket1, fingerprint, 0) || replaceIn(bucket2, fingerprint, 0);
  unlockPair(bucket1, bucket2);
  if (!erased) return Outcome::Absent;
  count_.fetch_sub(1, std::memory_order_relaxed);
  return Outcome::Ok;
}

Status ConcurrentCuckooFilter::remove(const KeyHash& hash) {
  LockWaiter forever;
  if (tryRemove(hash, forever) == Outcome::Ok) return Status::ok();
  return Status::notFound("no matching fingerprint in the key's two buckets");
}

}  // namespace cuckoo_bloom
