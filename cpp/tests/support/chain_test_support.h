// Checks the tests of the growing chains (scalable Bloom, scalable cuckoo)
// make in the same way, written once: the options they start from, bytes
// taken mid-growth read back into a chain that keeps growing exactly as the
// original, and damaged bytes are refused. Templates over the chain class, so
// each still fails under its own test's name, on its own type's bug.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <utility>
#include <vector>

#include "cuckoo_bloom/core/format.h"
#include "cuckoo_bloom/core/status.h"
#include "support/test_keys.h"

namespace cuckoo_bloom_test {

// A chain's options: the first link's capacity, the target rate and the hash
// seed; the rest (growth, tightening, ...) at the type's defaults.
template <typename ChainOptions>
ChainOptions chainOptions(uint64_t initialCapacity, double rate, uint64_t seed = ChainOptions{}.seed) {
  ChainOptions options;
  options.initialCapacity = initialCapacity;
  options.falsePositiveRate = rate;
  options.seed = seed;
  return options;
}

// `chain` and `twin` are made with the same options. Both take presentKey(0
// .. 4999); then `chain` goes through its bytes, and the copy and `twin` take
// presentKey(5000 .. 39999): the copy finds every key and ends with the
// twin's bytes (`why` says what travels in the bytes for that to hold).
template <typename Chain>
void expectReadBackKeepsGrowingAsTheOriginal(Chain& chain, Chain& twin, const char* why) {
  for (uint64_t i = 0; i < 5000; ++i) {
    ASSERT_TRUE(chain.add(presentKey(i)).isOk());
    ASSERT_TRUE(twin.add(presentKey(i)).isOk());
  }
  const std::vector<uint8_t> bytes = chain.serialize();
  cuckoo_bloom::Result<Chain> read = Chain::deserialize(bytes.data(), bytes.size());
  ASSERT_TRUE(read.isOk()) << read.status().message();
  Chain copy = std::move(read).value();
  EXPECT_EQ(copy.serialize(), bytes);
  EXPECT_EQ(copy.linkCount(), chain.linkCount());
  for (uint64_t i = 5000; i < 40000; ++i) {
    ASSERT_TRUE(copy.add(presentKey(i)).isOk());
    ASSERT_TRUE(twin.add(presentKey(i)).isOk());
  }
  for (uint64_t i = 0; i < 40000; ++i) ASSERT_TRUE(copy.has(presentKey(i))) << i;
  EXPECT_EQ(copy.serialize(), twin.serialize()) << why;
}

// Every truncation of `bytes` (at growing steps) and a flipped byte every
// `flipStep` bytes are refused (the checksum, then the chain's own checks).
template <typename Chain>
void expectTruncatedAndFlippedBytesRefused(const std::vector<uint8_t>& bytes, size_t flipStep) {
  for (size_t length = 0; length < bytes.size(); length += 1 + length / 8) {
    EXPECT_FALSE(Chain::deserialize(bytes.data(), length).isOk()) << length;
  }
  for (size_t at = 0; at < bytes.size(); at += flipStep) {
    std::vector<uint8_t> damaged = bytes;
    damaged[at] ^= 0x5A;
    EXPECT_FALSE(Chain::deserialize(damaged.data(), damaged.size()).isOk()) << at;
  }
}

// Grows `chain` by presentKey(0 .. 399) to three links or more, then checks
// its bytes are refused truncated or flipped (expectTruncatedAndFlippedBytesRefused).
// Call as ASSERT_NO_FATAL_FAILURE(growAndRefuseDamagedBytes(chain, flipStep)).
template <typename Chain>
void growAndRefuseDamagedBytes(Chain& chain, size_t flipStep) {
  ASSERT_TRUE(addAllPresentKeys(chain, 400));
  ASSERT_GE(chain.linkCount(), 3u);
  expectTruncatedAndFlippedBytesRefused<Chain>(chain.serialize(), flipStep);
}

// What reading `bytes` answers after the `width`-byte field at `offset` is
// set to `value` and the checksum recomputed: a consistent rewrite that only
// the type's own checks can catch.
template <typename Chain>
cuckoo_bloom::StatusCode statusOfRewritten(const std::vector<uint8_t>& bytes, size_t offset, int width,
                                           uint64_t value) {
  std::vector<uint8_t> changed = bytes;
  writeLE(changed, offset, width, value);
  writeLE(changed, changed.size() - 8, 8, cuckoo_bloom::formatChecksum(changed.data(), changed.size() - 8));
  cuckoo_bloom::Result<Chain> read = Chain::deserialize(changed.data(), changed.size());
  return read.isOk() ? cuckoo_bloom::StatusCode::Ok : read.status().code();
}

// statusOfRewritten over `bytes` (which must outlive it), called as
// rewrite(offset, width, value).
template <typename Chain>
auto rewriterOf(const std::vector<uint8_t>& bytes) {
  return [&bytes](size_t offset, int width, uint64_t value) {
    return statusOfRewritten<Chain>(bytes, offset, width, value);
  };
}

}  // namespace cuckoo_bloom_test
