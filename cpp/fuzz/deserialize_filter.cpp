// deserializeFilter (the registry's reader of every type in filter_types.h)
// on arbitrary bytes.
//
// Checks, for every registered type:
//   - FilterReader (the read-only path) accepts and refuses the same bytes with
//     the same status, and answers every probe key as the registry's filter;
//   - never a crash or sanitizer report; a rejection is CORRUPT /
//     UNSUPPORTED_VERSION / WRONG_TYPE with a message; reading allocates at
//     most ~1.5x the input (+4 KiB);
//   - accepted bytes are of a registered type with a readable version (that
//     type's own reader reads the same filter, every other type's reader
//     says WRONG_TYPE), and are canonical: version-2 input is written back
//     byte for byte; version-1 input is written back as version 2 with only
//     the version field, the checksum and the type's upgrade bytes changed
//     (cuckoo: addressing and layout), and that reads back byte for byte and
//     answers every probe key as the original did (no false negative across
//     v1 -> v2);
//   - the shared read-only invariants (rate estimate in [0, 1], finite
//     parameters, the KeyHash form equals the byte form) and the type's own
//     (TypeChecks::inspect: bits, counters, buckets and positions agree);
//   - keys added afterwards are found (a FULL add changes nothing but the
//     walk state), with the type's add checks; the result reads back;
//   - union with the original bytes where the type has union (keys still
//     found, the type's count rule, the result reads back), UNSUPPORTED and
//     no change where it has not;
//   - removal of the added keys where the type has removal (each Ok, the
//     count back where it started, the result reads back), UNSUPPORTED and no
//     change where it has not.
#include "cuckoo_bloom/reader/filter_reader.h"
#include "filter_checks.h"

using namespace cuckoo_bloom;
using namespace cuckoo_bloom_fuzz;

namespace {

// Cuckoo walks cost up to maxKicks steps per add; above this the target only
// reads (2^20 kicks per add would make every input slow).
constexpr uint32_t kWalkBudget = 2048;

}  // namespace

// Composites' links are repaired too (their checksums), so mutations inside a
// link (its version, its count) reach the chain's checks.
CUCKOO_BLOOM_FUZZ_BLOB_HOOKS(true)

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  AllocationMeter meter;
  meter.start();
  Result<std::unique_ptr<AnyFilter>> result = deserializeFilter(data, size);
  meter.stop();
  // The read-only path (core.reader.wasm) accepts and refuses exactly these bytes, with the same status.
  const Result<FilterReader> reader = FilterReader::read(data, size);
  FUZZ_CHECK_MSG(reader.isOk() == result.isOk(), "FilterReader %s bytes deserializeFilter %s",
                 reader.isOk() ? "accepts" : "refuses", result.isOk() ? "accepts" : "refuses");
  if (!result.isOk()) {
    FUZZ_CHECK(reader.status().code() == result.status().code());
  }
  FUZZ_CHECK_MSG(meter.totalBytes() <= allocationBudget(size),
                 "deserialize of %zu bytes allocated %zu bytes (largest block %zu)", size, meter.totalBytes(),
                 meter.largestBytes());
  if (!result.isOk()) {
    FUZZ_CHECK_MSG(isDecodeError(result.status().code()), "unexpected status %s: %s",
                   statusCodeName(result.status().code()), result.status().message().c_str());
    FUZZ_CHECK(!result.status().message().empty());
    return 0;
  }
  AnyFilter& filter = *result.value();
  const FilterTypeInfo* info = registeredInfo(filter.type());
  FUZZ_CHECK(info != nullptr);
  FUZZ_CHECK(data[kOffsetType] == static_cast<uint8_t>(filter.type()));
  // A one-table type's in-memory table is its payload, plus what it derives on reading (the
  // expandable filter's spill counts, 2 bytes a block). A chain's payload is its links' whole
  // blobs (headers and checksums too), so only the write-back below checks its bytes.
  if (info->growth != FilterGrowth::ByChaining && !info->forgets) {
    FUZZ_CHECK(filter.byteLength() >= readLE(data + kOffsetPayloadLength, 8));
  }

  // Canonical encoding (with the version-1 rule), and the same answers after.
  const Bytes input(data, data + size);
  const std::unique_ptr<AnyFilter> written = checkWrittenBack(filter.type(), input, filter.serialize());
  const std::vector<std::string> keys = probeKeys(data, size);
  for (const std::string& key : keys) {
    FUZZ_CHECK_MSG(written->has(bytesOf(key), key.size()) == filter.has(bytesOf(key), key.size()),
                   "a probe key answers differently after the write-back");
    FUZZ_CHECK_MSG(reader.value().has(bytesOf(key), key.size()) == filter.has(bytesOf(key), key.size()),
                   "a probe key answers differently through FilterReader");
  }

  // Each type's own reader: the registry's choice reads the same filter,
  // every other type's says WRONG_TYPE.
  for (const FilterTypeInfo& other : registeredFilterTypes()) {
    withFilterClass(other.type, [&](auto tag) {
      using Filter = typename decltype(tag)::Filter;
      Result<Filter> direct = Filter::deserialize(data, size);
      if (other.type == filter.type()) {
        FUZZ_CHECK_MSG(direct.isOk(), "%s reader: %s", other.name, direct.status().message().c_str());
        FUZZ_CHECK(direct.value().serialize() == filter.serialize());
      } else {
        FUZZ_CHECK_MSG(direct.status().code() == StatusCode::WrongType, "%s reader on %s bytes: %s", other.name,
                       info->name, statusCodeName(direct.status().code()));
      }
    });
  }

  inspectFilter(filter, keys);

  bool exercisable = true;
  withConcrete(filter, [&](auto& concrete) {
    using Filter = ClassOf<decltype(concrete)>;
    exercisable = TypeChecks<Filter>::exercisable(concrete, kWalkBudget);
    if (exercisable) TypeChecks<Filter>::exerciseRead(concrete, keys);
  });
  if (!exercisable) return 0;

  // A filter read from bytes behaves like any other: what is added is found
  // (or FULL changed nothing but the walk state), and its bytes read back.
  const uint64_t countAtStart = filter.header().itemCount;
  std::vector<std::string> added;
  for (const std::string& key : keys) {
    const KeyHash h = hashOf(filter, key);
    const Bytes before = filter.serialize();
    const Status status = checkedAdd(filter, h);
    if (status.isOk()) {
      added.push_back(key);
    } else {
      FUZZ_CHECK_MSG(differOnlyIn(before, filter.serialize(), walkStateOf(filter, before.size())),
                     "a FULL add changed the filter");
    }
  }
  for (const std::string& key : added) FUZZ_CHECK_MSG(filter.has(bytesOf(key), key.size()), "an added key was lost");
  readBack(filter.serialize(), "after adds");

  // Union with the filter of the original bytes (same geometry and seed).
  Result<std::unique_ptr<AnyFilter>> original = deserializeFilter(data, size);
  FUZZ_CHECK(original.isOk());
  if (info->supportsUnion) {
    const uint64_t countA = filter.header().itemCount, countB = original.value()->header().itemCount;
    const Bytes beforeUnion = filter.serialize();
    const Status status = filter.unionWith(*original.value());
    // A chain's count is the exact sum of its links' (checked on read): a
    // union that would count past 2^64 - 1 is refused, nothing changed.
    if (filter.type() == FilterType::ScalableBloom && countB > UINT64_MAX - countA) {
      FUZZ_CHECK_MSG(status.code() == StatusCode::InvalidArgument, "union past 2^64 - 1 keys: %s",
                     statusCodeName(status.code()));
      FUZZ_CHECK(filter.serialize() == beforeUnion);
      return 0;
    }
    // A chain that grew links while the probe keys were added no longer has the original's
    // shape: its union is refused (INVALID_ARGUMENT), nothing changed.
    if (info->growth == FilterGrowth::ByChaining && status.code() == StatusCode::InvalidArgument) {
      FUZZ_CHECK(filter.serialize() == beforeUnion);
      return 0;
    }
    FUZZ_CHECK_MSG(status.isOk(), "union with the original: %s", status.message().c_str());
    for (const std::string& key : keys) FUZZ_CHECK(filter.has(bytesOf(key), key.size()));
    withConcrete(filter, [&](const auto& concrete) {
      TypeChecks<ClassOf<decltype(concrete)>>::afterUnion(concrete, countA, countB);
    });
    readBack(filter.serialize(), "after union");
  } else {
    const Bytes before = filter.serialize();
    FUZZ_CHECK(filter.unionWith(*original.value()).code() == StatusCode::Unsupported);
    FUZZ_CHECK(filter.serialize() == before);
  }

  // Remove what was added: each remove Ok, the count back where it started.
  if (info->supportsRemove) {
    uint64_t keptAmbiguous = 0;
    for (const std::string& key : added) {
      FUZZ_CHECK(filter.has(bytesOf(key), key.size()));
      const Status status = filter.remove(bytesOf(key), key.size());
      // A growing chain keeps a key matching in several links (nothing removed).
      if (status.code() == StatusCode::Unsupported && filter.has(bytesOf(key), key.size())) {
        ++keptAmbiguous;
        continue;
      }
      FUZZ_CHECK_MSG(status.isOk(), "remove of an added key: %s", status.message().c_str());
    }
    // (A count read as near UINT64_MAX wraps on add; see exerciseRead.)
    if (countAtStart <= UINT64_MAX - added.size()) FUZZ_CHECK(filter.header().itemCount == countAtStart + keptAmbiguous);
    readBack(filter.serialize(), "after removes");
  } else if (!keys.empty()) {
    const Bytes before = filter.serialize();
    FUZZ_CHECK(filter.remove(bytesOf(keys[0]), keys[0].size()).code() == StatusCode::Unsupported);
    FUZZ_CHECK(filter.serialize() == before);
  }
  return 0;
}
