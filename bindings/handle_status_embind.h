// A HandleStatus's readers for JavaScript (handle_status.h gives the
// convention), bound once for every embind handle class:
//   bindHandleStatus(class_<FilterHandle>("FilterHandle")).function(...)...
// ok() is the handle's made(); errorCode() the status name; errorMessage()
// and lastMessage() its message (the second name reads better after a call
// that failed on a made handle).
#pragma once

#include <emscripten/bind.h>

#include <string>

#include "handle_status.h"

template <typename Handle>
bool handleMade(const Handle& handle) {
  return handle.made();
}
template <typename Handle>
std::string handleErrorCode(const Handle& handle) {
  return handle.statusName();
}
template <typename Handle>
std::string handleErrorMessage(const Handle& handle) {
  return handle.status().message();
}

template <typename Handle>
const emscripten::class_<Handle>& bindHandleStatus(const emscripten::class_<Handle>& bound) {
  return bound.function("ok", &handleMade<Handle>)
      .function("errorCode", &handleErrorCode<Handle>)
      .function("errorMessage", &handleErrorMessage<Handle>)
      .function("lastMessage", &handleErrorMessage<Handle>);
}
