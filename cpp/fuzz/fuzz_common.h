// Shared helpers of the libFuzzer targets in this folder (see README.md).
//
//   FUZZ_CHECK(cond)      an invariant of the library; on failure prints the
//                         condition and aborts, which libFuzzer reports as a
//                         crash and saves the input.
//   AllocationMeter       counts the bytes malloc'ed by this thread between
//                         start() and stop(), through the sanitizer allocator
//                         hooks, so a target can check that deserialize()
//                         allocates no more than a small multiple of its input.
//   repairBlob()          the custom mutator's helper: after libFuzzer mutated
//                         a blob, it rewrites the payload length and the XXH3
//                         checksum (most of the time, not always) so that
//                         mutations reach the type-specific checks behind the
//                         checksum instead of all dying at it.
//   KeyStream             reads an op stream: bytes, and short keys over a
//                         4-letter alphabet so that keys repeat.
//
// filter_checks.h builds on this: the registry dispatch and each type's checks.
#pragma once

#include <sanitizer/allocator_interface.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "cuckoo_bloom/core/format.h"
#include "cuckoo_bloom/core/status.h"
#include "cuckoo_bloom/cuckoo/cuckoo_filter.h"

extern "C" size_t LLVMFuzzerMutate(uint8_t* data, size_t size, size_t maxSize);

#define FUZZ_CHECK(cond)                                                                    \
  do {                                                                                      \
    if (!(cond)) {                                                                          \
      std::fprintf(stderr, "FUZZ_CHECK failed: %s\n  at %s:%d\n", #cond, __FILE__, __LINE__); \
      std::abort();                                                                         \
    }                                                                                       \
  } while (0)

#define FUZZ_CHECK_MSG(cond, ...)                                                           \
  do {                                                                                      \
    if (!(cond)) {                                                                          \
      std::fprintf(stderr, "FUZZ_CHECK failed: %s\n  at %s:%d\n  ", #cond, __FILE__, __LINE__); \
      std::fprintf(stderr, __VA_ARGS__);                                                    \
      std::fprintf(stderr, "\n");                                                           \
      std::abort();                                                                         \
    }                                                                                       \
  } while (0)

namespace cuckoo_bloom_fuzz {

using Bytes = std::vector<uint8_t>;

// ------------------------------------------------------------------ allocation meter

namespace detail {
inline thread_local bool metering = false;
inline thread_local size_t meteredBytes = 0;
inline thread_local size_t meteredLargest = 0;
inline void mallocHook(const volatile void*, size_t size) {
  if (!metering) return;
  meteredBytes += size;
  if (size > meteredLargest) meteredLargest = size;
}
inline void freeHook(const volatile void*) {}
}  // namespace detail

// The library's lookup tables built once on first use (semi-sorted cuckoo
// buckets: an 8 KiB decode table and a 32 KiB table per fingerprint width
// 8..16). Built here, before metering, so the allocation budget of a
// deserialize() measures what that input made it allocate, not a one-time cost.
inline void warmUpLazyTables() {
  for (uint32_t bits = cuckoo_bloom::CuckooFilter::kMinFingerprintBits;
       bits <= cuckoo_bloom::CuckooFilter::kMaxFingerprintBits; ++bits) {
    cuckoo_bloom::CuckooFilterOptions options;
    options.capacity = 8;
    options.fingerprintBits = bits;
    options.semiSorted = true;
    cuckoo_bloom::Result<cuckoo_bloom::CuckooFilter> filter = cuckoo_bloom::CuckooFilter::create(options);
    if (filter.isOk()) {
      (void)filter.value().add("warm-up");
      (void)filter.value().has("warm-up");
    }
  }
}

// Install once (LLVMFuzzerInitialize); libFuzzer's own hooks stay installed.
inline void installAllocationHooks() {
  static bool installed = false;
  if (!installed) {
    __sanitizer_install_malloc_and_free_hooks(detail::mallocHook, detail::freeHook);
    installed = true;
  }
}

class AllocationMeter {
 public:
  void start() {
    detail::meteredBytes = 0;
    detail::meteredLargest = 0;
    detail::metering = true;
  }
  void stop() { detail::metering = false; }
  // Sum of every allocation's size: an upper bound of the peak.
  size_t totalBytes() const { return detail::meteredBytes; }
  size_t largestBytes() const { return detail::meteredLargest; }
};

// What deserialize() may allocate for an input of `length` bytes: the table
// (never more than the input's length plus one word, FORMAT.md) plus error
// message strings and such. Anything near 2x the input is a finding.
inline size_t allocationBudget(size_t length) { return length + length / 2 + 4096; }

// ------------------------------------------------------------------ byte helpers

inline uint64_t readLE(const uint8_t* p, int bytes) {
  uint64_t value = 0;
  for (int i = 0; i < bytes; ++i) value |= static_cast<uint64_t>(p[i]) << (8 * i);
  return value;
}
inline void writeLE(uint8_t* p, uint64_t value, int bytes) {
  for (int i = 0; i < bytes; ++i) p[i] = static_cast<uint8_t>(value >> (8 * i));
}

constexpr size_t kOffsetType = 6;
constexpr size_t kOffsetParamsLength = 12;
constexpr size_t kOffsetPayloadLength = 48;
constexpr size_t kHeader = cuckoo_bloom::kHeaderBytes;        // 56
constexpr size_t kChecksum = cuckoo_bloom::kChecksumBytes;    // 8

// Bytes equal except in [from, to) and in the checksum (the last 8 bytes).
inline bool equalExcept(const Bytes& a, const Bytes& b, size_t from, size_t to) {
  if (a.size() != b.size()) return false;
  const size_t end = a.size() >= kChecksum ? a.size() - kChecksum : 0;
  for (size_t i = 0; i < end; ++i) {
    if (i >= from && i < to) continue;
    if (a[i] != b[i]) return false;
  }
  return true;
}

// ------------------------------------------------------------------ the custom mutator

// Makes a mutated blob self-consistent again, most of the time: payload length
// = what follows the parameters (7 times in 8), checksum = XXH3 of the bytes
// before it (15 times in 16). With `nested`, the payload of a composite blob
// (type >= 16) is repaired first, blob by blob (repairNestedBlobs). The rare unrepaired
// inputs keep the length and checksum checks themselves covered.
inline void repairBlob(uint8_t* data, size_t size, uint32_t random, bool nested);

// The nested blobs of a composite's payload, end to end (a blocklist's one
// filter, a chain's links), each repaired as a blob of its own: a blob whose
// own header says it ends with room for another after it is a link of that
// length; the last one takes whatever remains (its payload length repaired to
// fit). So mutations inside any link, its version and counts included, reach
// the chain's checks.
inline void repairNestedBlobs(uint8_t* payload, size_t length, uint32_t random) {
  size_t at = 0;
  while (length - at >= kHeader + kChecksum) {
    const size_t rest = length - at;
    const uint64_t paramsLength = readLE(payload + at + kOffsetParamsLength, 4);
    const uint64_t payloadLength = readLE(payload + at + kOffsetPayloadLength, 8);
    const uint64_t fixed = kHeader + kChecksum;
    const bool fits = paramsLength <= rest - fixed && payloadLength <= rest - fixed - paramsLength;
    const size_t own = fits ? static_cast<size_t>(fixed + paramsLength + payloadLength) : rest;
    if (!fits || rest - own < fixed) {
      repairBlob(payload + at, rest, random, true);  // a blocklist's chain: its links too
      return;
    }
    // A link: only its checksum (its length is what places the next one).
    if (((random >> 3) & 15) != 0) {
      writeLE(payload + at + own - kChecksum, cuckoo_bloom::formatChecksum(payload + at, own - kChecksum), 8);
    }
    at += own;
    random = random * 0x9E3779B1u + 0x7F4A7C15u;
  }
}

inline void repairBlob(uint8_t* data, size_t size, uint32_t random, bool nested) {
  if (size < kHeader + kChecksum) return;
  const uint64_t paramsLength = readLE(data + kOffsetParamsLength, 4);
  const size_t body = size - kHeader - kChecksum;
  if ((random & 7) != 0 && paramsLength <= body) {
    writeLE(data + kOffsetPayloadLength, body - paramsLength, 8);
  }
  const uint64_t payloadLength = readLE(data + kOffsetPayloadLength, 8);
  if (nested && data[kOffsetType] >= 16 && paramsLength <= body &&
      payloadLength <= body - paramsLength) {
    repairNestedBlobs(data + kHeader + paramsLength, static_cast<size_t>(payloadLength), random >> 7);
  }
  if (((random >> 3) & 15) != 0) {
    writeLE(data + size - kChecksum, cuckoo_bloom::formatChecksum(data, size - kChecksum), 8);
  }
}

inline size_t mutateBlob(uint8_t* data, size_t size, size_t maxSize, unsigned int seed,
                         bool nested) {
  size = LLVMFuzzerMutate(data, size, maxSize);
  // A cheap mixer of the seed, so the repair choices are independent of the
  // (seed-driven) mutation libFuzzer just made.
  uint32_t random = seed * 0x9E3779B1u;
  random ^= random >> 15;
  repairBlob(data, size, random, nested);
  return size;
}

// ------------------------------------------------------------------ op streams

class KeyStream {
 public:
  KeyStream(const uint8_t* data, size_t size) : data_(data), size_(size) {}
  bool empty() const { return offset_ >= size_; }
  uint8_t byte() { return offset_ < size_ ? data_[offset_++] : 0; }
  uint64_t u64(int bytes) {
    uint64_t value = 0;
    for (int i = 0; i < bytes; ++i) value |= static_cast<uint64_t>(byte()) << (8 * i);
    return value;
  }
  double f64() {
    const uint64_t bits = u64(8);
    double value;
    std::memcpy(&value, &bits, sizeof(value));
    return value;
  }
  // A key of 0..3 letters from "abcd" (85 distinct keys, the empty one
  // included): few enough that keys repeat, many enough to fill small filters.
  std::string key(uint8_t lengthBits) {
    std::string key;
    const int length = lengthBits & 3;
    for (int i = 0; i < length; ++i) key.push_back(static_cast<char>('a' + (byte() & 3)));
    return key;
  }

 private:
  const uint8_t* data_;
  size_t size_;
  size_t offset_ = 0;
};

// All 85 keys of the alphabet, for whole-filter comparisons.
inline const std::vector<std::string>& allKeys() {
  static const std::vector<std::string> keys = [] {
    std::vector<std::string> out{""};
    for (size_t begin = 0, length = 1; length <= 3; ++length) {
      const size_t end = out.size();
      for (size_t i = begin; i < end; ++i) {
        for (char c = 'a'; c <= 'd'; ++c) out.push_back(out[i] + c);
      }
      begin = end;
    }
    return out;
  }();
  return keys;
}

inline const uint8_t* bytesOf(const std::string& s) {
  return reinterpret_cast<const uint8_t*>(s.data());
}

// The false-positive rates the op targets choose from (small filters at high
// rates saturate quickly, which is what the targets want).
inline double rateFromByte(uint8_t b) {
  static const double kRates[] = {0.5, 0.3, 0.1, 0.05, 0.01, 0.001, 1e-6, 0.9};
  return kRates[b & 7];
}

inline bool isDecodeError(cuckoo_bloom::StatusCode code) {
  return code == cuckoo_bloom::StatusCode::Corrupt ||
         code == cuckoo_bloom::StatusCode::UnsupportedVersion ||
         code == cuckoo_bloom::StatusCode::WrongType;
}

// Probe keys for a filter read from fuzzed bytes: a few fixed ones and a few
// taken from the input itself.
inline std::vector<std::string> probeKeys(const uint8_t* data, size_t size) {
  std::vector<std::string> keys = {"", "a", "key-0", "key-49", "evil.example/"};
  for (size_t i = 0; i < 4 && i * 16 < size; ++i) {
    const size_t length = std::min<size_t>(16, size - i * 16);
    keys.emplace_back(reinterpret_cast<const char*>(data + i * 16), length);
  }
  return keys;
}

}  // namespace cuckoo_bloom_fuzz

// The libFuzzer hooks every blob target shares: allocation metering, and the
// mutator that keeps lengths and checksums valid (nested: a composite blob).
#define CUCKOO_BLOOM_FUZZ_BLOB_HOOKS(nested)                                                  \
  extern "C" int LLVMFuzzerInitialize(int*, char***) {                                        \
    cuckoo_bloom_fuzz::warmUpLazyTables();                                                    \
    cuckoo_bloom_fuzz::installAllocationHooks();                                              \
    return 0;                                                                                 \
  }                                                                                           \
  extern "C" size_t LLVMFuzzerCustomMutator(uint8_t* data, size_t size, size_t maxSize,       \
                                            unsigned int seed) {                              \
    return cuckoo_bloom_fuzz::mutateBlob(data, size, maxSize, seed, nested);                  \
  }
