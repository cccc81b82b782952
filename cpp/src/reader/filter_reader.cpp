#include "cuckoo_bloom/reader/filter_reader.h"

#include <string>
#include <type_traits>
#include <utility>

namespace cuckoo_bloom {
namespace {

template <typename Alternative>
constexpr bool kIsEmpty = std::is_same_v<std::decay_t<Alternative>, std::monostate>;

}  // namespace

Result<FilterReader> FilterReader::read(const uint8_t* data, size_t length) {
  // decodeBlob names the type; each class's deserialize then checks its own
  // parameters and payload (and decodes the header again: a few dozen bytes).
  Result<DecodedBlob> decoded = decodeBlob(data, length);
  if (!decoded.isOk()) return decoded.status();
  FilterReader reader;
  switch (decoded.value().header.type) {
#define CUCKOO_BLOOM_READER_READ(enumerator, id, text, Class) \
  case FilterType::enumerator: {                              \
    Result<Class> filter = Class::deserialize(data, length);  \
    if (!filter.isOk()) return filter.status();               \
    reader.filter_ = std::move(filter.value());               \
    return reader;                                            \
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
