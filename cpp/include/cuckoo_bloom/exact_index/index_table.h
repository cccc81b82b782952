// The slot table of a CuckooIndex: buckets of 4 slots, one 64-bit word each.
//
// Slot layout (one uint64):
//
//   bits 0-1    status: 0 AVAILABLE (never used), 1 OCCUPIED, 2 DELETED (was a key, now free)
//   bits 2-25   tag: 1..2^tagBits-1 (tagBits <= 24), a few bits of the key's hash
//   bits 26-63  offset of the key's live record in the record store (38 bits: 256 GiB)
//
// Why 24 tag bits and 38 offset bits: every tag bit halves the record reads
// that absent keys cost (below), while a log of 2^38 bytes is 3,000 times
// the ~90 MB that 1M URL keys take. (Until snapshot layout 2 the split was
// 16 / 46: 40-91 reads per 1M absent lookups instead of about one in 4M.)
//
// Why a tag: a lookup compares its tag with the slots of two buckets and reads
// a record from the store only where the tag matches, so an absent key costs
// no read unless one of at most 8 occupied slots has its tag by chance
// (probability about 8 / (2^tagBits - 1), docs/EXACT-INDEX.md). The tag is also the
// cuckoo "fingerprint" that gives a slot's other bucket (hashing.h), so a kick
// moves a slot without reading its key.
//
// Why DELETED as well as AVAILABLE: both are free for an insert; DELETED keeps
// the count of slots freed since the last rebuild visible (dead records the
// log still holds), which tells when compaction pays.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <cstring>

namespace cuckoo_bloom {

enum class SlotStatus : uint8_t { Available = 0, Occupied = 1, Deleted = 2 };

constexpr uint32_t kIndexBucketSlots = 4;
constexpr uint32_t kMaxIndexTagBits = 24;
constexpr uint32_t kIndexTagShift = 2;
constexpr uint32_t kIndexOffsetShift = kIndexTagShift + kMaxIndexTagBits;  // 26
constexpr uint32_t kIndexOffsetBits = 64 - kIndexOffsetShift;              // 38
constexpr uint64_t kMaxIndexOffset = (uint64_t{1} << kIndexOffsetBits) - 1;

struct IndexSlot {
  uint64_t word = 0;

  static IndexSlot occupied(uint32_t tag, uint64_t offset) {
    return IndexSlot{(offset << kIndexOffsetShift) | (uint64_t{tag} << kIndexTagShift) |
                     static_cast<uint64_t>(SlotStatus::Occupied)};
  }
  SlotStatus status() const { return static_cast<SlotStatus>(word & 3); }
  bool isOccupied() const { return status() == SlotStatus::Occupied; }
  uint32_t tag() const { return static_cast<uint32_t>((word >> kIndexTagShift) & ((uint64_t{1} << kMaxIndexTagBits) - 1)); }
  uint64_t offset() const { return word >> kIndexOffsetShift; }
  // A freed slot keeps nothing of its key: only the status says it was used.
  static IndexSlot deleted() { return IndexSlot{static_cast<uint64_t>(SlotStatus::Deleted)}; }
};
static_assert(sizeof(IndexSlot) == 8, "one word per slot");

// A plain array of bucketCount * 4 slots, allocated with calloc so a failure
// is reported (OUT_OF_MEMORY), never thrown: the wasm build has no exceptions.
//
// Beside the slots, one summary byte per bucket (1/32 of the slots' bytes),
// read before the bucket itself. In a table of 10M keys every bucket is a
// cache and TLB miss (~150 ns), while the summaries (4.5 MB at 10M keys) stay
// in the last-level cache; most absent keys are answered from them alone.
//
//   bit 7      overflow: set when a key whose first bucket this is may live in
//              its second bucket (CuckooIndex::insertWithKicks). A lookup whose
//              first bucket is unflagged stops there: at the loads a table runs
//              at (0.47-0.93) most first buckets never overflow.
//   bits 0-6   tags: bit (tag mod 7) for every tag placed in the bucket. A lookup
//              skips a bucket whose byte lacks its tag's bit: with k occupied
//              slots a random absent tag passes with chance 1 - (6/7)^k (24% at
//              k = 1.8, the load 0.45 just after a doubling; 46% at k = 4).
//
// Both parts are supersets, only ever set (a kick, a delete or an undone walk
// leaves stale bits, which cost a probe, never an answer): a missing bit would
// lose a key. A rebuild starts afresh; a loaded snapshot recomputes the tag
// bits from its slots and flags every bucket (it cannot tell first buckets).
class IndexTable {
 public:
  static constexpr uint8_t kOverflowBit = 0x80;

  IndexTable() = default;
  ~IndexTable() {
    std::free(slots_);
    std::free(summary_);
  }
  IndexTable(const IndexTable&) = delete;
  IndexTable& operator=(const IndexTable&) = delete;
  IndexTable(IndexTable&& other) noexcept { *this = static_cast<IndexTable&&>(other); }
  IndexTable& operator=(IndexTable&& other) noexcept {
    if (this != &other) {
      std::free(slots_);
      std::free(summary_);
      slots_ = other.slots_;
      summary_ = other.summary_;
      bucketCount_ = other.bucketCount_;
      other.slots_ = nullptr;
      other.summary_ = nullptr;
      other.bucketCount_ = 0;
    }
    return *this;
  }

  // All slots AVAILABLE, every summary byte 0. False when the memory is not
  // there (the table is then empty).
  bool allocate(uint64_t bucketCount) {
    std::free(slots_);
    std::free(summary_);
    slots_ = nullptr;
    summary_ = nullptr;
    bucketCount_ = 0;
    if (bucketCount == 0 || bucketCount > SIZE_MAX / (kIndexBucketSlots * sizeof(IndexSlot))) return false;
    slots_ = static_cast<IndexSlot*>(std::calloc(static_cast<size_t>(bucketCount) * kIndexBucketSlots, sizeof(IndexSlot)));
    summary_ = static_cast<uint8_t*>(std::calloc(static_cast<size_t>(bucketCount), 1));
    if (slots_ == nullptr || summary_ == nullptr) {
      std::free(slots_);
      std::free(summary_);
      slots_ = nullptr;
      summary_ = nullptr;
      return false;
    }
    bucketCount_ = bucketCount;
    return true;
  }

  uint64_t bucketCount() const { return bucketCount_; }
  uint64_t slotCount() const { return bucketCount_ * kIndexBucketSlots; }
  // Memory held: the slots and the summary bytes.
  size_t byteLength() const {
    return static_cast<size_t>(slotCount()) * sizeof(IndexSlot) + static_cast<size_t>(bucketCount_);
  }

  static uint8_t tagBit(uint32_t tag) { return static_cast<uint8_t>(1u << (tag % 7)); }
  // False: no slot of the bucket has this tag (true may be a stale bit).
  bool mayHoldTag(uint64_t bucketIndex, uint32_t tag) const { return (summary_[bucketIndex] & tagBit(tag)) != 0; }
  // Records that a slot with this tag is now in the bucket.
  void noteTag(uint64_t bucketIndex, uint32_t tag) { summary_[bucketIndex] |= tagBit(tag); }
  bool overflowed(uint64_t bucketIndex) const { return (summary_[bucketIndex] & kOverflowBit) != 0; }
  void markOverflowed(uint64_t bucketIndex) { summary_[bucketIndex] |= kOverflowBit; }
  // After slots were written directly (a loaded snapshot): the tag bits made
  // exact from the slots, and every bucket flagged.
  void resetSummariesFromSlots() {
    for (uint64_t b = 0; b < bucketCount_; ++b) {
      uint8_t summary = kOverflowBit;
      for (uint32_t i = 0; i < kIndexBucketSlots; ++i) {
        const IndexSlot& held = slots_[b * kIndexBucketSlots + i];
        if (held.isOccupied()) summary |= tagBit(held.tag());
      }
      summary_[b] = summary;
    }
  }
  // Whether every occupied slot's tag bit is set in its bucket's summary (tests).
  bool summariesCoverSlots() const {
    for (uint64_t i = 0; i < slotCount(); ++i) {
      if (slots_[i].isOccupied() && !mayHoldTag(i / kIndexBucketSlots, slots_[i].tag())) return false;
    }
    return true;
  }
  // Flagged buckets (tests and stats).
  uint64_t overflowedBuckets() const {
    uint64_t count = 0;
    for (uint64_t i = 0; i < bucketCount_; ++i) count += overflowed(i);
    return count;
  }
  IndexSlot* bucket(uint64_t index) { return slots_ + index * kIndexBucketSlots; }
  const IndexSlot* bucket(uint64_t index) const { return slots_ + index * kIndexBucketSlots; }
  IndexSlot& slot(uint64_t index) { return slots_[index]; }
  const IndexSlot& slot(uint64_t index) const { return slots_[index]; }

  // Puts the slot into the first free (AVAILABLE or DELETED) place of the
  // bucket; returns the slot's index in the table, or -1 when the bucket is full.
  int64_t insert(uint64_t bucketIndex, IndexSlot value) {
    IndexSlot* slots = bucket(bucketIndex);
    for (uint32_t i = 0; i < kIndexBucketSlots; ++i) {
      if (!slots[i].isOccupied()) {
        slots[i] = value;
        noteTag(bucketIndex, value.tag());
        return static_cast<int64_t>(bucketIndex * kIndexBucketSlots + i);
      }
    }
    return -1;
  }

 private:
  IndexSlot* slots_ = nullptr;
  uint8_t* summary_ = nullptr;  // one byte per bucket (above)
  uint64_t bucketCount_ = 0;
};

}  // namespace cuckoo_bloom
