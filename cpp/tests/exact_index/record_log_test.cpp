// The record codec and the in-memory log: what a reader finds at every
// truncation and every flipped byte of a record.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cuckoo_bloom/core/hashing.h"
#include "cuckoo_bloom/exact_index/memory_record_log.h"
#include "cuckoo_bloom/exact_index/record_store.h"
#include "support/index_test_support.h"

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

// ---- Record format 2 (log files of version 2): the header checks itself. ----

namespace {
// Three records of every kind in format 2, back to back.
std::vector<uint8_t> formatTwoRecords() {
  std::vector<uint8_t> bytes;
  const std::string key = "https://example.com/a", value = "the value";
  EXPECT_TRUE(encodeRecord(RecordKind::Put, bytesOf(key), key.size(), nullptr, 0, bytes, RecordFormat::V2).isOk());
  EXPECT_TRUE(encodeRecord(RecordKind::PutWithValue, bytesOf(key), key.size(), bytesOf(value), value.size(), bytes,
                           RecordFormat::V2)
                  .isOk());
  EXPECT_TRUE(encodeRecord(RecordKind::Delete, bytesOf(key), key.size(), nullptr, 0, bytes, RecordFormat::V2).isOk());
  return bytes;
}
}  // namespace

TEST(RecordLogFormat2, EncodesAndScansBackEveryKindWithFourBytesMoreThanFormat1) {
  const std::vector<uint8_t> bytes = formatTwoRecords();
  const std::string key = "https://example.com/a";
  EXPECT_EQ(bytes.size(), 3 * (kRecordOverheadBytes + 4 + key.size()) + 9);
  EXPECT_EQ(recordSize(3, 5, RecordFormat::V2), recordSize(3, 5) + 4);
  size_t at = 0;
  for (const RecordKind kind : {RecordKind::Put, RecordKind::PutWithValue, RecordKind::Delete}) {
    RecordScanResult scanned = scanRecord(bytes.data() + at, bytes.size() - at, RecordFormat::V2);
    ASSERT_EQ(scanned.scan, RecordScan::Whole);
    EXPECT_EQ(scanned.record.kind, kind);
    EXPECT_EQ(textOf(scanned.record.key, scanned.record.keyLength), key);
    at += scanned.size;
  }
  EXPECT_EQ(at, bytes.size());
  // The layouts are not interchangeable: format 2 bytes read as format 1 are not whole.
  EXPECT_NE(scanRecord(bytes.data(), bytes.size(), RecordFormat::V1).scan, RecordScan::Whole);
}

TEST(RecordLogFormat2, TheBytesAreTheDocumentedLayout) {
  std::vector<uint8_t> bytes;
  const std::string key = "ab", value = "xyz";
  ASSERT_TRUE(encodeRecord(RecordKind::PutWithValue, bytesOf(key), 2, bytesOf(value), 3, bytes, RecordFormat::V2).isOk());
  ASSERT_EQ(bytes.size(), 13u + 2 + 3 + 8);
  const std::vector<uint8_t> header(bytes.begin(), bytes.begin() + 9);
  EXPECT_EQ(header, (std::vector<uint8_t>{2, 0, 0, 0, 3, 0, 0, 0, 2}));
  const uint32_t check = bytes[9] | bytes[10] << 8 | bytes[11] << 16 | uint32_t{bytes[12]} << 24;
  EXPECT_EQ(check, static_cast<uint32_t>(XXH3_64bits_withSeed(bytes.data(), 9, kRecordHeaderSeed)));
  EXPECT_EQ(textOf(bytes.data() + 13, 5), "abxyz");
  uint64_t checksum = 0;
  for (int b = 7; b >= 0; --b) checksum = checksum << 8 | bytes[18 + b];
  EXPECT_EQ(checksum, XXH3_64bits_withSeed(bytes.data(), 18, kRecordChecksumSeed));
}

TEST(RecordLogFormat2, EveryFlippedBitOfAHeaderIsABadHeaderWhateverFollows) {
  const std::vector<uint8_t> bytes = formatTwoRecords();
  const size_t second = static_cast<size_t>(scanRecord(bytes.data(), bytes.size(), RecordFormat::V2).size);
  for (const size_t start : {size_t{0}, second}) {
    for (size_t at = start; at < start + 13; ++at) {
      for (int bit = 0; bit < 8; ++bit) {
        std::vector<uint8_t> damaged = bytes;
        damaged[at] ^= static_cast<uint8_t>(1u << bit);
        // Whether the bytes end there or run on: a damaged header is never "incomplete".
        for (const size_t length : {damaged.size(), start + 13, start + 20}) {
          EXPECT_EQ(scanRecord(damaged.data() + start, length - start, RecordFormat::V2).scan, RecordScan::BadHeader)
              << "byte " << at << " bit " << bit << " length " << length;
        }
      }
    }
  }
}

TEST(RecordLogFormat2, AFlippedBodyByteIsGarbledWithItsClaimedSize) {
  const std::vector<uint8_t> bytes = formatTwoRecords();
  const RecordScanResult first = scanRecord(bytes.data(), bytes.size(), RecordFormat::V2);
  for (size_t at = 13; at < first.size; ++at) {
    std::vector<uint8_t> damaged = bytes;
    damaged[at] ^= 0x10;
    const RecordScanResult scanned = scanRecord(damaged.data(), damaged.size(), RecordFormat::V2);
    EXPECT_EQ(scanned.scan, RecordScan::Garbled) << "byte " << at;
    EXPECT_EQ(scanned.size, first.size);
  }
}

TEST(RecordLogFormat2, EveryTruncationIsIncompleteAndPastTheHeaderKnowsItsSize) {
  std::vector<uint8_t> bytes;
  const std::string key = "key", value = "value";
  ASSERT_TRUE(encodeRecord(RecordKind::PutWithValue, bytesOf(key), 3, bytesOf(value), 5, bytes, RecordFormat::V2).isOk());
  for (size_t length = 0; length < bytes.size(); ++length) {
    const RecordScanResult scanned = scanRecord(bytes.data(), length, RecordFormat::V2);
    EXPECT_EQ(scanned.scan, RecordScan::Incomplete) << "cut at " << length;
    EXPECT_EQ(scanned.size, length < 13 ? 0u : bytes.size()) << "cut at " << length;
  }
}

TEST(RecordLogFormat2, AnAllZeroHeaderIsNeverARecord) {
  const std::vector<uint8_t> zeros(64, 0);
  EXPECT_NE(recordHeaderCheck(zeros.data()), 0u);
  EXPECT_EQ(scanRecord(zeros.data(), zeros.size(), RecordFormat::V2).scan, RecordScan::BadHeader);
  EXPECT_EQ(scanRecord(zeros.data(), zeros.size(), RecordFormat::V1).scan, RecordScan::BadHeader);
}

// ---- Record format 3 (log files of version 3): checks chained to the bytes before. ----
namespace {

// A version-3 log image: a 16-byte file header (its last 8 bytes, version and
// log id, chain the first record), then `keys` as puts, then a Close marker.
std::vector<uint8_t> formatThreeLog(uint32_t logId, const std::vector<std::string>& keys) {
  std::vector<uint8_t> bytes(16, 0);
  bytes[8] = 3;
  for (int b = 0; b < 4; ++b) bytes[12 + b] = static_cast<uint8_t>(logId >> (8 * b));
  for (const std::string& key : keys) {
    const uint64_t chain = recordChainAt(bytes.data() + bytes.size() - 8);
    EXPECT_TRUE(encodeRecord(RecordKind::Put, bytesOf(key), key.size(), nullptr, 0, bytes, RecordFormat::V3, chain).isOk());
  }
  const uint64_t chain = recordChainAt(bytes.data() + bytes.size() - 8);
  EXPECT_TRUE(encodeRecord(RecordKind::Close, nullptr, 0, nullptr, 0, bytes, RecordFormat::V3, chain).isOk());
  return bytes;
}

// The offsets where the whole records of a version-3 log image start, up to the first that is not whole.
std::vector<size_t> wholeRecordStarts(const std::vector<uint8_t>& bytes) {
  std::vector<size_t> starts;
  for (size_t at = 16; at < bytes.size();) {
    const RecordScanResult scanned =
        scanRecord(bytes.data() + at, bytes.size() - at, RecordFormat::V3, recordChainAt(bytes.data() + at - 8));
    if (scanned.scan != RecordScan::Whole) break;
    starts.push_back(at);
    at += static_cast<size_t>(scanned.size);
  }
  return starts;
}

}  // namespace

TEST(RecordLogFormat3, AWholeLogScansBackAndEndsWithItsCloseMarker) {
  const std::vector<uint8_t> bytes = formatThreeLog(0x1234567, {"a", "bb", "ccc"});
  const std::vector<size_t> starts = wholeRecordStarts(bytes);
  ASSERT_EQ(starts.size(), 4u);
  EXPECT_EQ(bytes.size() - starts.back(), recordSize(0, 0, RecordFormat::V3));
  EXPECT_EQ(bytes[starts.back() + 8], static_cast<uint8_t>(RecordKind::Close));
  // Formats 1 and 2 have no Close kind.
  const std::vector<uint8_t> marker(bytes.begin() + static_cast<std::ptrdiff_t>(starts.back()), bytes.end());
  EXPECT_EQ(scanRecord(marker.data(), marker.size(), RecordFormat::V2).scan, RecordScan::BadHeader);
}

TEST(RecordLogFormat3, ACutOutMovedOrForeignRecordBreaksTheChainAtTheNextHeader) {
  const std::vector<std::string> keys = {"k0", "key-1", "k2", "key-three", "k4"};
  const std::vector<uint8_t> bytes = formatThreeLog(0xabcdef01, keys);
  const std::vector<size_t> starts = wholeRecordStarts(bytes);
  ASSERT_EQ(starts.size(), keys.size() + 1);
  auto end = [&](size_t i) { return i + 1 < starts.size() ? starts[i + 1] : bytes.size(); };
  auto slice = [&](size_t from, size_t to) { return std::vector<uint8_t>(bytes.begin() + from, bytes.begin() + to); };
  for (size_t i = 0; i + 1 < starts.size(); ++i) {
    // Cut out record i: the record now at its place fails its header check.
    std::vector<uint8_t> cut = slice(0, starts[i]);
    const std::vector<uint8_t> rest = slice(end(i), bytes.size());
    cut.insert(cut.end(), rest.begin(), rest.end());
    EXPECT_EQ(wholeRecordStarts(cut).size(), i) << "cut " << i;
    EXPECT_EQ(scanRecord(cut.data() + starts[i], cut.size() - starts[i], RecordFormat::V3,
                         recordChainAt(cut.data() + starts[i] - 8))
                  .scan,
              RecordScan::BadHeader);
    // Swap records i and i + 1.
    std::vector<uint8_t> swapped = slice(0, starts[i]);
    const std::vector<uint8_t> second = slice(starts[i + 1], end(i + 1)), first = slice(starts[i], end(i));
    swapped.insert(swapped.end(), second.begin(), second.end());
    swapped.insert(swapped.end(), first.begin(), first.end());
    const std::vector<uint8_t> after = slice(end(i + 1), bytes.size());
    swapped.insert(swapped.end(), after.begin(), after.end());
    EXPECT_EQ(wholeRecordStarts(swapped).size(), i) << "swap " << i;
  }
  // A whole record of another log (same key, same place) is not whole here.
  const std::vector<uint8_t> other = formatThreeLog(0xabcdef02, keys);
  std::vector<uint8_t> spliced = slice(0, starts[2]);
  spliced.insert(spliced.end(), other.begin() + static_cast<std::ptrdiff_t>(starts[2]), other.end());
  EXPECT_EQ(other.size(), bytes.size());
  EXPECT_EQ(wholeRecordStarts(spliced).size(), 2u);
}

TEST(RecordLogFormat3, RechainingMakesRecordsFollowNewBytes) {
  const std::vector<uint8_t> bytes = formatThreeLog(7, {"one", "two", "three"});
  const std::vector<size_t> starts = wholeRecordStarts(bytes);
  // Drop record 1 and re-chain record 2 to follow record 0: whole again, same key.
  std::vector<uint8_t> kept(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(starts[1]));
  kept.insert(kept.end(), bytes.begin() + static_cast<std::ptrdiff_t>(starts[2]),
              bytes.begin() + static_cast<std::ptrdiff_t>(starts[3]));
  const size_t size = starts[3] - starts[2];
  rechainRecord(kept.data() + starts[1], size, recordChainAt(kept.data() + starts[1] - 8));
  const RecordScanResult scanned =
      scanRecord(kept.data() + starts[1], size, RecordFormat::V3, recordChainAt(kept.data() + starts[1] - 8));
  ASSERT_EQ(scanned.scan, RecordScan::Whole);
  EXPECT_EQ(textOf(scanned.record.key, scanned.record.keyLength), "three");
}
