// Umbrella header: the whole library.
#pragma once

#include "cuckoo_bloom/any_filter.h"
#include "cuckoo_bloom/binary_fuse_filter.h"
#include "cuckoo_bloom/blocked_bloom_filter.h"
#include "cuckoo_bloom/bloom_filter.h"
#include "cuckoo_bloom/counting_bloom_filter.h"
#include "cuckoo_bloom/cuckoo_filter.h"
#include "cuckoo_bloom/expiring_bloom_filter.h"
#include "cuckoo_bloom/filter_reader.h"
#include "cuckoo_bloom/format.h"
#include "cuckoo_bloom/hashing.h"
#include "cuckoo_bloom/scalable_bloom_filter.h"
#include "cuckoo_bloom/scalable_cuckoo_filter.h"
#include "cuckoo_bloom/status.h"
#include "cuckoo_bloom/url_blocklist.h"
#include "cuckoo_bloom/utf8_offsets.h"
