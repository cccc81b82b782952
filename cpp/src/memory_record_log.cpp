#include "cuckoo_bloom/memory_record_log.h"

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

std::vector<uint8_t> MemoryRecordLog::recordBytes() const {
  std::vector<uint8_t> out;
  out.reserve(static_cast<size_t>(recordByteCount_));
  for (uint64_t i = 0; i < segmentCount_; ++i) {
    if (segments_[i].bytes != nullptr) out.insert(out.end(), segments_[i].bytes, segments_[i].bytes + segments_[i].length);
  }
  return out;
}

}  // namespace cuckoo_bloom
