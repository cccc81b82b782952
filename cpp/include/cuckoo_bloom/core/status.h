// Status values returned by every fallible operation of the core.
//
// The core never throws across its public API: a caller (native C++, or the
// wasm bindings) always gets a StatusCode it can switch on plus a message a
// person can read. The codes are stable: the bindings map them 1:1 onto the
// JavaScript FilterError codes.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>

namespace cuckoo_bloom {

// The one list of status codes: (enumerator, number, name the JS FilterError uses).
// The bindings export the names from here, so TypeScript never copies the numbers.
#define CUCKOO_BLOOM_STATUS_CODES(X)                                                         \
  X(Ok, 0, "OK")                                                                             \
  X(InvalidArgument, 1, "INVALID_ARGUMENT")   /* bad options: capacity 0, rate outside (0, 1) */ \
  X(Full, 2, "FULL")                          /* a cuckoo filter could not place a key (nothing lost) */ \
  X(Corrupt, 3, "CORRUPT")                    /* truncated, inconsistent or failing the checksum */ \
  X(UnsupportedVersion, 4, "UNSUPPORTED_VERSION") /* a format version this build does not read */ \
  X(WrongType, 5, "WRONG_TYPE")               /* valid bytes of another filter type */      \
  X(NotFound, 6, "NOT_FOUND")                 /* remove() of a key that is not present */   \
  X(OutOfMemory, 7, "OUT_OF_MEMORY")          /* an allocation failed; nothing changed */   \
  X(Unsupported, 8, "UNSUPPORTED")            /* an operation this filter type does not have */

enum class StatusCode : uint8_t {
#define CUCKOO_BLOOM_STATUS_ENUMERATOR(name, number, text) name = number,
  CUCKOO_BLOOM_STATUS_CODES(CUCKOO_BLOOM_STATUS_ENUMERATOR)
#undef CUCKOO_BLOOM_STATUS_ENUMERATOR
};

const char* statusCodeName(StatusCode code);

class Status {
 public:
  Status() = default;
  Status(StatusCode code, std::string message) : code_(code), message_(std::move(message)) {}

  static Status ok() { return Status(); }
  static Status invalidArgument(std::string message) {
    return Status(StatusCode::InvalidArgument, std::move(message));
  }
  static Status full(std::string message) { return Status(StatusCode::Full, std::move(message)); }
  static Status corrupt(std::string message) {
    return Status(StatusCode::Corrupt, std::move(message));
  }
  static Status unsupportedVersion(std::string message) {
    return Status(StatusCode::UnsupportedVersion, std::move(message));
  }
  static Status wrongType(std::string message) {
    return Status(StatusCode::WrongType, std::move(message));
  }
  static Status notFound(std::string message) {
    return Status(StatusCode::NotFound, std::move(message));
  }
  static Status outOfMemory(std::string message) {
    return Status(StatusCode::OutOfMemory, std::move(message));
  }
  static Status unsupported(std::string message) {
    return Status(StatusCode::Unsupported, std::move(message));
  }

  bool isOk() const { return code_ == StatusCode::Ok; }
  StatusCode code() const { return code_; }
  const std::string& message() const { return message_; }

 private:
  StatusCode code_ = StatusCode::Ok;
  std::string message_;
};

// A value or the Status that explains why there is none.
template <typename T>
class Result {
 public:
  Result(T value) : value_(std::move(value)) {}  // NOLINT(google-explicit-constructor)
  Result(Status status) : status_(std::move(status)) {}  // NOLINT(google-explicit-constructor)

  bool isOk() const { return value_.has_value(); }
  const Status& status() const { return status_; }
  T& value() & { return *value_; }
  const T& value() const& { return *value_; }
  T&& value() && { return std::move(*value_); }

 private:
  Status status_;
  std::optional<T> value_;
};

}  // namespace cuckoo_bloom
