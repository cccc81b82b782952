// ::testing::Types<every class of filter_types.h>, for typed suites over the
// whole type list (registry_test.cpp, filter_reader_test.cpp): a type added
// to the list is tested by them without a new test file.
#pragma once

#include <gtest/gtest.h>

#include "cuckoo_bloom/registry/filter_classes.h"
#include "cuckoo_bloom/registry/filter_types.h"

namespace cuckoo_bloom_test {

// The macro gives a leading comma before each class, which DropFirst's `void` absorbs.
template <typename Ignored, typename... Filters>
struct DropFirst {
  using types = ::testing::Types<Filters...>;
};
#define CUCKOO_BLOOM_TYPE_LIST_ENTRY(enumerator, id, text, Class) , cuckoo_bloom::Class
using RegisteredTypes = DropFirst<void CUCKOO_BLOOM_FILTER_TYPES(CUCKOO_BLOOM_TYPE_LIST_ENTRY)>::types;
#undef CUCKOO_BLOOM_TYPE_LIST_ENTRY

}  // namespace cuckoo_bloom_test
