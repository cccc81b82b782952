#include "cuckoo_bloom/reader/filter_reader.h"

#include <string>
#include <type_traits>
#include <utility>

namespace cuckoo_bloom {
namespace {

template <typename Alternative>
constexpr bool kIsEmpty = std::is_same_v<std::decay_t<Alternative>, std::monostate>;

// Reads the bytes as a `Class` into `filter`. One function per type, kept out of line: with
// every type's deserialize inlined, read() (and cbw_reader_open above it in core.reader.wasm,
// built -Oz -flto) was one 25 KB function of the module's 68 KB of code. Browsers compile
// wasm lazily, one function at its first call, so a page that reads one shipped filter
// compiled all eleven readers on its main thread before its first answer: ~40 ms of a
// phone's (4x throttled) first verdict in the demo. Out of line (noinline for LLVM;
// bindings/wasm.cmake caps Binaryen's inlining of one-caller functions), it compiles the one
// it reads.
template <typename Class>
[[gnu::noinline]] Status readInto(const uint8_t* data, size_t length, ReadableFilter& filter) {
  Result<Class> read = Class::deserialize(data, length);
  if (!read.isOk()) return read.status();
  filter = std::move(read.value());
  return Status::ok();
}

}  // namespace

Result<FilterReader> FilterReader::read(const uint8_t* data, size_t length) {
  // decodeBlob names the type; each class's deserialize then checks its own
  // parameters and payload (and decodes the header again: a few dozen bytes).
  Result<DecodedBlob> decoded = decodeBlob(data, length);
  if (!decoded.isOk()) return decoded.status();
  FilterReader reader;
  switch (decoded.value().header.type) {
#define CUCKOO_BLOOM_READER_READ(enumerator, id, text, Class)                 \
  case FilterType::enumerator: {                                              \
    if (Status status = readInto<Class>(data, length, reader.filter_); !status.isOk()) return status; \
    return reader;                                                            \
  }
    CUCKOO_BLOOM_FILTER_TYPES(CUCKOO_BLOOM_READER_READ)
#undef CUCKOO_BLOOM_READER_READ
    default:
      return Status::wrongType(std::string("these bytes are a ") + filterTypeName(decoded.value().header.type) +
                               ", not a filter (a URL blocklist is read as one)");
  }
}

const FilterHeader& FilterReader::header() const {
  static const FilterHeader kNoFilter{};
  return std::visit(
      [](const auto& filter) -> const FilterHeader& {
        if constexpr (kIsEmpty<decltype(filter)>) {
          return kNoFilter;
        } else {
          return filter.header();
        }
      },
      filter_);
}

bool FilterReader::has(const uint8_t* key, size_t length) const {
  return std::visit(
      [&](const auto& filter) {
        if constexpr (kIsEmpty<decltype(filter)>) {
          return false;
        } else {
          return filter.has(filter.hashOf(key, length));
        }
      },
      filter_);
}

}  // namespace cuckoo_bloom
