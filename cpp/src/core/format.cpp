#include "cuckoo_bloom/core/format.h"

#include <cstring>

#include "cuckoo_bloom/core/limits.h"

namespace cuckoo_bloom {

const char* filterTypeName(FilterType type) {
  switch (type) {
#define CUCKOO_BLOOM_FILTER_TYPE_NAME(name, id, text, Class) \
  case FilterType::name:                                    \
    return text;
    CUCKOO_BLOOM_FILTER_TYPES(CUCKOO_BLOOM_FILTER_TYPE_NAME)
#undef CUCKOO_BLOOM_FILTER_TYPE_NAME
    case FilterType::UrlBlocklist: return "url-blocklist";
    case FilterType::CuckooIndexSnapshot: return "cuckoo-index-snapshot";
  }
  return "unknown";
}

bool filterTypeFromName(const char* name, FilterType& out) {
  const std::string wanted = name == nullptr ? "" : name;
#define CUCKOO_BLOOM_FILTER_TYPE_MATCH(enumerator, id, text, Class) \
  if (wanted == text) {                                            \
    out = FilterType::enumerator;                                  \
    return true;                                                   \
  }
  CUCKOO_BLOOM_FILTER_TYPES(CUCKOO_BLOOM_FILTER_TYPE_MATCH)
#undef CUCKOO_BLOOM_FILTER_TYPE_MATCH
  return false;
}

bool isRegisteredFilterType(uint8_t value) {
#define CUCKOO_BLOOM_FILTER_TYPE_ID(name, id, text, Class) value == id ||
  return CUCKOO_BLOOM_FILTER_TYPES(CUCKOO_BLOOM_FILTER_TYPE_ID) false;
#undef CUCKOO_BLOOM_FILTER_TYPE_ID
}
bool isSinglePartFilterType(uint8_t value) { return value < 16 && isRegisteredFilterType(value); }
bool isKnownFilterType(uint8_t value) {
  return isRegisteredFilterType(value) || value == static_cast<uint8_t>(FilterType::UrlBlocklist) ||
         value == static_cast<uint8_t>(FilterType::CuckooIndexSnapshot);
}

void ByteWriter::f64(double value) {
  uint64_t bits;
  static_assert(sizeof(bits) == sizeof(value), "binary64 expected");
  std::memcpy(&bits, &value, sizeof(bits));
  u64(bits);
}


bool ByteReader::readLittleEndian(uint64_t& out, size_t byteCount) {
  if (remaining() < byteCount) return false;
  out = 0;
  for (size_t i = 0; i < byteCount; ++i) out |= static_cast<uint64_t>(data_[offset_ + i]) << (8 * i);
  offset_ += byteCount;
  return true;
}
bool ByteReader::f64(double& out) {
  uint64_t bits;
  if (!readLittleEndian(bits, 8)) return false;
  std::memcpy(&out, &bits, sizeof(out));
  return true;
}

std::vector<uint8_t> wordsToBytes(const uint64_t* words, size_t wordCount) {
  std::vector<uint8_t> bytes(wordCount * 8);
  for (size_t w = 0; w < wordCount; ++w) {
    for (int i = 0; i < 8; ++i) bytes[w * 8 + i] = static_cast<uint8_t>(words[w] >> (8 * i));
  }
  return bytes;
}

void bytesToWords(const uint8_t* bytes, size_t wordCount, uint64_t* words) {
  for (size_t w = 0; w < wordCount; ++w) {
    uint64_t value = 0;
    for (int i = 0; i < 8; ++i) value |= static_cast<uint64_t>(bytes[w * 8 + i]) << (8 * i);
    words[w] = value;
  }
}

uint64_t formatChecksum(const uint8_t* data, size_t length) { return XXH3_64bits(data, length); }

namespace {

// Little-endian stores into memory the caller sized (blobByteCount).
class PlacedWriter {
 public:
  explicit PlacedWriter(uint8_t* at) : at_(at) {}
  void u8(uint8_t value) { *at_++ = value; }
  void u16(uint16_t value) { put(value, 2); }
  void u32(uint32_t value) { put(value, 4); }
  void u64(uint64_t value) { put(value, 8); }
  void f64(double value) {
    uint64_t bits;
    std::memcpy(&bits, &value, sizeof(bits));
    put(bits, 8);
  }
  void raw(const uint8_t* data, size_t length) {
    if (length != 0) std::memcpy(at_, data, length);
    at_ += length;
  }
  void words(const uint64_t* words, size_t count) {
    for (size_t w = 0; w < count; ++w) put(words[w], 8);
  }
  uint8_t* position() const { return at_; }

 private:
  void put(uint64_t value, int byteCount) {
    for (int i = 0; i < byteCount; ++i) *at_++ = static_cast<uint8_t>(value >> (8 * i));
  }
  uint8_t* at_;
};

void writeHeader(PlacedWriter& writer, const FilterHeader& header, size_t paramsLength, size_t payloadLength) {
  writer.raw(kFormatMagic, sizeof(kFormatMagic));
  writer.u16(kFormatVersion);
  writer.u8(static_cast<uint8_t>(header.type));
  writer.u8(static_cast<uint8_t>(header.hashAlgorithm));
  writer.u32(0);  // flags
  writer.u32(static_cast<uint32_t>(paramsLength));
  writer.u64(header.seed);
  writer.u64(header.itemCount);
  writer.u64(header.capacity);
  writer.f64(header.targetFalsePositiveRate);
  writer.u64(payloadLength);
}

void writeChecksum(uint8_t* blob, PlacedWriter& writer) {
  const size_t covered = static_cast<size_t>(writer.position() - blob);
  writer.u64(formatChecksum(blob, covered));
}

}  // namespace

size_t blobByteCount(size_t paramsLength, size_t payloadLength) {
  return kHeaderBytes + paramsLength + payloadLength + kChecksumBytes;
}

void writeBlob(const FilterHeader& header, const std::vector<uint8_t>& params, const uint64_t* payloadWords,
               size_t payloadWordCount, uint8_t* out) {
  PlacedWriter writer(out);
  writeHeader(writer, header, params.size(), payloadWordCount * 8);
  writer.raw(params.data(), params.size());
  writer.words(payloadWords, payloadWordCount);
  writeChecksum(out, writer);
}

SerializedParts blobParts(const FilterHeader& header, const std::vector<uint8_t>& params, const uint64_t* payloadWords,
                          size_t payloadWordCount) {
  SerializedParts parts;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  parts.payload = reinterpret_cast<const uint8_t*>(payloadWords);
  parts.payloadLength = payloadWordCount * 8;
  completeBlobParts(parts, header, params);
#else
  // Big-endian hosts: the words' memory is not the format's byte order.
  std::vector<uint8_t> blob = encodeBlob(header, params, wordsToBytes(payloadWords, payloadWordCount));
  return blobParts(std::move(blob));
#endif
  return parts;
}

void completeBlobParts(SerializedParts& parts, const FilterHeader& header, const std::vector<uint8_t>& params) {
  parts.head.resize(kHeaderBytes + params.size());
  PlacedWriter writer(parts.head.data());
  writeHeader(writer, header, params.size(), parts.payloadLength);
  writer.raw(params.data(), params.size());
  XXH3_state_t state;
  XXH3_64bits_reset(&state);
  XXH3_64bits_update(&state, parts.head.data(), parts.head.size());
  XXH3_64bits_update(&state, parts.payload, parts.payloadLength);
  parts.checksum = XXH3_64bits_digest(&state);
}

SerializedParts blobParts(std::vector<uint8_t> blob) {
  SerializedParts parts;
  const size_t covered = blob.size() - kChecksumBytes;
  for (size_t i = 0; i < kChecksumBytes; ++i) parts.checksum |= static_cast<uint64_t>(blob[covered + i]) << (8 * i);
  blob.resize(covered);
  parts.head = std::move(blob);
  return parts;
}

std::vector<uint8_t> encodeBlob(const FilterHeader& header, const std::vector<uint8_t>& params,
                                const std::vector<uint8_t>& payload) {
  return encodeBlob(header, params, payload.data(), payload.size());
}

std::vector<uint8_t> encodeBlob(const FilterHeader& header, const std::vector<uint8_t>& params,
                                const uint8_t* payload, size_t payloadLength) {
  std::vector<uint8_t> bytes(blobByteCount(params.size(), payloadLength));
  PlacedWriter writer(bytes.data());
  writeHeader(writer, header, params.size(), payloadLength);
  writer.raw(params.data(), params.size());
  writer.raw(payload, payloadLength);
  writeChecksum(bytes.data(), writer);
  return bytes;
}

Result<DecodedBlob> decodeBlob(const uint8_t* data, size_t length) {
  if (data == nullptr || length < kHeaderBytes + kChecksumBytes) {
    return Status::corrupt("truncated: " + std::to_string(length) +
                           " bytes is shorter than the smallest filter (" +
                           std::to_string(kHeaderBytes + kChecksumBytes) + " bytes)");
  }
  if (std::memcmp(data, kFormatMagic, sizeof(kFormatMagic)) != 0) {
    return Status::corrupt("not a cuckoo-bloom filter (bad magic bytes)");
  }
  ByteReader reader(data + 4, kHeaderBytes - 4);
  uint16_t version = 0;
  uint8_t type = 0, hashAlgorithm = 0;
  uint32_t flags = 0, paramsLength = 0;
  DecodedBlob blob;
  uint64_t payloadLength = 0;
  reader.u16(version);
  reader.u8(type);
  reader.u8(hashAlgorithm);
  reader.u32(flags);
  reader.u32(paramsLength);
  reader.u64(blob.header.seed);
  reader.u64(blob.header.itemCount);
  reader.u64(blob.header.capacity);
  reader.f64(blob.header.targetFalsePositiveRate);
  reader.u64(payloadLength);

  // The version comes before the checksum: a future version may checksum
  // differently, and deserves "unsupported version" rather than "corrupt".
  if (version < kOldestReadableFormatVersion || version > kFormatVersion) {
    return Status::unsupportedVersion("format version " + std::to_string(version) +
                                      " is not supported (this build reads versions " +
                                      std::to_string(kOldestReadableFormatVersion) + " to " +
                                      std::to_string(kFormatVersion) + ")");
  }
  blob.header.formatVersion = version;
  // Lengths are checked in 64-bit arithmetic that cannot overflow: each part
  // is compared with what is left.
  const uint64_t bodyBytes = static_cast<uint64_t>(length) - kHeaderBytes - kChecksumBytes;
  if (paramsLength > bodyBytes || payloadLength > bodyBytes - paramsLength) {
    return Status::corrupt("truncated: the header announces " + std::to_string(paramsLength) +
                           " parameter bytes and " + std::to_string(payloadLength) +
                           " payload bytes, but only " + std::to_string(bodyBytes) + " follow");
  }
  if (paramsLength + payloadLength != bodyBytes) {
    return Status::corrupt("inconsistent sizes: " + std::to_string(bodyBytes - paramsLength - payloadLength) +
                           " unexpected trailing bytes");
  }
  const uint64_t storedChecksum = [&] {
    ByteReader tail(data + length - kChecksumBytes, kChecksumBytes);
    uint64_t value = 0;
    tail.u64(value);
    return value;
  }();
  if (formatChecksum(data, length - kChecksumBytes) != storedChecksum) {
    return Status::corrupt("checksum mismatch: the bytes were altered or damaged");
  }
  if (!isKnownFilterType(type)) {
    return Status::wrongType("unknown filter type " + std::to_string(type));
  }
  // Which algorithm a type may use is its own fact (readFilter checks it).
  if (hashAlgorithm != static_cast<uint8_t>(HashAlgorithm::Xxh3_64) &&
      hashAlgorithm != static_cast<uint8_t>(HashAlgorithm::Xxh64)) {
    return Status::corrupt("unknown hash algorithm " + std::to_string(hashAlgorithm));
  }
  if (flags != 0) return Status::corrupt("reserved flags are set");
  if (blob.header.capacity == 0 || blob.header.capacity > kMaxCapacity) {
    return Status::corrupt("capacity " + std::to_string(blob.header.capacity) + " is outside 1.." +
                           std::to_string(kMaxCapacity));
  }
  const double rate = blob.header.targetFalsePositiveRate;
  if (!(rate > 0.0 && rate < 1.0)) return Status::corrupt("target false-positive rate outside (0, 1)");

  blob.header.type = static_cast<FilterType>(type);
  blob.header.hashAlgorithm = static_cast<HashAlgorithm>(hashAlgorithm);
  blob.params = data + kHeaderBytes;
  blob.paramsLength = paramsLength;
  blob.payload = blob.params + paramsLength;
  blob.payloadLength = static_cast<size_t>(payloadLength);
  return blob;
}

Result<DecodedBlob> decodeBlobOfType(const uint8_t* data, size_t length, FilterType expected) {
  Result<DecodedBlob> blob = decodeBlob(data, length);
  if (!blob.isOk()) return blob;
  if (blob.value().header.type != expected) {
    return Status::wrongType(std::string("expected a ") + filterTypeName(expected) +
                             " filter, got a " + filterTypeName(blob.value().header.type) +
                             " filter");
  }
  return blob;
}

}  // namespace cuckoo_bloom
