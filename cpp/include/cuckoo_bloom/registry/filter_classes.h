// Every class of filter_types.h, declared: what the registry (any_filter.h) and
// the read-only path (filter_reader.h) instantiate over the type list. A new type
// adds its header here, once.
#pragma once

#include "cuckoo_bloom/bloom/blocked_bloom_filter.h"
#include "cuckoo_bloom/bloom/bloom_filter.h"
#include "cuckoo_bloom/bloom/counting_bloom_filter.h"
#include "cuckoo_bloom/chains/expiring_bloom_filter.h"
#include "cuckoo_bloom/chains/scalable_bloom_filter.h"
#include "cuckoo_bloom/chains/scalable_cuckoo_filter.h"
#include "cuckoo_bloom/cuckoo/cuckoo_filter.h"
#include "cuckoo_bloom/fuse/binary_fuse_filter.h"
