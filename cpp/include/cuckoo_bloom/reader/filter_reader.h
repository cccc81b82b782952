// A read-only filter of any registered type: what a client that only checks
// shipped filters needs (read the bytes, answer has), without the registry's
// virtual interface. AnyFilter's vtable names every operation of every type
// (add, remove, union, clear, serialize), so a module that reads through it
// links all of them; FilterReader holds the filter in a std::variant over the
// classes of filter_types.h and reaches each class's has() through
// std::visit, so a module built on it alone (bindings/reader.cpp,
// core.reader.wasm) links the readers and lookups and nothing else.
//
// Reading is the same code as deserializeFilter (each class's deserialize),
// so both accept and refuse exactly the same bytes with the same statuses.
#pragma once

#include <cstddef>
#include <cstdint>
#include <variant>

#include "cuckoo_bloom/core/format.h"
#include "cuckoo_bloom/core/status.h"
#include "cuckoo_bloom/registry/filter_classes.h"
#include "cuckoo_bloom/registry/filter_types.h"

namespace cuckoo_bloom {

// std::monostate first: the state of a reader that holds nothing (moved from).
#define CUCKOO_BLOOM_READABLE_ALTERNATIVE(enumerator, id, text, Class) , Class
using ReadableFilter = std::variant<std::monostate CUCKOO_BLOOM_FILTER_TYPES(CUCKOO_BLOOM_READABLE_ALTERNATIVE)>;
#undef CUCKOO_BLOOM_READABLE_ALTERNATIVE

class FilterReader {
 public:
  // Reads any registered type: WrongType for a URL blocklist (read it with
  // decodeUrlBlocklist, then its nested filter) or an unknown type; Corrupt,
  // UnsupportedVersion, OutOfMemory as deserializeFilter reports them.
  static Result<FilterReader> read(const uint8_t* data, size_t length);

  FilterType type() const { return header().type; }
  // The header as written: itemCount, capacity, target rate, seed.
  const FilterHeader& header() const;
  // May the key be in the set? False is certain.
  bool has(const uint8_t* key, size_t length) const;

 private:
  ReadableFilter filter_;
};

}  // namespace cuckoo_bloom
