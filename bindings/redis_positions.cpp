// Plain C exports for the Redis-backed blocked Bloom filter (js/src/redis/).
//
// The table lives in Redis; only positions and the byte format are computed
// here, by the same core as the local BlockedBloomFilter (hashing.h), so a
// filter in Redis and one in memory with the same seed and block count set
// exactly the same bits, and a snapshot of the Redis table is a valid
// blocked Bloom blob.
//
// Layout of the Redis table: block b is bytes [64 b, 64 b + 64) of the
// payload, exactly as docs/FORMAT.md lays out the local filter's payload (8
// little-endian u64 words per block), split over shards of `shardBlocks`
// blocks each: shard s holds blocks [s shardBlocks, (s + 1) shardBlocks).
//
// 64-bit values cross as doubles (exact up to 2^53: block counts and seeds
// are bounded far below that by the TypeScript layer).
#include <emscripten/emscripten.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "cuckoo_bloom/cuckoo_bloom.h"

using namespace cuckoo_bloom;

namespace {

// One key's record as the Redis scripts read it (js/src/redis/scripts.ts):
// the block's index inside its shard (u32, little-endian), then for each of
// the block's 8 words the bit (0..63) the key sets in it.
constexpr uint32_t kRecordBytes = 12;

// The last snapshot blob, kept until cbw_redis_blob_release (JS copies it out).
std::vector<uint8_t> lastBlob;

}  // namespace

extern "C" {

// Block count for { capacity, falsePositiveRate }: the local filter's sizing
// (BlockedBloomFilter::blockCountFor), so both answer with the same rate.
// 0 when the options are invalid or the table would be absurdly large.
EMSCRIPTEN_KEEPALIVE double cbw_redis_block_count(double capacity, double falsePositiveRate) {
  if (!(capacity >= 1) || capacity > static_cast<double>(kMaxCapacity)) return 0;
  const uint64_t count = static_cast<uint64_t>(capacity);
  if (!validateCapacityAndRate(count, falsePositiveRate).isOk()) return 0;
  const uint64_t blocks = BlockedBloomFilter::blockCountFor(count, falsePositiveRate);
  if (blocks == UINT64_MAX || blocks > (uint64_t{1} << 46)) return 0;
  return static_cast<double>(blocks);
}

// For each of `count` keys (bytes at data, uint32 offsets with count + 1
// entries, the layout of cbw_has_many): its shard at outShards[i] (u32) and its
// 12-byte record at outRecords + 12 i.
EMSCRIPTEN_KEEPALIVE void cbw_redis_positions(double seed, double blockCount, double shardBlocks, uintptr_t data,
                                              uintptr_t offsets, uint32_t count, uintptr_t outShards,
                                              uintptr_t outRecords) {
  const uint64_t seedValue = static_cast<uint64_t>(seed);
  const uint64_t blocks = static_cast<uint64_t>(blockCount);
  const uint64_t perShard = static_cast<uint64_t>(shardBlocks);
  const uint8_t* bytes = reinterpret_cast<const uint8_t*>(data);
  const uint32_t* ends = reinterpret_cast<const uint32_t*>(offsets);
  uint32_t* shards = reinterpret_cast<uint32_t*>(outShards);
  uint8_t* records = reinterpret_cast<uint8_t*>(outRecords);
  for (uint32_t i = 0; i < count; ++i) {
    const KeyHash hash = hashKey(bytes + ends[i], ends[i + 1] - ends[i], seedValue);
    const uint64_t block = blockedBlockIndex(hash, blocks);
    const uint64_t shard = block / perShard;
    const uint32_t local = static_cast<uint32_t>(block - shard * perShard);
    shards[i] = static_cast<uint32_t>(shard);
    uint8_t* record = records + static_cast<size_t>(i) * kRecordBytes;
    for (int b = 0; b < 4; ++b) record[b] = static_cast<uint8_t>(local >> (8 * b));
    // The bit blockedWordMask(hash, word) sets: (high >> 6 word) & 63.
    for (uint32_t word = 0; word < kBlockWords; ++word) {
      record[4 + word] = static_cast<uint8_t>((hash.high >> (6 * word)) & 63);
    }
  }
}

// Wraps a raw table (blockCount blocks at `payload`) and its parameters into a
// complete blocked Bloom blob (docs/FORMAT.md), readable by deserialize().
// Returns the blob's address (its length is 64 + 8 + 64 blockCount), valid
// until cbw_redis_blob_release; 0 when the parameters are invalid.
EMSCRIPTEN_KEEPALIVE uintptr_t cbw_redis_blob(double seed, double capacity, double falsePositiveRate,
                                              double itemCount, double blockCount, uintptr_t payload) {
  const uint64_t blocks = static_cast<uint64_t>(blockCount);
  if (blocks == 0 || blocks > kMaxTableBytes / BlockedBloomFilter::kBytesPerBlock) return 0;
  if (!validateCapacityAndRate(static_cast<uint64_t>(capacity), falsePositiveRate).isOk()) return 0;
  const uint8_t* table = reinterpret_cast<const uint8_t*>(payload);
  const size_t tableBytes = static_cast<size_t>(blocks * BlockedBloomFilter::kBytesPerBlock);
  // The format requires item count <= set bits (each counted key set at
  // least one new bit). Redis keeps both, and the scripts update them in
  // one atomic step; if a table was ever altered behind the filter's back,
  // the count (an estimate) yields, never the bits.
  uint64_t setBits = 0;
  for (size_t i = 0; i < tableBytes; ++i) setBits += static_cast<uint64_t>(__builtin_popcount(table[i]));
  FilterHeader header;
  header.type = FilterType::BlockedBloom;
  header.seed = static_cast<uint64_t>(seed);
  header.capacity = static_cast<uint64_t>(capacity);
  header.targetFalsePositiveRate = falsePositiveRate;
  header.itemCount = std::min<uint64_t>(static_cast<uint64_t>(itemCount), setBits);
  BlockedBloomFilter::Params params;
  params.blockCount = blocks;
  lastBlob = encodeBlob(header, encodeParams(params), table, tableBytes);
  return reinterpret_cast<uintptr_t>(lastBlob.data());
}

EMSCRIPTEN_KEEPALIVE void cbw_redis_blob_release() { std::vector<uint8_t>().swap(lastBlob); }

}  // extern "C"
