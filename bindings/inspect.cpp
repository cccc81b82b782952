// The inspection bindings: what the web demo's teaching views and the
// TypeScript inspection methods read of a filter (a key's positions, a Bloom
// filter's bits, a counter, a cuckoo slot, a key's two buckets, an add's
// eviction walk), through the inspectors of cpp/include/cuckoo_bloom/inspect/.
// The filter classes keep no inspection state; bindings/embind.cpp binds the
// filters and none of this.
//
// Contract with js/src: a filter is named by its handle's address() (as on
// the fast path); each read applies to the types that have the structure and
// returns an empty answer (0, an empty array) on the others.
#include <emscripten/bind.h>
#include <emscripten/emscripten.h>
#include <emscripten/val.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "cuckoo_bloom/cuckoo_bloom.h"
#include "cuckoo_bloom/inspect/bloom_inspector.h"
#include "cuckoo_bloom/inspect/cuckoo_inspector.h"
#include "filter_handle.h"

using namespace emscripten;
using namespace cuckoo_bloom;

namespace {

const uint8_t* bytesAt(uintptr_t pointer) { return reinterpret_cast<const uint8_t*>(pointer); }

// The bit (or counter) indexes a key maps to, in probe order.
val positions(uintptr_t handle, uintptr_t key, uint32_t length) {
  const AnyFilter& filter = filterOfHandle(handle);
  val out = val::array();
  for (const uint64_t position : filter.positions(filter.hashOf(bytesAt(key), length))) {
    out.call<void>("push", static_cast<double>(position));
  }
  return out;
}

// Read-only view of a Bloom filter's bit array: valid until the filter is freed.
val bloomBits(uintptr_t handle) {
  const BloomFilter* bloom = filterOfHandle(handle).as<BloomFilter>();
  if (bloom == nullptr) return val(typed_memory_view(size_t{0}, static_cast<const uint8_t*>(nullptr)));
  return val(typed_memory_view(bloom->byteLength(), reinterpret_cast<const uint8_t*>(bloom->words())));
}

uint32_t counterAt(uintptr_t handle, double index) {
  const CountingBloomFilter* counting = filterOfHandle(handle).as<CountingBloomFilter>();
  return counting == nullptr || index < 0 ? 0 : BloomInspector::counterAt(*counting, static_cast<uint64_t>(index));
}

uint32_t slotAt(uintptr_t handle, double bucket, uint32_t slot) {
  const CuckooFilter* cuckoo = filterOfHandle(handle).as<CuckooFilter>();
  return cuckoo == nullptr || bucket < 0 ? 0 : CuckooInspector::slotAt(*cuckoo, static_cast<uint64_t>(bucket), slot);
}

// [bucket1, bucket2, fingerprint] of a key, without touching the table.
val locate(uintptr_t handle, uintptr_t key, uint32_t length) {
  val out = val::array();
  const CuckooFilter* cuckoo = filterOfHandle(handle).as<CuckooFilter>();
  if (cuckoo == nullptr) return out;
  uint64_t bucket1 = 0, bucket2 = 0;
  uint32_t fingerprint = 0;
  cuckoo->locate(cuckoo->hashOf(bytesAt(key), length), bucket1, bucket2, fingerprint);
  out.call<void>("push", static_cast<double>(bucket1), static_cast<double>(bucket2), fingerprint);
  return out;
}

// The walk of the last recorded add (cbw_cuckoo_add_recording), read by
// JavaScript at once: 16 bytes a step, as CuckooKick lays them out.
std::vector<CuckooKick> recordedKicks;
static_assert(sizeof(CuckooKick) == 16 && offsetof(CuckooKick, slot) == 8 && offsetof(CuckooKick, fingerprint) == 12,
              "js/src/cuckoo/cuckoo.ts reads a step as 4 uint32: bucket low, bucket high, slot, fingerprint");

}  // namespace

extern "C" {
// A cuckoo filter's add that records its eviction walk (CuckooInspector::
// addRecordingKicks): what CuckooFilter's add and tryAdd call in TypeScript,
// whose lastKickPath() reports the walk. Returns the status code (0: OK) in
// the low 8 bits and the walk's steps above them; the steps are at
// cbw_recorded_kicks() until the next recorded add. UNSUPPORTED for another type.
EMSCRIPTEN_KEEPALIVE int cbw_cuckoo_add_recording(uintptr_t handle, uintptr_t key, uint32_t length) {
  CuckooFilter* cuckoo = filterOfHandle(handle).as<CuckooFilter>();
  if (cuckoo == nullptr) return static_cast<int>(StatusCode::Unsupported);
  const Status status = CuckooInspector::addRecordingKicks(*cuckoo, bytesAt(key), length, recordedKicks);
  return static_cast<int>(status.code()) | static_cast<int>(recordedKicks.size() << 8);
}
// The address of the last recorded walk: 16 bytes a step (CuckooKick: bucket
// as a little-endian uint64, slot, fingerprint).
EMSCRIPTEN_KEEPALIVE uintptr_t cbw_recorded_kicks() { return reinterpret_cast<uintptr_t>(recordedKicks.data()); }
}

EMSCRIPTEN_BINDINGS(cuckoo_bloom_inspect) {
  function("inspectPositions", &positions);
  function("inspectBloomBits", &bloomBits);
  function("inspectCounterAt", &counterAt);
  function("inspectSlotAt", &slotAt);
  function("inspectLocate", &locate);
}
