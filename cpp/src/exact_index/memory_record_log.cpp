#include "cuckoo_bloom/exact_index/memory_record_log.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string>

namespace cuckoo_bloom {
namespace {

// The first segment starts this small and doubles, so an index of a few keys
// holds a few KiB, not a whole segment.
constexpr uint64_t kFirstSegmentBytes = 4096;

}  // namespace

MemoryRecordLog::MemoryRecordLog(uint32_t segmentShift)
    : segmentShift_(std::min(kMaxSegmentShift, std::max(kMinSegmentShift, segmentShift))),
      positionMask_((uint64_t{1} << segmentShift_) - 1) {}

MemoryRecordLog::~MemoryRecordLog() {
  for (uint64_t i = 0; i < segmentCount_; ++i) std::free(segments_[i].bytes);
  std::free(segments_);
}

uint64_t MemoryRecordLog::nextOffset() const {
  if (segmentCount_ == 0) return 0;
  return (current_ << segmentShift_) + segments_[current_].length;
}

uint64_t MemoryRecordLog::offsetForAppend(uint64_t recordBytes) const {
  if (segmentCount_ == 0) return 0;
  const Segment& segment = segments_[current_];
  if (recordBytes <= segment.limit - segment.length) return (current_ << segmentShift_) + segment.length;
  return segmentCount_ << segmentShift_;  // the next segment's first byte
}

bool MemoryRecordLog::withinLimit(uint64_t moreBytes) const {
  return moreBytes <= memoryLimit_ && allocatedByteCount_ <= memoryLimit_ - moreBytes;
}

Status MemoryRecordLog::growCurrent(uint64_t bytes) {
  Segment& segment = segments_[current_];
  const uint64_t needed = segment.length + bytes;
  if (needed <= segment.capacity) return Status::ok();
  // Doubling keeps appends amortized O(1); only the first segment ever grows
  // (later ones are allocated whole), and never past a segment, so a growth
  // copies at most one segment. realloc keeps the old bytes on failure.
  uint64_t capacity = std::max(segment.capacity, kFirstSegmentBytes);
  while (capacity < needed) capacity *= 2;
  capacity = std::min(capacity, segment.limit);
  if (!withinLimit(capacity - segment.capacity)) {
    return Status::outOfMemory("the in-memory record log is at its memory limit; the log is unchanged");
  }
  auto* grown = static_cast<uint8_t*>(std::realloc(segment.bytes, static_cast<size_t>(capacity)));
  if (grown == nullptr) {
    return Status::outOfMemory("out of memory growing a segment of the in-memory record log to " +
                               std::to_string(capacity) + " bytes; the log is unchanged");
  }
  allocatedByteCount_ += capacity - segment.capacity;
  segment.bytes = grown;
  segment.capacity = capacity;
  return Status::ok();
}

Status MemoryRecordLog::openSegment(uint64_t recordBytes) {
  const uint64_t segmentBytes = this->segmentBytes();
  // A record longer than a segment covers as many directory entries as it needs.
  const uint64_t span = recordBytes <= segmentBytes ? 1 : (recordBytes + segmentBytes - 1) >> segmentShift_;
  const uint64_t first = segmentCount_;
  // Offsets past a slot's 46 bits (index_table.h) could never be indexed.
  if (first + span > ((kMaxIndexOffset + 1) >> segmentShift_)) {
    return Status::full("the in-memory record log is past the 64 TiB an index can address");
  }
  if (first + span > directoryCapacity_) {
    const uint64_t entries = std::max<uint64_t>({16, directoryCapacity_ * 2, first + span});
    auto* grown = static_cast<Segment*>(std::realloc(segments_, static_cast<size_t>(entries) * sizeof(Segment)));
    if (grown == nullptr) return Status::outOfMemory("out of memory growing the in-memory record log's directory");
    segments_ = grown;
    directoryCapacity_ = entries;
  }
  const uint64_t limit = span == 1 ? segmentBytes : recordBytes;
  // Only the very first segment starts small; once the log has filled one
  // segment, the next is needed whole anyway.
  uint64_t capacity = limit;
  if (first == 0 && span == 1) {
    capacity = kFirstSegmentBytes;
    while (capacity < recordBytes) capacity *= 2;
    capacity = std::min(capacity, limit);
  }
  if (!withinLimit(capacity)) {
    return Status::outOfMemory("the in-memory record log is at its memory limit; the log is unchanged");
  }
  auto* bytes = static_cast<uint8_t*>(std::malloc(static_cast<size_t>(capacity)));
  if (bytes == nullptr) {
    return Status::outOfMemory("out of memory allocating a segment of " + std::to_string(capacity) +
                               " bytes for the in-memory record log; the log is unchanged");
  }
  segments_[first] = Segment{bytes, 0, capacity, limit};
  for (uint64_t i = 1; i < span; ++i) segments_[first + i] = Segment{};
  segmentCount_ = first + span;
  current_ = first;
  allocatedByteCount_ += capacity;
  return Status::ok();
}

Result<uint64_t> MemoryRecordLog::append(RecordKind kind, const uint8_t* key, uint32_t keyLength,
                                         const uint8_t* value, uint32_t valueLength) {
  Status valid = checkRecordLengths(kind, keyLength, valueLength);
  if (!valid.isOk()) return valid;
  const uint64_t size = recordSize(keyLength, valueLength);
  const bool fits = segmentCount_ != 0 && size <= segments_[current_].limit - segments_[current_].length;
  Status room = fits ? growCurrent(size) : openSegment(size);
  if (!room.isOk()) return room;
  Segment& segment = segments_[current_];
  writeRecord(kind, key, keyLength, value, valueLength, segment.bytes + segment.length);
  const uint64_t offset = (current_ << segmentShift_) + segment.length;
  segment.length += size;
  recordByteCount_ += size;
  return offset;
}

Status MemoryRecordLog::read(uint64_t offset, RecordView& out) {
  ++readCount_;
  const uint64_t index = offset >> segmentShift_;
  const uint64_t position = offset & positionMask_;
  if (index >= segmentCount_ || segments_[index].bytes == nullptr ||
      position + kRecordHeaderBytes > segments_[index].length) {
    return Status::corrupt("no record at offset " + std::to_string(offset));
  }
  const Segment& segment = segments_[index];
  out = recordHeaderAt(segment.bytes + position);
  if (position + recordSize(out.keyLength, out.valueLength) > segment.length) {
    return Status::corrupt("the record at offset " + std::to_string(offset) + " runs past the end of its segment");
  }
  return Status::ok();
}

uint64_t MemoryRecordLog::recordStartFrom(uint64_t offset) const {
  uint64_t index = offset >> segmentShift_;
  uint64_t position = offset & positionMask_;
  // An oversized record's end lies in an entry it covers: that entry holds nothing.
  while (index < segmentCount_) {
    const Segment& segment = segments_[index];
    if (segment.bytes != nullptr && position < segment.length) return (index << segmentShift_) + position;
    ++index;
    position = 0;
  }
  return nextOffset();
}

const uint8_t* MemoryRecordLog::bytesAt(uint64_t offset, size_t& available) const {
  const uint64_t index = offset >> segmentShift_;
  const uint64_t position = offset & positionMask_;
  available = 0;
  if (index >= segmentCount_ || segments_[index].bytes == nullptr || position >= segments_[index].length) {
    return nullptr;
  }
  available = static_cast<size_t>(segments_[index].length - position);
  return segments_[index].bytes + position;
}

// In-place compaction.
//
// Two cursors walk the log: a read cursor over every record in log order, and
// a write cursor where the next live record goes. The directory is split in
// three: entries [0, outputEnd) are the compacted log; entries between
// outputEnd and the read segment are "spares", segments read to the end
// whose records were all moved or dropped; the read segment and everything
// after it are not read yet. A live record moves (memmove) to the write
// cursor; a dead one is stepped over. Either way nothing allocates: the write
// cursor only ever writes into memory the log already holds.
//
// Why the write position never passes the read position, so no unread byte
// is ever overwritten: the write segment is either a spare (its bytes were all
// read) or the read segment itself, entered at position 0 <= the read
// position and then advanced by the sizes of records that the read cursor has
// already passed. A record that does not fit in the rest of the write segment
// (records never span segments) goes to the next spare with room, or else to
// the read segment, where it always fits: at position 0 it ends no later than
// it ends now. Within one segment source and destination may overlap;
// memmove copies correctly then.
//
// A record longer than a segment sits alone in a segment of its own size that
// covers several directory entries (openSegment). Its bytes are never copied:
// a dead one's segment is freed at once; a live one's directory entries are
// rotated down to the end of the compacted log (std::rotate of the directory,
// which moves the spares in between up behind it), so its offset drops and the
// records after it still follow it in order. Nothing else is written into an
// oversized segment, so a record never starts past segmentBytes() of its entry.
//
// The directory can end up with empty entries inside the compacted log, when
// a record needed the read segment while the only spares were freed oversized
// segments (or a first segment too small for it). Empty entries are what
// entries covered by an oversized segment already are: read() refuses them,
// and walking the log (recordStartFrom, bytesAt, recordBytes) skips them.
//
// No slot of the index reads a record during compaction (the relocator
// decides liveness by offset, index side), but every live record's slot is
// moved with it before the next record is looked at, so at every step each
// live slot points at its record's bytes.
void MemoryRecordLog::compactInPlace(RecordRelocator& relocator) {
  const uint64_t segmentBytes = this->segmentBytes();
  uint64_t outputEnd = 0;      // directory entries [0, outputEnd) hold the compacted log
  uint64_t lastOutput = 0;     // the compacted log's last segment (where appends resume)
  uint64_t writeSegment = 0;   // with `writing`: the segment live records move into...
  uint64_t writePosition = 0;  // ...and where in it
  bool writing = false;        // false: the next live record needs a segment of its own
  uint64_t liveBytes = 0;
  for (uint64_t readSegment = 0; readSegment < segmentCount_; ++readSegment) {
    if (segments_[readSegment].bytes == nullptr) continue;  // covered by an oversized segment, or freed
    if (segments_[readSegment].limit > segmentBytes) {
      // An oversized segment: exactly one record, at its position 0.
      const uint64_t span = entriesCovering(segments_[readSegment].limit);
      const uint64_t oversizedBytes = segments_[readSegment].length;
      const RecordView record = recordHeaderAt(segments_[readSegment].bytes);
      const bool live = record.kind != RecordKind::Delete && relocator.isLive(readSegment << segmentShift_, record);
      if (!live) {
        freeSegment(readSegment);  // its entries stay empty
      } else {
        if (outputEnd < readSegment) {
          std::rotate(segments_ + outputEnd, segments_ + readSegment, segments_ + readSegment + span);
          relocator.relocated(outputEnd << segmentShift_);
        }
        lastOutput = outputEnd;
        outputEnd += span;
        writing = false;  // it takes no other record
        liveBytes += oversizedBytes;
      }
      readSegment += span - 1;
      continue;
    }
    const uint64_t length = segments_[readSegment].length;
    for (uint64_t position = 0; position < length;) {
      const uint8_t* source = segments_[readSegment].bytes + position;
      const RecordView record = recordHeaderAt(source);
      const uint64_t size = recordSize(record.keyLength, record.valueLength);
      const uint64_t offset = (readSegment << segmentShift_) + position;
      position += size;
      if (record.kind == RecordKind::Delete || !relocator.isLive(offset, record)) continue;
      if (!writing || writePosition + size > segments_[writeSegment].capacity) {
        writeSegment = takeWriteSegment(size, outputEnd, readSegment);
        writePosition = 0;
        writing = true;
        lastOutput = writeSegment;
        outputEnd = writeSegment + 1;
      }
      const uint64_t destination = (writeSegment << segmentShift_) + writePosition;
      if (destination != offset) {
        std::memmove(segments_[writeSegment].bytes + writePosition, source, static_cast<size_t>(size));
        relocator.relocated(destination);
      }
      writePosition += size;
      liveBytes += size;
      // A spare's old length means nothing now; the read segment keeps its
      // length until it is read to the end (its unread records lie past the
      // write position, up to that length).
      if (writeSegment != readSegment) segments_[writeSegment].length = writePosition;
    }
    // Read to the end: it holds what was written into it, or becomes a spare.
    segments_[readSegment].length = writing && writeSegment == readSegment ? writePosition : 0;
  }
  // What lies past the compacted log is spares and emptied entries: free it.
  for (uint64_t i = outputEnd; i < segmentCount_; ++i) freeSegment(i);
  segmentCount_ = outputEnd;
  current_ = lastOutput;
  recordByteCount_ = liveBytes;
}

uint64_t MemoryRecordLog::entriesCovering(uint64_t limit) const {
  return limit <= segmentBytes() ? 1 : (limit + segmentBytes() - 1) >> segmentShift_;
}

uint64_t MemoryRecordLog::takeWriteSegment(uint64_t recordBytes, uint64_t outputEnd, uint64_t readSegment) {
  // Spares are the entries in [outputEnd, readSegment) still holding memory.
  // The first with room becomes the next entry of the compacted log (swapped
  // to outputEnd, so the compacted log has no gap). A spare too small for
  // this record (only a first segment that never grew to full size) is freed:
  // keeping it for a smaller record later is not worth the bookkeeping.
  for (uint64_t i = outputEnd; i < readSegment; ++i) {
    if (segments_[i].bytes == nullptr) continue;
    if (segments_[i].capacity >= recordBytes) {
      std::swap(segments_[outputEnd], segments_[i]);
      return outputEnd;
    }
    freeSegment(i);
  }
  // No spare: the read segment itself (the record fits at its start).
  return readSegment;
}

void MemoryRecordLog::freeSegment(uint64_t index) {
  Segment& segment = segments_[index];
  if (segment.bytes == nullptr) return;
  const uint64_t span = entriesCovering(segment.limit);
  allocatedByteCount_ -= segment.capacity;
  std::free(segment.bytes);
  for (uint64_t i = 0; i < span && index + i < segmentCount_; ++i) segments_[index + i] = Segment{};
}

std::vector<uint8_t> MemoryRecordLog::recordBytes() const {
  std::vector<uint8_t> out;
  out.reserve(static_cast<size_t>(recordByteCount_));
  for (uint64_t i = 0; i < segmentCount_; ++i) {
    if (segments_[i].bytes != nullptr) out.insert(out.end(), segments_[i].bytes, segments_[i].bytes + segments_[i].length);
  }
  return out;
}

}  // namespace cuckoo_bloom
