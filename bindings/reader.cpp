// The read-only module (core.reader.wasm, the `cuckoo-bloom-wasm/reader`
// entry): reads any filter or URL blocklist and answers has(), and reads a
// blocklist's exact companion (url/expression_set.h) to confirm. No embind:
// a handful of C exports over FilterReader (cuckoo_bloom/filter_reader.h),
// so the module links the readers and lookups and neither the registry's
// other operations nor embind's runtime (its wasm is about a third of
// core.small.wasm after brotli, its glue about a quarter).
//
// Contract with js/src/reader:
// - Bytes and keys cross as (pointer, length) into wasm memory JS filled.
// - cbw_reader_open never fails silently: it returns a handle whose status is
//   0 (ok) or a status code (cbw_status_name names it, cbw_reader_message
//   explains; handle_status.h, the convention of every module); 0 only when
//   even the handle could not be allocated.
// - Strings leave as pointers to NUL-terminated UTF-8 that stays valid as long
//   as the handle (messages) or forever (names).
// - 64-bit counts cross as doubles (exact up to 2^53).
#include <emscripten/emscripten.h>

#include <cstdint>
#include <new>
#include <optional>

#include "cuckoo_bloom/core/status.h"
#include "cuckoo_bloom/reader/filter_reader.h"
#include "cuckoo_bloom/url/expression_set.h"
#include "cuckoo_bloom/url/url_blocklist.h"
#include "handle_status.h"

using namespace cuckoo_bloom;

namespace {

struct ReaderHandle : HandleStatus {
  std::optional<FilterReader> reader;
  // Set when the bytes were a URL blocklist (the reader then holds its nested filter).
  std::optional<UrlBlocklistEnvelope> blocklist;
  // Set instead of reader when the bytes were a blocklist's exact companion.
  std::optional<ExpressionSet> confirmation;
  // Set instead when the bytes were the index of a split companion (kind 3).
  std::optional<ExpressionSetIndex> confirmationIndex;
};

// What cbw_reader_open reads.
enum ReadKind { kReadFilter = 0, kReadBlocklist = 1, kReadExpressionSet = 2, kReadExpressionSetIndex = 3 };

const uint8_t* bytesAt(uintptr_t pointer) { return reinterpret_cast<const uint8_t*>(pointer); }

}  // namespace

extern "C" {

// Reads a filter (kind 0), a URL blocklist (1) or a blocklist's exact
// companion (2) from `length` bytes at `data`.
EMSCRIPTEN_KEEPALIVE ReaderHandle* cbw_reader_open(uintptr_t data, uint32_t length, int kind) {
  auto* handle = new (std::nothrow) ReaderHandle();
  if (handle == nullptr) return nullptr;
  if (kind == kReadExpressionSet) {
    handle->keep(ExpressionSet::read(bytesAt(data), length), handle->confirmation);
    return handle;
  }
  if (kind == kReadExpressionSetIndex) {
    handle->keep(ExpressionSetIndex::read(bytesAt(data), length), handle->confirmationIndex);
    return handle;
  }
  const uint8_t* filterBytes = bytesAt(data);
  size_t filterLength = length;
  if (kind == kReadBlocklist) {
    Result<UrlBlocklistEnvelope> envelope = decodeUrlBlocklist(bytesAt(data), length);
    if (!envelope.isOk()) {
      handle->remember(envelope.status());
      return handle;
    }
    handle->blocklist = envelope.value();
    filterBytes = envelope.value().filter;
    filterLength = envelope.value().filterLength;
  }
  handle->keep(FilterReader::read(filterBytes, filterLength), handle->reader);
  // The envelope points into the caller's bytes, which JS frees after this call.
  if (handle->blocklist) handle->blocklist->filter = nullptr;
  return handle;
}

EMSCRIPTEN_KEEPALIVE void cbw_reader_free(ReaderHandle* handle) { delete handle; }
EMSCRIPTEN_KEEPALIVE int cbw_reader_status(const ReaderHandle* handle) {
  return static_cast<int>(handle->status().code());
}
EMSCRIPTEN_KEEPALIVE const char* cbw_reader_message(const ReaderHandle* handle) {
  return handle->status().message().c_str();
}

// The filter (a blocklist's nested filter): its header as written.
EMSCRIPTEN_KEEPALIVE const char* cbw_reader_type_name(const ReaderHandle* handle) {
  return filterTypeName(handle->reader->type());
}
EMSCRIPTEN_KEEPALIVE double cbw_reader_count(const ReaderHandle* handle) {
  return static_cast<double>(handle->reader->header().itemCount);
}
EMSCRIPTEN_KEEPALIVE double cbw_reader_capacity(const ReaderHandle* handle) {
  return static_cast<double>(handle->reader->header().capacity);
}
EMSCRIPTEN_KEEPALIVE double cbw_reader_rate(const ReaderHandle* handle) {
  return handle->reader->header().targetFalsePositiveRate;
}
EMSCRIPTEN_KEEPALIVE int cbw_reader_has(const ReaderHandle* handle, uintptr_t key, uint32_t length) {
  return handle->reader->has(bytesAt(key), length) ? 1 : 0;
}

// A blocklist's envelope (0 for a plain filter).
EMSCRIPTEN_KEEPALIVE uint32_t cbw_reader_blocklist_scheme(const ReaderHandle* handle) {
  return handle->blocklist ? handle->blocklist->expressionScheme : 0;
}
EMSCRIPTEN_KEEPALIVE uint32_t cbw_reader_blocklist_depth(const ReaderHandle* handle) {
  return handle->blocklist ? handle->blocklist->depth : 0;
}
EMSCRIPTEN_KEEPALIVE double cbw_reader_blocklist_entries(const ReaderHandle* handle) {
  return handle->blocklist ? static_cast<double>(handle->blocklist->entryCount) : 0;
}

// A companion (kind 2): its answers and the blocklist checksum it is bound to, as two u32 halves.
EMSCRIPTEN_KEEPALIVE int cbw_reader_set_contains(const ReaderHandle* handle, uintptr_t key, uint32_t length) {
  return handle->confirmation->contains(bytesAt(key), length) ? 1 : 0;
}
EMSCRIPTEN_KEEPALIVE double cbw_reader_set_count(const ReaderHandle* handle) {
  return static_cast<double>(handle->confirmation->count());
}
EMSCRIPTEN_KEEPALIVE uint32_t cbw_reader_set_checksum_low(const ReaderHandle* handle) {
  return static_cast<uint32_t>(handle->confirmation->blocklistChecksum());
}
EMSCRIPTEN_KEEPALIVE uint32_t cbw_reader_set_checksum_high(const ReaderHandle* handle) {
  return static_cast<uint32_t>(handle->confirmation->blocklistChecksum() >> 32);
}

// A split companion's index (kind 3): the part an expression falls in, each
// part's size, and a part's bytes checked against it: cbw_reader_index_open_part
// returns a kind-2 handle (its status says whether the bytes are that part).
EMSCRIPTEN_KEEPALIVE uint32_t cbw_reader_index_parts(const ReaderHandle* handle) {
  return handle->confirmationIndex->partCount();
}
EMSCRIPTEN_KEEPALIVE double cbw_reader_index_count(const ReaderHandle* handle) {
  return static_cast<double>(handle->confirmationIndex->count());
}
EMSCRIPTEN_KEEPALIVE uint32_t cbw_reader_index_checksum_low(const ReaderHandle* handle) {
  return static_cast<uint32_t>(handle->confirmationIndex->blocklistChecksum());
}
EMSCRIPTEN_KEEPALIVE uint32_t cbw_reader_index_checksum_high(const ReaderHandle* handle) {
  return static_cast<uint32_t>(handle->confirmationIndex->blocklistChecksum() >> 32);
}
EMSCRIPTEN_KEEPALIVE uint32_t cbw_reader_index_part_of(const ReaderHandle* handle, uintptr_t key, uint32_t length) {
  return handle->confirmationIndex->partOf(bytesAt(key), length);
}
EMSCRIPTEN_KEEPALIVE uint32_t cbw_reader_index_part_bytes(const ReaderHandle* handle, uint32_t part) {
  return part < handle->confirmationIndex->partCount() ? handle->confirmationIndex->partBytes(part) : 0;
}
EMSCRIPTEN_KEEPALIVE ReaderHandle* cbw_reader_index_open_part(const ReaderHandle* index, uint32_t part, uintptr_t data,
                                                              uint32_t length) {
  auto* handle = new (std::nothrow) ReaderHandle();
  if (handle == nullptr) return nullptr;
  handle->keep(index->confirmationIndex->checkPart(part, bytesAt(data), length), handle->confirmation);
  return handle;
}

// A URL's expressions checked in one crossing (js/src/url/check-url.ts): a
// batch of `count` keys, key i the bytes [data + offsets[i] - offsets[0],
// data + offsets[i + 1] - offsets[0]); returns the index of the first one the
// blocklist's filter reports and its exceptions (a kind-2 handle, 0: none)
// do not hold, or -1. Only a reported expression is hashed for the exceptions.
EMSCRIPTEN_KEEPALIVE int cbw_reader_first_hit(const ReaderHandle* handle, const ReaderHandle* exceptions,
                                              uintptr_t data, uintptr_t offsets, uint32_t count) {
  const FilterReader& reader = *handle->reader;
  const ExpressionSet* skip = exceptions == nullptr ? nullptr : &*exceptions->confirmation;
  const uint8_t* bytes = bytesAt(data);
  const uint32_t* ends = reinterpret_cast<const uint32_t*>(offsets);
  for (uint32_t i = 0; i < count; ++i) {
    const uint8_t* key = bytes + (ends[i] - ends[0]);
    const uint32_t length = ends[i + 1] - ends[i];
    if (reader.has(key, length) && (skip == nullptr || !skip->contains(key, length))) return static_cast<int>(i);
  }
  return -1;
}

}  // extern "C"

CBW_STATUS_NAME_EXPORT()
