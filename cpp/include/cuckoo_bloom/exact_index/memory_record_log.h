// The in-memory record log: records in fixed-size segments, never one buffer.
//
// Why segments: a log grown as one contiguous buffer (realloc by doubling)
// needs the old and the new buffer at once while it grows, and in wasm32's
// 2 GiB the new one must also be one contiguous range above everything still
// allocated. 10M URL records are ~770 MB; growing a full 512 MiB log to 1 GiB
// needed 1.5 GiB live at once plus the table, in an address space already
// holed by the freed earlier generations (256 + 128 + ... MiB), and failed at
// 6.97M keys (docs/EXACT-INDEX.md). Segments are allocated one at a time and never
// moved, so growth costs one segment, and nothing is ever copied twice.
//
// Offsets: offset = segmentIndex * segmentBytes + position in the segment,
// with segmentBytes = 2^segmentShift, so a read is a shift, a mask and one
// load from the directory (the `has` path stays one indirection longer than
// a flat buffer, no more). A record never spans a segment boundary: one that
// does not fit in the rest of the current segment starts the next one (the
// rest stays unused: at most one record's bytes per segment). A record longer
// than a segment (a big value) gets a segment of its own size, which takes
// up as many directory entries as it covers, so offsets stay the formula
// above and the record after it starts on the next free entry.
//
// Offsets therefore have gaps at segment ends and are not positions in a
// file; they are only ever handed back to read(). recordBytes() gives the
// records back to back: exactly what a file store holds after its header.
// Records are trusted once written (the memory is the process's own), so
// reads do not re-check the checksum.
//
// The first segment grows by doubling (4 KiB up to a segment), so a small
// index costs little; later segments are allocated whole. Memory comes from
// malloc/realloc, not std::vector: the wasm build has no exceptions, and a
// failed allocation must be OUT_OF_MEMORY with the log unchanged, not an
// abort. An optional memory limit (setMemoryLimit) makes that testable.
//
// Compaction happens in place (compactInPlace): the live records slide down
// into the memory the log already holds, and the segments left over at the
// end are freed. It allocates nothing, so it needs no memory beyond the log
// and cannot fail; a copy into a second log needs both logs at once (at 10M
// URL keys it took wasm memory to 2,017 of wasm32's 2,048 MiB: docs/EXACT-INDEX.md).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "cuckoo_bloom/core/status.h"
#include "cuckoo_bloom/exact_index/index_table.h"
#include "cuckoo_bloom/exact_index/record_store.h"

namespace cuckoo_bloom {

// What MemoryRecordLog::compactInPlace asks its owner (the index) about each
// record, in log order: whether it is live, and, when a live record moved,
// where it is now (so the one slot that points at it can follow it).
class RecordRelocator {
 public:
  virtual ~RecordRelocator() = default;
  // Whether the record at `offset` is still the live record of its key. Not
  // asked about delete records (never live). `record` views the log's bytes,
  // valid during the call.
  virtual bool isLive(uint64_t offset, const RecordView& record) = 0;
  // The record isLive() last answered true for now starts at `offset`, which
  // is lower than before (called only when it moved).
  virtual void relocated(uint64_t offset) = 0;
};

class MemoryRecordLog final : public RecordStore {
 public:
  // 16 MiB: 2 GiB of wasm memory is 128 segments; the unused end of a
  // segment (< one record) and the growth step (one segment) are both small
  // against the log, and the directory is a few hundred bytes.
  static constexpr uint32_t kDefaultSegmentShift = 24;
  static constexpr uint32_t kMinSegmentShift = 6;   // tests use tiny segments to cross many boundaries
  static constexpr uint32_t kMaxSegmentShift = 30;

  // `segmentShift` in kMinSegmentShift..kMaxSegmentShift (clamped).
  explicit MemoryRecordLog(uint32_t segmentShift = kDefaultSegmentShift);
  ~MemoryRecordLog() override;
  MemoryRecordLog(const MemoryRecordLog&) = delete;
  MemoryRecordLog& operator=(const MemoryRecordLog&) = delete;

  uint64_t nextOffset() const override;
  uint64_t offsetForAppend(uint64_t recordBytes) const override;
  Result<uint64_t> append(RecordKind kind, const uint8_t* key, uint32_t keyLength, const uint8_t* value,
                          uint32_t valueLength) override;
  Status read(uint64_t offset, RecordView& out) override;

  // Walking the log in order: the offset of the first record at or after
  // `offset` (an offset of a record, or of the end of one), skipping the
  // unused end of a segment; nextOffset() when no record follows.
  uint64_t recordStartFrom(uint64_t offset) const;
  // The bytes from `offset` to the end of the records in its segment (for a
  // scanner); null with `available` 0 when `offset` is not inside a segment's records.
  const uint8_t* bytesAt(uint64_t offset, size_t& available) const;
  // Every record, back to back, in log order (tests; what a log file holds).
  std::vector<uint8_t> recordBytes() const;

  // Drops every record `relocator` does not call live and moves the live ones
  // down, keeping their order, then frees the segments no longer needed.
  // Allocates nothing, so it cannot fail (memory_record_log.cpp says how).
  // A live record's offset never increases; the relocator hears of each
  // move before the next record is looked at.
  void compactInPlace(RecordRelocator& relocator);

  // Bytes of records (without the unused ends of segments).
  size_t byteLength() const { return static_cast<size_t>(recordByteCount_); }
  // Bytes of memory the segments hold.
  size_t allocatedBytes() const { return static_cast<size_t>(allocatedByteCount_); }
  uint64_t segmentBytes() const { return uint64_t{1} << segmentShift_; }
  // Directory entries in use (an oversized record's segment counts once per entry it covers).
  uint64_t segmentCount() const { return segmentCount_; }
  // Allocations that would take allocatedBytes() past `bytes` fail with
  // OUT_OF_MEMORY as a real allocation failure would (tests provoke it).
  void setMemoryLimit(uint64_t bytes) { memoryLimit_ = bytes; }

 private:
  struct Segment {
    uint8_t* bytes = nullptr;  // null: an entry covered by an earlier oversized segment
    uint64_t length = 0;       // bytes of records written
    uint64_t capacity = 0;     // bytes allocated
    uint64_t limit = 0;        // most bytes it may hold: segmentBytes(), or its one oversized record
  };

  bool withinLimit(uint64_t moreBytes) const;
  // Makes room for `bytes` more in the current segment (limit already checked).
  Status growCurrent(uint64_t bytes);
  // Opens a new current segment for a record of `recordBytes`.
  Status openSegment(uint64_t recordBytes);
  // Compaction: the directory entries a segment of `limit` bytes covers.
  uint64_t entriesCovering(uint64_t limit) const;
  // Compaction: the segment the next live record of `recordBytes` moves into
  // when the current write segment has no room (see compactInPlace).
  uint64_t takeWriteSegment(uint64_t recordBytes, uint64_t outputEnd, uint64_t readSegment);
  void freeSegment(uint64_t index);

  uint32_t segmentShift_;
  uint64_t positionMask_;
  Segment* segments_ = nullptr;  // the directory
  uint64_t segmentCount_ = 0;
  uint64_t directoryCapacity_ = 0;
  uint64_t current_ = 0;  // the segment appends go to (valid when segmentCount_ > 0)
  uint64_t recordByteCount_ = 0;
  uint64_t allocatedByteCount_ = 0;
  uint64_t memoryLimit_ = UINT64_MAX;
};

}  // namespace cuckoo_bloom
