#include <cstring>
#include <string>

#include "cuckoo_bloom/core/hashing.h"
#include "cuckoo_bloom/exact_index/record_store.h"

namespace cuckoo_bloom {
namespace {

void putU32(uint8_t* out, uint32_t value) {
  for (int b = 0; b < 4; ++b) out[b] = static_cast<uint8_t>(value >> (8 * b));
}
void putU64(uint8_t* out, uint64_t value) {
  for (int b = 0; b < 8; ++b) out[b] = static_cast<uint8_t>(value >> (8 * b));
}
uint32_t getU32(const uint8_t* in) {
  uint32_t value = 0;
  for (int b = 3; b >= 0; --b) value = (value << 8) | in[b];
  return value;
}
uint64_t getU64(const uint8_t* in) {
  uint64_t value = 0;
  for (int b = 7; b >= 0; --b) value = (value << 8) | in[b];
  return value;
}

// Close and snapshot marks exist only in format 3: an older reader of a format 1 or 2 log never meets one.
bool isKnownKind(uint8_t kind, RecordFormat format) {
  return kind >= 1 && kind <= (format == RecordFormat::V3 ? 5 : 3);
}

}  // namespace

Status checkRecordLengths(RecordKind kind, uint32_t keyLength, uint32_t valueLength) {
  if (keyLength > kMaxRecordKeyBytes) {
    return Status::invalidArgument("a key of " + std::to_string(keyLength) + " bytes is longer than the index's limit of " +
                                   std::to_string(kMaxRecordKeyBytes));
  }
  if (valueLength > kMaxRecordValueBytes) {
    return Status::invalidArgument("a value of " + std::to_string(valueLength) +
                                   " bytes is longer than the index's limit of " + std::to_string(kMaxRecordValueBytes));
  }
  if (kind != RecordKind::PutWithValue && valueLength != 0) {
    return Status::invalidArgument("only a put with a value carries value bytes");
  }
  return Status::ok();
}

uint32_t recordHeaderCheck(const uint8_t* header, uint64_t chain) {
  return static_cast<uint32_t>(XXH3_64bits_withSeed(header, kRecordHeaderBytes, kRecordHeaderSeed ^ chain));
}

uint64_t recordChainAt(const uint8_t* preceding) { return getU64(preceding); }

RecordFormat recordFormatOf(int format) {
  return format == 3 ? RecordFormat::V3 : format == 2 ? RecordFormat::V2 : RecordFormat::V1;
}

void rechainRecord(uint8_t* record, size_t size, uint64_t chain) {
  putU32(record + kRecordHeaderBytes, recordHeaderCheck(record, chain));
  const size_t body = size - kRecordChecksumBytes;
  putU64(record + body, XXH3_64bits_withSeed(record, body, kRecordChecksumSeed ^ chain));
}

void writeRecord(RecordKind kind, const uint8_t* key, uint32_t keyLength, const uint8_t* value, uint32_t valueLength,
                 uint8_t* out, RecordFormat format, uint64_t chain) {
  // Formats 1 and 2 have no chain: their seeds are the constants alone.
  if (format != RecordFormat::V3) chain = 0;
  putU32(out, keyLength);
  putU32(out + 4, valueLength);
  out[8] = static_cast<uint8_t>(kind);
  if (format != RecordFormat::V1) putU32(out + kRecordHeaderBytes, recordHeaderCheck(out, chain));
  const size_t header = recordHeaderBytes(format);
  if (keyLength != 0) std::memcpy(out + header, key, keyLength);
  if (valueLength != 0) std::memcpy(out + header + keyLength, value, valueLength);
  const size_t body = header + size_t{keyLength} + valueLength;
  putU64(out + body, XXH3_64bits_withSeed(out, body, kRecordChecksumSeed ^ chain));
}

Status encodeRecord(RecordKind kind, const uint8_t* key, uint32_t keyLength, const uint8_t* value,
                    uint32_t valueLength, std::vector<uint8_t>& out, RecordFormat format, uint64_t chain) {
  Status valid = checkRecordLengths(kind, keyLength, valueLength);
  if (!valid.isOk()) return valid;
  const size_t start = out.size();
  out.resize(start + static_cast<size_t>(recordSize(keyLength, valueLength, format)));
  writeRecord(kind, key, keyLength, value, valueLength, out.data() + start, format, chain);
  return Status::ok();
}

RecordScanResult scanRecord(const uint8_t* bytes, size_t length, RecordFormat format, uint64_t chain) {
  RecordScanResult result;
  if (format != RecordFormat::V3) chain = 0;
  const size_t header = recordHeaderBytes(format);
  if (length < header) return result;  // Incomplete, size unknown
  const uint32_t keyLength = getU32(bytes);
  const uint32_t valueLength = getU32(bytes + 4);
  const uint8_t kind = bytes[8];
  // Format 2: the check first, so a damaged header is BadHeader whatever it claims.
  if ((format != RecordFormat::V1 && getU32(bytes + kRecordHeaderBytes) != recordHeaderCheck(bytes, chain)) ||
      !isKnownKind(kind, format) || keyLength > kMaxRecordKeyBytes || valueLength > kMaxRecordValueBytes ||
      (kind != static_cast<uint8_t>(RecordKind::PutWithValue) && valueLength != 0) ||
      (kind == static_cast<uint8_t>(RecordKind::Close) && keyLength != 0) ||
      (kind == static_cast<uint8_t>(RecordKind::SnapshotMark) && keyLength != kSnapshotMarkBytes)) {
    result.scan = RecordScan::BadHeader;
    return result;
  }
  result.size = recordSize(keyLength, valueLength, format);
  if (length < result.size) return result;  // Incomplete
  const size_t body = header + size_t{keyLength} + valueLength;
  if (getU64(bytes + body) != XXH3_64bits_withSeed(bytes, body, kRecordChecksumSeed ^ chain)) {
    result.scan = RecordScan::Garbled;
    return result;
  }
  result.scan = RecordScan::Whole;
  result.record.kind = static_cast<RecordKind>(kind);
  result.record.key = bytes + header;
  result.record.keyLength = keyLength;
  result.record.value = bytes + header + keyLength;
  result.record.valueLength = valueLength;
  return result;
}

RecordView recordHeaderAt(const uint8_t* bytes) {
  RecordView record;
  record.keyLength = getU32(bytes);
  record.valueLength = getU32(bytes + 4);
  record.kind = static_cast<RecordKind>(bytes[8]);
  record.key = bytes + kRecordHeaderBytes;
  record.value = record.key + record.keyLength;
  return record;
}

}  // namespace cuckoo_bloom
