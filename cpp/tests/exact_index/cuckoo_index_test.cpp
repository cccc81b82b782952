// CuckooIndex: exact answers checked against std::unordered_map over a million
// seeded random operations (set, get, delete, rebuild from the log,
// compaction, growth), forced tag collisions, the duplicate guard, and failed
// sets that change nothing.
#include <gtest/gtest.h>

#include <algorithm>
#include <iostream>
#include <optional>
#include <random>
#include <string>
#include <unordered_map>
#include <vector>

#include "cuckoo_bloom/exact_index/cuckoo_index.h"
#include "support/index_test_support.h"
#include "support/test_keys.h"

using namespace cuckoo_bloom;
using cuckoo_bloom_test::bytesOf;
using cuckoo_bloom_test::FaultyStore;
using cuckoo_bloom_test::indexOfCapacity;
using cuckoo_bloom_test::replayLog;
using cuckoo_bloom_test::setPresentKeys;
using cuckoo_bloom_test::textOf;

namespace {

// What the index says about a key: nullopt when absent, else the value
// ("" for a key stored without one is told apart by `hasValue`).
struct Answer {
  bool present = false;
  bool hasValue = false;
  std::string value;
};

Answer lookup(CuckooIndex& index, const std::string& key) {
  RecordView record;
  Status status = index.get(bytesOf(key), key.size(), record);
  Answer answer;
  if (status.code() == StatusCode::NotFound) return answer;
  EXPECT_TRUE(status.isOk()) << status.message();
  answer.present = true;
  answer.hasValue = record.hasValue();
  answer.value = textOf(record.value, record.valueLength);
  return answer;
}

// The model's value: nullopt for a key stored without a value.
using Model = std::unordered_map<std::string, std::optional<std::string>>;

// The overflow flags' invariant (index_table.h): a key that is not in its
// first bucket has that first bucket flagged — else lookups would miss it.
void expectOverflowFlagsCoverEverySecondBucketKey(CuckooIndex& index) {
  for (uint64_t s = 0; s < index.slotCount(); ++s) {
    const IndexSlot slot = index.table().slot(s);
    if (!slot.isOccupied()) continue;
    RecordView record;
    ASSERT_TRUE(index.store().read(slot.offset(), record).isOk());
    const KeyHash hash = hashKey(record.key, record.keyLength, index.seed());
    const uint64_t first = cuckooBucketIndexModulo(hash, index.bucketCount());
    if (s / kIndexBucketSlots != first) {
      ASSERT_TRUE(index.table().overflowed(first)) << "slot " << s << " of a key whose first bucket is " << first;
    }
  }
}

void expectMatchesModel(CuckooIndex& index, const Model& model, const std::vector<std::string>& universe) {
  expectOverflowFlagsCoverEverySecondBucketKey(index);
  ASSERT_EQ(index.size(), model.size());
  for (const std::string& key : universe) {
    const auto it = model.find(key);
    const Answer answer = lookup(index, key);
    ASSERT_EQ(answer.present, it != model.end()) << key;
    if (it == model.end()) continue;
    ASSERT_EQ(answer.hasValue, it->second.has_value()) << key;
    if (it->second) {
      ASSERT_EQ(answer.value, *it->second) << key;
    }
  }
  // Iteration: every live offset holds a live key, each once.
  std::vector<uint64_t> offsets;
  index.liveOffsets(offsets);
  ASSERT_EQ(offsets.size(), model.size());
  std::unordered_map<std::string, int> seen;
  for (const uint64_t offset : offsets) {
    RecordView record;
    ASSERT_TRUE(index.store().read(offset, record).isOk());
    const std::string key = textOf(record.key, record.keyLength);
    ASSERT_EQ(model.count(key), 1u) << key;
    ASSERT_EQ(++seen[key], 1) << key;
  }
}

struct IndexOverLog {
  std::unique_ptr<MemoryRecordLog> log;
  std::optional<CuckooIndex> index;

  explicit IndexOverLog(const CuckooIndexOptions& options,
                        uint32_t segmentShift = MemoryRecordLog::kDefaultSegmentShift)
      : log(std::make_unique<MemoryRecordLog>(segmentShift)) {
    Result<CuckooIndex> made = CuckooIndex::create(*log, options);
    EXPECT_TRUE(made.isOk()) << made.status().message();
    index.emplace(std::move(made).value());
  }
};

// A log holding only the live records, in log order: what compact() wrote
// before it worked in place (the reference the in-place result must equal).
IndexOverLog compacted(IndexOverLog& from, const CuckooIndexOptions& options, uint32_t segmentShift) {
  IndexOverLog to(options, segmentShift);
  std::vector<uint64_t> offsets;
  from.index->liveOffsets(offsets);
  for (const uint64_t offset : offsets) {
    RecordView record;
    EXPECT_TRUE(from.log->read(offset, record).isOk());
    Result<bool> added = to.index->set(record.key, record.keyLength, record.value, record.valueLength, record.hasValue());
    EXPECT_TRUE(added.isOk() && added.value());
  }
  return to;
}

// Runs `operations` seeded random operations on keys drawn from `keySpace`
// keys, checking every answer against the model, with a rebuild from the log
// and a compaction every `checkEvery` operations.
// `segmentShift` sizes the in-memory log's segments (small ones put many
// records at segment boundaries).
void runModel(const CuckooIndexOptions& options, uint64_t operations, uint32_t keySpace, uint64_t checkEvery,
              uint32_t seed, uint32_t segmentShift = MemoryRecordLog::kDefaultSegmentShift) {
  std::mt19937_64 random(seed);
  std::vector<std::string> universe;
  for (uint32_t i = 0; i < keySpace; ++i) universe.push_back(cuckoo_bloom_test::presentKey(i));
  auto made = std::make_unique<IndexOverLog>(options, segmentShift);
  Model model;
  uint64_t sets = 0, deletes = 0, hits = 0;
  for (uint64_t op = 1; op <= operations; ++op) {
    const std::string& key = universe[random() % keySpace];
    const uint64_t kind = random() % 100;
    if (kind < 45) {
      const bool withValue = random() % 2 == 0;
      const std::string value = withValue ? "v" + std::to_string(random() % 1000) : "";
      Result<bool> added = made->index->set(bytesOf(key), key.size(), bytesOf(value), value.size(), withValue);
      ASSERT_TRUE(added.isOk()) << added.status().message();
      ASSERT_EQ(added.value(), model.count(key) == 0) << key;
      model[key] = withValue ? std::optional<std::string>(value) : std::nullopt;
      ++sets;
    } else if (kind < 65) {
      Result<bool> removed = made->index->remove(bytesOf(key), key.size());
      ASSERT_TRUE(removed.isOk());
      ASSERT_EQ(removed.value(), model.erase(key) == 1) << key;
      ++deletes;
    } else {
      const Answer answer = lookup(*made->index, key);
      const auto it = model.find(key);
      ASSERT_EQ(answer.present, it != model.end()) << key;
      if (answer.present) {
        ++hits;
        ASSERT_EQ(answer.hasValue, it->second.has_value());
        if (it->second) {
          ASSERT_EQ(answer.value, *it->second);
        }
      }
      Result<bool> has = made->index->contains(bytesOf(key), key.size());
      ASSERT_TRUE(has.isOk());
      ASSERT_EQ(has.value(), answer.present);
    }
    if (op % checkEvery == 0) {
      expectMatchesModel(*made->index, model, universe);
      // Every occupied slot's tag bit is in its bucket's summary: a missing
      // one would make a lookup skip the bucket that holds the key.
      ASSERT_TRUE(made->index->table().summariesCoverSlots());
      // Reopen: a fresh index over the same log (records replayed in order).
      auto reopened = std::make_unique<IndexOverLog>(options, segmentShift);
      reopened->log = std::move(made->log);
      Result<CuckooIndex> fresh = CuckooIndex::create(*reopened->log, options);
      ASSERT_TRUE(fresh.isOk());
      reopened->index.emplace(std::move(fresh).value());
      ASSERT_TRUE(replayLog(*reopened->log, *reopened->index).isOk());
      expectMatchesModel(*reopened->index, model, universe);
      // Compact: only live records, same answers, a log no longer than before.
      // In place, and checked against a copy of the live records into a new
      // log (what compaction used to do): the same records, byte for byte.
      IndexOverLog copy = compacted(*reopened, options, segmentShift);
      const uint64_t bytesBefore = reopened->log->byteLength();
      ASSERT_TRUE(reopened->index->compactInPlace(*reopened->log).isOk());
      EXPECT_LE(reopened->log->byteLength(), bytesBefore);
      EXPECT_EQ(reopened->log->recordBytes(), copy.log->recordBytes());
      EXPECT_EQ(reopened->index->deadRecords(), 0u);
      expectMatchesModel(*reopened->index, model, universe);
      expectMatchesModel(*copy.index, model, universe);
      ASSERT_TRUE(reopened->index->table().summariesCoverSlots());
      made = std::move(reopened);
    }
  }
  expectMatchesModel(*made->index, model, universe);
  EXPECT_GT(sets, operations / 3);
  EXPECT_GT(deletes, operations / 8);
  EXPECT_GT(hits, 0u);
}

}  // namespace

TEST(CuckooIndexModel, AMillionRandomOperationsMatchAnUnorderedMap) {
  CuckooIndexOptions options;
  options.capacity = 16;  // starts tiny, so the run doubles the table many times
  runModel(options, 1000000, 50000, 250000, 18);
}

TEST(CuckooIndexModel, RandomOperationsOverAFragmentedLogOfTinySegments) {
  // 256-byte segments hold 2-4 records of these keys and values: most records
  // sit next to a boundary, and replay and compaction walk hundreds of segments.
  CuckooIndexOptions options;
  options.capacity = 16;
  runModel(options, 200000, 5000, 50000, 31, 8);
}

TEST(CuckooIndexModel, TwoBitTagsCollideConstantlyAndAnswersStayExact) {
  // With 2-bit tags a third of occupied slots match any key's tag: the full-key
  // check against the record is what keeps the answers exact.
  CuckooIndexOptions options;
  options.capacity = 16;
  options.tagBits = 2;
  runModel(options, 200000, 5000, 50000, 7);
}

TEST(CuckooIndexModel, OneBitTagsMatchEverySlotAndAnswersStayExact) {
  CuckooIndexOptions options;
  options.capacity = 16;
  options.tagBits = 1;
  runModel(options, 60000, 2000, 20000, 3);
}

TEST(CuckooIndex, ASetOfAPresentKeyRepointsItsOneSlot) {
  MemoryRecordLog log;
  CuckooIndex index = CuckooIndex::create(log, {}).value();
  const std::string key = "https://example.com/", first = "one", second = "two";
  ASSERT_TRUE(index.set(bytesOf(key), key.size(), bytesOf(first), 3, true).value());
  const uint64_t logAfterFirst = log.byteLength();
  ASSERT_FALSE(index.set(bytesOf(key), key.size(), bytesOf(second), 3, true).value());
  EXPECT_GT(log.byteLength(), logAfterFirst);  // a new record, appended
  EXPECT_EQ(index.size(), 1u);
  uint64_t counts[3];
  index.countSlots(counts);
  EXPECT_EQ(counts[1], 1u);  // one live slot for the key, never two
  EXPECT_EQ(lookup(index, key).value, "two");
  EXPECT_EQ(index.deadRecords(), 1u);
  ASSERT_TRUE(index.remove(bytesOf(key), key.size()).value());
  EXPECT_FALSE(index.remove(bytesOf(key), key.size()).value());
  EXPECT_FALSE(lookup(index, key).present);
  index.countSlots(counts);
  EXPECT_EQ(counts[1], 0u);
  EXPECT_EQ(counts[2], 1u);  // lazily deleted
  // The freed slot is taken again by the next key of that bucket.
  ASSERT_TRUE(index.set(bytesOf(key), key.size(), nullptr, 0, false).value());
  index.countSlots(counts);
  EXPECT_EQ(counts[1], 1u);
  EXPECT_EQ(counts[2], 0u);
  EXPECT_FALSE(lookup(index, key).hasValue);
}

TEST(CuckooIndex, GrowsByDoublingAndLosesNothing) {
  MemoryRecordLog log;
  CuckooIndex index = indexOfCapacity(log, 4);
  const uint64_t initialBuckets = index.bucketCount();
  for (uint64_t i = 0; i < 100000; ++i) {
    const std::string key = cuckoo_bloom_test::presentKey(i);
    ASSERT_TRUE(index.set(bytesOf(key), key.size(), nullptr, 0, false).value());
  }
  EXPECT_GE(index.rebuilds(), 10u);
  uint64_t buckets = initialBuckets;
  while (buckets < index.bucketCount()) buckets *= 2;
  EXPECT_EQ(buckets, index.bucketCount());  // doublings only
  EXPECT_LE(index.loadFactor(), CuckooIndex::kMaxLoad);
  for (uint64_t i = 0; i < 100000; ++i) {
    const std::string key = cuckoo_bloom_test::presentKey(i);
    ASSERT_TRUE(index.contains(bytesOf(key), key.size()).value()) << key;
  }
}

TEST(CuckooIndex, MostFirstBucketsAreUnflaggedSoAbsentKeysProbeOneBucket) {
  // Just past a doubling (load ~0.5) a first bucket overflows only when 5+
  // of the keys pick it first (Poisson, mean 4 x 0.5 = 2: ~5%) or a walk
  // kicked a key out of it; 20% flagged would mean flags set where no key moved.
  MemoryRecordLog log;
  CuckooIndex index = indexOfCapacity(log, 16);
  uint64_t i = 0;
  const uint64_t rebuildsBefore = index.rebuilds();
  for (; i < 200000 || index.rebuilds() == rebuildsBefore; ++i) {
    const std::string key = cuckoo_bloom_test::presentKey(i);
    ASSERT_TRUE(index.set(bytesOf(key), key.size(), nullptr, 0, false).isOk());
    if (i >= 200000 && index.loadFactor() < 0.5) break;  // just rebuilt
  }
  const double flagged = double(index.table().overflowedBuckets()) / double(index.bucketCount());
  std::cout << "[ measure ] load " << index.loadFactor() << ": " << flagged << " of first buckets flagged\n";
  EXPECT_LT(flagged, 0.2);
  expectOverflowFlagsCoverEverySecondBucketKey(index);
  // At a high load many are, and every key is still found.
  while (index.loadFactor() < 0.9) {
    const std::string key = cuckoo_bloom_test::presentKey(i++);
    ASSERT_TRUE(index.set(bytesOf(key), key.size(), nullptr, 0, false).isOk());
  }
  expectOverflowFlagsCoverEverySecondBucketKey(index);
  for (uint64_t k = 0; k < i; ++k) {
    const std::string key = cuckoo_bloom_test::presentKey(k);
    ASSERT_TRUE(index.contains(bytesOf(key), key.size()).value()) << key;
  }
}

TEST(CuckooIndex, AbsentKeysReadAlmostNoRecords) {
  // An absent key reads a record only when one of the <= 8 occupied slots of
  // its two buckets has its tag: chance <= 8 load / (2^t - 1). With t = 16
  // that is ~1.2e-4: over 200,000 lookups ~20 reads expected, and 200 would
  // be a broken tag check. With the default t = 24 it is ~5e-7: 0.1 reads
  // expected, and 5 (a chance below 1e-8) would mean the tag lost bits.
  for (const uint32_t tagBits : {16u, CuckooIndexOptions{}.tagBits}) {
    MemoryRecordLog log;
    CuckooIndexOptions options;
    options.tagBits = tagBits;
    CuckooIndex index = CuckooIndex::create(log, options).value();
    ASSERT_TRUE(setPresentKeys(index, 0, 100000));
    log.resetReadCount();
    for (uint64_t i = 0; i < 200000; ++i) {
      const std::string key = cuckoo_bloom_test::absentKey(i);
      ASSERT_FALSE(index.contains(bytesOf(key), key.size()).value());
    }
    const double expected = 200000.0 * 8 * index.loadFactor() / double((uint64_t{1} << tagBits) - 1);
    std::cout << "[ measure ] t = " << tagBits << ": absent-key record reads: " << log.readCount()
              << " in 200000 lookups (expected ~" << expected << ")\n";
    EXPECT_LE(log.readCount(), tagBits == 16 ? 200u : 5u) << "t = " << tagBits;
    // Present keys: exactly one read each (the tag match that is the key itself),
    // plus the rare extra read of another key with the same tag.
    log.resetReadCount();
    for (uint64_t i = 0; i < 100000; ++i) {
      const std::string key = cuckoo_bloom_test::presentKey(i);
      ASSERT_TRUE(index.contains(bytesOf(key), key.size()).value());
    }
    EXPECT_GE(log.readCount(), 100000u);
    EXPECT_LE(log.readCount(), 100200u);
  }
}

TEST(CuckooIndex, AFailedAppendChangesNothing) {
  FaultyStore store;
  CuckooIndex index = CuckooIndex::create(store, {}).value();
  ASSERT_TRUE(setPresentKeys(index, 0, 1000));
  const std::vector<uint8_t> logBefore = store.log.recordBytes();
  store.failAppends = true;
  for (uint64_t i = 990; i < 1100; ++i) {  // updates, new keys and deletes all refused
    const std::string key = cuckoo_bloom_test::presentKey(i);
    EXPECT_EQ(index.set(bytesOf(key), key.size(), nullptr, 0, false).status().code(), StatusCode::OutOfMemory);
    Result<bool> removed = index.remove(bytesOf(key), key.size());
    if (i < 1000) {
      EXPECT_EQ(removed.status().code(), StatusCode::OutOfMemory);
    } else {
      EXPECT_TRUE(removed.isOk() && !removed.value());  // absent: nothing to write, nothing refused
    }
  }
  store.failAppends = false;
  EXPECT_EQ(index.size(), 1000u);
  EXPECT_EQ(store.log.recordBytes(), logBefore);
  for (uint64_t i = 0; i < 1100; ++i) {
    const std::string key = cuckoo_bloom_test::presentKey(i);
    EXPECT_EQ(index.contains(bytesOf(key), key.size()).value(), i < 1000) << key;
  }
}

TEST(CuckooIndex, AFailedWalkIsUndoneExactlyWhenGrowthFails) {
  // One-bit tags pin each key to a fixed pair of buckets, so a walk fails
  // long before the table is crowded. No doubling is allowed (the table may
  // not grow past its bytes): the set fails with OUT_OF_MEMORY, and every
  // slot must be bit for bit what it was.
  CuckooIndexOptions options;
  options.capacity = 64;
  options.tagBits = 1;
  options.maxKicks = 50;
  int checked = 0;
  for (uint64_t trial = 0; trial < 40 && checked < 5; ++trial) {
    MemoryRecordLog log;
    options.seed = trial;
    CuckooIndex index = CuckooIndex::create(log, options).value();
    index.setTableMemoryLimit(index.tableBytes());
    for (uint64_t i = 0;; ++i) {
      const std::string key = cuckoo_bloom_test::presentKey(i + 1000 * trial);
      const double loadAfter = double(index.size() + 1) / double(index.slotCount());
      std::vector<uint64_t> before(index.slotCount());
      for (uint64_t s = 0; s < index.slotCount(); ++s) before[s] = index.table().slot(s).word;
      const uint64_t logBefore = log.nextOffset();
      Result<bool> added = index.set(bytesOf(key), key.size(), nullptr, 0, false);
      if (added.isOk()) continue;
      ASSERT_EQ(added.status().code(), StatusCode::OutOfMemory);
      if (loadAfter > CuckooIndex::kMaxLoad) break;  // crowded: no walk was tried, try another seed
      ASSERT_EQ(before.size(), index.slotCount());
      for (uint64_t s = 0; s < index.slotCount(); ++s) ASSERT_EQ(index.table().slot(s).word, before[s]) << s;
      ASSERT_EQ(log.nextOffset(), logBefore);
      ASSERT_FALSE(index.contains(bytesOf(key), key.size()).value());
      ++checked;
      break;
    }
  }
  EXPECT_EQ(checked, 5);
}

// Incremental growth (cuckoo_index.h, "growth"): a doubling reads no record,
// and each later write moves at most kDrainBucketsPerWrite buckets, so no
// single set reads more than a handful of records. A whole rebuild read
// every key at once: 131,072 reads in the set that crossed 122k keys.
TEST(CuckooIndexGrowth, NoSingleSetReadsMoreThanAFewRecordsAcrossEveryDoubling) {
  FaultyStore store;
  CuckooIndex index = indexOfCapacity(store, 16);
  uint64_t mostReads = 0, growingSets = 0;
  constexpr uint64_t kKeys = 300000;
  for (uint64_t i = 0; i < kKeys; ++i) {
    const std::string key = cuckoo_bloom_test::presentKey(i);
    store.resetReadCount();
    ASSERT_TRUE(index.set(bytesOf(key), key.size(), nullptr, 0, false).value()) << key;
    mostReads = std::max(mostReads, store.readCount());
    growingSets += index.growing();
  }
  // The moved slots (2 buckets of 4) plus the new key's own tag matches (rare at 24 bits).
  EXPECT_LE(mostReads, 2 * kIndexBucketSlots * CuckooIndex::kDrainBucketsPerWrite);
  EXPECT_GE(index.rebuilds(), 14u);   // 16 keys -> 300k: every doubling happened
  EXPECT_GT(growingSets, kKeys / 8);  // not vacuous: many sets ran while a table drained
  for (uint64_t i = 0; i < kKeys; ++i) {
    const std::string key = cuckoo_bloom_test::presentKey(i);
    ASSERT_TRUE(index.contains(bytesOf(key), key.size()).value()) << key;
  }
  EXPECT_LE(index.loadFactor(), CuckooIndex::kMaxLoad);
}

// While a table drains: updates, deletes, compaction, a failed read and
// finishGrowth() all keep every key exactly where the model says.
TEST(CuckooIndexGrowth, EveryOperationWhileATableDrainsMatchesAModel) {
  FaultyStore store;
  CuckooIndex index = indexOfCapacity(store, 1000);
  Model model;
  std::vector<std::string> universe;
  auto setKey = [&](const std::string& key, const std::string& value) {
    Result<bool> added = index.set(bytesOf(key), key.size(), bytesOf(value), value.size(), true);
    ASSERT_TRUE(added.isOk()) << added.status().message();
    ASSERT_EQ(added.value(), model.count(key) == 0) << key;
    model[key] = value;
  };
  uint64_t next = 0;
  // Fill until a doubling starts draining.
  while (!index.growing()) {
    universe.push_back(cuckoo_bloom_test::presentKey(next++));
    setKey(universe.back(), "first");
  }
  const uint64_t drainingBuckets = index.drainingTable().bucketCount();
  ASSERT_GT(drainingBuckets, 8u);
  // A record the draining table still points at refuses to be read: the
  // drain stops at its bucket and the key stays findable there once the
  // store reads again; nothing is lost meanwhile.
  uint64_t victim = UINT64_MAX;
  for (uint64_t s = index.drainingTable().slotCount(); s-- > 0;) {
    if (index.drainingTable().slot(s).isOccupied()) {
      victim = index.drainingTable().slot(s).offset();
      break;
    }
  }
  ASSERT_NE(victim, UINT64_MAX);
  store.failReadsAt = victim;
  std::mt19937_64 random(47);
  for (int step = 0; step < 200 && index.growing(); ++step) {
    const std::string& old = universe[random() % universe.size()];
    if (random() % 3 == 0) {
      Result<bool> removed = index.remove(bytesOf(old), old.size());
      if (removed.isOk()) {
        ASSERT_EQ(removed.value(), model.erase(old) == 1);
      }
    } else if (random() % 2 == 0) {
      // An update of a key that may still sit in the draining table.
      Result<bool> added = index.set(bytesOf(old), old.size(), bytesOf(std::string("second")), 6, true);
      if (added.isOk()) {
        ASSERT_EQ(added.value(), model.count(old) == 0);
        model[old] = "second";
      }
    } else {
      universe.push_back(cuckoo_bloom_test::presentKey(next++));
      setKey(universe.back(), "new");
    }
  }
  ASSERT_TRUE(index.growing());  // stuck at the victim's bucket, not lost
  store.failReadsAt = UINT64_MAX;
  uint64_t counts[3];
  index.countSlots(counts);
  ASSERT_EQ(counts[static_cast<int>(SlotStatus::Occupied)], model.size());
  expectMatchesModel(index, model, universe);
  ASSERT_TRUE(index.finishGrowth().isOk());
  EXPECT_FALSE(index.growing());
  EXPECT_EQ(index.drainingTable().bucketCount(), 0u);
  expectMatchesModel(index, model, universe);
}

TEST(CuckooIndexGrowth, CompactionWhileATableDrainsKeepsEveryKey) {
  MemoryRecordLog log;
  CuckooIndex index = indexOfCapacity(log, 1000);
  Model model;
  std::vector<std::string> universe;
  uint64_t next = 0;
  while (!index.growing() || index.drainingTable().bucketCount() < 256) {
    universe.push_back(cuckoo_bloom_test::presentKey(next++));
    ASSERT_TRUE(index.set(bytesOf(universe.back()), universe.back().size(), nullptr, 0, false).value());
    model[universe.back()] = std::nullopt;
  }
  // Delete every third of the first 150 keys (50 writes move 100 of the 270
  // draining buckets): DELETED slots in both tables, the drain under way.
  for (size_t i = 0; i < 150; i += 3) {
    ASSERT_TRUE(index.remove(bytesOf(universe[i]), universe[i].size()).value());
    model.erase(universe[i]);
  }
  ASSERT_TRUE(index.growing());
  ASSERT_TRUE(index.compactInPlace(log).isOk());
  EXPECT_EQ(index.deadRecords(), 0u);
  uint64_t counts[3];
  index.countSlots(counts);
  EXPECT_EQ(counts[static_cast<int>(SlotStatus::Deleted)], 0u);
  expectMatchesModel(index, model, universe);
  ASSERT_TRUE(index.finishGrowth().isOk());
  expectMatchesModel(index, model, universe);
}

TEST(CuckooIndex, RejectsBadOptions) {
  MemoryRecordLog log;
  CuckooIndexOptions options;
  options.tagBits = 0;
  EXPECT_EQ(CuckooIndex::create(log, options).status().code(), StatusCode::InvalidArgument);
  options.tagBits = 25;
  EXPECT_EQ(CuckooIndex::create(log, options).status().code(), StatusCode::InvalidArgument);
  options.tagBits = 24;
  options.capacity = 0;
  EXPECT_EQ(CuckooIndex::create(log, options).status().code(), StatusCode::InvalidArgument);
}

TEST(CuckooIndex, EmptyAndBinaryKeysAreKeysLikeAnyOther) {
  MemoryRecordLog log;
  CuckooIndex index = CuckooIndex::create(log, {}).value();
  const uint8_t zeros[3] = {0, 0, 0};
  ASSERT_TRUE(index.set(nullptr, 0, nullptr, 0, false).value());
  ASSERT_TRUE(index.set(zeros, 3, zeros, 3, true).value());
  EXPECT_TRUE(index.contains(nullptr, 0).value());
  EXPECT_TRUE(index.contains(zeros, 3).value());
  EXPECT_FALSE(index.contains(zeros, 2).value());
  EXPECT_EQ(index.size(), 2u);
}
