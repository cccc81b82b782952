// What the other binding files may know of bindings/embind.cpp's FilterHandle:
// the filter behind a handle's address() (the fast path's handle argument).
#pragma once

#include <cstdint>

#include "cuckoo_bloom/registry/any_filter.h"

cuckoo_bloom::AnyFilter& filterOfHandle(uintptr_t handle);
