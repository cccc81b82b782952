// decodeUrlBlocklist on arbitrary bytes (the type-16 envelope around one
// nested filter), then the nested filter's own deserialize().
//
// Checks: never crashes; fails only with CORRUPT / UNSUPPORTED_VERSION /
// WRONG_TYPE; the decoded view of the nested blob lies inside the input; the
// nested filter deserializes with the type the envelope reports or fails
// cleanly; and when everything succeeds the envelope is canonical:
// encodeUrlBlocklist(nested bytes, scheme, entry count) gives back exactly the
// input, as UrlBlocklist.deserialize(bytes).serialize() does in the npm
// package. Allocation stays within ~1.5x the input (+4 KiB).
//
// The custom mutator repairs the nested blob's length and checksum as well as
// the outer ones, so mutations reach the nested filter's checks.
//
// corpus/deserialize_url_blocklist/regression-envelope-* are this target's
// first finding: envelopes whose header seed was not 0, or whose capacity or
// rate differed from the nested filter's, were accepted (fixed in
// url_blocklist.cpp, which now rejects them as CORRUPT).
#include "cuckoo_bloom/blocked_bloom_filter.h"
#include "cuckoo_bloom/bloom_filter.h"
#include "cuckoo_bloom/counting_bloom_filter.h"
#include "cuckoo_bloom/cuckoo_filter.h"
#include "cuckoo_bloom/url_blocklist.h"
#include "fuzz_common.h"

using namespace cuckoo_bloom;
using namespace cuckoo_bloom_fuzz;

namespace {

template <typename Filter>
bool checkNested(const uint8_t* data, size_t size, const std::vector<std::string>& keys) {
  Result<Filter> nested = Filter::deserialize(data, size);
  if (!nested.isOk()) {
    // The envelope already checked the nested header and checksum, so only
    // the type-specific checks can fail here.
    FUZZ_CHECK_MSG(nested.status().code() == StatusCode::Corrupt, "nested: %s %s",
                   statusCodeName(nested.status().code()), nested.status().message().c_str());
    return false;
  }
  FUZZ_CHECK(nested.value().serialize() == Bytes(data, data + size));
  for (const std::string& key : keys) (void)nested.value().has(key);
  return true;
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
  FUZZ_CHECK(envelope.expressionScheme == kExpressionSchemeSafeBrowsingV1);
  FUZZ_CHECK(envelope.filter != nullptr && envelope.filter >= data &&
             envelope.filterLength <= size &&
             envelope.filter + envelope.filterLength <= data + size);
  FUZZ_CHECK(isSinglePartFilterType(static_cast<uint8_t>(envelope.filterType)));
  FUZZ_CHECK(envelope.entryCount <= kMaxExactEntryCount);  // exact as a JS number

  const std::vector<std::string> keys = probeKeys(data, size);
  meter.start();
  switch (envelope.filterType) {
    case FilterType::Bloom:
      checkNested<BloomFilter>(envelope.filter, envelope.filterLength, keys);
      break;
    case FilterType::BlockedBloom:
      checkNested<BlockedBloomFilter>(envelope.filter, envelope.filterLength, keys);
      break;
    case FilterType::CountingBloom:
      checkNested<CountingBloomFilter>(envelope.filter, envelope.filterLength, keys);
      break;
    case FilterType::Cuckoo:
      checkNested<CuckooFilter>(envelope.filter, envelope.filterLength, keys);
      break;
    case FilterType::UrlBlocklist:
      FUZZ_CHECK(!"a composite nested filter was accepted");
  }
  meter.stop();
  // Nested deserialize + serialize + probe keys: the table, its serialized
  // copy and a little more.
  FUZZ_CHECK_MSG(meter.totalBytes() <= 3 * size + 8192, "nested filter of %zu bytes: %zu bytes",
                 envelope.filterLength, meter.totalBytes());

  // Canonical envelope: re-encoding what was decoded gives the same bytes.
  Result<Bytes> encoded = encodeUrlBlocklist(envelope.filter, envelope.filterLength,
                                             envelope.expressionScheme, envelope.entryCount);
  FUZZ_CHECK_MSG(encoded.isOk(), "%s", encoded.status().message().c_str());
  const Bytes input(data, data + size);
  FUZZ_CHECK_MSG(readLE(data + kOffsetSeed, 8) == 0,
                 "decodeUrlBlocklist accepted an envelope whose seed is not 0");
  FUZZ_CHECK_MSG(std::equal(data + kOffsetCapacity, data + kOffsetRateEnd,
                            envelope.filter + kOffsetCapacity),
                 "decodeUrlBlocklist accepted an envelope whose capacity or rate differ from "
                 "the nested filter's");
  FUZZ_CHECK_MSG(encoded.value() == input,
                 "decodeUrlBlocklist accepted a non-canonical envelope (re-encoding differs)");
  return 0;
}
