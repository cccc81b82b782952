// Many threads on one filter (issue #31): disjoint adds from 4 threads then
// every thread finds every key; readers running during adds (and cuckoo
// kicks) never miss a key whose add finished before the read began; the
// Bloom family's bytes equal the plain filter's for the same keys. Built in
// the normal suite and, alone, under ThreadSanitizer (.ci/tsan.sh).
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

#include "cuckoo_bloom/concurrent/concurrent_bloom_filter.h"
#include "cuckoo_bloom/concurrent/concurrent_counting_bloom_filter.h"
#include "cuckoo_bloom/concurrent/concurrent_cuckoo_filter.h"
#include "support/test_keys.h"

namespace cuckoo_bloom {
namespace {

using cuckoo_bloom_test::absentKey;
using cuckoo_bloom_test::presentKey;

constexpr uint32_t kThreads = 4;
#ifdef CUCKOO_BLOOM_TSAN_BUILD
// Under ThreadSanitizer (.ci/tsan.sh) every atomic operation costs ~50x: the
// big fills use a tenth of the keys (1M took 3 minutes), which exercises the
// same interleavings on the same code; the ctest and ASan runs use all 1M.
constexpr uint64_t kBigFillKeys = 100000;
#else
constexpr uint64_t kBigFillKeys = 1000000;
#endif
constexpr uint64_t kBloomKeys = kBigFillKeys;  // in total, kBloomKeys / kThreads per thread

// Runs body(thread) on kThreads threads and joins them all.
template <typename Body>
void onThreads(uint32_t threads, Body body) {
  std::vector<std::thread> running;
  for (uint32_t t = 0; t < threads; ++t) running.emplace_back(body, t);
  for (std::thread& thread : running) thread.join();
}

// Thread t adds keys t, t + kThreads, t + 2 kThreads, ... below `total`.
template <typename Concurrent>
void addDisjoint(Concurrent& filter, uint64_t total) {
  onThreads(kThreads, [&](uint32_t t) {
    for (uint64_t i = t; i < total; i += kThreads) filter.add(presentKey(i));
  });
}

// Every thread looks up every key; returns the misses over all threads.
template <typename Concurrent>
uint64_t missesFromEveryThread(const Concurrent& filter, uint64_t total) {
  std::atomic<uint64_t> misses{0};
  onThreads(kThreads, [&](uint32_t t) {
    uint64_t local = 0;
    // Each thread starts at its own quarter, so all of them read all words at once.
    for (uint64_t n = 0; n < total; ++n) local += !filter.has(presentKey((n + t * total / kThreads) % total));
    misses += local;
  });
  return misses.load();
}

template <typename Plain, typename Concurrent>
void expectBloomFamilyContract(Plain plain, Plain copyForPlainAdds) {
  Concurrent shared(std::move(plain));
  addDisjoint(shared, kBloomKeys);
  EXPECT_EQ(shared.count(), kBloomKeys);
  EXPECT_EQ(missesFromEveryThread(shared, kBloomKeys), 0u);
  // Same keys, one thread, the plain filter: the same bytes.
  for (uint64_t i = 0; i < kBloomKeys; ++i) copyForPlainAdds.add(presentKey(i));
  EXPECT_EQ(shared.serialize(), copyForPlainAdds.serialize());
  // And the released filter is that plain filter.
  Plain released = std::move(shared).release();
  EXPECT_EQ(released.count(), kBloomKeys);
  EXPECT_TRUE(released.has(presentKey(12345)));
}

TEST(ConcurrentBloomFilter, FourThreadsAddDisjointKeysAllFoundAndBytesEqualPlain) {
  const BloomFilterOptions options{kBloomKeys, 0.01, 7};
  expectBloomFamilyContract<BloomFilter, ConcurrentBloomFilter>(BloomFilter::create(options).value(),
                                                                BloomFilter::create(options).value());
}

TEST(ConcurrentBlockedBloomFilter, FourThreadsAddDisjointKeysAllFoundAndBytesEqualPlain) {
  const BlockedBloomFilterOptions options{kBloomKeys, 0.01, 7};
  expectBloomFamilyContract<BlockedBloomFilter, ConcurrentBlockedBloomFilter>(
      BlockedBloomFilter::create(options).value(), BlockedBloomFilter::create(options).value());
}

TEST(ConcurrentCountingBloomFilter, FourThreadsAddDisjointKeysAllFoundAndBytesEqualPlain) {
  const CountingBloomFilterOptions options{kBloomKeys, 0.01, 7};
  expectBloomFamilyContract<CountingBloomFilter, ConcurrentCountingBloomFilter>(
      CountingBloomFilter::create(options).value(), CountingBloomFilter::create(options).value());
}

TEST(ConcurrentCountingBloomFilter, ConcurrentRemovesOfOwnKeysKeepEveryOtherKey) {
  // Small and full, so counters are shared (and some saturate): a lost CAS
  // update would drop a counter another key needs.
  constexpr uint64_t kKeys = 40000;
  ConcurrentCountingBloomFilter shared(CountingBloomFilter::create({kKeys / 4, 0.05, 3}).value());
  addDisjoint(shared, kKeys);
  // Each thread removes the odd keys of its own share while others read the even ones.
  std::atomic<uint64_t> misses{0}, failedRemoves{0};
  onThreads(kThreads, [&](uint32_t t) {
    for (uint64_t i = t; i < kKeys; i += kThreads) {
      if (i % 2 == 1) failedRemoves += !shared.remove(presentKey(i)).isOk();
      const uint64_t kept = (i + 2 * t) % kKeys & ~uint64_t{1};
      misses += !shared.has(presentKey(kept));
    }
  });
  EXPECT_EQ(failedRemoves.load(), 0u);
  EXPECT_EQ(misses.load(), 0u);
  EXPECT_EQ(shared.count(), kKeys / 2);
  for (uint64_t i = 0; i < kKeys; i += 2) ASSERT_TRUE(shared.has(presentKey(i))) << i;
}

TEST(ConcurrentCountingBloomFilter, RemoveIfPresentAnswersWithoutAStatusAndChangesNothingForAnAbsentKey) {
  // The shared module's remove: a bool, so an absent key builds no NotFound
  // message (a heap string on wasm32, which would wait on the allocator).
  // One key in a filter sized for 1,000 at 0.1%: no absent key of these
  // fixed ones shares all its counters with it.
  ConcurrentCountingBloomFilter shared(CountingBloomFilter::create({1000, 0.001, 5}).value());
  shared.add(presentKey(1));
  for (uint64_t i = 0; i < 1000; ++i) ASSERT_FALSE(shared.removeIfPresent(shared.hashOf(absentKey(i)))) << i;
  EXPECT_EQ(shared.count(), 1u);
  EXPECT_TRUE(shared.has(presentKey(1)));
  EXPECT_TRUE(shared.removeIfPresent(shared.hashOf(presentKey(1))));
  EXPECT_FALSE(shared.has(presentKey(1)));
  EXPECT_EQ(shared.count(), 0u);
  EXPECT_EQ(shared.remove(presentKey(1)).code(), StatusCode::NotFound);
}

std::unique_ptr<ConcurrentCuckooFilter> packedCuckoo(uint64_t capacity, uint64_t seed) {
  CuckooFilterOptions options;
  options.capacity = capacity;
  options.falsePositiveRate = 0.01;
  options.semiSorted = false;
  options.seed = seed;
  return ConcurrentCuckooFilter::wrap(CuckooFilter::create(options).value()).value();
}

TEST(ConcurrentCuckooFilter, SemiSortedLayoutIsRefusedByName) {
  CuckooFilterOptions options;
  options.capacity = 1000;
  options.falsePositiveRate = 0.01;
  Result<std::unique_ptr<ConcurrentCuckooFilter>> wrapped = ConcurrentCuckooFilter::wrap(CuckooFilter::create(options).value());
  ASSERT_FALSE(wrapped.isOk());
  EXPECT_EQ(wrapped.status().code(), StatusCode::InvalidArgument);
  EXPECT_NE(wrapped.status().message().find("semiSorted"), std::string::npos);
}

TEST(ConcurrentCuckooFilter, FourThreadsFillToNinetyPercentAllFoundAndTableReadsBack) {
  std::unique_ptr<ConcurrentCuckooFilter> shared = packedCuckoo(kBigFillKeys, 11);
  const uint64_t keys = static_cast<uint64_t>(0.90 * static_cast<double>(shared->filter().slotCount()));
  std::atomic<uint64_t> refused{0};
  onThreads(kThreads, [&](uint32_t t) {
    for (uint64_t i = t; i < keys; i += kThreads) refused += !shared->add(presentKey(i)).isOk();
  });
  ASSERT_EQ(refused.load(), 0u);
  EXPECT_EQ(shared->count(), keys);
  EXPECT_EQ(missesFromEveryThread(*shared, keys), 0u);
  // The table is a valid plain filter: its bytes read back (the reader
  // recounts the occupied slots against the count) and find every key.
  const std::vector<uint8_t> bytes = shared->serialize();
  Result<CuckooFilter> readBack = CuckooFilter::deserialize(bytes.data(), bytes.size());
  ASSERT_TRUE(readBack.isOk()) << readBack.status().message();
  for (uint64_t i = 0; i < keys; i += 997) ASSERT_TRUE(readBack.value().has(presentKey(i))) << i;
  // And the false-positive rate is the plain filter's (a shuffled table would not change it; a broken one would).
  uint64_t falsePositives = 0;
  constexpr uint64_t kProbes = 100000;
  for (uint64_t i = 0; i < kProbes; ++i) falsePositives += shared->has(absentKey(i));
  EXPECT_LT(falsePositives, kProbes * 2 / 100);
}

// A reader's lookup: has().
constexpr auto kHasOne = [](const auto& filter, const std::string& key) { return filter.has(key); };

// Writers add keys and publish how far they got (release); readers pick a
// published key (acquire) and must find it (`has`), while adds and kicks run.
template <typename Concurrent, typename Add, typename Has = decltype(kHasOne)>
void readersNeverMissPublishedKeys(Concurrent& shared, uint64_t perWriter, Add add, Has has = kHasOne) {
  constexpr uint32_t kWriters = 2, kReaders = 2;
  std::atomic<uint64_t> published[kWriters];
  for (auto& p : published) p.store(0);
  std::atomic<uint32_t> writersDone{0};
  std::atomic<uint64_t> misses{0}, reads{0}, refused{0};
  // Reads so far, counted as they happen: halfway through, each writer waits
  // (at most 10 s) until the readers made 1,024, so the second half of the
  // adds always runs beside reads. Without it, on a loaded machine, the
  // writers of a fast filter once finished before a reader was scheduled (0 reads).
  std::atomic<uint64_t> readsSoFar{0};
  onThreads(kWriters + kReaders, [&](uint32_t t) {
    if (t < kWriters) {
      for (uint64_t n = 0; n < perWriter; ++n) {
        if (n == perWriter / 2) {
          const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
          while (readsSoFar.load(std::memory_order_relaxed) < 1024 && std::chrono::steady_clock::now() < deadline) {
            std::this_thread::yield();
          }
        }
        refused += !add(shared, presentKey(n * kWriters + t));
        published[t].store(n + 1, std::memory_order_release);
      }
      writersDone.fetch_add(1);
      return;
    }
    SplitMix64 random(t);
    uint64_t localReads = 0, localMisses = 0;
    while (writersDone.load() < kWriters) {
      const uint32_t writer = static_cast<uint32_t>(random.next() % kWriters);
      const uint64_t upTo = published[writer].load(std::memory_order_acquire);
      if (upTo == 0) continue;
      // Half of the reads ask for the newest key (its bucket may still be hot with kicks).
      const uint64_t n = (random.next() & 1) ? upTo - 1 : random.next() % upTo;
      localMisses += !has(shared, presentKey(n * kWriters + writer));
      ++localReads;
      readsSoFar.fetch_add(1, std::memory_order_relaxed);
    }
    reads += localReads;
    misses += localMisses;
  });
  EXPECT_EQ(refused.load(), 0u);
  EXPECT_EQ(misses.load(), 0u) << "of " << reads.load() << " reads";
  EXPECT_GT(reads.load(), 1000u);
}

TEST(ConcurrentCuckooFilter, ReadersDuringAddsAndKicksNeverMissAnAddedKey) {
  // Filled to ~93% by the two writers, so the last part of the fill kicks on most adds.
  constexpr uint64_t kCapacity = 200000;
  std::unique_ptr<ConcurrentCuckooFilter> shared = packedCuckoo(kCapacity, 5);
  const uint64_t perWriter = static_cast<uint64_t>(0.93 * static_cast<double>(shared->filter().slotCount())) / 2;
  readersNeverMissPublishedKeys(*shared, perWriter,
                                [](ConcurrentCuckooFilter& f, const std::string& key) { return f.add(key).isOk(); });
  EXPECT_EQ(shared->count(), perWriter * 2);
}

// The same through the batch read (tryHasMany, the shared build's hasMany):
// the key among 7 absent ones in one group, each read optimistic on its own.
TEST(ConcurrentCuckooFilter, BatchReadersDuringAddsAndKicksNeverMissAnAddedKey) {
  constexpr uint64_t kCapacity = 200000;
  std::unique_ptr<ConcurrentCuckooFilter> shared = packedCuckoo(kCapacity, 6);
  const uint64_t perWriter = static_cast<uint64_t>(0.93 * static_cast<double>(shared->filter().slotCount())) / 2;
  readersNeverMissPublishedKeys(
      *shared, perWriter, [](ConcurrentCuckooFilter& f, const std::string& key) { return f.add(key).isOk(); },
      [](const ConcurrentCuckooFilter& f, const std::string& key) {
        constexpr size_t kGroup = 8, kAt = 5;
        KeyHash hashes[kGroup];
        for (size_t j = 0; j < kGroup; ++j) hashes[j] = f.hashOf(j == kAt ? key : absentKey(j));
        uint8_t out[kGroup] = {};
        LockWaiter forever;
        return f.tryHasMany(hashes, kGroup, out, forever) == kGroup && out[kAt] == 1;
      });
  EXPECT_EQ(shared->count(), perWriter * 2);
}

// serialize() while two writers fill to ~93% (most late adds kick): every
// snapshot reads back (its count is its occupied slots) and holds every key
// whose add returned before the snapshot began.
TEST(ConcurrentCuckooFilter, SerializeDuringAddsAndKicksGivesValidBytesWithEveryAddedKey) {
  constexpr uint32_t kWriters = 2;
  std::unique_ptr<ConcurrentCuckooFilter> shared = packedCuckoo(kBigFillKeys / 4, 9);
  const uint64_t perWriter = static_cast<uint64_t>(0.93 * static_cast<double>(shared->filter().slotCount())) / kWriters;
  std::atomic<uint64_t> published[kWriters];
  for (auto& p : published) p.store(0);
  std::atomic<uint32_t> writersDone{0};
  std::atomic<uint64_t> refused{0};
  std::atomic<uint64_t> snapshotsTaken{0};
  uint64_t snapshots = 0, unreadable = 0, missing = 0;
  onThreads(kWriters + 1, [&](uint32_t t) {
    if (t < kWriters) {
      for (uint64_t n = 0; n < perWriter; ++n) {
        refused += !shared->add(presentKey(n * kWriters + t)).isOk();
        published[t].store(n + 1, std::memory_order_release);
        // Halfway, wait for one whole snapshot: at least one is taken while
        // adds are under way however the threads are scheduled (on a loaded
        // machine the writers could otherwise finish before the first).
        if (n == perWriter / 2) {
          const uint64_t seen = snapshotsTaken.load();
          while (snapshotsTaken.load() <= seen) std::this_thread::yield();
        }
      }
      writersDone.fetch_add(1);
      return;
    }
    do {
      uint64_t upTo[kWriters];
      for (uint32_t w = 0; w < kWriters; ++w) upTo[w] = published[w].load(std::memory_order_acquire);
      const std::vector<uint8_t> bytes = shared->serialize();
      ++snapshots;
      snapshotsTaken.store(snapshots);
      Result<CuckooFilter> readBack = CuckooFilter::deserialize(bytes.data(), bytes.size());
      if (!readBack.isOk()) {
        ++unreadable;
        continue;
      }
      for (uint32_t w = 0; w < kWriters; ++w) {
        for (uint64_t n = 0; n < upTo[w]; ++n) missing += !readBack.value().has(presentKey(n * kWriters + w));
      }
    } while (writersDone.load() < kWriters);
  });
  EXPECT_EQ(refused.load(), 0u);
  EXPECT_GT(snapshots, 1u);
  EXPECT_EQ(unreadable, 0u) << "of " << snapshots << " snapshots";
  EXPECT_EQ(missing, 0u) << "over " << snapshots << " snapshots";
}

TEST(ConcurrentBlockedBloomFilter, ReadersDuringAddsNeverMissAnAddedKey) {
  ConcurrentBlockedBloomFilter shared(BlockedBloomFilter::create({200000, 0.01, 1}).value());
  readersNeverMissPublishedKeys(shared, 100000, [](ConcurrentBlockedBloomFilter& f, const std::string& key) {
    f.add(key);
    return true;
  });
}

TEST(ConcurrentCountingBloomFilter, ReadersDuringAddsNeverMissAnAddedKey) {
  ConcurrentCountingBloomFilter shared(CountingBloomFilter::create({50000, 0.05, 1}).value());
  readersNeverMissPublishedKeys(shared, 50000, [](ConcurrentCountingBloomFilter& f, const std::string& key) {
    f.add(key);
    return true;
  });
}

TEST(ConcurrentCuckooFilter, ConcurrentRemovesKeepEveryOtherKey) {
  constexpr uint64_t kKeys = 100000;
  std::unique_ptr<ConcurrentCuckooFilter> shared = packedCuckoo(kKeys, 9);
  addDisjoint(*shared, kKeys);
  std::atomic<uint64_t> misses{0}, failedRemoves{0};
  onThreads(kThreads, [&](uint32_t t) {
    for (uint64_t i = t; i < kKeys; i += kThreads) {
      if (i % 2 == 1) failedRemoves += !shared->remove(presentKey(i)).isOk();
      misses += !shared->has(presentKey((i + 2 * t) % kKeys & ~uint64_t{1}));
    }
  });
  EXPECT_EQ(failedRemoves.load(), 0u);
  EXPECT_EQ(misses.load(), 0u);
  EXPECT_EQ(shared->count(), kKeys / 2);
  CuckooFilter plain = std::move(*shared).release();
  EXPECT_EQ(plain.count(), kKeys / 2);
  for (uint64_t i = 0; i < kKeys; i += 2) ASSERT_TRUE(plain.has(presentKey(i))) << i;
}

}  // namespace
}  // namespace cuckoo_bloom
