// Parquet's split-block Bloom filter on arbitrary bytes, both ways it is read:
// the first byte picks the reader, the rest is its input.
//   even: SplitBlockBloomFilter::fromBitset, the raw spec bitset a Parquet file
//         stores after a BloomFilterHeader (what js/src/parquet hands over);
//   odd:  SplitBlockBloomFilter::deserialize, the library's envelope (type 8),
//         whose length and checksum the custom mutator repairs most of the time.
//
// Checks: never a crash or sanitizer report; a refusal is CORRUPT (a bitset),
// or CORRUPT / UNSUPPORTED_VERSION / WRONG_TYPE (an envelope), with a message;
// reading allocates at most ~1.5x the input (+4 KiB). An accepted input reads
// back exactly: the bitset is the input (a bitset) or the payload (an
// envelope, which is written back byte for byte); the bitset loaded into a
// fresh filter of its size and the envelope read again give the same bits;
// every probe key answers the same as the spec's hash probed by hand (hasHash
// of XXH64 seed 0); keys added afterwards are found and set only bits of their
// own block.
#include <algorithm>
#include <cstring>

#include "cuckoo_bloom/parquet/split_block_bloom_filter.h"
#include "fuzz_common.h"

using namespace cuckoo_bloom;
using namespace cuckoo_bloom_fuzz;

namespace {

template <typename Read>
Result<SplitBlockBloomFilter> readWithinBudget(size_t size, Read read) {
  AllocationMeter meter;
  meter.start();
  Result<SplitBlockBloomFilter> result = read();
  meter.stop();
  FUZZ_CHECK_MSG(meter.totalBytes() <= allocationBudget(size), "read of %zu bytes allocated %zu bytes", size,
                 meter.totalBytes());
  return result;
}

void checkAccepted(SplitBlockBloomFilter& filter, const Bytes& bitset, const uint8_t* data, size_t size) {
  FUZZ_CHECK(filter.bitset() == bitset);
  FUZZ_CHECK(filter.byteLength() == bitset.size() && filter.blockCount() * 32 == bitset.size());
  const double estimate = filter.estimatedFalsePositiveRate();
  FUZZ_CHECK(estimate >= 0.0 && estimate <= 1.0);

  // The two other ways to the same bits: loaded into a fresh filter, and the envelope read back.
  Result<SplitBlockBloomFilter> loaded = SplitBlockBloomFilter::withByteCount(bitset.size());
  FUZZ_CHECK(loaded.isOk() && loaded.value().loadBitset(bitset.data(), bitset.size()).isOk());
  FUZZ_CHECK(loaded.value().bitset() == bitset);
  const Bytes envelope = filter.serialize();
  Result<SplitBlockBloomFilter> again = SplitBlockBloomFilter::deserialize(envelope.data(), envelope.size());
  FUZZ_CHECK_MSG(again.isOk(), "envelope does not read back: %s", again.status().message().c_str());
  FUZZ_CHECK(again.value().bitset() == bitset && again.value().serialize() == envelope);

  // A key answers as the spec's hash, probed by hand, says (seed 0: the spec's).
  const std::vector<std::string> keys = probeKeys(data, size);
  for (const std::string& key : keys) {
    const bool expected = filter.seed() == 0 ? filter.hasHash(SplitBlockBloomFilter::hashBytes(bytesOf(key), key.size()))
                                             : filter.has(filter.hashOf(bytesOf(key), key.size()));
    FUZZ_CHECK(filter.has(key) == expected);
  }
  // Added keys are found, and each sets bits in its own 32-byte block only.
  for (const std::string& key : keys) {
    const Bytes before = filter.bitset();
    filter.add(key);
    FUZZ_CHECK(filter.has(key));
    const Bytes after = filter.bitset();
    const uint64_t block = filter.positions(filter.hashOf(bytesOf(key), key.size()))[0] / 256;
    for (size_t i = 0; i < after.size(); ++i) {
      FUZZ_CHECK((after[i] & before[i]) == before[i]);  // bits are only set
      if (i / 32 != block) FUZZ_CHECK(after[i] == before[i]);
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  warmUpLazyTables();
  installAllocationHooks();
  return 0;
}

// Envelope inputs (odd first byte) get the blob mutator, so mutations reach past the checksum.
extern "C" size_t LLVMFuzzerCustomMutator(uint8_t* data, size_t size, size_t maxSize, unsigned int seed) {
  if (size == 0 || maxSize < 2) return LLVMFuzzerMutate(data, size, maxSize);
  if ((data[0] & 1) == 0) return 1 + LLVMFuzzerMutate(data + 1, size - 1, maxSize - 1);
  return 1 + mutateBlob(data + 1, size - 1, maxSize - 1, seed, false);
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const bool envelope = (data[0] & 1) != 0;
  const uint8_t* input = data + 1;
  const size_t length = size - 1;
  Result<SplitBlockBloomFilter> read = readWithinBudget(length, [&] {
    return envelope ? SplitBlockBloomFilter::deserialize(input, length)
                    : SplitBlockBloomFilter::fromBitset(length == 0 ? nullptr : input, length);
  });
  if (!read.isOk()) {
    const StatusCode code = read.status().code();
    if (envelope) {
      FUZZ_CHECK_MSG(isDecodeError(code), "envelope: unexpected %s: %s", statusCodeName(code),
                     read.status().message().c_str());
    } else {
      FUZZ_CHECK_MSG(code == StatusCode::Corrupt, "bitset: unexpected %s: %s", statusCodeName(code),
                     read.status().message().c_str());
    }
    FUZZ_CHECK(!read.status().message().empty());
    return 0;
  }
  SplitBlockBloomFilter& filter = read.value();
  Bytes bitset;
  if (envelope) {
    const size_t payloadAt = kHeader + static_cast<size_t>(readLE(input + kOffsetParamsLength, 4));
    bitset.assign(input + payloadAt, input + length - kChecksum);
    FUZZ_CHECK_MSG(filter.serialize() == Bytes(input, input + length), "an envelope is not written back byte for byte");
  } else {
    bitset.assign(input, input + length);
  }
  checkAccepted(filter, bitset, data, size);
  return 0;
}
