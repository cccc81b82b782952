// Inspection of a cuckoo filter, for visualisations and tests (the web demo's
// cuckoo view, its teaching pages): what a slot holds, and an add that records
// its eviction walk. A friend of CuckooFilter, as ConcurrentAccess is, so the
// filter itself keeps no inspection state: its add() records nothing and
// pays nothing for this (the walk's steps are reported only to an add that
// asked, through a pointer that is null in add()).
#pragma once

#include <cstdint>
#include <vector>

#include "cuckoo_bloom/cuckoo/cuckoo_filter.h"

namespace cuckoo_bloom {

struct CuckooInspector {
  // The fingerprint in `slot` of `bucket` (0: empty, and 0 out of range).
  // Semi-sorted buckets hold their fingerprints in canonical (sorted) order,
  // not insertion order.
  static uint32_t slotAt(const CuckooFilter& filter, uint64_t bucket, uint32_t slot) {
    if (bucket >= filter.bucketCount() || slot >= filter.bucketSize()) return 0;
    uint32_t slots[CuckooFilter::kMaxBucketSize];
    filter.withTable([&](const auto& table) { table.readBucket(bucket, slots); });
    return slots[slot];
  }

  // add(hash), the same insert and the same walk (the same bytes and the same
  // status after it), recording into `path` each fingerprint written and where:
  // the last step is the free slot that ended the walk. Empty when the key
  // found room directly; on Full, the walk that was tried and then undone.
  // (The slots describe the table right after the call.)
  static Status addRecordingKicks(CuckooFilter& filter, const KeyHash& hash, std::vector<CuckooKick>& path) {
    path.clear();
    const Status status = filter.addObserved(hash, &path);
    // On success the walk's last step is the landing; which slot of its
    // bucket the fingerprint took is read now, before anything else changes it.
    // (Slot by slot through slotAt: a few more decodes of one bucket, and no
    // second copy of the table reads in the binary.)
    if (status.isOk() && !path.empty()) {
      CuckooKick& landing = path.back();
      landing.slot = 0;
      while (landing.slot + 1 < filter.bucketSize() && slotAt(filter, landing.bucket, landing.slot) != landing.fingerprint) {
        ++landing.slot;
      }
    }
    return status;
  }
  static Status addRecordingKicks(CuckooFilter& filter, const uint8_t* key, size_t length,
                                  std::vector<CuckooKick>& path) {
    return addRecordingKicks(filter, filter.hashOf(key, length), path);
  }
};

}  // namespace cuckoo_bloom
