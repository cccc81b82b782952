// The record codec and the in-memory log: what a reader finds at every
// truncation and every flipped byte of a record.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cuckoo_bloom/memory_record_log.h"
#include "cuckoo_bloom/record_store.h"
#include "index_test_support.h"

using namespace cuckoo_bloom;
using cuckoo_bloom_test::bytesOf;
using cuckoo_bloom_test::textOf;

TEST(RecordLog, EncodesAndScansBackEveryKind) {
  std::vector<uint8_t> bytes;
  const std::string key = "https://example.com/a", value = "the value";
  ASSERT_TRUE(encodeRecord(RecordKind::Put, bytesOf(key), key.size(), nullptr, 0, bytes).isOk());
  ASSERT_TRUE(encodeRecord(RecordKind::PutWithValue, bytesOf(key), key.size(), bytesOf(value), value.size(), bytes).isOk());
  ASSERT_TRUE(encodeRecord(RecordKind::Delete, bytesOf(key), key.size(), nullptr, 0, bytes).isOk());
  size_t at = 0;
  for (const RecordKind kind : {RecordKind::Put, RecordKind::PutWithValue, RecordKind::Delete}) {
    RecordScanResult scanned = scanRecord(bytes.data() + at, bytes.size() - at);
    ASSERT_EQ(scanned.scan, RecordScan::Whole);
    EXPECT_EQ(scanned.record.kind, kind);
    EXPECT_EQ(textOf(scanned.record.key, scanned.record.keyLength), key);
    EXPECT_EQ(textOf(scanned.record.value, scanned.record.valueLength), kind == RecordKind::PutWithValue ? value : "");
    at += scanned.size;
  }
  EXPECT_EQ(at, bytes.size());
}

TEST(RecordLog, EveryTruncationOfARecordIsIncompleteNeverWhole) {
  std::vector<uint8_t> bytes;
  const std::string key = "key", value = "value";
  ASSERT_TRUE(encodeRecord(RecordKind::PutWithValue, bytesOf(key), 3, bytesOf(value), 5, bytes).isOk());
  for (size_t length = 0; length < bytes.size(); ++length) {
    EXPECT_EQ(scanRecord(bytes.data(), length).scan, RecordScan::Incomplete) << "cut at " << length;
  }
  EXPECT_EQ(scanRecord(bytes.data(), bytes.size()).scan, RecordScan::Whole);
}

TEST(RecordLog, EveryFlippedByteIsGarbledOrIncompleteNeverWhole) {
  std::vector<uint8_t> bytes;
  const std::string key = "some key", value = "some value";
  ASSERT_TRUE(encodeRecord(RecordKind::PutWithValue, bytesOf(key), key.size(), bytesOf(value), value.size(), bytes).isOk());
  for (size_t at = 0; at < bytes.size(); ++at) {
    for (const uint8_t flip : {uint8_t{0x01}, uint8_t{0x80}, uint8_t{0xFF}}) {
      std::vector<uint8_t> damaged = bytes;
      damaged[at] ^= flip;
      EXPECT_NE(scanRecord(damaged.data(), damaged.size()).scan, RecordScan::Whole) << "byte " << at;
    }
  }
}

TEST(RecordLog, RefusesLengthsPastTheLimitsAndValuesOnAKeyOnlyPut) {
  std::vector<uint8_t> bytes;
  EXPECT_EQ(encodeRecord(RecordKind::Put, nullptr, kMaxRecordKeyBytes + 1, nullptr, 0, bytes).code(),
            StatusCode::InvalidArgument);
  const std::string value = "v";
  EXPECT_EQ(encodeRecord(RecordKind::Put, bytesOf(value), 1, bytesOf(value), 1, bytes).code(), StatusCode::InvalidArgument);
  EXPECT_TRUE(bytes.empty());
}

TEST(RecordLog, MemoryLogReadsWhatItAppendedAndCountsReads) {
  MemoryRecordLog log;
  std::vector<uint64_t> offsets;
  for (int i = 0; i < 1000; ++i) {
    const std::string key = "k" + std::to_string(i), value = std::string(i % 50, 'x');
    const uint64_t announced = log.offsetForAppend(recordSize(key.size(), value.size()));
    Result<uint64_t> offset = log.append(RecordKind::PutWithValue, bytesOf(key), key.size(), bytesOf(value), value.size());
    ASSERT_TRUE(offset.isOk());
    EXPECT_EQ(offset.value(), announced);
    offsets.push_back(offset.value());
  }
  for (int i = 0; i < 1000; ++i) {
    RecordView record;
    ASSERT_TRUE(log.read(offsets[i], record).isOk());
    EXPECT_EQ(textOf(record.key, record.keyLength), "k" + std::to_string(i));
    EXPECT_EQ(record.valueLength, static_cast<uint32_t>(i % 50));
  }
  EXPECT_EQ(log.readCount(), 1000u);
  RecordView record;
  EXPECT_EQ(log.read(log.nextOffset(), record).code(), StatusCode::Corrupt);
}
