// Helpers for the CuckooIndex tests: a store that fails on command, a log
// replay (what opening a file does), and the key sets the tests fill with.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "cuckoo_bloom/exact_index/cuckoo_index.h"
#include "cuckoo_bloom/exact_index/memory_record_log.h"
#include "cuckoo_bloom/exact_index/record_store.h"
#include "support/test_keys.h"

namespace cuckoo_bloom_test {

// A MemoryRecordLog that can be told to refuse appends, or reads of one offset.
class FaultyStore final : public cuckoo_bloom::RecordStore {
 public:
  bool failAppends = false;
  uint64_t failReadsAt = UINT64_MAX;

  uint64_t nextOffset() const override { return log.nextOffset(); }
  uint64_t offsetForAppend(uint64_t recordBytes) const override { return log.offsetForAppend(recordBytes); }
  cuckoo_bloom::Result<uint64_t> append(cuckoo_bloom::RecordKind kind, const uint8_t* key, uint32_t keyLength,
                                        const uint8_t* value, uint32_t valueLength) override {
    if (failAppends) return cuckoo_bloom::Status::outOfMemory("appends refused by the test");
    return log.append(kind, key, keyLength, value, valueLength);
  }
  cuckoo_bloom::Status read(uint64_t offset, cuckoo_bloom::RecordView& out) override {
    ++readCount_;
    if (offset == failReadsAt) return cuckoo_bloom::Status::corrupt("read refused by the test");
    return log.read(offset, out);
  }

  cuckoo_bloom::MemoryRecordLog log;
};

// Walks `log` record by record, as a replay does (segment by segment), calling
// visit(offset, record) for each; stops early when visit returns false.
// Returns the offset of the first record that is not whole, or nextOffset()
// when every record was.
template <typename Visit>
uint64_t walkLog(const cuckoo_bloom::MemoryRecordLog& log, Visit&& visit) {
  uint64_t offset = log.recordStartFrom(0);
  while (offset < log.nextOffset()) {
    size_t available = 0;
    const uint8_t* bytes = log.bytesAt(offset, available);
    const cuckoo_bloom::RecordScanResult scanned = cuckoo_bloom::scanRecord(bytes, available);
    if (scanned.scan != cuckoo_bloom::RecordScan::Whole) return offset;
    if (!visit(offset, scanned.record)) break;
    offset = log.recordStartFrom(offset + scanned.size);
  }
  return log.nextOffset();
}

// Rebuilds an index over `log` from its bytes, record by record, as opening a
// log file does. Every record must be whole.
inline cuckoo_bloom::Status replayLog(cuckoo_bloom::MemoryRecordLog& log, cuckoo_bloom::CuckooIndex& index) {
  cuckoo_bloom::Status result = cuckoo_bloom::Status::ok();
  const uint64_t end = walkLog(log, [&](uint64_t offset, const cuckoo_bloom::RecordView& record) {
    result = index.applyRecord(offset, record);
    return result.isOk();
  });
  if (result.isOk() && end != log.nextOffset()) return cuckoo_bloom::Status::corrupt("bad record in the log");
  return result;
}

// An index over `store` sized for `capacity` keys, every other option its
// default: the tests that grow, drain or fill an index start from this.
inline cuckoo_bloom::CuckooIndex indexOfCapacity(cuckoo_bloom::RecordStore& store, uint64_t capacity) {
  cuckoo_bloom::CuckooIndexOptions options;
  options.capacity = capacity;
  return cuckoo_bloom::CuckooIndex::create(store, options).value();
}

inline const uint8_t* bytesOf(const std::string& text) { return reinterpret_cast<const uint8_t*>(text.data()); }
inline std::string textOf(const uint8_t* bytes, uint32_t length) {
  return std::string(reinterpret_cast<const char*>(bytes), length);
}

// Sets presentKey(first .. end-1), each without a value: fails, naming the
// key, at the first set that does not succeed. Use as
// ASSERT_TRUE(setPresentKeys(index, 0, n)).
inline ::testing::AssertionResult setPresentKeys(cuckoo_bloom::CuckooIndex& index, uint64_t first, uint64_t end) {
  for (uint64_t i = first; i < end; ++i) {
    const std::string key = presentKey(i);
    const cuckoo_bloom::Result<bool> set = index.set(bytesOf(key), key.size(), nullptr, 0, false);
    if (!set.isOk()) {
      return ::testing::AssertionFailure() << "set(" << key << ") failed: " << set.status().message();
    }
  }
  return ::testing::AssertionSuccess();
}

// Removes presentKey(first), presentKey(first + step), ... below `end`: fails,
// naming the key, at the first remove that fails or finds the key absent
// (every one of them was set). Use as ASSERT_TRUE(removePresentKeys(...)).
inline ::testing::AssertionResult removePresentKeys(cuckoo_bloom::CuckooIndex& index, uint64_t first, uint64_t end,
                                                    uint64_t step) {
  for (uint64_t i = first; i < end; i += step) {
    const std::string key = presentKey(i);
    const cuckoo_bloom::Result<bool> removed = index.remove(bytesOf(key), key.size());
    if (!removed.isOk()) {
      return ::testing::AssertionFailure() << "remove(" << key << ") failed: " << removed.status().message();
    }
    if (!removed.value()) return ::testing::AssertionFailure() << "remove(" << key << ") found it absent";
  }
  return ::testing::AssertionSuccess();
}

}  // namespace cuckoo_bloom_test
