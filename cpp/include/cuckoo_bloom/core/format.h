// The one byte format shared by every filter type (docs/FORMAT.md, byte by byte).
//
//   offset  size  field
//   0       4     magic "CBWF"
//   4       2     format version (2; version 1 is still read)
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
#include <type_traits>
#include <vector>

#include "cuckoo_bloom/core/hashing.h"
#include "cuckoo_bloom/core/word_buffer.h"
#include "cuckoo_bloom/core/status.h"
#include "cuckoo_bloom/registry/filter_types.h"

namespace cuckoo_bloom {

constexpr uint8_t kFormatMagic[4] = {'C', 'B', 'W', 'F'};
// The version this build writes, and the oldest it reads. Version 2 changed
// only the cuckoo parameter block (bucket addressing and slot layout, see
// cuckoo_filter.h); every other type's bytes are the same in both.
constexpr uint16_t kFormatVersion = 2;
constexpr uint16_t kOldestReadableFormatVersion = 1;
constexpr size_t kHeaderBytes = 56;
constexpr size_t kChecksumBytes = 8;

// Type ids are stable forever. 0x01-0x0F are single-part filters; 0x10-0x1F
// are composite filters (URL blocklists 16, growing chains 17 and 18),
// whose payload is a sequence of nested, complete blobs in this same format;
// 0x20 and above are not filters (index snapshots 32).
enum class FilterType : uint8_t {
#define CUCKOO_BLOOM_FILTER_TYPE_ENUMERATOR(name, id, text, Class) name = id,
  CUCKOO_BLOOM_FILTER_TYPES(CUCKOO_BLOOM_FILTER_TYPE_ENUMERATOR)
#undef CUCKOO_BLOOM_FILTER_TYPE_ENUMERATOR
  UrlBlocklist = 16,  // composite: one nested filter of URL expressions
  // Not a filter: the slot table of a CuckooIndex and the log prefix it
  // describes (index_snapshot.h). Ids 32 and above are structures beside the
  // filters, so no filter reader ever takes one for a filter.
  CuckooIndexSnapshot = 32,
};

const char* filterTypeName(FilterType type);
bool isKnownFilterType(uint8_t value);
// Types 1..15: a filter whose payload is its own table (not a composite).
bool isSinglePartFilterType(uint8_t value);
// Any type of filter_types.h: single-part, or a composite that is a filter of
// its own (a growing chain); not the URL blocklist envelope.
bool isRegisteredFilterType(uint8_t value);

// The type whose name is `name` ("bloom", "cuckoo", ...); false when none is.
bool filterTypeFromName(const char* name, FilterType& out);

// The state every filter keeps in the header, named once: filters hold one of
// these, and the codec writes and reads it whole.
struct FilterHeader {
  FilterType type = FilterType::Bloom;
  HashAlgorithm hashAlgorithm = HashAlgorithm::Xxh3_64;
  uint64_t seed = 0;
  uint64_t itemCount = 0;
  uint64_t capacity = 0;
  double targetFalsePositiveRate = 0.0;
  // The version the bytes were read in (decodeBlob sets it; writing always
  // uses kFormatVersion). Lets a reader accept an older parameter block.
  uint16_t formatVersion = kFormatVersion;
};

// Appends little-endian fixed-width values; used for parameter blocks.
class ByteWriter {
 public:
  // An unsigned integer at its own width (sizeof(T) bytes), least significant byte first.
  template <typename T>
  void littleEndian(T value) {
    for (size_t i = 0; i < sizeof(T); ++i) bytes_.push_back(static_cast<uint8_t>(static_cast<uint64_t>(value) >> (8 * i)));
  }
  void u8(uint8_t value) { littleEndian(value); }
  void u16(uint16_t value) { littleEndian(value); }
  void u32(uint32_t value) { littleEndian(value); }
  void u64(uint64_t value) { littleEndian(value); }
  void f64(double value);
  void raw(const uint8_t* data, size_t length) { bytes_.insert(bytes_.end(), data, data + length); }
  std::vector<uint8_t>& bytes() { return bytes_; }

 private:
  std::vector<uint8_t> bytes_;
};

// Reads little-endian values from a bounded range; every read is checked.
class ByteReader {
 public:
  ByteReader(const uint8_t* data, size_t length) : data_(data), length_(length) {}
  // An unsigned integer at its own width; false (nothing read) past the end.
  template <typename T>
  bool littleEndian(T& out) {
    uint64_t value = 0;
    if (!readLittleEndian(value, sizeof(T))) return false;
    out = static_cast<T>(value);
    return true;
  }
  bool u8(uint8_t& out) { return littleEndian(out); }
  bool u16(uint16_t& out) { return littleEndian(out); }
  bool u32(uint32_t& out) { return littleEndian(out); }
  bool u64(uint64_t& out) { return littleEndian(out); }
  bool f64(double& out);
  size_t remaining() const { return length_ - offset_; }
  size_t consumed() const { return offset_; }

 private:
  bool readLittleEndian(uint64_t& out, size_t byteCount);
  const uint8_t* data_;
  size_t length_;
  size_t offset_ = 0;
};

// A type's parameter block is described once, as a list of fields:
//
//   struct Params {
//     uint64_t bitCount = 0;
//     uint32_t hashCount = 0;
//     CUCKOO_BLOOM_PARAMS_FIELDS(4, bitCount, hashCount)
//   };
//
// (the fields in wire order, each written at its own width, little-endian,
// then that many reserved zero bytes), and that one description drives
// encoding (ParamsWriter), decoding (ParamsReader: exact length, reserved
// bytes zero) and the size. A field may itself be a block with fields(): its
// fields stand there, in its order (the growing chains' GrowthParams).
#define CUCKOO_BLOOM_PARAMS_FIELDS(reservedBytes, ...) \
  template <typename Fields>                           \
  void fields(Fields& f) {                             \
    f(__VA_ARGS__);                                    \
    f.reserved(reservedBytes);                         \
  }

class ParamsWriter {
 public:
  template <typename... T>
  void operator()(T... values) {
    (write(values), ...);
  }
  void reserved(size_t byteCount) {
    for (size_t i = 0; i < byteCount; ++i) bytes_.u8(0);
  }
  std::vector<uint8_t>& bytes() { return bytes_.bytes(); }

 private:
  template <typename T>
  void write(T value) {
    if constexpr (std::is_integral_v<T>) {
      bytes_.littleEndian(value);
    } else {
      value.fields(*this);
    }
  }
  ByteWriter bytes_;
};

class ParamsReader {
 public:
  ParamsReader(const uint8_t* data, size_t length) : bytes_(data, length) {}
  template <typename... T>
  void operator()(T&... values) {
    (read(values), ...);
  }
  void reserved(size_t byteCount) {
    for (size_t i = 0; i < byteCount; ++i) {
      uint8_t raw = 0;
      if (read(raw) && raw != 0) reservedSet_ = true;
    }
  }
  bool truncated() const { return truncated_; }
  bool reservedSet() const { return reservedSet_; }
  size_t consumed() const { return bytes_.consumed(); }

 private:
  template <typename T>
  bool read(T& value) {
    if constexpr (!std::is_integral_v<T>) {
      value.fields(*this);
      return !truncated_;
    } else {
      if (bytes_.littleEndian(value)) return true;
      truncated_ = true;
      return false;
    }
  }
  ByteReader bytes_;
  bool truncated_ = false;
  bool reservedSet_ = false;
};

template <typename Params>
std::vector<uint8_t> encodeParams(Params params) {
  ParamsWriter writer;
  params.fields(writer);
  return std::move(writer.bytes());
}

template <typename Params>
size_t paramsByteCount() {
  return encodeParams(Params{}).size();
}

// Word arrays <-> little-endian payload bytes (8 bytes per word).
std::vector<uint8_t> wordsToBytes(const uint64_t* words, size_t wordCount);
void bytesToWords(const uint8_t* bytes, size_t wordCount, uint64_t* words);

class BlobBuffer;  // word_buffer.h

// A decoded blob: the header plus views into the caller's bytes.
struct DecodedBlob {
  FilterHeader header;
  const uint8_t* params = nullptr;
  size_t paramsLength = 0;
  const uint8_t* payload = nullptr;
  size_t payloadLength = 0;
  // Set when the bytes live in a BlobBuffer the filter may take over (its payload then becomes the table).
  BlobBuffer* owner = nullptr;
};

// Builds a complete blob: header, params, payload, checksum.
std::vector<uint8_t> encodeBlob(const FilterHeader& header, const std::vector<uint8_t>& params,
                                const std::vector<uint8_t>& payload);
// The same, from a payload the caller holds (no copy of it into a vector first:
// a table read from elsewhere, e.g. Redis, may be most of the memory there is).
std::vector<uint8_t> encodeBlob(const FilterHeader& header, const std::vector<uint8_t>& params,
                                const uint8_t* payload, size_t payloadLength);

// The same blob written in place, for payloads held as 64-bit words (every
// single-part filter): the caller allocates blobByteCount() bytes once, and
// writeBlob() fills them in one pass (header, parameters, the words as
// little-endian bytes, then the checksum over all of it). Serializing then
// needs the output and nothing else: no payload copy, no growing buffer.
size_t blobByteCount(size_t paramsLength, size_t payloadLength);
void writeBlob(const FilterHeader& header, const std::vector<uint8_t>& params, const uint64_t* payloadWords,
               size_t payloadWordCount, uint8_t* out);

// A blob in three parts, for a writer that copies the payload straight from
// the filter's table (the bindings: wasm is little-endian, so the table's
// memory is the payload's bytes, and serializing needs no second copy of a
// table inside wasm memory). The blob is head + payload + checksum (8 bytes,
// little-endian), the checksum computed over head and payload in one pass.
struct SerializedParts {
  std::vector<uint8_t> head;  // header and parameter block
  const uint8_t* payload = nullptr;
  size_t payloadLength = 0;
  uint64_t checksum = 0;
  // The payload when it is not one block of the filter's memory (a chain's
  // links): written for this call into one allocation the parts own.
  WordBuffer ownedPayload;
};
// Head and checksum for a payload already in `parts` (payload, payloadLength:
// the format's bytes, in any memory): the blob is head + payload + checksum.
void completeBlobParts(SerializedParts& parts, const FilterHeader& header, const std::vector<uint8_t>& params);
// For payload words in host memory; on a big-endian host the payload
// pointer is not the format's bytes, so this is little-endian only.
SerializedParts blobParts(const FilterHeader& header, const std::vector<uint8_t>& params, const uint64_t* payloadWords,
                          size_t payloadWordCount);
// For any complete blob (a type without words to expose): head is every byte before the checksum.
SerializedParts blobParts(std::vector<uint8_t> blob);

// Validates everything that is common to all types (magic, version, checksum,
// known type and hash algorithm, reserved flags, lengths, capacity and rate).
// Type-specific checks are the filter's own deserialize().
Result<DecodedBlob> decodeBlob(const uint8_t* data, size_t length);

// Decodes and additionally requires the given type (WrongType otherwise).
Result<DecodedBlob> decodeBlobOfType(const uint8_t* data, size_t length, FilterType expected);

// Reads a decoded blob's parameter block into `params` (see Params above):
// Corrupt unless it is exactly the described length with reserved bytes zero.
template <typename Params>
Status decodeParams(const DecodedBlob& blob, Params& params) {
  const size_t expected = paramsByteCount<Params>();
  if (blob.paramsLength != expected) {
    return Status::corrupt(std::string(filterTypeName(blob.header.type)) + " parameters must be " +
                           std::to_string(expected) + " bytes, got " + std::to_string(blob.paramsLength));
  }
  ParamsReader reader(blob.params, blob.paramsLength);
  params.fields(reader);
  if (reader.reservedSet()) return Status::corrupt("reserved parameter bytes are set");
  return Status::ok();
}

// XXH3-64 (seed 0), the format's checksum.
uint64_t formatChecksum(const uint8_t* data, size_t length);

}  // namespace cuckoo_bloom
