// The record log behind a CuckooIndex: one record per change, appended, never
// rewritten in place (compaction writes a new log).
//
// Two record layouts (little-endian). Format 1 (the in-memory log, and log
// files of version 1):
//
//   offset  size  field
//   0       4     keyLength   u32
//   4       4     valueLength u32
//   8       1     kind        1 = put without a value, 2 = put with a value, 3 = delete
//   9       K     key bytes
//   9+K     V     value bytes (V = 0 unless kind 2)
//   9+K+V   8     checksum    u64 = XXH3-64 of bytes [0, 9+K+V) with seed kRecordChecksumSeed
//
// Format 2 (log files of version 2) adds a check of the header itself:
//
//   0       4     keyLength   u32
//   4       4     valueLength u32
//   8       1     kind
//   9       4     headerCheck u32 = low 32 bits of XXH3-64 of bytes [0, 9) with seed kRecordHeaderSeed
//   13      K     key bytes
//   13+K    V     value bytes
//   13+K+V  8     checksum    u64 = XXH3-64 of bytes [0, 13+K+V) with seed kRecordChecksumSeed
//
// Why a length and a checksum on every record: a crash (kill -9, power loss)
// can leave the last record half written. The lengths say where a record
// should end; the checksum says whether every byte up to there is the one the
// writer meant. Why a check of the header in format 2: in format 1 a flipped
// bit in a length makes a committed record "run past the end of the file",
// which a reader cannot tell from a record whose write never finished. With
// the header checked, a record whose header is intact and runs past the end is
// an unfinished write (a damaged header fails its check: it is damage, never
// a torn tail). An all-zero header is never valid (kind 0 is no kind), so
// space a file system allocated but never wrote is never read as a record.
//
// Format 3 (log files of version 3) is format 2's layout with chained checks:
// both the header check and the checksum are seeded with the 8 bytes just
// before the record in the file (the previous record's checksum, or for the
// first record the file header's version and random log id):
//
//   headerCheck = low 32 bits of XXH3-64(bytes [0, 9), seed kRecordHeaderSeed ^ chain)
//   checksum    = XXH3-64(bytes [0, 13+K+V), seed kRecordChecksumSeed ^ chain)
//   chain       = u64 (little-endian) of the 8 bytes before the record
//
// Why chained: with per-record checks, a record cut out on record boundaries,
// a valid record of another log spliced in, or two records swapped all leave
// a sequence of whole records, which replay applies silently (the cut keys
// answer absent). Chained, the record after any such edit fails its header
// check, so the edit is damage (CORRUPT at its offset), never a torn tail;
// and a record of another log never passes, because every chain starts from
// that log's own id. The chain is read from the file, not kept, so any record
// can be checked alone (a lookup reads 8 bytes more) and repair can find the
// next whole record after damage and re-chain the records it keeps.
// Format 3 also has a fourth kind, Close, with no key or value: the marker a
// clean close appends, so the record before it is known to be committed; and
// a fifth, SnapshotMark, whose "key" is the kSnapshotMarkBytes digest of a
// table being saved as a snapshot (SHA-256 of its slot words, then the u64
// live count), appended just before the snapshot is written: a snapshot
// covering the log's first n bytes is loaded only when the record at n is a
// mark of exactly its table, so a snapshot forged or damaged alone (a slot
// dropped, its own checksum recomputed) is never trusted. Replay skips both.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "cuckoo_bloom/core/status.h"

namespace cuckoo_bloom {

enum class RecordKind : uint8_t {
  Put = 1,           // a key (exact set: no value)
  PutWithValue = 2,  // a key and its value (possibly empty)
  Delete = 3,        // the key is gone from here on
  Close = 4,         // format 3 only: the log was closed cleanly here (no key, no value)
  SnapshotMark = 5,  // format 3 only: a snapshot of the table is being saved (key = its digest, no value)
};

// The bytes a SnapshotMark record carries (as its key): the 32-byte SHA-256
// of the table's slot words (little-endian u64 each), then the u64 live count.
constexpr uint32_t kSnapshotMarkBytes = 40;

// The record layout of a log (above). The in-memory log uses format 1: it
// never has torn tails, and its 4 bytes a record fewer add up at 10M keys.
enum class RecordFormat : uint8_t {
  V1 = 1,  // header without its own check
  V2 = 2,  // header with a 32-bit check (log files of version 2)
  V3 = 3,  // format 2's layout, checks chained to the 8 bytes before the record (log files of version 3)
};

// Format 1's sizes (the in-memory log's).
constexpr size_t kRecordHeaderBytes = 9;
constexpr size_t kRecordChecksumBytes = 8;
constexpr size_t kRecordOverheadBytes = kRecordHeaderBytes + kRecordChecksumBytes;
// Format 2 adds the header check after the kind.
constexpr size_t kRecordHeaderCheckBytes = 4;
inline size_t recordHeaderBytes(RecordFormat format) {
  return format == RecordFormat::V1 ? kRecordHeaderBytes : kRecordHeaderBytes + kRecordHeaderCheckBytes;
}
inline size_t recordOverheadBytes(RecordFormat format) { return recordHeaderBytes(format) + kRecordChecksumBytes; }
// Keys and values are bounded so a record's length always fits in u32 arithmetic
// with its overhead, and a garbled length cannot ask for gigabytes.
constexpr uint32_t kMaxRecordKeyBytes = 1u << 20;     // 1 MiB
constexpr uint32_t kMaxRecordValueBytes = 1u << 30;   // 1 GiB
constexpr uint64_t kRecordChecksumSeed = 0x43425749445831ull;  // "CBWIDX1"
constexpr uint64_t kRecordHeaderSeed = 0x43425749484452ull;    // "CBWIHDR"

// A decoded record: views into bytes the store owns, valid until the store's
// next call (read or append).
struct RecordView {
  RecordKind kind = RecordKind::Put;
  const uint8_t* key = nullptr;
  uint32_t keyLength = 0;
  const uint8_t* value = nullptr;
  uint32_t valueLength = 0;
  bool hasValue() const { return kind == RecordKind::PutWithValue; }
};

// Bytes one record of these lengths takes.
inline uint64_t recordSize(uint32_t keyLength, uint32_t valueLength, RecordFormat format = RecordFormat::V1) {
  return recordOverheadBytes(format) + uint64_t{keyLength} + valueLength;
}
// Format 2's header check of the 9 bytes of lengths and kind at `header`
// (format 3: `chain` is the u64 of the 8 bytes before the record; 0 in format 2).
uint32_t recordHeaderCheck(const uint8_t* header, uint64_t chain = 0);
// Format 3's chain value: the u64 (little-endian) of the 8 bytes at `preceding`.
uint64_t recordChainAt(const uint8_t* preceding);
// The record format numbered `format` (1, 2 or 3; anything else reads as 1).
RecordFormat recordFormatOf(int format);

// InvalidArgument for lengths past the limits, or value bytes on a record that has none.
Status checkRecordLengths(RecordKind kind, uint32_t keyLength, uint32_t valueLength);
// Writes the record (lengths already checked) into `out`, which has recordSize(..., format) bytes.
void writeRecord(RecordKind kind, const uint8_t* key, uint32_t keyLength, const uint8_t* value, uint32_t valueLength,
                 uint8_t* out, RecordFormat format = RecordFormat::V1, uint64_t chain = 0);
// Appends the encoded record to `out`. InvalidArgument for lengths past the limits.
Status encodeRecord(RecordKind kind, const uint8_t* key, uint32_t keyLength, const uint8_t* value,
                    uint32_t valueLength, std::vector<uint8_t>& out, RecordFormat format = RecordFormat::V1,
                    uint64_t chain = 0);
// Format 3: rewrites the header check and checksum of the record at `record`
// (`size` bytes, whole) for the chain `chain` (repair re-chains the records it
// keeps after damage it moved aside). The record's content is unchanged.
void rechainRecord(uint8_t* record, size_t size, uint64_t chain);

// What is at the start of `bytes`, for a reader scanning a log.
enum class RecordScan : uint8_t {
  Whole,       // a complete record with a valid checksum; `size` is its length
  Incomplete,  // the bytes end before the record its header announces (or inside the header)
  Garbled,     // a header that passes (format 2: its check; format 1: it is plausible) but a checksum mismatch
  BadHeader,   // a header no writer makes: format 2, its check fails; format 1, an unknown kind or a length past the limits
};
struct RecordScanResult {
  RecordScan scan = RecordScan::Incomplete;
  // Whole: the record's length; Garbled/Incomplete: the length its header
  // claims (0 when the bytes end inside the header); BadHeader: 0.
  uint64_t size = 0;
  RecordView record;
};
// Format 3: `chain` is the u64 of the 8 bytes before `bytes` in the log (recordChainAt).
RecordScanResult scanRecord(const uint8_t* bytes, size_t length, RecordFormat format = RecordFormat::V1,
                            uint64_t chain = 0);
// The lengths and kind in the header at `bytes` (kRecordHeaderBytes readable),
// unchecked: for a store reading back records it wrote itself (format 1).
RecordView recordHeaderAt(const uint8_t* bytes);

// Where records live. Offsets are the store's own (a byte position in its log);
// an index keeps them and never looks inside them.
class RecordStore {
 public:
  virtual ~RecordStore() = default;
  // The end of the log: one past its last record's last byte.
  virtual uint64_t nextOffset() const = 0;
  // The offset the next append of a record of `recordBytes` bytes will return
  // (an index places a key before the record is written, so a failed placement
  // leaves the log untouched). A store that writes records back to back
  // returns nextOffset(); the in-memory log may start a new segment instead
  // (memory_record_log.h).
  virtual uint64_t offsetForAppend(uint64_t recordBytes) const {
    (void)recordBytes;
    return nextOffset();
  }
  // Appends one record; returns its offset. On failure nothing was appended.
  virtual Result<uint64_t> append(RecordKind kind, const uint8_t* key, uint32_t keyLength, const uint8_t* value,
                                  uint32_t valueLength) = 0;
  // Reads the record at `offset` (an offset append returned). Counted in readCount().
  virtual Status read(uint64_t offset, RecordView& out) = 0;
  // Records read so far: a lookup of an absent key whose tag matches nothing reads none.
  uint64_t readCount() const { return readCount_; }
  void resetReadCount() { readCount_ = 0; }

 protected:
  uint64_t readCount_ = 0;
};

}  // namespace cuckoo_bloom
