// The byte envelope of a URL blocklist: a composite blob (type 16) whose
// payload is one complete nested filter blob (any type of filter_types.h,
// a growing chain included) holding URL expressions.
//
// The envelope exists so blocklist bytes can never be mistaken for a plain
// filter (reading them as a BloomFilter is WRONG_TYPE), and so the reader
// knows which expression scheme filled the filter. Canonicalizing URLs and
// forming expressions is the caller's job (the npm package does it with the
// WHATWG URL parser); natively, query the nested filter with expressions.
//
// Parameters (8 bytes): expressionScheme u32, then u32 depth.
//   expressionScheme 1: Safe Browsing host-suffix / path-prefix expressions
//   without scheme or port, e.g. "evil.example/" or "evil.example/a/b.exe",
//   with Safe Browsing's fixed limits (host suffixes of at most 5 labels,
//   path prefixes of at most 3 directories); depth must be 0.
//   expressionScheme 2: the same expressions, with the limits the list
//   itself needs: depth = hostLabels (u16, low half) | pathDepth (u16, high
//   half), the most labels of any listed host and the most directories of any
//   listed path prefix. A URL is checked against its exact host and its host
//   suffixes of 2..hostLabels labels, and its exact path (with and without
//   query) and its prefixes of 0..pathDepth directories: every listed entry
//   that covers the URL is among them, and nothing deeper than any entry is.
//   expressionScheme 3: scheme 2, plus an exception set after the nested
//   filter: a complete type-33 blob (expression_set.h) of the 64-bit hashes
//   of expressions the filter reports but the list does not hold (public
//   suffixes, a build's never-match hosts). A lookup the filter reports whose
//   hash is in the set is a miss. The set's seed is kExpressionSetDefaultSeed,
//   its blocklistChecksum 0, its block shift the default and its Rice
//   parameter expressionSetRiceBits(count), with at least one hash: the one
//   encoding of those hashes, so the envelope stays canonical. It may be
//   absent (the payload is then the nested filter alone). Readers that
//   predate scheme 3 refuse it as UNSUPPORTED_VERSION, never misread it.
//   No listed expression may have an exception's hash: the writer (the npm
//   package's UrlBlocklist.build) refuses such a list.
// Header: itemCount = entries in the list; capacity and target rate are the
// nested filter's; seed 0.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "cuckoo_bloom/core/format.h"
#include "cuckoo_bloom/core/status.h"

namespace cuckoo_bloom {

constexpr uint32_t kExpressionSchemeSafeBrowsingV1 = 1;
constexpr uint32_t kExpressionSchemeListDepth = 2;
constexpr uint32_t kExpressionSchemeListDepthWithExceptions = 3;
// 2^53 - 1: the largest count a JavaScript number holds exactly.
constexpr uint64_t kMaxExactEntryCount = (uint64_t{1} << 53) - 1;

struct UrlBlocklistEnvelope {
  uint32_t expressionScheme = kExpressionSchemeSafeBrowsingV1;
  uint32_t depth = 0;  // scheme 2: hostLabels | pathDepth << 16
  uint64_t entryCount = 0;
  FilterType filterType = FilterType::Bloom;
  const uint8_t* filter = nullptr;  // the nested blob, inside the caller's bytes
  size_t filterLength = 0;
  // Scheme 3: the exception set's type-33 blob, inside the caller's bytes
  // (nullptr and 0 when absent; checked as the writer makes it).
  const uint8_t* exceptions = nullptr;
  size_t exceptionsLength = 0;
};

// Wraps a serialized filter, and with scheme 3 the exception set's blob (or
// none). InvalidArgument if either is not what the format allows.
Result<std::vector<uint8_t>> encodeUrlBlocklist(const uint8_t* filter, size_t filterLength,
                                                uint32_t expressionScheme, uint64_t entryCount, uint32_t depth = 0,
                                                const uint8_t* exceptions = nullptr, size_t exceptionsLength = 0);

// Validates the envelope and the nested blob's header and checksum (the
// nested filter's own deserialize() then checks its contents).
Result<UrlBlocklistEnvelope> decodeUrlBlocklist(const uint8_t* data, size_t length);

}  // namespace cuckoo_bloom
