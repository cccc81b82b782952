#include "cuckoo_bloom/url/url_blocklist.h"

#include <cstring>
#include <string>

#include "cuckoo_bloom/url/expression_set.h"

namespace cuckoo_bloom {

namespace {

bool hasExceptionSlot(uint32_t scheme) { return scheme == kExpressionSchemeListDepthWithExceptions; }

// The length of the blob that starts at `data` as its header announces it
// (64 + P + L), or `length` when the header is short or announces more than
// `length` bytes (decodeBlob then reports it).
size_t announcedBlobLength(const uint8_t* data, size_t length) {
  if (length < kHeaderBytes + kChecksumBytes) return length;
  uint32_t paramsLength = 0;
  uint64_t payloadLength = 0;
  ByteReader(data + 12, 4).u32(paramsLength);
  ByteReader(data + 48, 8).u64(payloadLength);
  const uint64_t room = static_cast<uint64_t>(length) - kHeaderBytes - kChecksumBytes;
  if (paramsLength > room || payloadLength > room - paramsLength) return length;
  return static_cast<size_t>(kHeaderBytes + paramsLength + payloadLength + kChecksumBytes);
}

// An exception set as the writer makes it: the one encoding of its hashes
// (default seed and block shift, the Rice parameter its count implies, no
// checksum binding, at least one hash), in the envelope's format version.
// Returns the reason it is not, with the set's own status code.
Status checkExceptionSet(const uint8_t* data, size_t length, uint16_t envelopeVersion) {
  Result<ExpressionSet> read = ExpressionSet::read(data, length);
  if (!read.isOk()) return read.status();
  const ExpressionSet& set = read.value();
  uint16_t version = 0;
  ByteReader(data + 4, 2).u16(version);
  if (version != envelopeVersion) {
    return Status::corrupt("the exception set is in format version " + std::to_string(version) +
                           ", its blocklist in version " + std::to_string(envelopeVersion));
  }
  if (set.count() == 0) return Status::corrupt("the exception set is empty (a list without exceptions has none)");
  if (set.seed() != kExpressionSetDefaultSeed) return Status::corrupt("the exception set's seed is not the default");
  if (set.blocklistChecksum() != 0) return Status::corrupt("the exception set's blocklist checksum field is not 0");
  if (set.blockShift() != kExpressionSetDefaultBlockShift || set.riceBits() != expressionSetRiceBits(set.count())) {
    return Status::corrupt("the exception set is not coded with the default block shift and Rice parameter");
  }
  return Status::ok();
}

}  // namespace

Result<std::vector<uint8_t>> encodeUrlBlocklist(const uint8_t* filter, size_t filterLength,
                                                uint32_t expressionScheme, uint64_t entryCount, uint32_t depth,
                                                const uint8_t* exceptions, size_t exceptionsLength) {
  if (expressionScheme != kExpressionSchemeSafeBrowsingV1 && expressionScheme != kExpressionSchemeListDepth &&
      expressionScheme != kExpressionSchemeListDepthWithExceptions) {
    return Status::invalidArgument("unknown expression scheme " + std::to_string(expressionScheme));
  }
  if (expressionScheme == kExpressionSchemeSafeBrowsingV1 && depth != 0) {
    return Status::invalidArgument("expression scheme 1 has fixed depths: depth must be 0");
  }
  if (entryCount > kMaxExactEntryCount) return Status::invalidArgument("entry count out of range");
  if (exceptionsLength > 0) {
    if (!hasExceptionSlot(expressionScheme)) {
      return Status::invalidArgument("expression scheme " + std::to_string(expressionScheme) +
                                     " has no exception set (scheme 3 has)");
    }
    const Status valid = checkExceptionSet(exceptions, exceptionsLength, kFormatVersion);
    if (!valid.isOk()) return Status::invalidArgument("not a valid exception set: " + valid.message());
  }
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
  std::vector<uint8_t> payload(filter, filter + filterLength);
  if (exceptionsLength > 0) payload.insert(payload.end(), exceptions, exceptions + exceptionsLength);
  return encodeBlob(header, params.bytes(), payload);
}

Result<UrlBlocklistEnvelope> decodeUrlBlocklist(const uint8_t* data, size_t length) {
  Result<DecodedBlob> decoded = decodeBlobOfType(data, length, FilterType::UrlBlocklist);
  if (!decoded.isOk()) return decoded.status();
  const DecodedBlob& blob = decoded.value();
  // decodeBlob takes either hash algorithm (a filter type's own is its fact, checked
  // where the type reads); an envelope's expressions are hashed only one way, and
  // the writer records only that one.
  if (blob.header.hashAlgorithm != HashAlgorithm::Xxh3_64) {
    return Status::corrupt("a URL blocklist's header names hash algorithm " +
                           std::to_string(static_cast<int>(blob.header.hashAlgorithm)) + "; its expressions are hashed with XXH3 (1)");
  }
  if (blob.paramsLength != 8) return Status::corrupt("URL blocklist parameters must be 8 bytes");
  ByteReader params(blob.params, blob.paramsLength);
  uint32_t scheme = 0, depth = 0;
  params.u32(scheme);
  params.u32(depth);
  if (scheme != kExpressionSchemeSafeBrowsingV1 && scheme != kExpressionSchemeListDepth &&
      scheme != kExpressionSchemeListDepthWithExceptions) {
    return Status::unsupportedVersion("URL expression scheme " + std::to_string(scheme) +
                                      " is not supported (this build knows schemes 1, 2 and 3)");
  }
  if (scheme == kExpressionSchemeSafeBrowsingV1 && depth != 0) return Status::corrupt("reserved parameter bytes are set");
  // Scheme 2 came after format version 2: no version-1 writer made one.
  if (scheme != kExpressionSchemeSafeBrowsingV1 && blob.header.formatVersion < 2) {
    return Status::corrupt("URL expression scheme " + std::to_string(scheme) +
                           " exists from format version 2; this blocklist says version " +
                           std::to_string(blob.header.formatVersion));
  }
  // Scheme 3: the nested filter is as long as its header says; an exception set may follow.
  const size_t filterLength =
      hasExceptionSlot(scheme) ? announcedBlobLength(blob.payload, blob.payloadLength) : blob.payloadLength;
  Result<DecodedBlob> inner = decodeBlob(blob.payload, filterLength);
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
  envelope.filterLength = filterLength;
  if (filterLength < blob.payloadLength) {
    const uint8_t* exceptions = blob.payload + filterLength;
    const size_t exceptionsLength = blob.payloadLength - filterLength;
    const Status valid = checkExceptionSet(exceptions, exceptionsLength, blob.header.formatVersion);
    if (!valid.isOk()) {
      return Status(valid.code() == StatusCode::UnsupportedVersion ? StatusCode::UnsupportedVersion : StatusCode::Corrupt,
                    "the blocklist's exception set is invalid: " + valid.message());
    }
    envelope.exceptions = exceptions;
    envelope.exceptionsLength = exceptionsLength;
  }
  return envelope;
}

}  // namespace cuckoo_bloom
