#include "cuckoo_bloom/exact_index/index_snapshot.h"

#include <algorithm>
#include <string>
#include <vector>

#include "cuckoo_bloom/exact_index/cuckoo_index.h"

namespace cuckoo_bloom {
namespace {

// Slots at most (index_table.h: 2^40), so bucketCount * 32 payload bytes fit in 64 bits.
constexpr uint64_t kMaxSnapshotBuckets = uint64_t{1} << 38;

}  // namespace

double indexSnapshotReadRate(uint32_t tagBits) {
  // Each of up to 8 occupied slots matches an absent key's tag with chance 1 / (2^t - 1).
  return std::min(0.5, 8.0 / double((uint64_t{1} << tagBits) - 1));
}

Result<SerializedParts> indexSnapshotParts(CuckooIndex& index, uint64_t logLength, uint64_t logChecksum) {
  Status finished = index.finishGrowth();
  if (!finished.isOk()) return finished;
  FilterHeader header;
  header.type = FilterType::CuckooIndexSnapshot;
  header.seed = index.seed();
  header.itemCount = index.size();
  header.capacity = index.slotCount();
  header.targetFalsePositiveRate = indexSnapshotReadRate(index.tagBits());
  IndexSnapshotParams params;
  params.bucketCount = index.bucketCount();
  params.logLength = logLength;
  params.logChecksum = logChecksum;
  params.deadRecords = index.deadRecords();
  params.tagBits = static_cast<uint8_t>(index.tagBits());
  params.slotLayout = kIndexSnapshotSlotLayout;
  const IndexTable& table = index.table();
  return blobParts(header, encodeParams(params), &table.slot(0).word, static_cast<size_t>(table.slotCount()));
}

Result<IndexSnapshot> decodeIndexSnapshot(const uint8_t* data, size_t length) {
  Result<DecodedBlob> decoded = decodeBlobOfType(data, length, FilterType::CuckooIndexSnapshot);
  if (!decoded.isOk()) return decoded.status();
  const DecodedBlob& blob = decoded.value();
  IndexSnapshot snapshot;
  Status params = decodeParams(blob, snapshot.params);
  if (!params.isOk()) return params;
  const IndexSnapshotParams& p = snapshot.params;
  if (p.slotLayout != kIndexSnapshotSlotLayout) {
    return Status::unsupportedVersion("index snapshot: slot layout " + std::to_string(p.slotLayout) + ", this build reads " +
                                      std::to_string(kIndexSnapshotSlotLayout) + " (the index is rebuilt from its log)");
  }
  if (p.tagBits < 1 || p.tagBits > kMaxIndexTagBits) {
    return Status::corrupt("index snapshot: tagBits outside 1.." + std::to_string(kMaxIndexTagBits));
  }
  if (p.bucketCount < 2 || p.bucketCount % 2 != 0 || p.bucketCount > kMaxSnapshotBuckets) {
    return Status::corrupt("index snapshot: the bucket count must be even and at least 2");
  }
  if (blob.payloadLength != p.bucketCount * kIndexBucketSlots * sizeof(IndexSlot)) {
    return Status::corrupt("index snapshot: the payload is not bucketCount * 4 slots");
  }
  if (blob.header.capacity != p.bucketCount * kIndexBucketSlots ||
      blob.header.targetFalsePositiveRate != indexSnapshotReadRate(p.tagBits)) {
    return Status::corrupt("index snapshot: the header's capacity or rate is not the table's");
  }
  if (!snapshot.table.allocate(p.bucketCount)) {
    return Status::outOfMemory("out of memory reading an index snapshot of " + std::to_string(p.bucketCount) +
                               " buckets");
  }
  uint64_t occupied = 0;
  const uint64_t maxTag = (uint64_t{1} << p.tagBits) - 1;
  std::vector<uint64_t> words(1);
  for (uint64_t i = 0; i < snapshot.table.slotCount(); ++i) {
    bytesToWords(blob.payload + i * sizeof(IndexSlot), 1, words.data());
    const IndexSlot slot{words[0]};
    switch (slot.status()) {
      case SlotStatus::Occupied:
        // The offset must be a place in the covered log; a record header is
        // at least kRecordOverheadBytes long, so it starts before the end.
        if (slot.tag() == 0 || slot.tag() > maxTag || slot.offset() >= p.logLength) {
          return Status::corrupt("index snapshot: slot " + std::to_string(i) + " is not a slot this index writes");
        }
        ++occupied;
        break;
      case SlotStatus::Available:
      case SlotStatus::Deleted:
        if (slot.word >> 2 != 0) return Status::corrupt("index snapshot: free slot " + std::to_string(i) + " holds bits");
        break;
      default:
        return Status::corrupt("index snapshot: slot " + std::to_string(i) + " has an unknown status");
    }
    snapshot.table.slot(i) = slot;
  }
  if (occupied != blob.header.itemCount) {
    return Status::corrupt("index snapshot: " + std::to_string(occupied) + " occupied slots for " +
                           std::to_string(blob.header.itemCount) + " keys");
  }
  snapshot.seed = blob.header.seed;
  snapshot.liveCount = occupied;
  return snapshot;
}

}  // namespace cuckoo_bloom
