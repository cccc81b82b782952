// CuckooFilter::deserialize on arbitrary bytes.
//
// Checks: never crashes; fails only with CORRUPT / UNSUPPORTED_VERSION /
// WRONG_TYPE; allocates at most ~1.5x the input (+4 KiB); when it succeeds,
// serialize() gives back exactly the input (rngState included), has() agrees
// with locate() + slotAt(), and on the table read from bytes (whatever its
// contents) add() either stores the key (found, count + 1) or reports FULL
// only when both of the key's buckets were full, leaving every slot and the
// count as they were; removing the added keys brings the count back.
#include "cuckoo_bloom/cuckoo_filter.h"
#include "fuzz_common.h"

using namespace cuckoo_bloom;
using namespace cuckoo_bloom_fuzz;

namespace {

// The params block's rngState field: the only bytes a FULL add may change
// (besides the checksum).
constexpr size_t kRngStateFrom = kHeader + 8;
constexpr size_t kRngStateTo = kHeader + 16;

// Kick walks cost up to maxKicks steps per add; above this the target only
// reads (2^20 kicks per add would make every input slow).
constexpr uint32_t kMaxKicksExercised = 2048;

bool bucketHasRoom(const CuckooFilter& filter, uint64_t bucket) {
  for (uint32_t slot = 0; slot < filter.bucketSize(); ++slot) {
    if (filter.slotAt(bucket, slot) == 0) return true;
  }
  return false;
}

bool bucketHolds(const CuckooFilter& filter, uint64_t bucket, uint32_t fingerprint) {
  for (uint32_t slot = 0; slot < filter.bucketSize(); ++slot) {
    if (filter.slotAt(bucket, slot) == fingerprint) return true;
  }
  return false;
}

}  // namespace

CUCKOO_BLOOM_FUZZ_BLOB_HOOKS(false)

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::optional<CuckooFilter> read = deserializeChecked<CuckooFilter>(data, size);
  if (!read) return 0;
  CuckooFilter& filter = *read;

  const uint64_t buckets = filter.bucketCount();
  FUZZ_CHECK(buckets >= 2 && (buckets & (buckets - 1)) == 0);
  FUZZ_CHECK(filter.bucketSize() == 2 || filter.bucketSize() == 4 || filter.bucketSize() == 8);
  FUZZ_CHECK(filter.fingerprintBits() >= 4 && filter.fingerprintBits() <= 32);
  FUZZ_CHECK(filter.count() <= filter.slotCount());
  const double load = filter.loadFactor();
  FUZZ_CHECK(load >= 0.0 && load <= 1.0);
  const double estimate = filter.estimatedFalsePositiveRate();
  FUZZ_CHECK(estimate >= 0.0 && estimate <= 1.0);

  const std::vector<std::string> keys = probeKeys(data, size);
  for (const std::string& key : keys) {
    uint64_t bucket1 = 0, bucket2 = 0;
    uint32_t fingerprint = 0;
    filter.locate(bytesOf(key), key.size(), bucket1, bucket2, fingerprint);
    FUZZ_CHECK(bucket1 < buckets && bucket2 < buckets && bucket1 != bucket2);
    FUZZ_CHECK(fingerprint != 0 && (fingerprint >> 1 >> (filter.fingerprintBits() - 1)) == 0);
    const bool expected = bucketHolds(filter, bucket1, fingerprint) ||
                          bucketHolds(filter, bucket2, fingerprint);
    FUZZ_CHECK(filter.has(key) == expected);
  }

  if (filter.maxKicks() > kMaxKicksExercised) return 0;
  const uint64_t countAtStart = filter.count();
  std::vector<std::string> added;
  for (const std::string& key : keys) {
    uint64_t bucket1 = 0, bucket2 = 0;
    uint32_t fingerprint = 0;
    filter.locate(bytesOf(key), key.size(), bucket1, bucket2, fingerprint);
    const bool room = bucketHasRoom(filter, bucket1) || bucketHasRoom(filter, bucket2);
    const Bytes before = filter.serialize();
    const uint64_t countBefore = filter.count();
    const Status status = filter.add(key);
    if (status.isOk()) {
      FUZZ_CHECK(filter.has(key));
      FUZZ_CHECK(filter.count() == countBefore + 1);
      added.push_back(key);
    } else {
      FUZZ_CHECK_MSG(status.code() == StatusCode::Full, "add: %s", status.message().c_str());
      FUZZ_CHECK_MSG(!room, "FULL although a bucket of the key had room");
      FUZZ_CHECK(filter.count() == countBefore);
      FUZZ_CHECK_MSG(equalExcept(before, filter.serialize(), kRngStateFrom, kRngStateTo),
                     "a FULL add changed the table");
    }
  }
  const Bytes afterAdds = filter.serialize();
  Result<CuckooFilter> copy = CuckooFilter::deserialize(afterAdds.data(), afterAdds.size());
  FUZZ_CHECK_MSG(copy.isOk(), "%s", copy.status().message().c_str());
  FUZZ_CHECK(copy.value().serialize() == afterAdds);

  for (const std::string& key : added) {
    FUZZ_CHECK(filter.has(key));
    FUZZ_CHECK(filter.remove(key).isOk());
  }
  FUZZ_CHECK(filter.count() == countAtStart);
  const Bytes afterRemoves = filter.serialize();
  FUZZ_CHECK(CuckooFilter::deserialize(afterRemoves.data(), afterRemoves.size()).isOk());
  return 0;
}
