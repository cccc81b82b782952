// The one status convention of the four wasm modules (embind.cpp,
// cuckoo_index_bindings.cpp, reader.cpp, shared.cpp). Nothing throws: a
// failure crosses as its status code number (0 = ok; core/status.h is the one
// list) or that code's name, and a message. The TypeScript side has one
// reader of it, js/src/core/wasm-status.ts, which turns both into a
// FilterError with the same code and message.
//
// - A handle keeps its Status in a HandleStatus: why it could not be made,
//   or why its last fallible call failed. Embind modules give JavaScript its
//   readers with bindHandleStatus() (handle_status_embind.h): ok(),
//   errorCode(), errorMessage() and lastMessage(), never written per class.
// - Modules of plain C exports (no embind) give the code number and name it
//   with the module's one cbw_status_name export (CBW_STATUS_NAME_EXPORT).
#pragma once

#include <optional>
#include <string>
#include <utility>

#include "cuckoo_bloom/core/status.h"

class HandleStatus {
 public:
  // A handle is made when nothing failed while it was made; handles whose
  // later calls also record failures (a filter's, an index's) say "made"
  // by what they hold instead, with their own made().
  bool made() const { return status_.isOk(); }
  const cuckoo_bloom::Status& status() const { return status_; }
  const char* statusName() const { return cuckoo_bloom::statusCodeName(status_.code()); }

  // Records a failure; returns its code number for calls that return one.
  int remember(cuckoo_bloom::Status status) {
    const int code = static_cast<int>(status.code());
    status_ = std::move(status);
    return code;
  }

  // Keeps what `made` holds in `into`, or records why there is nothing.
  template <typename Value>
  bool keep(cuckoo_bloom::Result<Value> made, std::optional<Value>& into) {
    if (!made.isOk()) {
      remember(made.status());
      return false;
    }
    into.emplace(std::move(made).value());
    return true;
  }

 private:
  cuckoo_bloom::Status status_;
};

// The status name export of a module of plain C exports: one per module
// (the name JavaScript calls is the same in every such module).
#define CBW_STATUS_NAME_EXPORT()                                    \
  extern "C" EMSCRIPTEN_KEEPALIVE const char* cbw_status_name(int code) { \
    return cuckoo_bloom::statusCodeName(static_cast<cuckoo_bloom::StatusCode>(code)); \
  }
