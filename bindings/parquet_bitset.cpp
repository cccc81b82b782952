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

}  // extern "C"
