// Index snapshots (index_snapshot.h): the table round-trips through the byte
// format, and a snapshot that is damaged, cut short or made for another index
// is refused — never half trusted.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cuckoo_bloom/exact_index/cuckoo_index.h"
#include "cuckoo_bloom/exact_index/index_snapshot.h"
#include "cuckoo_bloom/exact_index/memory_record_log.h"
#include "support/index_test_support.h"
#include "support/test_keys.h"

using namespace cuckoo_bloom;
using cuckoo_bloom_test::bytesOf;
using cuckoo_bloom_test::indexOfCapacity;
using cuckoo_bloom_test::removePresentKeys;
using cuckoo_bloom_test::setPresentKeys;

namespace {

std::vector<uint8_t> snapshotBytes(CuckooIndex& index, uint64_t logLength, uint64_t logChecksum) {
  SerializedParts parts = indexSnapshotParts(index, logLength, logChecksum).value();
  std::vector<uint8_t> bytes = parts.head;
  bytes.insert(bytes.end(), parts.payload, parts.payload + parts.payloadLength);
  for (int i = 0; i < 8; ++i) bytes.push_back(static_cast<uint8_t>(parts.checksum >> (8 * i)));
  return bytes;
}

// 3000 keys set, every third deleted, then i % 5 == 1 set again with a value.
void fill(CuckooIndex& index) {
  ASSERT_TRUE(setPresentKeys(index, 0, 3000));
  ASSERT_TRUE(removePresentKeys(index, 0, 3000, 3));
  for (uint64_t i = 1; i < 3000; i += 5) {
    const std::string key = cuckoo_bloom_test::presentKey(i), value = "v" + std::to_string(i);
    ASSERT_TRUE(index.set(bytesOf(key), key.size(), bytesOf(value), value.size(), true).isOk());
  }
}

}  // namespace

TEST(IndexSnapshot, ATableReadBackAnswersExactlyAsTheOneWritten) {
  MemoryRecordLog log(12);
  CuckooIndexOptions options;
  options.seed = 99;
  CuckooIndex index = CuckooIndex::create(log, options).value();
  fill(index);
  const std::vector<uint8_t> bytes = snapshotBytes(index, log.nextOffset(), 1234);
  Result<IndexSnapshot> decoded = decodeIndexSnapshot(bytes.data(), bytes.size());
  ASSERT_TRUE(decoded.isOk()) << decoded.status().message();
  EXPECT_EQ(decoded.value().params.logLength, log.nextOffset());
  EXPECT_EQ(decoded.value().params.logChecksum, 1234u);
  CuckooIndex reopened = CuckooIndex::create(log, options).value();
  ASSERT_TRUE(reopened.adoptSnapshot(std::move(decoded).value()).isOk());
  EXPECT_EQ(reopened.size(), index.size());
  EXPECT_EQ(reopened.deadRecords(), index.deadRecords());
  ASSERT_EQ(reopened.slotCount(), index.slotCount());
  for (uint64_t s = 0; s < index.slotCount(); ++s) ASSERT_EQ(reopened.table().slot(s).word, index.table().slot(s).word);
  for (uint64_t i = 0; i < 3200; ++i) {
    const std::string key = cuckoo_bloom_test::presentKey(i);
    ASSERT_EQ(reopened.contains(bytesOf(key), key.size()).value(), i < 3000 && (i % 3 != 0 || i % 5 == 1)) << key;
  }
  // And it goes on working: a new key, a doubling.
  for (uint64_t i = 3000; i < 20000; ++i) {
    const std::string key = cuckoo_bloom_test::presentKey(i);
    ASSERT_TRUE(reopened.set(bytesOf(key), key.size(), nullptr, 0, false).value());
  }
  EXPECT_GT(reopened.rebuilds(), 0u);
}

TEST(IndexSnapshot, EveryFlippedByteAndEveryCutIsRefused) {
  MemoryRecordLog log;
  CuckooIndex index = indexOfCapacity(log, 40);
  ASSERT_TRUE(setPresentKeys(index, 0, 30));
  const std::vector<uint8_t> bytes = snapshotBytes(index, log.nextOffset(), 7);
  ASSERT_TRUE(decodeIndexSnapshot(bytes.data(), bytes.size()).isOk());
  for (size_t at = 0; at < bytes.size(); ++at) {
    std::vector<uint8_t> damaged = bytes;
    damaged[at] ^= 0x10;
    EXPECT_FALSE(decodeIndexSnapshot(damaged.data(), damaged.size()).isOk()) << "byte " << at;
  }
  for (size_t length = 0; length < bytes.size(); ++length) {
    EXPECT_FALSE(decodeIndexSnapshot(bytes.data(), length).isOk()) << "cut at " << length;
  }
}

TEST(IndexSnapshot, SlotsPointingPastTheCoveredLogAreCorrupt) {
  // A snapshot that claims to cover less log than its slots point into was not
  // written by this library: refused even with a valid checksum.
  MemoryRecordLog log;
  CuckooIndex index = CuckooIndex::create(log, {}).value();
  ASSERT_TRUE(setPresentKeys(index, 0, 100));
  const std::vector<uint8_t> bytes = snapshotBytes(index, log.nextOffset() / 2, 0);
  EXPECT_EQ(decodeIndexSnapshot(bytes.data(), bytes.size()).status().code(), StatusCode::Corrupt);
}

TEST(IndexSnapshot, ASnapshotOfAnotherSeedOrTagWidthIsNotAdopted) {
  MemoryRecordLog log;
  CuckooIndexOptions options;
  options.seed = 1;
  CuckooIndex index = CuckooIndex::create(log, options).value();
  fill(index);
  const std::vector<uint8_t> bytes = snapshotBytes(index, log.nextOffset(), 0);
  CuckooIndexOptions otherSeed = options, otherTags = options;
  otherSeed.seed = 2;
  otherTags.tagBits = 12;
  for (const CuckooIndexOptions& other : {otherSeed, otherTags}) {
    CuckooIndex reopened = CuckooIndex::create(log, other).value();
    EXPECT_EQ(reopened.adoptSnapshot(decodeIndexSnapshot(bytes.data(), bytes.size()).value()).code(),
              StatusCode::InvalidArgument);
    EXPECT_EQ(reopened.size(), 0u);
  }
  // A filter reader does not take it for a filter.
  EXPECT_EQ(decodeBlobOfType(bytes.data(), bytes.size(), FilterType::Bloom).status().code(), StatusCode::WrongType);
}

TEST(IndexSnapshot, ASnapshotOfTheOldSlotLayoutIsRefusedNotMisread) {
  // Before slot layout 2 a slot kept a 16-bit tag and the offset from bit 18.
  // Read with today's layout such a snapshot's offsets would point at wrong
  // records (false negatives), so its layout byte (0) must refuse it, even
  // with a valid checksum; the index is then rebuilt from the log.
  MemoryRecordLog log;
  CuckooIndex index = CuckooIndex::create(log, {}).value();
  ASSERT_TRUE(setPresentKeys(index, 0, 100));
  std::vector<uint8_t> bytes = snapshotBytes(index, log.nextOffset(), 0);
  const size_t headLength = indexSnapshotParts(index, log.nextOffset(), 0).value().head.size();
  const size_t layoutAt = headLength - 40 + 33;  // the params block ends the head; slotLayout is its byte 33
  ASSERT_EQ(bytes[layoutAt], kIndexSnapshotSlotLayout);
  ASSERT_TRUE(decodeIndexSnapshot(bytes.data(), bytes.size()).isOk());
  bytes[layoutAt] = 0;
  const uint64_t checksum = formatChecksum(bytes.data(), bytes.size() - 8);
  for (int i = 0; i < 8; ++i) bytes[bytes.size() - 8 + i] = static_cast<uint8_t>(checksum >> (8 * i));
  EXPECT_EQ(decodeIndexSnapshot(bytes.data(), bytes.size()).status().code(), StatusCode::UnsupportedVersion);
}
