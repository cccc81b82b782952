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

enum class StatusCode : uint8_t {
  Ok = 0,
  InvalidArgument = 1,     // bad options: capacity 0, rate outside (0, 1), ...
  Full = 2,                // a cuckoo filter could not place a key (nothing was lost)
  Corrupt = 3,             // bytes that are truncated, inconsistent or fail the checksum
  UnsupportedVersion = 4,  // a format version this build does not read
  WrongType = 5,           // valid bytes of another filter type
  NotFound = 6,            // remove() of a key that is not present
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
