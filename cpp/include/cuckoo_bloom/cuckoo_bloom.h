// Umbrella header: the whole library.
#pragma once

#include "cuckoo_bloom/bloom/blocked_bloom_filter.h"
#include "cuckoo_bloom/bloom/bloom_filter.h"
#include "cuckoo_bloom/bloom/counting_bloom_filter.h"
#include "cuckoo_bloom/chains/expiring_bloom_filter.h"
#include "cuckoo_bloom/chains/scalable_bloom_filter.h"
#include "cuckoo_bloom/chains/scalable_cuckoo_filter.h"
#include "cuckoo_bloom/core/format.h"
#include "cuckoo_bloom/core/hashing.h"
#include "cuckoo_bloom/core/status.h"
#include "cuckoo_bloom/core/utf8_offsets.h"
#include "cuckoo_bloom/cuckoo/cuckoo_filter.h"
#include "cuckoo_bloom/fuse/binary_fuse_filter.h"
#include "cuckoo_bloom/reader/filter_reader.h"
#include "cuckoo_bloom/registry/any_filter.h"
#include "cuckoo_bloom/url/url_blocklist.h"
