#include "cuckoo_bloom/url/expression_set.h"

#include <algorithm>
#include <cstring>
#include <new>
#include <string>

#include "cuckoo_bloom/core/format.h"
#include "cuckoo_bloom/core/hashing.h"

namespace cuckoo_bloom {

namespace {

constexpr uint16_t kExpressionSetFormatVersion = 2;  // type 33 was added in format version 2
constexpr size_t kParamsBytes = 24;
constexpr size_t kPartParamsBytes = 40;  // the 24, then rangeFirst u64, rangeLast u64
constexpr size_t kSplitIndexParamsBytes = 16;  // blocklistChecksum u64, partHashes u32, reserved u32
constexpr size_t kSplitIndexEntryBytes = 16;  // prefix u32, bytes u32, checksum u64
constexpr size_t kIndexEntryBytes = 16;
constexpr uint64_t kAllOnes = ~uint64_t{0};

// 2^-64 exactly: N / 2^64 is the header's rate, the same double on every platform.
constexpr double kTwoToMinus64 = 1.0 / 18446744073709551616.0;

class BitWriter {
 public:
  void bits(uint64_t value, unsigned count) {
    for (unsigned i = 0; i < count; ++i) bit((value >> i) & 1u);
  }
  void ones(uint64_t count) {
    for (uint64_t i = 0; i < count; ++i) bit(1);
  }
  void bit(unsigned value) {
    if ((bitCount_ & 7u) == 0) bytes_.push_back(0);
    bytes_.back() |= static_cast<uint8_t>(value << (bitCount_ & 7u));
    ++bitCount_;
  }
  uint64_t bitCount() const { return bitCount_; }
  const std::vector<uint8_t>& bytes() const { return bytes_; }

 private:
  std::vector<uint8_t> bytes_;
  uint64_t bitCount_ = 0;
};

// The 64 stream bits from `position` on (bits past the stream read as 0; callers check limits).
uint64_t windowAt(const uint8_t* stream, size_t size, uint64_t position) {
  const uint64_t byte = position >> 3;
  const unsigned shift = static_cast<unsigned>(position & 7u);
  uint64_t low = 0;
  for (unsigned i = 0; i < 8 && byte + i < size; ++i) low |= static_cast<uint64_t>(stream[byte + i]) << (8 * i);
  const uint64_t high = byte + 8 < size ? stream[byte + 8] : 0;
  return shift == 0 ? low : (low >> shift) | (high << (64 - shift));
}

unsigned trailingOnes(uint64_t word) {
  if (word == kAllOnes) return 64;
  return static_cast<unsigned>(__builtin_ctzll(~word));
}

Status damaged(const std::string& what) { return Status::corrupt("URL expression set: " + what); }

}  // namespace

uint64_t expressionHash(const uint8_t* data, size_t length, uint64_t seed) {
  return XXH3_64bits_withSeed(data, length, seed);
}

uint8_t expressionSetRiceBits(uint64_t distinctCount, uint64_t rangeWidth) {
  if (distinctCount == 0) return 0;
  const uint64_t meanGap = rangeWidth / distinctCount;
  // Rice's best parameter is about log2(ln 2 x mean gap); 0.6875 = 1/2 + 1/8 + 1/16, in integers so
  // every platform picks the same one.
  const uint64_t scaled = meanGap / 2 + meanGap / 8 + meanGap / 16;
  if (scaled == 0) return 0;
  return static_cast<uint8_t>(63 - __builtin_clzll(scaled));
}

namespace {

// One set's bytes: `hashes` sorted and distinct; a part (isPart) records its range.
std::vector<uint8_t> encodeSorted(const std::vector<uint64_t>& hashes, uint64_t seed, uint64_t blocklistChecksum,
                                  uint8_t blockShift, bool isPart, uint64_t rangeFirst, uint64_t rangeLast) {
  const uint64_t count = hashes.size();
  const uint8_t riceBits = expressionSetRiceBits(count, rangeLast - rangeFirst);
  const uint64_t blockSize = uint64_t{1} << blockShift;
  ByteWriter index;
  BitWriter stream;
  for (uint64_t i = 0; i < count; ++i) {
    if (i % blockSize == 0) {
      index.u64(hashes[i]);
      index.u64(stream.bitCount());
      continue;
    }
    const uint64_t gap = hashes[i] - hashes[i - 1] - 1;
    stream.ones(gap >> riceBits);
    stream.bit(0);
    stream.bits(gap, riceBits);
  }
  ByteWriter out;
  out.raw(kFormatMagic, sizeof(kFormatMagic));
  out.u16(kExpressionSetFormatVersion);
  out.u8(kExpressionSetTypeId);
  out.u8(static_cast<uint8_t>(HashAlgorithm::Xxh3_64));
  out.u32(isPart ? kExpressionSetPartFlag : 0);  // flags
  out.u32(isPart ? kPartParamsBytes : kParamsBytes);
  out.u64(seed);
  out.u64(count);
  out.u64(count);
  out.f64(static_cast<double>(count) * kTwoToMinus64);
  out.u64(index.bytes().size() + stream.bytes().size());
  out.u64(blocklistChecksum);
  out.u64(stream.bitCount());
  out.u8(riceBits);
  out.u8(blockShift);
  for (int i = 0; i < 6; ++i) out.u8(0);
  if (isPart) {
    out.u64(rangeFirst);
    out.u64(rangeLast);
  }
  out.raw(index.bytes().data(), index.bytes().size());
  out.raw(stream.bytes().data(), stream.bytes().size());
  const uint64_t checksum = formatChecksum(out.bytes().data(), out.bytes().size());
  out.u64(checksum);
  return std::move(out.bytes());
}

void sortDistinct(std::vector<uint64_t>& hashes) {
  std::sort(hashes.begin(), hashes.end());
  hashes.erase(std::unique(hashes.begin(), hashes.end()), hashes.end());
}

uint64_t trailingChecksum(const std::vector<uint8_t>& blob) {
  uint64_t checksum = 0;
  ByteReader(blob.data() + blob.size() - kChecksumBytes, kChecksumBytes).u64(checksum);
  return checksum;
}

}  // namespace

std::vector<uint8_t> encodeExpressionSet(std::vector<uint64_t> hashes, uint64_t seed, uint64_t blocklistChecksum,
                                         uint8_t blockShift) {
  sortDistinct(hashes);
  return encodeSorted(hashes, seed, blocklistChecksum, blockShift, false, 0, kAllOnes);
}

std::vector<uint8_t> encodeExpressionSetPart(std::vector<uint64_t> hashes, uint64_t seed, uint64_t blocklistChecksum,
                                             uint64_t rangeFirst, uint64_t rangeLast) {
  sortDistinct(hashes);
  return encodeSorted(hashes, seed, blocklistChecksum, kExpressionSetDefaultBlockShift, true, rangeFirst, rangeLast);
}

ExpressionSetParts encodeExpressionSetParts(std::vector<uint64_t> hashes, uint64_t seed, uint64_t blocklistChecksum,
                                            uint32_t partHashes) {
  sortDistinct(hashes);
  if (partHashes == 0) partHashes = kExpressionSetDefaultPartHashes;
  const size_t count = hashes.size();
  // Each part starts at a 32-bit prefix: after about partHashes hashes, at the
  // prefix of the next hash whose prefix differs from the part's first (two
  // hashes sharing a prefix always land in one part).
  std::vector<uint32_t> prefixes{0};
  std::vector<size_t> starts{0};
  size_t start = 0;
  while (count - start > partHashes) {
    size_t next = start + partHashes;
    while (next < count && (hashes[next] >> 32) == (hashes[start] >> 32)) ++next;
    if (next == count) break;
    const uint64_t boundary = (hashes[next] >> 32) << 32;
    next = static_cast<size_t>(std::lower_bound(hashes.begin() + start, hashes.begin() + next, boundary) - hashes.begin());
    prefixes.push_back(static_cast<uint32_t>(boundary >> 32));
    starts.push_back(next);
    start = next;
  }
  ExpressionSetParts out;
  ByteWriter entries;
  for (size_t part = 0; part < prefixes.size(); ++part) {
    const size_t end = part + 1 < prefixes.size() ? starts[part + 1] : count;
    const uint64_t first = uint64_t{prefixes[part]} << 32;
    const uint64_t last = part + 1 < prefixes.size() ? (uint64_t{prefixes[part + 1]} << 32) - 1 : kAllOnes;
    std::vector<uint64_t> range(hashes.begin() + starts[part], hashes.begin() + end);
    out.parts.push_back(encodeSorted(range, seed, blocklistChecksum, kExpressionSetDefaultBlockShift, true, first, last));
    entries.u32(prefixes[part]);
    entries.u32(static_cast<uint32_t>(out.parts.back().size()));
    entries.u64(trailingChecksum(out.parts.back()));
  }
  ByteWriter index;
  index.raw(kFormatMagic, sizeof(kFormatMagic));
  index.u16(kExpressionSetFormatVersion);
  index.u8(kExpressionSetIndexTypeId);
  index.u8(static_cast<uint8_t>(HashAlgorithm::Xxh3_64));
  index.u32(0);  // flags
  index.u32(kSplitIndexParamsBytes);
  index.u64(seed);
  index.u64(count);
  index.u64(prefixes.size());
  index.f64(static_cast<double>(count) * kTwoToMinus64);
  index.u64(entries.bytes().size());
  index.u64(blocklistChecksum);
  index.u32(partHashes);
  index.u32(0);
  index.raw(entries.bytes().data(), entries.bytes().size());
  const uint64_t checksum = formatChecksum(index.bytes().data(), index.bytes().size());
  index.u64(checksum);
  out.index = std::move(index.bytes());
  return out;
}

template <typename Visit>
Status ExpressionSet::decodeBlock(size_t block, uint64_t& endBit, Visit visit) const {
  const uint64_t blockSize = uint64_t{1} << blockShift_;
  const uint64_t first = static_cast<uint64_t>(block) * blockSize;
  const uint64_t entries = std::min(blockSize, count_ - first);
  const uint64_t limit = block + 1 < blockCount_ ? bitOffsets_[block + 1] : streamBits_;
  const uint64_t maxQuotient = kAllOnes >> riceBits_;
  uint64_t position = bitOffsets_[block];
  uint64_t value = firstValues_[block];
  endBit = position;
  if (!visit(value)) return Status::ok();
  for (uint64_t i = 1; i < entries; ++i) {
    uint64_t quotient = 0;
    for (;;) {
      const unsigned ones = trailingOnes(windowAt(stream_.get(), streamBytes_, position));
      quotient += ones;
      position += ones;
      if (position >= limit || quotient > maxQuotient) return damaged("a Rice code runs past its block");
      if (ones < 64) break;
    }
    ++position;  // the 0 that ends the quotient
    if (limit - position < riceBits_) return damaged("a Rice code runs past its block");
    const uint64_t remainder =
        riceBits_ == 0 ? 0 : windowAt(stream_.get(), streamBytes_, position) & (kAllOnes >> (64 - riceBits_));
    position += riceBits_;
    const uint64_t gap = (quotient << riceBits_) | remainder;
    if (gap >= kAllOnes - value) return damaged("a hash runs past 2^64");
    value += gap + 1;
    endBit = position;
    if (!visit(value)) return Status::ok();
  }
  return Status::ok();
}

namespace {

// The 64-byte header every blob of this file starts with (FORMAT.md), and the
// checks both the sets (type 33) and the split index (type 34) make before
// reading their own parameters: magic, a version this build reads, lengths
// that add up, the checksum, then the type (`expected`, named as `what`) and
// the hash. `damaged` makes a CORRUPT status that names which kind of blob.
struct BlobFields {
  uint16_t version = 0;
  uint8_t type = 0, hashAlgorithm = 0;
  uint32_t flags = 0, paramsLength = 0;
  uint64_t seed = 0, itemCount = 0, capacity = 0, payloadLength = 0;
  double rate = 0;
};

Result<BlobFields> readCheckedBlob(const uint8_t* data, size_t length, uint8_t expected, const char* what,
                                   Status (*damaged)(const std::string&)) {
  if (data == nullptr || length < kHeaderBytes + kChecksumBytes) {
    return damaged("truncated: " + std::to_string(length) + " bytes is shorter than a header and checksum (" +
                   std::to_string(kHeaderBytes + kChecksumBytes) + " bytes)");
  }
  if (std::memcmp(data, kFormatMagic, sizeof(kFormatMagic)) != 0) return damaged("bad magic bytes");
  ByteReader header(data + 4, kHeaderBytes - 4);
  BlobFields f;
  header.u16(f.version);
  header.u8(f.type);
  header.u8(f.hashAlgorithm);
  header.u32(f.flags);
  header.u32(f.paramsLength);
  header.u64(f.seed);
  header.u64(f.itemCount);
  header.u64(f.capacity);
  header.f64(f.rate);
  header.u64(f.payloadLength);
  if (f.version > kFormatVersion) {
    return Status::unsupportedVersion("format version " + std::to_string(f.version) +
                                      " is not supported (this build reads up to " + std::to_string(kFormatVersion) + ")");
  }
  const uint64_t bodyBytes = static_cast<uint64_t>(length) - kHeaderBytes - kChecksumBytes;
  if (f.paramsLength > bodyBytes || f.payloadLength != bodyBytes - f.paramsLength) {
    return damaged("the header announces " + std::to_string(f.paramsLength) + " parameter and " +
                   std::to_string(f.payloadLength) + " payload bytes, but " + std::to_string(bodyBytes) + " follow");
  }
  uint64_t storedChecksum = 0;
  ByteReader(data + length - kChecksumBytes, kChecksumBytes).u64(storedChecksum);
  if (formatChecksum(data, length - kChecksumBytes) != storedChecksum) {
    return damaged("checksum mismatch: the bytes were altered or damaged");
  }
  if (f.type != expected) {
    return Status::wrongType(std::string("expected ") + what + " (type " + std::to_string(expected) + "), got " +
                             (isKnownFilterType(f.type) ? std::string("a ") + filterTypeName(static_cast<FilterType>(f.type))
                                                        : "type " + std::to_string(f.type)));
  }
  if (f.version < kExpressionSetFormatVersion) {
    return damaged("format version " + std::to_string(f.version) + " has no type " + std::to_string(expected));
  }
  if (f.hashAlgorithm != static_cast<uint8_t>(HashAlgorithm::Xxh3_64)) return damaged("unknown hash algorithm");
  return f;
}

}  // namespace

Result<ExpressionSet> ExpressionSet::read(const uint8_t* data, size_t length) {
  const size_t smallest = kHeaderBytes + kParamsBytes + kChecksumBytes;
  Result<BlobFields> read = readCheckedBlob(data, length, kExpressionSetTypeId, "a URL expression set", damaged);
  if (!read.isOk()) return read.status();
  const auto [version, type, hashAlgorithm, flags, paramsLength, seed, itemCount, capacity, payloadLength, rate] = read.value();
  if ((flags & ~kExpressionSetPartFlag) != 0) return damaged("reserved flags are set");
  const bool isPart = flags == kExpressionSetPartFlag;
  const size_t expectedParams = isPart ? kPartParamsBytes : kParamsBytes;
  if (paramsLength != expectedParams || length < smallest + (expectedParams - kParamsBytes)) {
    return damaged(std::string("parameters must be ") + (isPart ? "40 bytes (a part)" : "24 bytes"));
  }
  ExpressionSet set;
  set.isPart_ = isPart;
  ByteReader params(data + kHeaderBytes, kParamsBytes);
  params.u64(set.blocklistChecksum_);
  params.u64(set.streamBits_);
  params.u8(set.riceBits_);
  params.u8(set.blockShift_);
  for (int i = 0; i < 6; ++i) {
    uint8_t reserved = 0;
    params.u8(reserved);
    if (reserved != 0) return damaged("reserved parameter bytes are set");
  }
  if (isPart) {
    ByteReader range(data + kHeaderBytes + kParamsBytes, kPartParamsBytes - kParamsBytes);
    range.u64(set.rangeFirst_);
    range.u64(set.rangeLast_);
    if (set.rangeFirst_ > set.rangeLast_) return damaged("a part's range ends before it starts");
  }
  if (set.riceBits_ > 63) return damaged("Rice parameter " + std::to_string(set.riceBits_) + " is above 63");
  if (set.blockShift_ == 0 || set.blockShift_ > kExpressionSetMaxBlockShift) {
    return damaged("block shift " + std::to_string(set.blockShift_) + " is outside 1.." +
                   std::to_string(kExpressionSetMaxBlockShift));
  }
  if (capacity != itemCount) return damaged("capacity must equal the hash count");
  if (rate != static_cast<double>(itemCount) * kTwoToMinus64) return damaged("target rate must be count / 2^64");
  set.seed_ = seed;
  set.count_ = itemCount;
  // Every size is checked against the payload before anything is allocated.
  const uint64_t blockCount = itemCount == 0 ? 0 : ((itemCount - 1) >> set.blockShift_) + 1;
  if (blockCount > payloadLength / kIndexEntryBytes) {
    return damaged(std::to_string(itemCount) + " hashes need more index than the " + std::to_string(payloadLength) +
                   " payload bytes hold");
  }
  const uint64_t streamBytes = payloadLength - blockCount * kIndexEntryBytes;
  if (set.streamBits_ > streamBytes * 8 || (streamBytes > 0 && set.streamBits_ <= (streamBytes - 1) * 8)) {
    return damaged(std::to_string(set.streamBits_) + " stream bits do not fill " + std::to_string(streamBytes) + " bytes");
  }
  if (itemCount - blockCount > set.streamBits_ / (uint64_t{set.riceBits_} + 1)) {
    return damaged("the stream is too short for " + std::to_string(itemCount) + " hashes");
  }
  const uint8_t* payload = data + kHeaderBytes + expectedParams;
  set.blockCount_ = static_cast<size_t>(blockCount);
  set.streamBytes_ = static_cast<size_t>(streamBytes);
  set.firstValues_.reset(new (std::nothrow) uint64_t[set.blockCount_ + 1]);
  set.bitOffsets_.reset(new (std::nothrow) uint64_t[set.blockCount_ + 1]);
  set.stream_.reset(new (std::nothrow) uint8_t[set.streamBytes_ + 1]);
  if (!set.firstValues_ || !set.bitOffsets_ || !set.stream_) {
    return Status::outOfMemory("URL expression set: no memory for " + std::to_string(payloadLength) + " bytes of tables");
  }
  ByteReader index(payload, blockCount * kIndexEntryBytes);
  for (uint64_t b = 0; b < blockCount; ++b) {
    index.u64(set.firstValues_[b]);
    index.u64(set.bitOffsets_[b]);
    if (b == 0 ? set.bitOffsets_[b] != 0
               : set.bitOffsets_[b] < set.bitOffsets_[b - 1] || set.firstValues_[b] <= set.firstValues_[b - 1]) {
      return damaged("index entry " + std::to_string(b) + " is out of order");
    }
    if (set.bitOffsets_[b] > set.streamBits_) return damaged("index entry " + std::to_string(b) + " points past the stream");
  }
  if (streamBytes > 0) std::memcpy(set.stream_.get(), payload + blockCount * kIndexEntryBytes, set.streamBytes_);
  if ((set.streamBits_ & 7u) != 0 && (set.stream_[set.streamBytes_ - 1] >> (set.streamBits_ & 7u)) != 0) {
    return damaged("padding bits are set");
  }
  // Decode every block once: afterwards each lookup's decode is known to be well-formed.
  for (uint64_t b = 0; b < blockCount; ++b) {
    const uint64_t next = b + 1 < blockCount ? set.firstValues_[b + 1] : kAllOnes;
    const bool last = b + 1 == blockCount;
    uint64_t lastValue = 0, endBit = 0;
    Status status = set.decodeBlock(b, endBit, [&](uint64_t value) {
      lastValue = value;
      return true;
    });
    if (!status.isOk()) return Status::corrupt(status.message() + " (block " + std::to_string(b) + ")");
    if (endBit != (last ? set.streamBits_ : set.bitOffsets_[b + 1])) {
      return damaged("block " + std::to_string(b) + " does not end where the next begins");
    }
    if (!last && lastValue >= next) return damaged("block " + std::to_string(b) + " overlaps the next");
    if (set.firstValues_[b] < set.rangeFirst_ || lastValue > set.rangeLast_) {
      return damaged("block " + std::to_string(b) + " holds a hash outside the part's range");
    }
  }
  return set;
}

bool ExpressionSet::containsHash(uint64_t hash) const {
  if (blockCount_ == 0) return false;
  // The last block whose first hash is at most `hash`: only it can hold it.
  const uint64_t* first = firstValues_.get();
  const uint64_t* after = std::upper_bound(first, first + blockCount_, hash);
  if (after == first) return false;
  const size_t block = static_cast<size_t>(after - first - 1);
  bool found = false;
  uint64_t endBit = 0;
  // The bytes were checked at read: this decode cannot fail.
  (void)decodeBlock(block, endBit, [&](uint64_t value) {
    found = value == hash;
    return value < hash;
  });
  return found;
}

std::vector<uint64_t> ExpressionSet::hashes() const {
  std::vector<uint64_t> out;
  out.reserve(static_cast<size_t>(count_));
  for (size_t block = 0; block < blockCount_; ++block) {
    uint64_t endBit = 0;
    // The bytes were checked at read: this decode cannot fail.
    (void)decodeBlock(block, endBit, [&](uint64_t value) {
      out.push_back(value);
      return true;
    });
  }
  return out;
}

namespace {
Status damagedIndex(const std::string& what) { return Status::corrupt("URL expression set index: " + what); }
}  // namespace

Result<ExpressionSetIndex> ExpressionSetIndex::read(const uint8_t* data, size_t length) {
  const size_t smallest = kHeaderBytes + kSplitIndexParamsBytes + kSplitIndexEntryBytes + kChecksumBytes;
  Result<BlobFields> read =
      readCheckedBlob(data, length, kExpressionSetIndexTypeId, "the index of a split URL expression set", damagedIndex);
  if (!read.isOk()) return read.status();
  const auto [version, type, hashAlgorithm, flags, paramsLength, seed, itemCount, partCount, payloadLength, rate] = read.value();
  if (flags != 0) return damagedIndex("reserved flags are set");
  if (paramsLength != kSplitIndexParamsBytes || length < smallest) return damagedIndex("parameters must be 16 bytes");
  if (rate != static_cast<double>(itemCount) * kTwoToMinus64) return damagedIndex("target rate must be count / 2^64");
  if (partCount == 0 || partCount > 0xffffffffull || payloadLength != partCount * kSplitIndexEntryBytes) {
    return damagedIndex(std::to_string(partCount) + " parts do not fill " + std::to_string(payloadLength) + " payload bytes");
  }
  ExpressionSetIndex index;
  index.seed_ = seed;
  index.count_ = itemCount;
  index.partCount_ = static_cast<uint32_t>(partCount);
  ByteReader params(data + kHeaderBytes, kSplitIndexParamsBytes);
  uint32_t partHashes = 0, reserved = 0;
  params.u64(index.blocklistChecksum_);
  params.u32(partHashes);
  params.u32(reserved);
  if (reserved != 0) return damagedIndex("reserved parameter bytes are set");
  index.prefixes_.reset(new (std::nothrow) uint32_t[index.partCount_]);
  index.sizes_.reset(new (std::nothrow) uint32_t[index.partCount_]);
  index.checksums_.reset(new (std::nothrow) uint64_t[index.partCount_]);
  if (!index.prefixes_ || !index.sizes_ || !index.checksums_) {
    return Status::outOfMemory("URL expression set index: no memory for " + std::to_string(partCount) + " parts");
  }
  ByteReader entries(data + kHeaderBytes + kSplitIndexParamsBytes, payloadLength);
  for (uint32_t part = 0; part < index.partCount_; ++part) {
    entries.u32(index.prefixes_[part]);
    entries.u32(index.sizes_[part]);
    entries.u64(index.checksums_[part]);
    if (part == 0 ? index.prefixes_[0] != 0 : index.prefixes_[part] <= index.prefixes_[part - 1]) {
      return damagedIndex("part " + std::to_string(part) + "'s range is out of order (part 0 starts at 0, each next one later)");
    }
    if (index.sizes_[part] < kHeaderBytes + kPartParamsBytes + kChecksumBytes) {
      return damagedIndex("part " + std::to_string(part) + " is shorter than a part's header");
    }
  }
  return index;
}

uint32_t ExpressionSetIndex::partOfHash(uint64_t hash) const {
  const uint32_t prefix = static_cast<uint32_t>(hash >> 32);
  const uint32_t* first = prefixes_.get();
  // The last part whose first prefix is at most the hash's (part 0 starts at 0).
  return static_cast<uint32_t>(std::upper_bound(first, first + partCount_, prefix) - first - 1);
}

Result<ExpressionSet> ExpressionSetIndex::checkPart(uint32_t part, const uint8_t* data, size_t length) const {
  if (part >= partCount_) {
    return Status::invalidArgument("part " + std::to_string(part) + " does not exist: this split has " +
                                   std::to_string(partCount_) + " parts");
  }
  const std::string name = "part " + std::to_string(part) + " of this split";
  Result<ExpressionSet> read = ExpressionSet::read(data, length);
  if (!read.isOk()) return Status(read.status().code(), name + ": " + read.status().message());
  uint64_t checksum = 0;
  ByteReader(data + length - kChecksumBytes, kChecksumBytes).u64(checksum);
  const ExpressionSet& set = read.value();
  if (length != sizes_[part] || checksum != checksums_[part]) {
    return Status::corrupt("these bytes are not " + name + " (the index records " + std::to_string(sizes_[part]) +
                           " bytes and another checksum): another part, or a part of another build or list");
  }
  if (!set.isPart() || set.rangeFirst() != partFirst(part) || set.rangeLast() != partLast(part) || set.seed() != seed_ ||
      set.blocklistChecksum() != blocklistChecksum_) {
    return Status::corrupt(name + ": its range, seed or blocklist differs from the index's");
  }
  return read;
}

}  // namespace cuckoo_bloom
