// In-place compaction of the in-memory log (MemoryRecordLog::compactInPlace,
// CuckooIndex::compactInPlace): only live records stay, in their order, every
// key keeps its value, the log's memory shrinks, and it needs no memory at all
// beyond what the log already holds — so it succeeds under a memory limit set
// at the current use, where a copy into a second log could not even start.
// Tiny segments (kMinSegmentShift: 64 bytes) put records across many segment
// boundaries, and long values make records bigger than a segment.
#include <gtest/gtest.h>

#include <map>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "cuckoo_bloom/exact_index/cuckoo_index.h"
#include "cuckoo_bloom/exact_index/memory_record_log.h"
#include "support/index_test_support.h"
#include "support/test_keys.h"

using namespace cuckoo_bloom;
using cuckoo_bloom_test::bytesOf;
using cuckoo_bloom_test::indexOfCapacity;
using cuckoo_bloom_test::removePresentKeys;
using cuckoo_bloom_test::replayLog;
using cuckoo_bloom_test::setPresentKeys;
using cuckoo_bloom_test::textOf;

namespace {

constexpr uint32_t kTinySegments = MemoryRecordLog::kMinSegmentShift;  // 64 bytes

uint64_t appendPut(MemoryRecordLog& log, const std::string& key, const std::string& value = "") {
  const RecordKind kind = value.empty() ? RecordKind::Put : RecordKind::PutWithValue;
  Result<uint64_t> offset = log.append(kind, bytesOf(key), key.size(), bytesOf(value), value.size());
  EXPECT_TRUE(offset.isOk()) << offset.status().message();
  return offset.value();
}

// (offset, key) of every record, walking the log as a replay does.
std::vector<std::pair<uint64_t, std::string>> walk(const MemoryRecordLog& log) {
  std::vector<std::pair<uint64_t, std::string>> records;
  const uint64_t end = cuckoo_bloom_test::walkLog(log, [&](uint64_t offset, const RecordView& record) {
    records.emplace_back(offset, textOf(record.key, record.keyLength));
    return true;
  });
  EXPECT_EQ(end, log.nextOffset()) << "a record that is not whole";
  return records;
}

// A relocator over the log alone: the records live are those whose offsets it
// was given; it follows them as they move, and checks they only move down.
class OffsetSetRelocator final : public RecordRelocator {
 public:
  explicit OffsetSetRelocator(std::set<uint64_t> live) : live_(std::move(live)) {}
  bool isLive(uint64_t offset, const RecordView&) override {
    current_ = offset;
    return live_.count(offset) == 1;
  }
  void relocated(uint64_t offset) override {
    EXPECT_LT(offset, current_);
    moves[current_] = offset;
  }
  std::map<uint64_t, uint64_t> moves;  // old offset -> new

 private:
  std::set<uint64_t> live_;
  uint64_t current_ = 0;
};

// Where each of `offsets` is after the compaction that made `moves`.
std::vector<uint64_t> after(const std::vector<uint64_t>& offsets, const std::map<uint64_t, uint64_t>& moves) {
  std::vector<uint64_t> out;
  for (const uint64_t offset : offsets) {
    const auto it = moves.find(offset);
    out.push_back(it == moves.end() ? offset : it->second);
  }
  return out;
}

}  // namespace

TEST(MemoryLogCompaction, LiveRecordsMoveDownAcrossSegmentsInOrder) {
  MemoryRecordLog log(kTinySegments);
  // 37, 37 and 46 bytes: one record per 64-byte segment; then 18 bytes that
  // fill segment 2 exactly.
  const uint64_t a = appendPut(log, std::string(20, 'a'));
  const uint64_t b = appendPut(log, std::string(20, 'b'));
  const uint64_t c = appendPut(log, std::string(29, 'c'));
  const uint64_t d = appendPut(log, "d");
  ASSERT_EQ((std::vector<uint64_t>{a, b, c, d}), (std::vector<uint64_t>{0, 64, 128, 174}));
  OffsetSetRelocator relocator({a, c, d});  // b is dead
  log.compactInPlace(relocator);
  // a stays; c does not fit after a (37 + 46 > 64): it takes the spare
  // segment 1, and d fills that up; segment 2 is freed.
  EXPECT_EQ(after({a, c, d}, relocator.moves), (std::vector<uint64_t>{0, 64, 64 + 46}));
  EXPECT_EQ(walk(log), (std::vector<std::pair<uint64_t, std::string>>{
                           {0, std::string(20, 'a')}, {64, std::string(29, 'c')}, {110, "d"}}));
  EXPECT_EQ(log.segmentCount(), 2u);
  EXPECT_EQ(log.allocatedBytes(), 2u * 64);
  EXPECT_EQ(log.byteLength(), 37u + 46u + 18u);
  EXPECT_EQ(log.nextOffset(), 128u);
  // Appends go on after the last record: a new segment, since segment 1 is full.
  EXPECT_EQ(log.offsetForAppend(18), 128u);
  EXPECT_EQ(appendPut(log, "e"), 128u);
  EXPECT_EQ(walk(log).back(), (std::pair<uint64_t, std::string>{128, "e"}));
}

TEST(MemoryLogCompaction, ALiveOversizedRecordKeepsItsMemoryAndMovesItsEntriesDown) {
  MemoryRecordLog log(kTinySegments);
  const uint64_t before = appendPut(log, "before");
  const std::string value(200, 'v');
  const uint64_t big = appendPut(log, "big", value);  // 220 bytes: a segment of its own over 4 entries
  const uint64_t afterBig = appendPut(log, "after");
  ASSERT_EQ((std::vector<uint64_t>{before, big, afterBig}), (std::vector<uint64_t>{0, 64, 320}));
  OffsetSetRelocator relocator({big, afterBig});
  log.compactInPlace(relocator);
  // The big record's entries rotate to the front; the old segment 0 (now a
  // spare behind it) takes "after".
  EXPECT_EQ(after({big, afterBig}, relocator.moves), (std::vector<uint64_t>{0, 256}));
  EXPECT_EQ(walk(log), (std::vector<std::pair<uint64_t, std::string>>{{0, "big"}, {256, "after"}}));
  RecordView record;
  ASSERT_TRUE(log.read(0, record).isOk());
  EXPECT_EQ(textOf(record.value, record.valueLength), value);
  EXPECT_EQ(log.segmentCount(), 5u);
  EXPECT_EQ(log.allocatedBytes(), 220u + 64u);
  EXPECT_EQ(log.byteLength(), 220u + 22u);
  // The next append after the compacted log: "after" (22 bytes) has room behind it.
  EXPECT_EQ(appendPut(log, "x"), 256u + 22u);
}

TEST(MemoryLogCompaction, ADeadOversizedRecordsSegmentIsFreed) {
  MemoryRecordLog log(kTinySegments);
  const uint64_t before = appendPut(log, "before");             // 23 bytes
  const uint64_t big = appendPut(log, "big", std::string(200, 'v'));
  const uint64_t afterBig = appendPut(log, "after");             // 22 bytes
  OffsetSetRelocator relocator({before, afterBig});
  log.compactInPlace(relocator);
  EXPECT_EQ(after({before, afterBig}, relocator.moves), (std::vector<uint64_t>{0, 23}));
  EXPECT_EQ(relocator.moves.count(big), 0u);
  EXPECT_EQ(log.segmentCount(), 1u);
  EXPECT_EQ(log.allocatedBytes(), 64u);
  EXPECT_EQ(log.byteLength(), 45u);
}

TEST(MemoryLogCompaction, AFreedOversizedSegmentCanLeaveEmptyEntriesThatReadsAndWalksSkip) {
  MemoryRecordLog log(kTinySegments);
  const uint64_t full = appendPut(log, std::string(40, 'f'));     // 57 bytes: segment 0 is full
  const uint64_t big = appendPut(log, "big", std::string(200, 'v'));  // entries 1-4
  const uint64_t last = appendPut(log, std::string(23, 'l'));     // 40 bytes, entry 5
  ASSERT_EQ((std::vector<uint64_t>{full, big, last}), (std::vector<uint64_t>{0, 64, 320}));
  OffsetSetRelocator relocator({full, last});
  log.compactInPlace(relocator);
  // "last" fits neither after "full" nor in any spare (the only one was the
  // freed big segment): it stays where it is, and entries 1-4 stay empty.
  EXPECT_TRUE(relocator.moves.empty());
  EXPECT_EQ(walk(log), (std::vector<std::pair<uint64_t, std::string>>{{0, std::string(40, 'f')},
                                                                       {320, std::string(23, 'l')}}));
  EXPECT_EQ(log.allocatedBytes(), 2u * 64);
  RecordView record;
  EXPECT_EQ(log.read(128, record).code(), StatusCode::Corrupt);
  EXPECT_EQ(appendPut(log, "next"), 320u + 40u);
  EXPECT_EQ(appendPut(log, "spills"), 384u);  // 40 + 21 + 23 > 64: a new segment past the end
  EXPECT_EQ(walk(log).size(), 4u);
}

TEST(MemoryLogCompaction, NothingLiveLeavesAnEmptyLogThatStartsSmallAgain) {
  MemoryRecordLog log(12);
  for (int i = 0; i < 500; ++i) appendPut(log, cuckoo_bloom_test::presentKey(i), "value");
  ASSERT_GT(log.segmentCount(), 3u);
  OffsetSetRelocator relocator({});
  log.compactInPlace(relocator);
  EXPECT_EQ(log.segmentCount(), 0u);
  EXPECT_EQ(log.allocatedBytes(), 0u);
  EXPECT_EQ(log.byteLength(), 0u);
  EXPECT_EQ(log.nextOffset(), 0u);
  EXPECT_TRUE(walk(log).empty());
  EXPECT_EQ(appendPut(log, "again"), 0u);
  EXPECT_EQ(log.allocatedBytes(), 4096u);
}

TEST(MemoryLogCompaction, AFirstSegmentSmallerThanASegmentIsFilledOnlyUpToWhatItHolds) {
  // The first segment grows by doubling from 4 KiB; the next is opened when a
  // record does not fit in a whole segment, which a long one may do while the
  // first has grown only to 8 KiB. Compaction must not write past 8 KiB.
  MemoryRecordLog log(14);  // 16 KiB segments
  const uint64_t small = appendPut(log, "small", std::string(5000, 's'));
  const uint64_t large = appendPut(log, "large", std::string(12000, 'L'));  // 5022 + 12022 > 16 KiB
  ASSERT_EQ(large, 16384u);
  ASSERT_EQ(log.allocatedBytes(), 8192u + 16384u);
  OffsetSetRelocator relocator({large});  // "small" is dead: 12 KiB would fit in a whole segment, not in 8 KiB
  log.compactInPlace(relocator);
  EXPECT_TRUE(relocator.moves.empty());
  EXPECT_EQ(walk(log), (std::vector<std::pair<uint64_t, std::string>>{{16384, "large"}}));
  EXPECT_EQ(log.allocatedBytes(), 16384u);  // the too-small first segment is freed
  (void)small;
}

TEST(MemoryLogCompaction, RandomLogsOfTinySegmentsKeepEveryLiveRecordInOrder) {
  // Random record sizes from 18 bytes to three segments, random live sets:
  // after compaction the walk gives exactly the live records, in their old
  // order, each at the offset the relocator was told, with its bytes intact.
  std::mt19937_64 random(11);
  for (int trial = 0; trial < 300; ++trial) {
    MemoryRecordLog log(kTinySegments);
    std::vector<uint64_t> offsets;
    std::vector<std::string> keys, values;
    const int count = 1 + static_cast<int>(random() % 60);
    for (int i = 0; i < count; ++i) {
      keys.push_back("k" + std::to_string(i));
      const uint64_t roll = random() % 10;
      values.push_back(std::string(roll < 6 ? random() % 20 : roll < 9 ? random() % 45 : 40 + random() % 160, 'v'));
      offsets.push_back(appendPut(log, keys.back(), values.back()));
    }
    std::set<uint64_t> live;
    std::vector<size_t> liveIndexes;
    uint64_t liveBytes = 0;
    for (int i = 0; i < count; ++i) {
      if (random() % 3 == 0) continue;
      live.insert(offsets[i]);
      liveIndexes.push_back(i);
      liveBytes += recordSize(keys[i].size(), values[i].size());
    }
    const uint64_t allocatedBefore = log.allocatedBytes();
    OffsetSetRelocator relocator(live);
    log.compactInPlace(relocator);
    const auto records = walk(log);
    ASSERT_EQ(records.size(), liveIndexes.size()) << "trial " << trial;
    for (size_t r = 0; r < records.size(); ++r) {
      const size_t i = liveIndexes[r];
      const uint64_t moved = after({offsets[i]}, relocator.moves)[0];
      ASSERT_EQ(records[r].first, moved) << "trial " << trial;
      ASSERT_EQ(records[r].second, keys[i]) << "trial " << trial;
      RecordView record;
      ASSERT_TRUE(log.read(moved, record).isOk());
      ASSERT_EQ(textOf(record.value, record.valueLength), values[i]) << "trial " << trial;
    }
    EXPECT_EQ(log.byteLength(), liveBytes);
    EXPECT_LE(log.allocatedBytes(), allocatedBefore);
    // Appending goes on as in any log.
    const uint64_t announced = log.offsetForAppend(recordSize(3, 0));
    EXPECT_EQ(appendPut(log, "new"), announced);
    EXPECT_EQ(walk(log).size(), liveIndexes.size() + 1);
  }
}

namespace {

using Model = std::unordered_map<std::string, std::optional<std::string>>;

// Every key of the universe answers as the model says.
void expectAnswers(CuckooIndex& index, const Model& model, const std::vector<std::string>& universe) {
  ASSERT_EQ(index.size(), model.size());
  for (const std::string& key : universe) {
    RecordView record;
    const Status status = index.get(bytesOf(key), key.size(), record);
    const auto it = model.find(key);
    if (it == model.end()) {
      ASSERT_EQ(status.code(), StatusCode::NotFound) << key;
      continue;
    }
    ASSERT_TRUE(status.isOk()) << key << ": " << status.message();
    ASSERT_EQ(record.hasValue(), it->second.has_value()) << key;
    if (it->second) {
      ASSERT_EQ(textOf(record.value, record.valueLength), *it->second) << key;
    }
  }
}

// A key outside its first bucket has that bucket flagged (index_table.h):
// compaction moves no slot between buckets, so the flags must still hold.
uint64_t keysMissingTheirOverflowFlag(CuckooIndex& index) {
  uint64_t missing = 0;
  for (uint64_t s = 0; s < index.slotCount(); ++s) {
    const IndexSlot slot = index.table().slot(s);
    if (!slot.isOccupied()) continue;
    RecordView record;
    if (!index.store().read(slot.offset(), record).isOk()) return UINT64_MAX;
    const KeyHash hash = hashKey(record.key, record.keyLength, index.seed());
    const uint64_t first = cuckooBucketIndexModulo(hash, index.bucketCount());
    if (s / kIndexBucketSlots != first && !index.table().overflowed(first)) ++missing;
  }
  return missing;
}

}  // namespace

TEST(IndexCompaction, RandomSetsDeletesAndOverwritesOverTinySegmentsMatchAModel) {
  std::mt19937_64 random(20260118);
  std::vector<std::string> universe;
  for (int i = 0; i < 400; ++i) universe.push_back("k" + std::to_string(i));
  MemoryRecordLog log(kTinySegments);
  CuckooIndex index = indexOfCapacity(log, 8);  // the table doubles during the run too
  Model model;
  int compactions = 0;
  uint64_t oversizedSeen = 0;
  for (int op = 1; op <= 60000; ++op) {
    const std::string& key = universe[random() % universe.size()];
    const uint64_t roll = random() % 100;
    if (roll < 55) {
      // Mostly records of 18-60 bytes (one to three per segment); some past a
      // segment (a segment of their own); some without a value.
      const uint64_t kind = random() % 20;
      const bool withValue = kind != 0;
      const std::string value = !withValue ? "" : std::string(kind == 1 ? 50 + random() % 150 : random() % 40, 'a' + op % 26);
      if (recordSize(key.size(), value.size()) > 64) ++oversizedSeen;
      ASSERT_TRUE(index.set(bytesOf(key), key.size(), bytesOf(value), value.size(), withValue).isOk());
      model[key] = withValue ? std::optional<std::string>(value) : std::nullopt;
    } else if (roll < 85) {
      Result<bool> removed = index.remove(bytesOf(key), key.size());
      ASSERT_TRUE(removed.isOk());
      ASSERT_EQ(removed.value(), model.erase(key) == 1);
    } else if (roll < 99) {
      ASSERT_EQ(index.contains(bytesOf(key), key.size()).value(), model.count(key) == 1) << key;
    } else {
      // Compact at a random point: answers, order, sizes and counters after.
      std::vector<uint64_t> liveBefore;
      index.liveOffsets(liveBefore);
      std::vector<std::string> orderBefore;
      for (const uint64_t offset : liveBefore) {
        RecordView record;
        ASSERT_TRUE(log.read(offset, record).isOk());
        orderBefore.push_back(textOf(record.key, record.keyLength));
      }
      const uint64_t allocatedBefore = log.allocatedBytes();
      const uint64_t dead = index.deadRecords();
      ASSERT_TRUE(index.compactInPlace(log).isOk());
      ++compactions;
      expectAnswers(index, model, universe);
      EXPECT_EQ(index.deadRecords(), 0u);
      uint64_t counts[3];
      index.countSlots(counts);
      EXPECT_EQ(counts[static_cast<int>(SlotStatus::Deleted)], 0u);
      EXPECT_EQ(counts[static_cast<int>(SlotStatus::Occupied)], model.size());
      EXPECT_EQ(keysMissingTheirOverflowFlag(index), 0u);
      // The log is the live records, in their old order, back to back in its segments.
      const auto records = walk(log);
      ASSERT_EQ(records.size(), orderBefore.size());
      uint64_t liveBytes = 0;
      for (size_t r = 0; r < records.size(); ++r) {
        ASSERT_EQ(records[r].second, orderBefore[r]);
        RecordView record;
        ASSERT_TRUE(log.read(records[r].first, record).isOk());
        liveBytes += recordSize(record.keyLength, record.valueLength);
      }
      EXPECT_EQ(log.byteLength(), liveBytes);
      EXPECT_LE(log.allocatedBytes(), allocatedBefore);
      if (dead > 20) EXPECT_LT(log.allocatedBytes(), allocatedBefore);
      // What a reopened file would replay gives the same answers.
      CuckooIndex replayed = indexOfCapacity(log, 8);
      ASSERT_TRUE(replayLog(log, replayed).isOk());
      expectAnswers(replayed, model, universe);
      EXPECT_EQ(replayed.deadRecords(), 0u);
    }
  }
  expectAnswers(index, model, universe);
  EXPECT_GT(compactions, 400);
  EXPECT_GT(oversizedSeen, 1000u);
  EXPECT_GT(index.rebuilds(), 0u);
}

TEST(IndexCompaction, SucceedsUnderAMemoryLimitAtTheCurrentUse) {
  // The limit allows not one more byte of log (nor of table). In-place
  // compaction needs none; a copy into a second log would need the live
  // records' bytes (liveBytes below) on top of the old log.
  MemoryRecordLog log(16);  // 64 KiB segments
  CuckooIndex index = CuckooIndex::create(log, {}).value();
  uint64_t liveBytes = 0;
  for (uint64_t i = 0; i < 40000; ++i) {
    const std::string key = cuckoo_bloom_test::presentKey(i);
    ASSERT_TRUE(index.set(bytesOf(key), key.size(), bytesOf(key), 10, true).isOk());
    if (i % 2 == 1) liveBytes += recordSize(key.size(), 10);
  }
  for (uint64_t i = 0; i < 40000; i += 2) {
    const std::string key = cuckoo_bloom_test::presentKey(i);
    ASSERT_TRUE(index.remove(bytesOf(key), key.size()).value());
  }
  const uint64_t allocatedBefore = log.allocatedBytes();
  log.setMemoryLimit(allocatedBefore);
  index.setTableMemoryLimit(index.tableBytes());
  ASSERT_TRUE(index.compactInPlace(log).isOk());
  EXPECT_LT(log.allocatedBytes(), allocatedBefore / 2);
  EXPECT_EQ(log.byteLength(), liveBytes);
  for (uint64_t i = 0; i < 40000; ++i) {
    const std::string key = cuckoo_bloom_test::presentKey(i);
    RecordView record;
    const Status status = index.get(bytesOf(key), key.size(), record);
    if (i % 2 == 0) {
      ASSERT_EQ(status.code(), StatusCode::NotFound) << key;
    } else {
      ASSERT_TRUE(status.isOk()) << key;
      ASSERT_EQ(textOf(record.value, record.valueLength), key.substr(0, 10));
    }
  }
  // The memory it gave back is there for new records, under the same limit.
  ASSERT_TRUE(setPresentKeys(index, 40000, 50000));
}

TEST(IndexCompaction, DeletedSlotsBecomeAvailableAndTheSlotsFollowTheirRecords) {
  MemoryRecordLog log;
  CuckooIndex index = CuckooIndex::create(log, {}).value();
  ASSERT_TRUE(setPresentKeys(index, 0, 1000));
  ASSERT_TRUE(removePresentKeys(index, 0, 1000, 3));
  uint64_t counts[3];
  index.countSlots(counts);
  ASSERT_EQ(counts[2], 334u);
  std::vector<uint64_t> slotsBefore(index.slotCount());
  for (uint64_t s = 0; s < index.slotCount(); ++s) slotsBefore[s] = index.table().slot(s).word;
  ASSERT_TRUE(index.compactInPlace(log).isOk());
  index.countSlots(counts);
  EXPECT_EQ(counts[0], index.slotCount() - 666);
  EXPECT_EQ(counts[1], 666u);
  EXPECT_EQ(counts[2], 0u);
  // Each live slot keeps its place and tag; only its offset changed, never up.
  for (uint64_t s = 0; s < index.slotCount(); ++s) {
    const IndexSlot before{slotsBefore[s]};
    const IndexSlot now = index.table().slot(s);
    if (!before.isOccupied()) continue;
    ASSERT_TRUE(now.isOccupied()) << s;
    ASSERT_EQ(now.tag(), before.tag()) << s;
    ASSERT_LE(now.offset(), before.offset()) << s;
  }
  // A second compaction has nothing to do and changes nothing.
  const std::vector<uint8_t> bytes = log.recordBytes();
  ASSERT_TRUE(index.compactInPlace(log).isOk());
  EXPECT_EQ(log.recordBytes(), bytes);
}

TEST(IndexCompaction, RefusesALogThatIsNotItsStore) {
  MemoryRecordLog log, other;
  CuckooIndex index = CuckooIndex::create(log, {}).value();
  ASSERT_TRUE(index.set(bytesOf(std::string("k")), 1, nullptr, 0, false).isOk());
  appendPut(other, "x");
  EXPECT_EQ(index.compactInPlace(other).code(), StatusCode::InvalidArgument);
  EXPECT_EQ(walk(other).size(), 1u);
  EXPECT_TRUE(index.contains(bytesOf(std::string("k")), 1).value());
}
