// The segmented in-memory log (memory_record_log.h): records never straddle a
// segment, offsets say where a record is and are announced before the append,
// walking the log finds every record in order, and running out of memory
// leaves the log — and an index over it — exactly as it was.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "cuckoo_bloom/exact_index/cuckoo_index.h"
#include "cuckoo_bloom/exact_index/memory_record_log.h"
#include "support/index_test_support.h"
#include "support/test_keys.h"

using namespace cuckoo_bloom;
using cuckoo_bloom_test::bytesOf;
using cuckoo_bloom_test::indexOfCapacity;
using cuckoo_bloom_test::textOf;

namespace {

// Appends a put of `key` (with `value` when non-empty) after checking that
// the offset announced for it is the one the append returns.
uint64_t appendChecked(MemoryRecordLog& log, const std::string& key, const std::string& value = "") {
  const RecordKind kind = value.empty() ? RecordKind::Put : RecordKind::PutWithValue;
  const uint64_t announced = log.offsetForAppend(recordSize(key.size(), value.size()));
  Result<uint64_t> offset = log.append(kind, bytesOf(key), key.size(), bytesOf(value), value.size());
  EXPECT_TRUE(offset.isOk()) << offset.status().message();
  EXPECT_EQ(offset.value(), announced);
  return offset.value();
}

std::string keyOfRecord(MemoryRecordLog& log, uint64_t offset) {
  RecordView record;
  Status read = log.read(offset, record);
  EXPECT_TRUE(read.isOk()) << read.message();
  return textOf(record.key, record.keyLength);
}

// Every record's offset, walking the log as a replay does.
std::vector<uint64_t> walk(const MemoryRecordLog& log) {
  std::vector<uint64_t> offsets;
  const uint64_t end = cuckoo_bloom_test::walkLog(log, [&](uint64_t offset, const RecordView&) {
    offsets.push_back(offset);
    return true;
  });
  EXPECT_EQ(end, log.nextOffset()) << "a record that is not whole";
  return offsets;
}

}  // namespace

TEST(MemoryRecordLog, ARecordThatWouldStraddleStartsTheNextSegment) {
  MemoryRecordLog log(6);  // 64-byte segments
  // 17 bytes of overhead: a 20-byte key is a 37-byte record; two do not fit in 64.
  const std::string first(20, 'a'), second(20, 'b'), third(30, 'c');
  EXPECT_EQ(appendChecked(log, first), 0u);
  EXPECT_EQ(appendChecked(log, second), 64u);  // 37 + 37 > 64: the second starts segment 1
  // 37 + 47 > 64 again: segment 2.
  EXPECT_EQ(appendChecked(log, third), 128u);
  EXPECT_EQ(keyOfRecord(log, 0), first);
  EXPECT_EQ(keyOfRecord(log, 64), second);
  EXPECT_EQ(keyOfRecord(log, 128), third);
  EXPECT_EQ(log.byteLength(), 37u + 37u + 47u);
  EXPECT_EQ(log.nextOffset(), 128u + 47u);
  // The unused end of a segment is no record.
  RecordView record;
  EXPECT_EQ(log.read(37, record).code(), StatusCode::Corrupt);
  EXPECT_EQ(log.read(64 + 37, record).code(), StatusCode::Corrupt);
  EXPECT_EQ(walk(log), (std::vector<uint64_t>{0, 64, 128}));
}

TEST(MemoryRecordLog, ARecordThatFillsASegmentExactlyStaysInIt) {
  MemoryRecordLog log(6);
  const std::string exact(64 - kRecordOverheadBytes, 'x');
  EXPECT_EQ(appendChecked(log, exact), 0u);
  EXPECT_EQ(log.nextOffset(), 64u);
  const std::string small = "k";
  EXPECT_EQ(appendChecked(log, small), 64u);
  EXPECT_EQ(keyOfRecord(log, 0), exact);
  EXPECT_EQ(keyOfRecord(log, 64), small);
  EXPECT_EQ(walk(log), (std::vector<uint64_t>{0, 64}));
}

TEST(MemoryRecordLog, ARecordLongerThanASegmentGetsASegmentOfItsOwnSize) {
  MemoryRecordLog log(6);
  EXPECT_EQ(appendChecked(log, "before"), 0u);
  const std::string key = "big", value(200, 'v');  // 220 bytes: covers 4 entries of 64
  const uint64_t big = appendChecked(log, key, value);
  EXPECT_EQ(big, 64u);
  EXPECT_EQ(log.nextOffset(), 64u + 220u);
  // Nothing else goes into an oversized segment; the next record starts past the entries it covers.
  EXPECT_EQ(appendChecked(log, "after"), 64u * 5);
  EXPECT_EQ(log.segmentCount(), 6u);
  RecordView record;
  ASSERT_TRUE(log.read(big, record).isOk());
  EXPECT_EQ(textOf(record.value, record.valueLength), value);
  EXPECT_EQ(log.read(64u * 2, record).code(), StatusCode::Corrupt);  // an entry the big record covers
  EXPECT_EQ(walk(log), (std::vector<uint64_t>{0, 64, 320}));
  // The records back to back are what a log file would hold.
  std::vector<uint8_t> expected;
  ASSERT_TRUE(encodeRecord(RecordKind::Put, bytesOf(std::string("before")), 6, nullptr, 0, expected).isOk());
  ASSERT_TRUE(encodeRecord(RecordKind::PutWithValue, bytesOf(key), 3, bytesOf(value), 200, expected).isOk());
  ASSERT_TRUE(encodeRecord(RecordKind::Put, bytesOf(std::string("after")), 5, nullptr, 0, expected).isOk());
  EXPECT_EQ(log.recordBytes(), expected);
}

TEST(MemoryRecordLog, ManyRecordsOverSmallSegmentsAreAllFoundInOrder) {
  MemoryRecordLog log(10);  // 1 KiB segments
  std::mt19937_64 random(5);
  std::vector<uint64_t> offsets;
  std::vector<std::string> keys;
  uint64_t bytes = 0;
  for (uint64_t i = 0; i < 200000; ++i) {
    keys.push_back(cuckoo_bloom_test::presentKey(i));
    const std::string value(random() % 40, 'v');
    offsets.push_back(appendChecked(log, keys.back(), value));
    bytes += recordSize(keys.back().size(), value.size());
  }
  EXPECT_EQ(log.byteLength(), bytes);
  // Segments are filled but for less than one record at their ends.
  EXPECT_GT(log.segmentCount(), bytes / 1024);
  EXPECT_LE(log.allocatedBytes(), log.segmentCount() * 1024);
  EXPECT_EQ(walk(log), offsets);
  for (uint64_t i = 0; i < offsets.size(); i += 7) ASSERT_EQ(keyOfRecord(log, offsets[i]), keys[i]) << i;
  EXPECT_EQ(log.recordBytes().size(), bytes);
}

TEST(MemoryRecordLog, TheFirstSegmentStartsSmall) {
  MemoryRecordLog log;  // 16 MiB segments
  appendChecked(log, "https://example.com/");
  EXPECT_EQ(log.allocatedBytes(), 4096u);
  for (int i = 0; i < 1000; ++i) appendChecked(log, cuckoo_bloom_test::presentKey(i));
  EXPECT_LT(log.allocatedBytes(), 2 * log.byteLength() + 4096);
  EXPECT_EQ(log.segmentCount(), 1u);
}

TEST(MemoryRecordLog, OutOfMemoryLeavesTheLogAsItWas) {
  MemoryRecordLog log(10);
  log.setMemoryLimit(8 * 1024);  // 8 segments of 1 KiB
  uint64_t appended = 0;
  Status failure = Status::ok();
  for (uint64_t i = 0; i < 10000; ++i) {
    const std::string key = cuckoo_bloom_test::presentKey(i);
    const std::vector<uint8_t> before = log.recordBytes();
    const uint64_t nextBefore = log.nextOffset();
    Result<uint64_t> offset = log.append(RecordKind::Put, bytesOf(key), key.size(), nullptr, 0);
    if (!offset.isOk()) {
      failure = offset.status();
      EXPECT_EQ(log.recordBytes(), before);
      EXPECT_EQ(log.nextOffset(), nextBefore);
      break;
    }
    ++appended;
  }
  ASSERT_EQ(failure.code(), StatusCode::OutOfMemory);
  EXPECT_LE(log.allocatedBytes(), 8u * 1024);
  EXPECT_GT(appended, 50u);
  // Still usable: every record reads back, and with more memory appends resume.
  EXPECT_EQ(walk(log).size(), appended);
  log.setMemoryLimit(UINT64_MAX);
  appendChecked(log, "one more");
  EXPECT_EQ(walk(log).size(), appended + 1);
}

TEST(MemoryRecordLog, AnIndexWhoseLogRunsOutOfMemoryKeepsEveryKey) {
  MemoryRecordLog log(12);
  log.setMemoryLimit(64 * 1024);
  CuckooIndex index = CuckooIndex::create(log, {}).value();
  uint64_t stored = 0;
  for (;; ++stored) {
    const std::string key = cuckoo_bloom_test::presentKey(stored);
    const std::vector<uint64_t> before = [&] {
      std::vector<uint64_t> words(index.slotCount());
      for (uint64_t s = 0; s < index.slotCount(); ++s) words[s] = index.table().slot(s).word;
      return words;
    }();
    Result<bool> added = index.set(bytesOf(key), key.size(), nullptr, 0, false);
    if (added.isOk()) continue;
    ASSERT_EQ(added.status().code(), StatusCode::OutOfMemory);
    ASSERT_EQ(index.slotCount(), before.size());
    for (uint64_t s = 0; s < index.slotCount(); ++s) ASSERT_EQ(index.table().slot(s).word, before[s]) << s;
    break;
  }
  EXPECT_GT(stored, 500u);
  EXPECT_EQ(index.size(), stored);
  for (uint64_t i = 0; i <= stored; ++i) {
    const std::string key = cuckoo_bloom_test::presentKey(i);
    ASSERT_EQ(index.contains(bytesOf(key), key.size()).value(), i < stored) << key;
  }
  // Deleting needs a tombstone: the first one that does not fit is refused and its key kept.
  uint64_t deleted = 0;
  for (;; ++deleted) {
    ASSERT_LT(deleted, stored);
    const std::string key = cuckoo_bloom_test::presentKey(deleted);
    Result<bool> removed = index.remove(bytesOf(key), key.size());
    if (removed.isOk()) {
      ASSERT_TRUE(removed.value());
      continue;
    }
    ASSERT_EQ(removed.status().code(), StatusCode::OutOfMemory);
    EXPECT_TRUE(index.contains(bytesOf(key), key.size()).value());
    break;
  }
  EXPECT_EQ(index.size(), stored - deleted);
  log.setMemoryLimit(UINT64_MAX);
  const std::string next = cuckoo_bloom_test::presentKey(stored);
  EXPECT_TRUE(index.set(bytesOf(next), next.size(), nullptr, 0, false).value());
}

TEST(MemoryRecordLog, AnIndexWhoseTableCannotGrowKeepsEveryKey) {
  MemoryRecordLog log(12);
  CuckooIndex index = indexOfCapacity(log, 1000);
  index.setTableMemoryLimit(index.tableBytes());  // no doubling allowed
  uint64_t stored = 0;
  for (;; ++stored) {
    const std::string key = cuckoo_bloom_test::presentKey(stored);
    const uint64_t logBefore = log.nextOffset();
    Result<bool> added = index.set(bytesOf(key), key.size(), nullptr, 0, false);
    if (added.isOk()) continue;
    ASSERT_EQ(added.status().code(), StatusCode::OutOfMemory);
    EXPECT_EQ(log.nextOffset(), logBefore);  // no record for a key that has no slot
    break;
  }
  EXPECT_GE(stored, 1000u);
  EXPECT_EQ(index.rebuilds(), 0u);
  for (uint64_t i = 0; i <= stored; ++i) {
    const std::string key = cuckoo_bloom_test::presentKey(i);
    ASSERT_EQ(index.contains(bytesOf(key), key.size()).value(), i < stored) << key;
  }
  index.setTableMemoryLimit(UINT64_MAX);
  const std::string next = cuckoo_bloom_test::presentKey(stored);
  EXPECT_TRUE(index.set(bytesOf(next), next.size(), nullptr, 0, false).value());
  EXPECT_EQ(index.rebuilds(), 1u);
}
