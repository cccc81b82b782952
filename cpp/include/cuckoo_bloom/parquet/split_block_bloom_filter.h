// Parquet's split-block Bloom filter (SBBF), bit for bit as apache/parquet-format
// BloomFilter.md defines it, so a filter read from a Parquet file answers as the
// engine that wrote it (DuckDB, Spark, arrow-rs, parquet-go) and a filter built
// here can be written into one.
//
// The bitset is numBlocks blocks of 256 bits, each eight 32-bit little-endian
// words. A value is hashed once, h = XXH64(the value's plain-encoded bytes,
// seed 0); the block is ((h >> 32) * numBlocks) >> 32 and, with key = uint32(h),
// word i of that block gets bit (key * SALT[i]) >> 27. The filter's bytes are
// the bitset itself: nothing else is stored (numBytes is its length).
//
// It is not the library's BlockedBloomFilter: that one uses 512-bit blocks of
// 64-bit words and the library's seeded XXH3 hash; this one must use the
// spec's hash, block size and salts to agree with files on disk.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "cuckoo_bloom/core/limits.h"
#include "cuckoo_bloom/core/status.h"
#include "cuckoo_bloom/core/word_buffer.h"

namespace cuckoo_bloom {

struct SplitBlockBloomFilterOptions {
  uint64_t capacity = 0;           // distinct values expected
  double falsePositiveRate = 0.0;  // target rate, in (0, 1)
};

class SplitBlockBloomFilter {
 public:
  static constexpr uint32_t kWordsPerBlock = 8;
  static constexpr uint32_t kBytesPerBlock = kWordsPerBlock * 4;  // 256 bits
  // The spec's bounds on numBytes (parquet-mr's and arrow-rs's too): one block
  // at least, 128 MiB at most; the length is a power of two.
  static constexpr uint64_t kMinBytes = kBytesPerBlock;
  static constexpr uint64_t kMaxBytes = uint64_t{128} << 20;
  // The spec's eight odd salt constants, one per word of a block.
  static constexpr uint32_t kSalt[kWordsPerBlock] = {0x47b6137bu, 0x44974d91u, 0x8824ad5bu, 0xa2b7289du,
                                                     0x705495c7u, 0x2df1424bu, 0x9efc4947u, 0x5c6bfb31u};

  // Sized from (capacity, rate) as the spec does (BloomFilter.md, "Sizing"):
  //   bitsPerValue c = -8 / ln(1 - f^(1/8)),  numBytes = ceil(capacity * c / 8),
  // then raised to the next power of two and clamped to [kMinBytes, kMaxBytes]
  // (the same rule as parquet-mr's optimalNumOfBits and arrow-rs's
  // optimal_num_of_bytes). The formula ignores the uneven load of blocks, so
  // the true rate can pass the target when the rounding leaves little room
  // (100,000 values at 1%: 128 KiB, 1.02% measured); the clamp at 128 MiB
  // gives a huge capacity a higher rate than asked, as in every writer.
  static Result<SplitBlockBloomFilter> create(const SplitBlockBloomFilterOptions& options);
  // An empty filter of exactly `byteCount` bytes (a power of two in bounds):
  // the way to build a filter byte-identical to one an engine wrote.
  static Result<SplitBlockBloomFilter> withByteCount(uint64_t byteCount);
  // A filter over a spec bitset (a Parquet file's filter after its header):
  // its length must be a multiple of 32, a power of two and within the bounds.
  static Result<SplitBlockBloomFilter> fromBitset(const uint8_t* bytes, size_t length);

  // The spec's byte count for (capacity, rate), before any range check.
  static uint64_t byteCountFor(uint64_t capacity, double falsePositiveRate);
  // The spec's rule-of-thumb rate at `bitsPerValue` bits per distinct value,
  // f = (1 - e^(-8/c))^8: the inverse of the sizing formula. It ignores the
  // uneven load of blocks, so the true rate is a little higher.
  static double specFalsePositiveRate(double bitsPerValue);
  // The exact expected rate with an average of `valuesPerBlock` values per
  // block: a block receives Poisson(lambda) values, and a query's rate is
  //   sum_j Pois(j; lambda) * (1 - (1 - 1/32)^j)^8.
  static double expectedFalsePositiveRate(double valuesPerBlock);

  // The spec's hash of a value's bytes: XXH64 with seed 0.
  static uint64_t hashBytes(const uint8_t* bytes, size_t length);
  // The spec's plain encodings of the common physical types, hashed.
  static uint64_t hashInt32(int32_t value);
  static uint64_t hashInt64(int64_t value);
  static uint64_t hashDouble(double value);

  void add(uint64_t hash);
  bool has(uint64_t hash) const;
  void add(std::string_view value) { add(hashBytes(reinterpret_cast<const uint8_t*>(value.data()), value.size())); }
  bool has(std::string_view value) const {
    return has(hashBytes(reinterpret_cast<const uint8_t*>(value.data()), value.size()));
  }

  uint64_t blockCount() const { return blockCount_; }
  size_t byteLength() const { return static_cast<size_t>(blockCount_) * kBytesPerBlock; }
  // The spec bitset: the words in little-endian order, numBytes long.
  std::vector<uint8_t> bitset() const;
  // Mean over blocks of the product over words of (set bits in word / 32).
  double estimatedFalsePositiveRate() const;
  // Back to all zero bits (the filter of the same size, empty).
  void clear();

 private:
  SplitBlockBloomFilter() = default;
  static Result<SplitBlockBloomFilter> allocate(uint64_t byteCount);
  static Status validateByteCount(uint64_t byteCount);

  uint64_t blockCount_ = 0;
  MallocBlock<uint32_t> words_;
};

}  // namespace cuckoo_bloom
