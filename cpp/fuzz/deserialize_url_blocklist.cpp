// decodeUrlBlocklist on arbitrary bytes (the type-16 envelope around one
// nested filter), then the nested filter through the registry's
// deserializeFilter (every type in filter_types.h).
//
// Checks: never crashes; fails only with CORRUPT / UNSUPPORTED_VERSION /
// WRONG_TYPE; the decoded view of the nested blob lies inside the input; the
// nested filter deserializes with the type the envelope reports or fails
// with CORRUPT, and is canonical (the version-1 rule of deserialize_filter:
// version-2 bytes are written back byte for byte, version-1 bytes as version
// 2 with only the version field, the checksum and the type's upgrade bytes
// changed); the nested filter is in the envelope's own format version; and
// the envelope is canonical: encodeUrlBlocklist(nested bytes, scheme, entry
// count, depth) gives back exactly a version-2 input; a version-1 envelope
// (around a version-1 filter) is rewritten as a whole, as
// UrlBlocklist.deserialize(bytes).serialize() does in the npm package: the
// nested filter serialized again and wrapped, which differs from the input
// only in the envelope's version field and what the filter's own upgrade
// changes, and encodes back to itself.
// Scheme 3: an exception set is only there, right after the nested filter and
// up to the checksum, and re-encoding (with the set) gives back the input.
// Allocation stays within ~1.5x the input (+4 KiB).
//
// The custom mutator repairs the nested blob's length and checksum as well as
// the outer ones, so mutations reach the nested filter's checks.
//
// corpus/deserialize_url_blocklist/regression-envelope-* are this target's
// first finding: envelopes whose header seed was not 0, or whose capacity or
// rate differed from the nested filter's, were accepted (fixed in
// url_blocklist.cpp, which now rejects them as CORRUPT).
#include "cuckoo_bloom/url/url_blocklist.h"
#include "filter_checks.h"

using namespace cuckoo_bloom;
using namespace cuckoo_bloom_fuzz;

namespace {

// The nested filter through the registry. Returns it, or nullptr when the
// nested bytes are rejected: CORRUPT, or UNSUPPORTED_VERSION for a link of a
// chain (the envelope already checked the nested filter's own header and
// checksum, but not the headers of the links inside it; a chain reports a
// link's unknown version as such, see linkError in link_chain.h).
std::unique_ptr<AnyFilter> readNested(const UrlBlocklistEnvelope& envelope, const std::vector<std::string>& keys) {
  Result<std::unique_ptr<AnyFilter>> nested = deserializeFilter(envelope.filter, envelope.filterLength);
  if (!nested.isOk()) {
    const StatusCode code = nested.status().code();
    const bool linkVersion = code == StatusCode::UnsupportedVersion &&
                             nested.status().message().find(" link ") != std::string::npos;
    FUZZ_CHECK_MSG(code == StatusCode::Corrupt || linkVersion, "nested: %s %s", statusCodeName(code),
                   nested.status().message().c_str());
    return nullptr;
  }
  FUZZ_CHECK(nested.value()->type() == envelope.filterType);
  for (const std::string& key : keys) (void)nested.value()->has(bytesOf(key), key.size());
  return std::move(nested).value();
}

constexpr size_t kOffsetSeed = 16, kOffsetCapacity = 32, kOffsetRateEnd = 48;

}  // namespace

CUCKOO_BLOOM_FUZZ_BLOB_HOOKS(true)

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  AllocationMeter meter;
  meter.start();
  Result<UrlBlocklistEnvelope> result = decodeUrlBlocklist(data, size);
  meter.stop();
  FUZZ_CHECK_MSG(meter.totalBytes() <= allocationBudget(size),
                 "decodeUrlBlocklist of %zu bytes allocated %zu bytes", size, meter.totalBytes());
  if (!result.isOk()) {
    FUZZ_CHECK_MSG(isDecodeError(result.status().code()), "unexpected status %s: %s",
                   statusCodeName(result.status().code()), result.status().message().c_str());
    FUZZ_CHECK(!result.status().message().empty());
    return 0;
  }
  const UrlBlocklistEnvelope& envelope = result.value();
  FUZZ_CHECK(envelope.expressionScheme == kExpressionSchemeSafeBrowsingV1 ||
             envelope.expressionScheme == kExpressionSchemeListDepth ||
             envelope.expressionScheme == kExpressionSchemeListDepthWithExceptions);
  // An exception set only in scheme 3, and right after the nested filter, up to the checksum.
  FUZZ_CHECK(envelope.exceptions == nullptr ||
             (envelope.expressionScheme == kExpressionSchemeListDepthWithExceptions &&
              envelope.exceptions == envelope.filter + envelope.filterLength &&
              envelope.exceptions + envelope.exceptionsLength == data + size - 8));
  FUZZ_CHECK(envelope.expressionScheme != kExpressionSchemeSafeBrowsingV1 || envelope.depth == 0);
  FUZZ_CHECK(envelope.filter != nullptr && envelope.filter >= data &&
             envelope.filterLength <= size &&
             envelope.filter + envelope.filterLength <= data + size);
  FUZZ_CHECK(isRegisteredFilterType(static_cast<uint8_t>(envelope.filterType)));
  FUZZ_CHECK(envelope.entryCount <= kMaxExactEntryCount);  // exact as a JS number

  const std::vector<std::string> keys = probeKeys(data, size);
  meter.start();
  std::unique_ptr<AnyFilter> nested = readNested(envelope, keys);
  const Bytes nestedWritten = nested ? nested->serialize() : Bytes();
  meter.stop();
  // Nested deserialize + serialize + probe keys: the table, its serialized
  // copy and a little more.
  FUZZ_CHECK_MSG(meter.totalBytes() <= 3 * size + 8192, "nested filter of %zu bytes: %zu bytes",
                 envelope.filterLength, meter.totalBytes());

  if (nested) {
    const Bytes nestedInput(envelope.filter, envelope.filter + envelope.filterLength);
    checkWrittenBack(nested->type(), nestedInput, nestedWritten);
  }

  // One version for the whole blob.
  FUZZ_CHECK_MSG(readLE(envelope.filter + 4, 2) == readLE(data + 4, 2),
                 "decodeUrlBlocklist accepted a nested filter in another format version than its envelope");
  const Bytes input(data, data + size);
  FUZZ_CHECK_MSG(readLE(data + kOffsetSeed, 8) == 0,
                 "decodeUrlBlocklist accepted an envelope whose seed is not 0");
  FUZZ_CHECK_MSG(std::equal(data + kOffsetCapacity, data + kOffsetRateEnd,
                            envelope.filter + kOffsetCapacity),
                 "decodeUrlBlocklist accepted an envelope whose capacity or rate differ from "
                 "the nested filter's");
  // Canonical envelope: re-encoding what was decoded gives the same bytes.
  if (readLE(data + 4, 2) == kFormatVersion) {
    Result<Bytes> encoded =
        encodeUrlBlocklist(envelope.filter, envelope.filterLength, envelope.expressionScheme, envelope.entryCount,
                           envelope.depth, envelope.exceptions, envelope.exceptionsLength);
    FUZZ_CHECK_MSG(encoded.isOk(), "%s", encoded.status().message().c_str());
    FUZZ_CHECK_MSG(encoded.value() == input,
                   "decodeUrlBlocklist accepted a non-canonical envelope (re-encoding differs)");
    return 0;
  }
  // A version-1 envelope wraps a version-1 filter, which this build writes
  // only as version 2: encoding the old bytes is refused.
  FUZZ_CHECK(encodeUrlBlocklist(envelope.filter, envelope.filterLength, envelope.expressionScheme,
                                envelope.entryCount, envelope.depth)
                 .status()
                 .code() == StatusCode::InvalidArgument);
  if (!nested) return 0;
  // Rewritten as a whole: the filter's version-2 bytes, wrapped again.
  Result<Bytes> upgraded = encodeUrlBlocklist(nestedWritten.data(), nestedWritten.size(), envelope.expressionScheme,
                                              envelope.entryCount, envelope.depth);
  FUZZ_CHECK_MSG(upgraded.isOk(), "%s", upgraded.status().message().c_str());
  const Bytes& out = upgraded.value();
  FUZZ_CHECK(readLE(out.data() + 4, 2) == kFormatVersion && out.size() == kHeader + 8 + nestedWritten.size() + 8);
  FUZZ_CHECK_MSG(std::equal(input.begin() + 6, input.begin() + kHeader + 8, out.begin() + 6),
                 "a version-1 envelope rewritten as version 2 changed more than its version");
  FUZZ_CHECK(std::equal(nestedWritten.begin(), nestedWritten.end(), out.begin() + kHeader + 8));
  Result<UrlBlocklistEnvelope> again = decodeUrlBlocklist(out.data(), out.size());
  FUZZ_CHECK_MSG(again.isOk(), "the rewritten envelope: %s", again.status().message().c_str());
  Result<Bytes> twice = encodeUrlBlocklist(again.value().filter, again.value().filterLength,
                                           again.value().expressionScheme, again.value().entryCount,
                                           again.value().depth);
  FUZZ_CHECK(twice.isOk() && twice.value() == out);
  return 0;
}
