// Plain C export for the split-block Bloom filter's raw spec bitset (the
// Parquet file's bytes after a BloomFilterHeader), the one thing the registry's
// generic calls cannot do: replace a filter's bits with a bitset. The other
// direction needs no export: the library payload is the bitset itself.
#include <emscripten/emscripten.h>

#include <cstdint>

#include "filter_handle.h"
#include "cuckoo_bloom/parquet/split_block_bloom_filter.h"

using namespace cuckoo_bloom;

extern "C" {

// Copies `length` bitset bytes at `data` into the split-block Bloom filter of
// `handle` (made with that byte count): 0, or minus the status code
// (CORRUPT: another length; WRONG_TYPE: not a split-block Bloom filter).
EMSCRIPTEN_KEEPALIVE int cbw_sbbf_load_bitset(uintptr_t handle, uintptr_t data, uint32_t length) {
  SplitBlockBloomFilter* filter = filterOfHandle(handle).as<SplitBlockBloomFilter>();
  if (filter == nullptr) return -static_cast<int>(StatusCode::WrongType);
  const Status loaded = filter->loadBitset(reinterpret_cast<const uint8_t*>(data), length);
  return loaded.isOk() ? 0 : -static_cast<int>(loaded.code());
}

// The split-block Bloom filter's hash calls on a hash already computed (XXH64 of
// a value's plain bytes, js/src/parquet's addHash/hasHash), as two 32-bit halves
// since wasm32's C ABI has no portable 64-bit argument from JS. 1/0, or minus
// WRONG_TYPE for a handle of another type.
EMSCRIPTEN_KEEPALIVE int cbw_sbbf_add_hash(uintptr_t handle, uint32_t low, uint32_t high) {
  SplitBlockBloomFilter* filter = filterOfHandle(handle).as<SplitBlockBloomFilter>();
  if (filter == nullptr) return -static_cast<int>(StatusCode::WrongType);
  filter->add(KeyHash{(uint64_t{high} << 32) | low, 0});
  return 1;
}
EMSCRIPTEN_KEEPALIVE int cbw_sbbf_has_hash(uintptr_t handle, uint32_t low, uint32_t high) {
  SplitBlockBloomFilter* filter = filterOfHandle(handle).as<SplitBlockBloomFilter>();
  if (filter == nullptr) return -static_cast<int>(StatusCode::WrongType);
  return filter->hasHash((uint64_t{high} << 32) | low) ? 1 : 0;
}

// The spec's hash (XXH64, seed 0) of `length` bytes at `data`, written as two
// little-endian 32-bit halves (low first) at `out`: the parquet entry's xxhash64.
EMSCRIPTEN_KEEPALIVE void cbw_sbbf_xxh64(uintptr_t data, uint32_t length, uintptr_t out) {
  const uint64_t hash = SplitBlockBloomFilter::hashBytes(reinterpret_cast<const uint8_t*>(data), length);
  uint32_t* halves = reinterpret_cast<uint32_t*>(out);
  halves[0] = static_cast<uint32_t>(hash);
  halves[1] = static_cast<uint32_t>(hash >> 32);
}

}  // extern "C"
