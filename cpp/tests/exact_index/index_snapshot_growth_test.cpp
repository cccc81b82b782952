// Found by an attack on incremental growth (#44): indexSnapshotParts() wrote
// index.table() only while its header counted index.size() keys, which,
// while a doubling's old table still drains, include the keys not moved yet:
// the snapshot never decoded (occupied slots != keys: CORRUPT), and a caller
// trusting the table alone would have lost the draining keys. It now moves
// the rest first (finishGrowth), so a snapshot of a growing index holds every key.
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

TEST(IndexSnapshotGrowth, ASnapshotOfAGrowingIndexHoldsEveryKey) {
  MemoryRecordLog log;
  CuckooIndex index = indexOfCapacity(log, 16);
  uint64_t keys = 0;
  while (!index.growing()) {
    const std::string key = cuckoo_bloom_test::presentKey(keys++);
    ASSERT_TRUE(index.set(bytesOf(key), key.size(), nullptr, 0, false).isOk());
  }
  ASSERT_GT(index.drainingTable().bucketCount(), 0u);
  SerializedParts parts = indexSnapshotParts(index, log.nextOffset(), 1).value();
  std::vector<uint8_t> bytes = parts.head;
  bytes.insert(bytes.end(), parts.payload, parts.payload + parts.payloadLength);
  for (int i = 0; i < 8; ++i) bytes.push_back(static_cast<uint8_t>(parts.checksum >> (8 * i)));
  Result<IndexSnapshot> decoded = decodeIndexSnapshot(bytes.data(), bytes.size());
  ASSERT_TRUE(decoded.isOk()) << decoded.status().message();  // got: "N occupied slots for M keys"
  CuckooIndex reopened = indexOfCapacity(log, 16);
  ASSERT_TRUE(reopened.adoptSnapshot(std::move(decoded).value()).isOk());
  for (uint64_t i = 0; i < keys; ++i) {
    const std::string key = cuckoo_bloom_test::presentKey(i);
    ASSERT_TRUE(reopened.contains(bytesOf(key), key.size()).value()) << key;
  }
}
