// Limits and option checks shared by every filter.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "cuckoo_bloom/core/status.h"

namespace cuckoo_bloom {

// The largest table a filter may allocate, checked before allocating. In a
// 32-bit address space (wasm32) a table must leave room for everything else in
// the 2 GiB heap; natively the limit only guards against absurd requests.
constexpr uint64_t kMaxTableBytes =
    sizeof(size_t) >= 8 ? (uint64_t{1} << 36) : (uint64_t{1} << 30) + (uint64_t{1} << 29);

// Capacity is a count of keys; it must be at least 1 and small enough that the
// sizing arithmetic cannot overflow.
constexpr uint64_t kMaxCapacity = uint64_t{1} << 40;

// A number for an error message: up to 6 decimals, or scientific when tiny or
// huge; "NaN" and "Infinity" as such.
std::string formatNumber(double value);

// Checks the two options every filter shares.
Status validateCapacityAndRate(uint64_t capacity, double falsePositiveRate);

// Checks a table size against kMaxTableBytes.
Status validateTableBytes(uint64_t tableBytes, const char* filterName);

}  // namespace cuckoo_bloom
