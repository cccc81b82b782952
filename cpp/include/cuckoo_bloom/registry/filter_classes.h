// Every class of filter_types.h, declared: what the registry (any_filter.h) and
// the read-only path (filter_reader.h) instantiate over the type list. The
// headers are listed in filter_types.h itself, beside the type list (a new
// type is one file's edit there); this opens that section.
#pragma once

#define CUCKOO_BLOOM_WANT_FILTER_CLASSES
#include "cuckoo_bloom/registry/filter_types.h"
