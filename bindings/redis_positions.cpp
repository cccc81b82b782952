// Plain C exports for the Redis-backed blocked Bloom filter (js/src/redis/).
//
// The table lives in Redis; only positions, the plan of each script call and
// the byte format are computed here, by the same core as the local
// BlockedBloomFilter (hashing.h), so a filter in Redis and one in memory with
// the same seed and block count set exactly the same bits, and a snapshot of
// the Redis table is a valid blocked Bloom blob.
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
#include <cstring>
#include <vector>

#include "cuckoo_bloom/cuckoo_bloom.h"

using namespace cuckoo_bloom;

namespace {

// One hashed key (cbw_redis_hash → cbw_redis_plan): its block in the whole
// table and, for each of the block's 8 words, the bit (0..63) it sets there.
struct HashedKey {
  uint64_t block;
  uint8_t bits[8];
};
static_assert(sizeof(HashedKey) == 16, "js/src/redis/positions.ts reserves 16 bytes per key");

// One key's record as the add script reads it (js/src/redis/scripts.ts): its
// block's byte offset inside its range (u32, little-endian), then its 8 bits.
constexpr uint32_t kRecordBytes = 12;
// A plan's group row: shard, first key (in plan order), key count, ranges text
// offset and length (bytes), reply bytes (the ranges' total length).
constexpr uint32_t kGroupWords = 6;
// The most text one range takes: two (length byte + up to 20 digits) + u16 key count.
constexpr uint32_t kMaxRangeTextBytes = 2 * 21 + 2;
// Key counts per range cross as u16; positions.ts keeps calls below this.
constexpr uint32_t kMaxKeysPerPlan = 65535;

void putU32(uint8_t* out, uint32_t value) {
  for (int b = 0; b < 4; ++b) out[b] = static_cast<uint8_t>(value >> (8 * b));
}

// Decimal text of `value`, as Redis parses integers (no sign, no leading zero).
uint8_t* putDecimal(uint8_t* out, uint64_t value) {
  char digits[20];
  int n = 0;
  do {
    digits[n++] = static_cast<char>('0' + value % 10);
    value /= 10;
  } while (value != 0);
  *out++ = static_cast<uint8_t>(n);
  while (n > 0) *out++ = static_cast<uint8_t>(digits[--n]);
  return out;
}

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

// Hashes `count` keys laid out as KeyArena::encodeBatch lays them out (bytes
// at data, count + 1 uint32 offsets, read relative to the first) into
// HashedKey entries at `out`.
EMSCRIPTEN_KEEPALIVE void cbw_redis_hash(double seed, double blockCount, uintptr_t data, uintptr_t offsets,
                                         uint32_t count, uintptr_t out) {
  const uint64_t seedValue = static_cast<uint64_t>(seed);
  const uint64_t blocks = static_cast<uint64_t>(blockCount);
  const uint8_t* bytes = reinterpret_cast<const uint8_t*>(data);
  const uint32_t* ends = reinterpret_cast<const uint32_t*>(offsets);
  HashedKey* keys = reinterpret_cast<HashedKey*>(out);
  const uint32_t first = ends[0];
  for (uint32_t i = 0; i < count; ++i) {
    const KeyHash hash = hashKey(bytes + (ends[i] - first), ends[i + 1] - ends[i], seedValue);
    keys[i].block = blockedBlockIndex(hash, blocks);
    // The bit blockedWordMask(hash, word) sets: (high >> 6 word) & 63.
    for (uint32_t word = 0; word < kBlockWords; ++word) {
      keys[i].bits[word] = static_cast<uint8_t>((hash.high >> (6 * word)) & 63);
    }
  }
}

// Plans one script call over `count` hashed keys: which bytes of which shard
// it reads, and where each key's block lies in what it reads.
//
// Keys are put in block order (ties in batch order, so a key repeated in the
// batch is still added first where it first appears) and grouped by shard.
// Within a shard, blocks at most `gapBlocks` apart share one range: a
// script's GETRANGE costs about as much as copying ~1 KiB, so reading a short
// gap beats a second call (bench/redis.mjs), and a small table is read in a
// few ranges whatever the batch.
//
// Writes at `out` (sizes from count; positions.ts computes the same offsets):
//   groups   count × 6 u32 (kGroupWords), one row per shard touched
//   order    count u32: the batch index of the key at each plan position
//   replyAt  count u32: the byte offset of its block in its group's ranges
//   records  count × 12 bytes (kRecordBytes): offset in its range, 8 bits
//   texts    the groups' ranges, end to end: per range the decimal byte
//            offsets of its first and last byte in the shard, each as a
//            length byte and digits, then its key count (u16)
// Returns the number of groups; 0 when count is 0 or above kMaxKeysPerPlan.
EMSCRIPTEN_KEEPALIVE uint32_t cbw_redis_plan(double shardBlocks, double gapBlocks, uintptr_t hashed,
                                             uint32_t count, uintptr_t out) {
  if (count == 0 || count > kMaxKeysPerPlan) return 0;
  const uint64_t perShard = static_cast<uint64_t>(shardBlocks);
  const uint64_t gap = static_cast<uint64_t>(gapBlocks);
  const HashedKey* keys = reinterpret_cast<const HashedKey*>(hashed);
  uint8_t* base = reinterpret_cast<uint8_t*>(out);
  uint32_t* groups = reinterpret_cast<uint32_t*>(base);
  uint32_t* order = reinterpret_cast<uint32_t*>(base + size_t{count} * kGroupWords * 4);
  uint32_t* replyAt = order + count;
  uint8_t* records = reinterpret_cast<uint8_t*>(replyAt + count);
  uint8_t* textsStart = records + size_t{count} * kRecordBytes;
  uint8_t* text = textsStart;

  std::vector<uint32_t> sorted(count);
  for (uint32_t i = 0; i < count; ++i) sorted[i] = i;
  std::sort(sorted.begin(), sorted.end(), [keys](uint32_t a, uint32_t b) {
    return keys[a].block != keys[b].block ? keys[a].block < keys[b].block : a < b;
  });

  uint32_t groupCount = 0;
  uint32_t* group = nullptr;
  uint64_t shard = 0, rangeFirst = 0, rangeLast = 0;  // blocks within the shard
  uint32_t rangeKeys = 0, replyBase = 0;              // replyBase: the group's bytes before this range
  const auto closeRange = [&]() {
    text = putDecimal(text, rangeFirst * BlockedBloomFilter::kBytesPerBlock);
    text = putDecimal(text, rangeLast * BlockedBloomFilter::kBytesPerBlock + BlockedBloomFilter::kBytesPerBlock - 1);
    *text++ = static_cast<uint8_t>(rangeKeys);
    *text++ = static_cast<uint8_t>(rangeKeys >> 8);
    replyBase += static_cast<uint32_t>((rangeLast - rangeFirst + 1) * BlockedBloomFilter::kBytesPerBlock);
  };
  const auto closeGroup = [&]() {
    closeRange();
    group[4] = static_cast<uint32_t>(text - textsStart) - group[3];
    group[5] = replyBase;
  };
  for (uint32_t n = 0; n < count; ++n) {
    const HashedKey& key = keys[sorted[n]];
    const uint64_t keyShard = key.block / perShard;
    const uint64_t local = key.block - keyShard * perShard;
    if (group == nullptr || keyShard != shard) {
      if (group != nullptr) closeGroup();
      group = groups + size_t{groupCount++} * kGroupWords;
      shard = keyShard;
      group[0] = static_cast<uint32_t>(shard);
      group[1] = n;
      group[2] = 0;
      group[3] = static_cast<uint32_t>(text - textsStart);
      replyBase = 0;
      rangeFirst = rangeLast = local;
      rangeKeys = 0;
    } else if (local - rangeLast > gap + 1) {
      closeRange();
      rangeFirst = rangeLast = local;
      rangeKeys = 0;
    } else {
      rangeLast = local;
    }
    ++group[2];
    ++rangeKeys;
    const uint32_t offsetInRange = static_cast<uint32_t>((local - rangeFirst) * BlockedBloomFilter::kBytesPerBlock);
    order[n] = sorted[n];
    replyAt[n] = replyBase + offsetInRange;
    uint8_t* record = records + size_t{n} * kRecordBytes;
    putU32(record, offsetInRange);
    std::memcpy(record + 4, key.bits, 8);
  }
  closeGroup();
  static_assert(kMaxRangeTextBytes == 44, "positions.ts reserves 44 text bytes per key");
  return groupCount;
}

// The 64 bytes before a blocked Bloom blob's payload (docs/FORMAT.md: the
// 56-byte header and the 8-byte parameter block) for a table of `blockCount`
// blocks, written at `out`, so a snapshot is assembled around a payload that
// never enters wasm memory whole. Built by the format's own encoder for a
// one-block table, then the two fields that depend on the size (payload
// length at 48, blockCount at 56) are set: both are fixed-offset u64s.
// Returns 0 when the parameters are invalid.
EMSCRIPTEN_KEEPALIVE uint32_t cbw_redis_head(double seed, double capacity, double falsePositiveRate, double itemCount,
                                             double blockCount, uintptr_t out) {
  const uint64_t blocks = static_cast<uint64_t>(blockCount);
  if (blocks == 0 || blocks > kMaxTableBytes / BlockedBloomFilter::kBytesPerBlock) return 0;
  if (!validateCapacityAndRate(static_cast<uint64_t>(capacity), falsePositiveRate).isOk()) return 0;
  FilterHeader header;
  header.type = FilterType::BlockedBloom;
  header.seed = static_cast<uint64_t>(seed);
  header.capacity = static_cast<uint64_t>(capacity);
  header.targetFalsePositiveRate = falsePositiveRate;
  header.itemCount = static_cast<uint64_t>(itemCount);
  BlockedBloomFilter::Params params;
  params.blockCount = 1;
  const uint8_t oneBlock[BlockedBloomFilter::kBytesPerBlock] = {};
  const std::vector<uint8_t> blob = encodeBlob(header, encodeParams(params), oneBlock, sizeof(oneBlock));
  uint8_t* head = reinterpret_cast<uint8_t*>(out);
  std::memcpy(head, blob.data(), 64);
  const uint64_t payloadLength = blocks * BlockedBloomFilter::kBytesPerBlock;
  for (int b = 0; b < 8; ++b) {
    head[48 + b] = static_cast<uint8_t>(payloadLength >> (8 * b));
    head[56 + b] = static_cast<uint8_t>(blocks >> (8 * b));
  }
  return 1;
}

// A blob's checksum (XXH3-64, seed 0, over head and payload), streamed:
// cbw_redis_digest_new, then update over the bytes in order, then final
// (which frees the state) or free.
EMSCRIPTEN_KEEPALIVE uintptr_t cbw_redis_digest_new() {
  XXH3_state_t* state = XXH3_createState();
  if (state != nullptr) XXH3_64bits_reset(state);
  return reinterpret_cast<uintptr_t>(state);
}

// Hashes `length` bytes and returns how many bits are set in them (the
// format bounds a Bloom filter's item count by its set bits).
EMSCRIPTEN_KEEPALIVE double cbw_redis_digest_update(uintptr_t state, uintptr_t bytes, uint32_t length) {
  const uint8_t* data = reinterpret_cast<const uint8_t*>(bytes);
  XXH3_64bits_update(reinterpret_cast<XXH3_state_t*>(state), data, length);
  uint64_t setBits = 0;
  size_t i = 0;
  for (; i + 8 <= length; i += 8) {
    uint64_t word;
    std::memcpy(&word, data + i, 8);
    setBits += static_cast<uint64_t>(__builtin_popcountll(word));
  }
  for (; i < length; ++i) setBits += static_cast<uint64_t>(__builtin_popcount(data[i]));
  return static_cast<double>(setBits);
}

// Writes the digest at `out` (8 bytes, little-endian, as the format stores it) and frees the state.
EMSCRIPTEN_KEEPALIVE void cbw_redis_digest_final(uintptr_t state, uintptr_t out) {
  XXH3_state_t* xxh = reinterpret_cast<XXH3_state_t*>(state);
  const uint64_t digest = XXH3_64bits_digest(xxh);
  XXH3_freeState(xxh);
  uint8_t* bytes = reinterpret_cast<uint8_t*>(out);
  for (int b = 0; b < 8; ++b) bytes[b] = static_cast<uint8_t>(digest >> (8 * b));
}

EMSCRIPTEN_KEEPALIVE void cbw_redis_digest_free(uintptr_t state) {
  XXH3_freeState(reinterpret_cast<XXH3_state_t*>(state));
}

}  // extern "C"
