// The one byte format shared by every filter type (docs/FORMAT.md, byte by byte).
//
//   offset  size  field
//   0       4     magic "CBWF"
//   4       2     format version (1)
//   6       1     filter type (FilterType)
//   7       1     hash algorithm (HashAlgorithm)
//   8       4     flags (reserved, must be 0)
//   12      4     parameter block length P
//   16      8     seed
//   24      8     item count
//   32      8     nominal capacity (what the filter was sized for)
//   40      8     target false-positive rate (IEEE-754 binary64)
//   48      8     payload length L
//   56      P     parameters (type-specific, little-endian)
//   56+P    L     payload (type-specific, little-endian)
//   56+P+L  8     checksum: XXH3-64 (seed 0) of every byte before it
//
// All integers are little-endian and fixed-width. Decoding trusts nothing: it
// checks sizes against the byte length before reading, and never allocates
// more than the input's own length.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "cuckoo_bloom/hashing.h"
#include "cuckoo_bloom/status.h"

namespace cuckoo_bloom {

constexpr uint8_t kFormatMagic[4] = {'C', 'B', 'W', 'F'};
constexpr uint16_t kFormatVersion = 1;
constexpr size_t kHeaderBytes = 56;
constexpr size_t kChecksumBytes = 8;

// Type ids are stable forever. 0x01-0x0F are single-part filters; 0x10 and
// above are reserved for composite filters (growth, URL blocklists), whose
// payload is a sequence of nested, complete blobs in this same format.
enum class FilterType : uint8_t {
  Bloom = 1,
  BlockedBloom = 2,
  CountingBloom = 3,
  Cuckoo = 4,
  UrlBlocklist = 16,  // composite: one nested filter of URL expressions
};

const char* filterTypeName(FilterType type);
bool isKnownFilterType(uint8_t value);
// Types 1..15: a filter whose payload is its own table (not a composite).
bool isSinglePartFilterType(uint8_t value);

// The common fields every filter stores.
struct FilterHeader {
  FilterType type = FilterType::Bloom;
  HashAlgorithm hashAlgorithm = HashAlgorithm::Xxh3_64;
  uint64_t seed = 0;
  uint64_t itemCount = 0;
  uint64_t capacity = 0;
  double targetFalsePositiveRate = 0.0;
};

// Appends little-endian fixed-width values; used for parameter blocks.
class ByteWriter {
 public:
  void u8(uint8_t value) { bytes_.push_back(value); }
  void u16(uint16_t value) { writeLittleEndian(value, 2); }
  void u32(uint32_t value) { writeLittleEndian(value, 4); }
  void u64(uint64_t value) { writeLittleEndian(value, 8); }
  void f64(double value);
  void raw(const uint8_t* data, size_t length) { bytes_.insert(bytes_.end(), data, data + length); }
  std::vector<uint8_t>& bytes() { return bytes_; }

 private:
  void writeLittleEndian(uint64_t value, int byteCount) {
    for (int i = 0; i < byteCount; ++i) bytes_.push_back(static_cast<uint8_t>(value >> (8 * i)));
  }
  std::vector<uint8_t> bytes_;
};

// Reads little-endian values from a bounded range; every read is checked.
class ByteReader {
 public:
  ByteReader(const uint8_t* data, size_t length) : data_(data), length_(length) {}
  bool u8(uint8_t& out);
  bool u16(uint16_t& out);
  bool u32(uint32_t& out);
  bool u64(uint64_t& out);
  bool f64(double& out);
  size_t remaining() const { return length_ - offset_; }

 private:
  bool readLittleEndian(uint64_t& out, size_t byteCount);
  const uint8_t* data_;
  size_t length_;
  size_t offset_ = 0;
};

// Word arrays <-> little-endian payload bytes (8 bytes per word).
std::vector<uint8_t> wordsToBytes(const uint64_t* words, size_t wordCount);
void bytesToWords(const uint8_t* bytes, size_t wordCount, uint64_t* words);

// A decoded blob: the header plus views into the caller's bytes.
struct DecodedBlob {
  FilterHeader header;
  const uint8_t* params = nullptr;
  size_t paramsLength = 0;
  const uint8_t* payload = nullptr;
  size_t payloadLength = 0;
};

// Builds a complete blob: header, params, payload, checksum.
std::vector<uint8_t> encodeBlob(const FilterHeader& header, const std::vector<uint8_t>& params,
                                const std::vector<uint8_t>& payload);

// Validates everything that is common to all types (magic, version, checksum,
// known type and hash algorithm, reserved flags, lengths, capacity and rate).
// Type-specific checks are the filter's own deserialize().
Result<DecodedBlob> decodeBlob(const uint8_t* data, size_t length);

// Decodes and additionally requires the given type (WrongType otherwise).
Result<DecodedBlob> decodeBlobOfType(const uint8_t* data, size_t length, FilterType expected);

// XXH3-64 (seed 0), the format's checksum.
uint64_t formatChecksum(const uint8_t* data, size_t length);

}  // namespace cuckoo_bloom
