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

// The one list of status codes: (enumerator, number, name the JS FilterError uses,
// the Status factory that makes it). The bindings export the names from here, so
// TypeScript never copies the numbers; every code but Ok is an error, and its
// factory, Status::<factory>(message), is generated from this list too.
#define CUCKOO_BLOOM_ERROR_CODES(X)                                                                                              \
  X(InvalidArgument, 1, "INVALID_ARGUMENT", invalidArgument)          /* bad options: capacity 0, rate outside (0, 1) */         \
  X(Full, 2, "FULL", full)                                            /* a cuckoo filter could not place a key (nothing lost) */ \
  X(Corrupt, 3, "CORRUPT", corrupt)                                   /* truncated, inconsistent or failing the checksum */      \
  X(UnsupportedVersion, 4, "UNSUPPORTED_VERSION", unsupportedVersion) /* a format version this build does not read */            \
  X(WrongType, 5, "WRONG_TYPE", wrongType)                            /* valid bytes of another filter type */                   \
  X(NotFound, 6, "NOT_FOUND", notFound)                               /* remove() of a key that is not present */                \
  X(OutOfMemory, 7, "OUT_OF_MEMORY", outOfMemory)                     /* an allocation failed; nothing changed */                \
  X(Unsupported, 8, "UNSUPPORTED", unsupported)                       /* an operation this filter type does not have */
#define CUCKOO_BLOOM_STATUS_CODES(X) X(Ok, 0, "OK", ok) CUCKOO_BLOOM_ERROR_CODES(X)

enum class StatusCode : uint8_t {
#define CUCKOO_BLOOM_STATUS_ENUMERATOR(name, number, ...) name = number,
  CUCKOO_BLOOM_STATUS_CODES(CUCKOO_BLOOM_STATUS_ENUMERATOR)
#undef CUCKOO_BLOOM_STATUS_ENUMERATOR
};

const char* statusCodeName(StatusCode code);

class Status {
 public:
  Status() = default;
  Status(StatusCode code, std::string message) : code_(code), message_(std::move(message)) {}

  static Status ok() { return Status(); }
#define CUCKOO_BLOOM_STATUS_FACTORY(name, number, text, factory) \
  static Status factory(std::string message) { return Status(StatusCode::name, std::move(message)); }
  CUCKOO_BLOOM_ERROR_CODES(CUCKOO_BLOOM_STATUS_FACTORY)
#undef CUCKOO_BLOOM_STATUS_FACTORY

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
