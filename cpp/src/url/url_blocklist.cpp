#include "cuckoo_bloom/url/url_blocklist.h"

#include <cstring>
#include <string>

namespace cuckoo_bloom {

Result<std::vector<uint8_t>> encodeUrlBlocklist(const uint8_t* filter, size_t filterLength,
                                                uint32_t expressionScheme, uint64_t entryCount, uint32_t depth) {
  if (expressionScheme != kExpressionSchemeSafeBrowsingV1 && expressionScheme != kExpressionSchemeListDepth) {
    return Status::invalidArgument("unknown expression scheme " + std::to_string(expressionScheme));
  }
  if (expressionScheme == kExpressionSchemeSafeBrowsingV1 && depth != 0) {
    return Status::invalidArgument("expression scheme 1 has fixed depths: depth must be 0");
  }
  if (entryCount > kMaxExactEntryCount) return Status::invalidArgument("entry count out of range");
  Result<DecodedBlob> inner = decodeBlob(filter, filterLength);
  if (!inner.isOk()) return Status::invalidArgument("not a valid filter: " + inner.status().message());
  if (!isRegisteredFilterType(static_cast<uint8_t>(inner.value().header.type))) {
    return Status::invalidArgument("a URL blocklist wraps a filter, not another blocklist");
  }
  // The envelope is written in this build's version, and a nested blob must be
  // in its envelope's version (decodeUrlBlocklist): older bytes are read and
  // serialized again first.
  if (inner.value().header.formatVersion != kFormatVersion) {
    return Status::invalidArgument("the filter is in format version " +
                                   std::to_string(inner.value().header.formatVersion) +
                                   "; a blocklist is written in version " + std::to_string(kFormatVersion) +
                                   " and wraps a filter of the same version (read and serialize it first)");
  }
  ByteWriter params;
  params.u32(expressionScheme);
  params.u32(depth);
  FilterHeader header;
  header.type = FilterType::UrlBlocklist;
  header.seed = 0;
  header.itemCount = entryCount;
  header.capacity = inner.value().header.capacity;
  header.targetFalsePositiveRate = inner.value().header.targetFalsePositiveRate;
  return encodeBlob(header, params.bytes(), std::vector<uint8_t>(filter, filter + filterLength));
}

Result<UrlBlocklistEnvelope> decodeUrlBlocklist(const uint8_t* data, size_t length) {
  Result<DecodedBlob> decoded = decodeBlobOfType(data, length, FilterType::UrlBlocklist);
  if (!decoded.isOk()) return decoded.status();
  const DecodedBlob& blob = decoded.value();
  if (blob.paramsLength != 8) return Status::corrupt("URL blocklist parameters must be 8 bytes");
  ByteReader params(blob.params, blob.paramsLength);
  uint32_t scheme = 0, depth = 0;
  params.u32(scheme);
  params.u32(depth);
  if (scheme != kExpressionSchemeSafeBrowsingV1 && scheme != kExpressionSchemeListDepth) {
    return Status::unsupportedVersion("URL expression scheme " + std::to_string(scheme) +
                                      " is not supported (this build knows schemes 1 and 2)");
  }
  if (scheme == kExpressionSchemeSafeBrowsingV1 && depth != 0) return Status::corrupt("reserved parameter bytes are set");
  // Scheme 2 came after format version 2: no version-1 writer made one.
  if (scheme != kExpressionSchemeSafeBrowsingV1 && blob.header.formatVersion < 2) {
    return Status::corrupt("URL expression scheme " + std::to_string(scheme) +
                           " exists from format version 2; this blocklist says version " +
                           std::to_string(blob.header.formatVersion));
  }
  Result<DecodedBlob> inner = decodeBlob(blob.payload, blob.payloadLength);
  if (!inner.isOk()) {
    // Damage inside a blob whose outer checksum held means it was built that way.
    return Status(inner.status().code() == StatusCode::UnsupportedVersion ? StatusCode::UnsupportedVersion
                                                                          : StatusCode::Corrupt,
                  "the blocklist's nested filter is invalid: " + inner.status().message());
  }
  if (!isRegisteredFilterType(static_cast<uint8_t>(inner.value().header.type))) {
    return Status::corrupt("the blocklist's nested filter is another blocklist");
  }
  // One version for the whole blob: a version-1 blocklist (of a version-1
  // filter) is rewritten as a whole in version 2; a version-2 envelope around
  // a version-1 filter is what no writer makes, and would be written back
  // with the filter in version 2, i.e. as other bytes.
  if (inner.value().header.formatVersion != blob.header.formatVersion) {
    return Status::corrupt("the blocklist is in format version " + std::to_string(blob.header.formatVersion) +
                           " but its nested filter in version " +
                           std::to_string(inner.value().header.formatVersion) +
                           " (a nested blob must be in its envelope's version)");
  }
  // The envelope's header fields are defined by the nested filter (and seed 0):
  // anything else is not what encodeUrlBlocklist writes, and would not survive
  // a round trip unchanged.
  const FilterHeader& outer = blob.header;
  const FilterHeader& nested = inner.value().header;
  if (outer.seed != 0 || outer.capacity != nested.capacity ||
      std::memcmp(&outer.targetFalsePositiveRate, &nested.targetFalsePositiveRate, sizeof(double)) != 0) {
    return Status::corrupt("the blocklist header disagrees with its nested filter (seed, capacity or rate)");
  }
  // Entry counts cross into JavaScript as doubles: keep them exact there.
  if (outer.itemCount > kMaxExactEntryCount) return Status::corrupt("entry count out of range");
  UrlBlocklistEnvelope envelope;
  envelope.expressionScheme = scheme;
  envelope.depth = depth;
  envelope.entryCount = blob.header.itemCount;
  envelope.filterType = inner.value().header.type;
  envelope.filter = blob.payload;
  envelope.filterLength = blob.payloadLength;
  return envelope;
}

}  // namespace cuckoo_bloom
