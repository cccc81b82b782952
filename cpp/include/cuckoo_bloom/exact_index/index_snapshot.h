// A snapshot of a CuckooIndex's slot table in the package's byte format
// (format.h, type 32 CuckooIndexSnapshot; docs/FORMAT.md), so a file index
// opens by loading its table instead of replaying the whole log.
//
// The table alone answers nothing: its slots point into a log. So the
// snapshot names the log it describes: its first `logLength` bytes and their
// XXH3-64 (seed 0). A reader trusts the snapshot only when the log it has
// still starts with exactly those bytes; then it replays just the records
// after them. Anything else — a snapshot older than a compaction, a log cut
// below `logLength`, a changed byte in the snapshot or the log prefix — means
// "rebuild from the log", which is always correct. The snapshot is a cache,
// never the record of truth.
//
//   header  seed = the index's hash seed; item count = live keys;
//           capacity = slots; target rate = the chance that an absent key's
//           lookup reads a record, 8 / (2^tagBits - 1) capped at 1/2 (docs/EXACT-INDEX.md)
//   params  bucketCount u64, logLength u64, logChecksum u64, deadRecords u64,
//           tagBits u8, slotLayout u8, 6 reserved bytes (0)         = 40 bytes
//   payload bucketCount * 4 slot words, u64 each (index_table.h's layout)
//
// slotLayout says where a slot word keeps its tag and offset: 2 for today's
// (tag in bits 2-25, offset in 26-63). Snapshots written before it existed
// have 0 there (tag in bits 2-17, offset in 18-63); read with today's layout
// their offsets would point at wrong records, so a reader refuses any layout
// but its own (UNSUPPORTED_VERSION) and the index is rebuilt from the log.
#pragma once

#include <cstddef>
#include <cstdint>

#include "cuckoo_bloom/core/format.h"
#include "cuckoo_bloom/core/status.h"
#include "cuckoo_bloom/exact_index/index_table.h"

namespace cuckoo_bloom {

class CuckooIndex;

// The slot layout this build writes and reads (index_table.h).
constexpr uint8_t kIndexSnapshotSlotLayout = 2;

struct IndexSnapshotParams {
  uint64_t bucketCount = 0;
  uint64_t logLength = 0;
  uint64_t logChecksum = 0;
  uint64_t deadRecords = 0;
  uint8_t tagBits = 0;
  uint8_t slotLayout = 0;
  CUCKOO_BLOOM_PARAMS_FIELDS(6, bucketCount, logLength, logChecksum, deadRecords, tagBits, slotLayout)
};

// A decoded snapshot: every slot checked against the parameters.
struct IndexSnapshot {
  uint64_t seed = 0;
  uint64_t liveCount = 0;
  IndexSnapshotParams params;
  IndexTable table;
};

// The snapshot's bytes in three parts (format.h's SerializedParts; the
// payload points into the index's own table: nothing is copied). A snapshot
// holds one table: a table still draining after a doubling is moved first
// (CuckooIndex::finishGrowth, which reads those keys back), and its error,
// if any, is returned with nothing written.
Result<SerializedParts> indexSnapshotParts(CuckooIndex& index, uint64_t logLength, uint64_t logChecksum);

// Decodes and checks a snapshot: the format's checks (magic, version,
// checksum, lengths), then every slot (a known status; an occupied slot's
// tag in 1..2^tagBits-1 and offset below logLength; a free slot all zero
// but its status) and the live count. CORRUPT, WRONG_TYPE,
// UNSUPPORTED_VERSION or OUT_OF_MEMORY otherwise.
Result<IndexSnapshot> decodeIndexSnapshot(const uint8_t* data, size_t length);

// The header's target rate for a tag width (see above).
double indexSnapshotReadRate(uint32_t tagBits);

}  // namespace cuckoo_bloom
