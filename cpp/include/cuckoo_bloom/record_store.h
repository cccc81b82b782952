// The record log behind a CuckooIndex: one record per change, appended, never
// rewritten in place (compaction writes a new log).
//
// Record layout (little-endian), the same in memory and in a file:
//
//   offset  size  field
//   0       4     keyLength   u32
//   4       4     valueLength u32
//   8       1     kind        1 = put without a value, 2 = put with a value, 3 = delete
//   9       K     key bytes
//   9+K     V     value bytes (V = 0 unless kind 2)
//   9+K+V   8     checksum    u64 = XXH3-64 of bytes [0, 9+K+V) with seed kRecordChecksumSeed
//
// Why a length and a checksum on every record: a crash (kill -9, power loss)
// can leave the last record half written. The lengths say where a record
// should end; the checksum says whether every byte up to there is the one the
// writer meant. A reader keeps the longest prefix of whole, valid records, so
// it loses at most the one record that was being written (docs/INDEX.md).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "cuckoo_bloom/status.h"

namespace cuckoo_bloom {

enum class RecordKind : uint8_t {
  Put = 1,           // a key (exact set: no value)
  PutWithValue = 2,  // a key and its value (possibly empty)
  Delete = 3,        // the key is gone from here on
};

constexpr size_t kRecordHeaderBytes = 9;
constexpr size_t kRecordChecksumBytes = 8;
constexpr size_t kRecordOverheadBytes = kRecordHeaderBytes + kRecordChecksumBytes;
// Keys and values are bounded so a record's length always fits in u32 arithmetic
// with its overhead, and a garbled length cannot ask for gigabytes.
constexpr uint32_t kMaxRecordKeyBytes = 1u << 20;     // 1 MiB
constexpr uint32_t kMaxRecordValueBytes = 1u << 30;   // 1 GiB
constexpr uint64_t kRecordChecksumSeed = 0x43425749445831ull;  // "CBWIDX1"

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
inline uint64_t recordSize(uint32_t keyLength, uint32_t valueLength) {
  return kRecordOverheadBytes + uint64_t{keyLength} + valueLength;
}

// InvalidArgument for lengths past the limits, or value bytes on a record that has none.
Status checkRecordLengths(RecordKind kind, uint32_t keyLength, uint32_t valueLength);
// Writes the record (lengths already checked) into `out`, which has recordSize() bytes.
void writeRecord(RecordKind kind, const uint8_t* key, uint32_t keyLength, const uint8_t* value, uint32_t valueLength,
                 uint8_t* out);
// Appends the encoded record to `out`. InvalidArgument for lengths past the limits.
Status encodeRecord(RecordKind kind, const uint8_t* key, uint32_t keyLength, const uint8_t* value,
                    uint32_t valueLength, std::vector<uint8_t>& out);

// What is at the start of `bytes`, for a reader scanning a log.
enum class RecordScan : uint8_t {
  Whole,       // a complete record with a valid checksum; `size` is its length
  Incomplete,  // the bytes end before the record its header announces (or inside the header)
  Garbled,     // a header no writer makes, or a checksum mismatch
};
struct RecordScanResult {
  RecordScan scan = RecordScan::Incomplete;
  uint64_t size = 0;  // Whole: the record's length; Garbled/Incomplete: the length its header claims (0 if unreadable)
  RecordView record;
};
RecordScanResult scanRecord(const uint8_t* bytes, size_t length);
// The lengths and kind in the header at `bytes` (kRecordHeaderBytes readable),
// unchecked: for a store reading back records it wrote itself.
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
