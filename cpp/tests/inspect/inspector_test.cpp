// Tests for cuckoo_bloom/inspect/: the inspectors read the filters' tables
// (slots, bits, counters) and record a cuckoo add's walk, while the filters
// themselves keep no inspection state: CuckooFilter::add records nothing.
#include "cuckoo_bloom/inspect/bloom_inspector.h"
#include "cuckoo_bloom/inspect/cuckoo_inspector.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <new>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "cuckoo_bloom/core/hashing.h"
#include "support/cuckoo_test_support.h"
#include "support/filter_test_support.h"
#include "support/test_keys.h"

// Counts this thread's calls of the global operator new while `counting`
// (the only allocator the filters' std::vectors use). Replacing the global
// operators applies to the whole test binary; outside a count they only pass
// through to malloc and free.
namespace {
thread_local bool counting = false;
thread_local size_t allocations = 0;
}  // namespace

void* operator new(size_t size) {
  if (counting) ++allocations;
  if (void* block = std::malloc(size == 0 ? 1 : size)) return block;
  throw std::bad_alloc();
}
void* operator new[](size_t size) { return ::operator new(size); }
// The nothrow forms too (the registry allocates filters with new (std::nothrow)): left
// to the sanitizer's, their blocks reached the free() below, an alloc-dealloc mismatch
// that AddressSanitizer aborts on.
void* operator new(size_t size, const std::nothrow_t&) noexcept {
  if (counting) ++allocations;
  return std::malloc(size == 0 ? 1 : size);
}
void* operator new[](size_t size, const std::nothrow_t& tag) noexcept { return ::operator new(size, tag); }
void operator delete(void* block, const std::nothrow_t&) noexcept { std::free(block); }
void operator delete[](void* block, const std::nothrow_t&) noexcept { std::free(block); }
void operator delete(void* block) noexcept { std::free(block); }
void operator delete[](void* block) noexcept { std::free(block); }
void operator delete(void* block, size_t) noexcept { std::free(block); }
void operator delete[](void* block, size_t) noexcept { std::free(block); }

namespace cuckoo_bloom {
namespace {

using cuckoo_bloom_test::cuckooOptions;
using cuckoo_bloom_test::makeCuckoo;
using cuckoo_bloom_test::presentKey;

// The allocations `run` makes on this thread.
template <typename Run>
size_t allocationsOf(Run&& run) {
  allocations = 0;
  counting = true;
  run();
  counting = false;
  return allocations;
}

// Whether the class has a lastKickPath() of its own (it had one, and a vector
// member it filled on every add, before the inspector).
template <typename Filter, typename = void>
struct HasLastKickPath : std::false_type {};
template <typename Filter>
struct HasLastKickPath<Filter, std::void_t<decltype(std::declval<const Filter&>().lastKickPath())>> : std::true_type {};

// ---------------------------------------------------------------- the core keeps no path

TEST(CuckooFilterAdd, KeepsNoKickPathUnlessAnInspectorAsks) {
  static_assert(!HasLastKickPath<CuckooFilter>::value, "a kick path is the inspector's answer, not the filter's state");
  for (const bool semiSorted : {false, true}) {
    SCOPED_TRACE(semiSorted ? "semi-sorted" : "packed");
    // A filter with the next key's walk ahead: its bytes, read twice into
    // fresh filters whose buffers have never grown, walk the same way.
    CuckooFilter filling = makeCuckoo(cuckooOptions(2000, 0.01, 4, 9, semiSorted));
    std::vector<CuckooKick> path;
    std::vector<uint8_t> before;
    std::string walker;
    for (uint64_t i = 0; walker.empty(); ++i) {
      before = filling.serialize();
      CuckooFilter probe = cuckoo_bloom_test::valueOrFail(CuckooFilter::deserialize(before.data(), before.size()), "read");
      ASSERT_TRUE(CuckooInspector::addRecordingKicks(probe, probe.hashOf(presentKey(i)), path).isOk())
          << "full before a walk of two evictions";
      if (path.size() >= 3) walker = presentKey(i);
      ASSERT_TRUE(filling.add(presentKey(i)).isOk());
    }
    const size_t steps = path.size() - 1;  // evictions; the last entry is the landing

    // The plain add allocates only the undo record of its evictions (one
    // saved bucket a step, the exact undo of a failed walk): as many blocks
    // as a vector growing to `steps` elements takes, and nothing for a path.
    CuckooFilter plain = cuckoo_bloom_test::valueOrFail(CuckooFilter::deserialize(before.data(), before.size()), "read");
    const KeyHash hash = plain.hashOf(walker);
    Status added;
    const size_t plainBlocks = allocationsOf([&] { added = plain.add(hash); });
    ASSERT_TRUE(added.isOk());
    std::vector<std::pair<uint64_t, uint64_t>> undoRecord;
    const size_t undoBlocks = allocationsOf([&] {
      for (size_t step = 0; step < steps; ++step) undoRecord.emplace_back();
    });
    EXPECT_EQ(plainBlocks, undoBlocks) << "add() allocated beyond its undo record (" << steps << " steps)";

    // The inspector's add asked for the path: the same walk and bytes, and its
    // path is where the allocation beyond the undo record goes.
    CuckooFilter recorded = cuckoo_bloom_test::valueOrFail(CuckooFilter::deserialize(before.data(), before.size()), "read");
    std::vector<CuckooKick> fresh;
    const size_t recordedBlocks = allocationsOf([&] { added = CuckooInspector::addRecordingKicks(recorded, hash, fresh); });
    ASSERT_TRUE(added.isOk());
    EXPECT_EQ(fresh.size(), steps + 1);
    EXPECT_GT(recordedBlocks, plainBlocks);
    EXPECT_EQ(recorded.serialize(), plain.serialize());
  }
}

// ---------------------------------------------------------------- recorded adds

TEST(CuckooInspector, RecordedAddIsThePlainAddByteForByte) {
  for (const bool semiSorted : {false, true}) {
    SCOPED_TRACE(semiSorted ? "semi-sorted" : "packed");
    CuckooFilter plain = makeCuckoo(cuckooOptions(3000, 0.01, 4, 21, semiSorted));
    CuckooFilter recorded = makeCuckoo(cuckooOptions(3000, 0.01, 4, 21, semiSorted));
    std::vector<CuckooKick> path;
    uint64_t walks = 0;
    for (uint64_t i = 0;; ++i) {
      const Status a = plain.add(presentKey(i));
      const Status b = CuckooInspector::addRecordingKicks(recorded, recorded.hashOf(presentKey(i)), path);
      ASSERT_EQ(a.code(), b.code()) << i;
      walks += path.empty() ? 0 : 1;
      if (i % 97 == 0 || !a.isOk()) ASSERT_EQ(plain.serialize(), recorded.serialize()) << i;
      if (!a.isOk()) {
        ASSERT_EQ(a.code(), StatusCode::Full);
        EXPECT_EQ(path.size(), recorded.maxKicks()) << "the walk that was tried and undone";
        break;
      }
    }
    EXPECT_GT(walks, 100u);
  }
}

TEST(CuckooInspector, RecordedAddDescribesEveryEvictionWalk) {
  for (const bool semiSorted : {false, true}) {
    SCOPED_TRACE(semiSorted ? "semi-sorted" : "packed");
    CuckooFilter filter = makeCuckoo(cuckooOptions(10000, 0.01, 4, 77, semiSorted));
    std::vector<CuckooKick> path;
    uint64_t walks = 0;
    for (uint64_t i = 0;; ++i) {
      const std::string key = presentKey(i);
      uint64_t b1 = 0, b2 = 0;
      uint32_t fp = 0;
      filter.locate(filter.hashOf(key), b1, b2, fp);
      const Status status = CuckooInspector::addRecordingKicks(filter, filter.hashOf(key), path);
      if (status.code() == StatusCode::Full) break;
      ASSERT_TRUE(status.isOk());
      if (path.empty()) continue;  // found room directly
      ++walks;
      ASSERT_GE(path.size(), 2u) << "at least one eviction and the final placement";
      // The walk starts with the new key's fingerprint in one of its buckets.
      EXPECT_EQ(path.front().fingerprint, fp);
      EXPECT_TRUE(path.front().bucket == b1 || path.front().bucket == b2);
      // Each evicted fingerprint moves to its own other bucket.
      for (size_t step = 0; step + 1 < path.size(); ++step) {
        ASSERT_EQ(path[step + 1].bucket,
                  cuckooAltBucketIndexModulo(path[step].bucket, path[step + 1].fingerprint, filter.bucketCount()))
            << "key " << i << " step " << step;
        ASSERT_LT(path[step].slot, filter.bucketSize());
      }
      // The walk ends in a free slot, which now holds the last fingerprint.
      const CuckooKick& last = path.back();
      ASSERT_EQ(CuckooInspector::slotAt(filter, last.bucket, last.slot), last.fingerprint) << "key " << i;
      ASSERT_TRUE(filter.has(key));
    }
    EXPECT_GT(walks, 100u);
    // A key that finds room directly leaves an empty path.
    filter.clear();
    ASSERT_TRUE(CuckooInspector::addRecordingKicks(filter, filter.hashOf("fresh"), path).isOk());
    EXPECT_TRUE(path.empty());
  }
}

TEST(CuckooInspector, RemoveAfterAWalkKeepsEveryOtherKey) {
  // remove() used to resolve the last walk's landing slot before changing a
  // bucket; the inspector now reads it at once, and remove only removes.
  CuckooFilter filter = makeCuckoo(cuckooOptions(2000, 0.01, 4, 5, true));
  std::vector<CuckooKick> path;
  uint64_t added = 0;
  while (CuckooInspector::addRecordingKicks(filter, filter.hashOf(presentKey(added)), path).isOk()) ++added;
  for (uint64_t i = 0; i < added; i += 2) ASSERT_TRUE(filter.remove(presentKey(i)).isOk()) << i;
  for (uint64_t i = 1; i < added; i += 2) ASSERT_TRUE(filter.has(presentKey(i))) << "false negative for key " << i;
  EXPECT_EQ(filter.count(), added / 2);
}

// ---------------------------------------------------------------- slots, bits, counters

TEST(CuckooInspector, SlotAtShowsWhereEveryKeyIs) {
  for (const bool semiSorted : {false, true}) {
    SCOPED_TRACE(semiSorted ? "semi-sorted" : "packed");
    CuckooFilter filter = makeCuckoo(cuckooOptions(500, 0.01, 4, 3, semiSorted));
    for (uint64_t i = 0; i < 500; ++i) ASSERT_TRUE(filter.add(presentKey(i)).isOk());
    uint64_t occupied = 0;
    for (uint64_t b = 0; b < filter.bucketCount(); ++b) {
      for (uint32_t s = 0; s < filter.bucketSize(); ++s) {
        const uint32_t fingerprint = CuckooInspector::slotAt(filter, b, s);
        ASSERT_LT(fingerprint, 1u << filter.fingerprintBits());
        occupied += fingerprint != 0;
      }
    }
    EXPECT_EQ(occupied, filter.count());
    for (uint64_t i = 0; i < 500; ++i) {
      uint64_t b1 = 0, b2 = 0;
      uint32_t fp = 0;
      filter.locate(filter.hashOf(presentKey(i)), b1, b2, fp);
      uint32_t holders = 0;
      for (const uint64_t bucket : {b1, b2}) {
        for (uint32_t s = 0; s < filter.bucketSize(); ++s) holders += CuckooInspector::slotAt(filter, bucket, s) == fp;
      }
      ASSERT_GE(holders, 1u) << "key " << i;
    }
    // Out of range reads 0.
    EXPECT_EQ(CuckooInspector::slotAt(filter, filter.bucketCount(), 0), 0u);
    EXPECT_EQ(CuckooInspector::slotAt(filter, 0, filter.bucketSize()), 0u);
  }
}

TEST(BloomInspector, BitAtIsSetExactlyAtTheKeysPositions) {
  BloomFilter filter = cuckoo_bloom_test::valueOrFail(BloomFilter::create({200, 0.01, 7}), "create");
  std::vector<bool> expected(filter.bitCount(), false);
  for (uint64_t i = 0; i < 200; ++i) {
    const KeyHash hash = filter.hashOf(presentKey(i));
    filter.add(hash);
    for (const uint64_t bit : filter.positions(hash)) expected[bit] = true;
  }
  uint64_t set = 0;
  for (uint64_t bit = 0; bit < filter.bitCount(); ++bit) {
    ASSERT_EQ(BloomInspector::bitAt(filter, bit), expected[bit] ? 1u : 0u) << "bit " << bit;
    set += BloomInspector::bitAt(filter, bit);
  }
  EXPECT_EQ(set, filter.setBitCount());
  EXPECT_EQ(BloomInspector::bitAt(filter, filter.bitCount()), 0u);
}

TEST(BloomInspector, CounterAtCountsTheKeysOnEachCounter) {
  CountingBloomFilter filter = cuckoo_bloom_test::valueOrFail(CountingBloomFilter::create({100, 0.01, 5}), "create");
  std::vector<uint32_t> expected(filter.counterCount(), 0);
  for (uint64_t i = 0; i < 100; ++i) {
    const KeyHash hash = filter.hashOf(presentKey(i));
    filter.add(hash);
    for (const uint64_t counter : filter.positions(hash)) expected[counter] = std::min(expected[counter] + 1, 15u);
  }
  for (uint64_t counter = 0; counter < filter.counterCount(); ++counter) {
    ASSERT_EQ(BloomInspector::counterAt(filter, counter), expected[counter]) << "counter " << counter;
  }
  EXPECT_EQ(BloomInspector::counterAt(filter, filter.counterCount()), 0u);
  EXPECT_EQ(BloomInspector::counterAt(filter, UINT64_MAX), 0u);
}

}  // namespace
}  // namespace cuckoo_bloom
