// The one hashing path from key bytes to filter positions.
//
// Every filter hashes a key exactly once, with XXH3-64 and the filter's 64-bit
// seed, and derives all of its positions (probe indexes, block index, bucket
// index, fingerprint) from that hash and a second word mixed out of it.
// XXH3's output is defined on bytes and is identical on every platform and
// endianness, so a filter built on x86-64 and one built in wasm32 set the same
// bits: the byte format (docs/FORMAT.md) depends on that. Only fixed-width
// integers take part.
//
// Why XXH3-64 and not XXH3-128: wasm has no 64x64->128-bit multiply, and
// XXH3-128 needs twice as many of them; measured in Node 20 on 60-byte keys,
// XXH3-128 costs ~42 ns in wasm against ~29 ns for XXH3-64 (7-9 ns natively
// for both). 64 bits of hash are ample for filters up to 2^32 slots.
#pragma once

#include <cstddef>
#include <cstdint>

#ifndef XXH_INLINE_ALL
#define XXH_INLINE_ALL
#endif
#include "xxhash.h"

namespace cuckoo_bloom {

// Hash algorithm ids stored in the byte format.
enum class HashAlgorithm : uint8_t {
  Xxh3_64 = 1,  // low = XXH3_64bits_withSeed(key, seed); high = mix64(low ^ kSecondWordSalt)
  // low = XXH64(key, seed), high as above: the hash Parquet's split-block
  // Bloom filters fix (with seed 0), for the one type that must match them.
  Xxh64 = 2,
};

struct KeyHash {
  uint64_t low;
  uint64_t high;
};

inline uint64_t mix64(uint64_t value);

// Decorrelates the second word from the first: mix64 is a bijection, so high
// carries no more entropy than low, but its bits are independent-looking
// functions of all of low's bits, which is what the derivations below need.
constexpr uint64_t kSecondWordSalt = 0x9E3779B97F4A7C15ull;

inline KeyHash hashKey(const uint8_t* data, size_t length, uint64_t seed) {
  const uint64_t low = XXH3_64bits_withSeed(data, length, seed);
  return {low, mix64(low ^ kSecondWordSalt)};
}

// A type's hash (its registry fact kHashAlgorithm, filter_support.h): the
// same KeyHash shape whatever the algorithm, so every probe derivation works on it.
template <HashAlgorithm Algorithm>
inline KeyHash hashKeyWith(const uint8_t* data, size_t length, uint64_t seed) {
  if constexpr (Algorithm == HashAlgorithm::Xxh64) {
    const uint64_t low = XXH64(data, length, seed);
    return {low, mix64(low ^ kSecondWordSalt)};
  } else {
    return hashKey(data, length, seed);
  }
}
// The same, for an algorithm known only at run time (a header's).
inline KeyHash hashKeyWith(HashAlgorithm algorithm, const uint8_t* data, size_t length, uint64_t seed) {
  return algorithm == HashAlgorithm::Xxh64 ? hashKeyWith<HashAlgorithm::Xxh64>(data, length, seed)
                                           : hashKey(data, length, seed);
}

// High 64 bits of a 64x64-bit product, portable.
inline uint64_t multiplyHigh64(uint64_t a, uint64_t b) {
#if defined(__SIZEOF_INT128__)
  __extension__ typedef unsigned __int128 uint128;
  return static_cast<uint64_t>((static_cast<uint128>(a) * b) >> 64);
#else
  const uint64_t aLow = a & 0xFFFFFFFFu, aHigh = a >> 32;
  const uint64_t bLow = b & 0xFFFFFFFFu, bHigh = b >> 32;
  const uint64_t lowLow = aLow * bLow;
  const uint64_t highLow = aHigh * bLow;
  const uint64_t lowHigh = aLow * bHigh;
  const uint64_t middle = (lowLow >> 32) + (highLow & 0xFFFFFFFFu) + lowHigh;
  return aHigh * bHigh + (highLow >> 32) + (middle >> 32);
#endif
}

// Maps a uniform 64-bit hash onto [0, n) without a division (Lemire's
// multiply-shift: floor(hash * n / 2^64)). Sizes up to 2^32 use only the top 32
// bits and a 32x32->64 multiply, which is one instruction in wasm32 as well;
// larger sizes need the full 64x64->128 product. The choice depends only on n,
// which is stored in the format, so both paths are part of the format.
inline uint64_t reduceRange(uint64_t hash, uint64_t n) {
  if (n <= 0xFFFFFFFFu) return ((hash >> 32) * n) >> 32;
  return multiplyHigh64(hash, n);
}

// The xorshift-multiply finalizer (murmur3's fmix, Stafford's variants):
// xor-shift, multiply by an odd constant, twice, then xor-shift. Each step is
// invertible, so the whole is a bijection of the word; the constants decide
// how well every input bit reaches every output bit.
template <typename Word>
constexpr Word xorShiftMultiply(Word value, int shift1, Word odd1, int shift2, Word odd2, int shift3) {
  value ^= value >> shift1;
  value *= odd1;
  value ^= value >> shift2;
  value *= odd2;
  value ^= value >> shift3;
  return value;
}

// A strong 64-bit mixer (the SplitMix64 finalizer). Used where a small value
// (a cuckoo fingerprint) must be spread over all bits.
inline uint64_t mix64(uint64_t value) {
  return xorShiftMultiply<uint64_t>(value, 30, 0xBF58476D1CE4E5B9ull, 27, 0x94D049BB133111EBull, 31);
}

// SplitMix64: the seeded, reproducible generator behind cuckoo eviction walks.
// Its whole state is one uint64, which the byte format stores, so a filter
// that is serialized and read back continues exactly the same walk.
class SplitMix64 {
 public:
  explicit SplitMix64(uint64_t state = 0) : state_(state) {}
  uint64_t next() {
    state_ += 0x9E3779B97F4A7C15ull;
    return mix64(state_);
  }
  uint64_t state() const { return state_; }

 private:
  uint64_t state_;
};

}  // namespace cuckoo_bloom

namespace cuckoo_bloom {

// ---- Position derivations: every filter's positions come from here. ----

// Classic and counting Bloom filters: Kirsch-Mitzenmacher double hashing.
// Probe i (0-based) is g_i = low + i * high (mod 2^64), mapped onto [0, m) by
// reduceRange. Two independent 64-bit halves give k probes with the same
// asymptotic false-positive rate as k independent hashes.
inline uint64_t bloomProbeIndex(const KeyHash& hash, uint32_t probe, uint64_t slotCount) {
  return reduceRange(hash.low + static_cast<uint64_t>(probe) * hash.high, slotCount);
}

// How the Bloom-family lookups (BloomFilter, CountingBloomFilter) read their
// first probes. At the rated fill half the bits are set, so a branch after
// every probe is a coin toss for an absent key, and each misprediction (often
// waiting on a cache miss) costs more than the loads it saves: the first
// kBranchFreeProbes probes are read with no branch between them, then one
// branch. Measured in the C++ loop at 1M keys, 1%: absent keys 27.8 -> 17.4
// ns with present keys unchanged (17.3); a ScalableBloomFilter grown from 100,
// which asks every link about an absent key, 195 -> 105 ns. Three beat two
// and four. Under about a fifth of its capacity a filter's first probe mostly
// finds a clear bit, the branch predicts well, and the extra loads only cost
// (1.8 -> 3.3 ns at 2% fill; an ExpiringBloomFilter's empty generations
// 45 -> 65 ns), so there each probe keeps its branch.
constexpr uint32_t kBranchFreeProbes = 3;
inline bool branchFreeProbesPay(uint64_t itemCount, uint64_t capacity) { return itemCount * 5 >= capacity; }

// Blocked Bloom filter: the block is chosen from the low half; inside the
// 512-bit block (8 words of 64 bits) one bit is set in every word, its
// position taken from six consecutive bits of the high half (48 bits used).
constexpr uint32_t kBlockWords = 8;
inline uint64_t blockedBlockIndex(const KeyHash& hash, uint64_t blockCount) {
  return reduceRange(hash.low, blockCount);
}
inline uint64_t blockedWordMask(const KeyHash& hash, uint32_t word) {
  return uint64_t{1} << ((hash.high >> (6 * word)) & 63);
}

// Cuckoo filter (partial-key cuckoo hashing). The fingerprint is drawn
// uniformly from 1..2^f-1 (0 marks an empty slot) by multiply-shift on the top
// 32 bits of the high half.
inline uint32_t cuckooFingerprint(const KeyHash& hash, uint32_t fingerprintBits) {
  const uint64_t nonZeroValues = (uint64_t{1} << fingerprintBits) - 1;  // 2^f - 1
  return static_cast<uint32_t>((((hash.high >> 32) * nonZeroValues) >> 32) + 1);
}

// Two ways to place a key's two buckets. Both are involutions: the other
// bucket of a stored fingerprint is found from its bucket and the fingerprint
// alone (no key), which is what lets a walk move it and a lookup find it.
//
// Format version 1 (CuckooAddressing::XorPowerOfTwo): m = 2^B buckets,
//   i1 = low mod m,  i2 = i1 XOR offset(fp), offset(fp) = mix64(fp) mod m, never 0.
// It forces m to a power of two, so a filter could be up to twice its size.
inline uint64_t cuckooBucketIndexXor(const KeyHash& hash, uint64_t bucketCount) {
  return hash.low & (bucketCount - 1);
}
inline uint64_t cuckooAltBucketIndexXor(uint64_t bucket, uint32_t fingerprint, uint64_t bucketCount) {
  uint64_t offset = mix64(fingerprint) & (bucketCount - 1);
  if (offset == 0) offset = 1;
  return bucket ^ offset;
}

// Format version 2 (CuckooAddressing::SubtractModulo): any even m >= 2,
//   i1 = reduceRange(low, m),  i2 = (H(fp) - i1) mod m,
//   H(fp) = 2 reduceRange(mix64(fp), m / 2) + 1  (an odd number below m).
// (H - (H - i1)) mod m = i1, so it is an involution. Because H is odd and m
// even, i2 - i1 is never a multiple of m: the two buckets always differ (a key
// with one bucket would make small tables fill early). i1 and i2 then have
// opposite parity, which is classic two-table cuckoo hashing (even buckets
// and odd buckets), with the same load thresholds.
inline uint64_t cuckooBucketIndexModulo(const KeyHash& hash, uint64_t bucketCount) {
  return reduceRange(hash.low, bucketCount);
}
inline uint64_t cuckooAltBucketIndexModulo(uint64_t bucket, uint32_t fingerprint, uint64_t bucketCount) {
  const uint64_t pairSum = 2 * reduceRange(mix64(fingerprint), bucketCount / 2) + 1;
  return pairSum >= bucket ? pairSum - bucket : pairSum + bucketCount - bucket;
}

}  // namespace cuckoo_bloom
