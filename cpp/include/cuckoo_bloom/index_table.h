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
// (probability about 8 / (2^tagBits - 1), docs/INDEX.md). The tag is also the
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
// Beside the slots, one overflow flag per bucket (a bit array: 1/256 of the
// slots' bytes): set when a key whose first bucket this is may live in its
// second bucket (CuckooIndex::insertWithKicks). A lookup whose first bucket is
// unflagged stops there. In a table of 10M keys each bucket is a cache miss,
// and at the loads a table runs at (0.47-0.93) most first buckets never
// overflow, so most absent keys cost one miss instead of two. Flags are never
// cleared (a stale one only costs the second probe); a rebuild starts afresh.
class IndexTable {
 public:
  IndexTable() = default;
  ~IndexTable() {
    std::free(slots_);
    std::free(overflow_);
  }
  IndexTable(const IndexTable&) = delete;
  IndexTable& operator=(const IndexTable&) = delete;
  IndexTable(IndexTable&& other) noexcept { *this = static_cast<IndexTable&&>(other); }
  IndexTable& operator=(IndexTable&& other) noexcept {
    if (this != &other) {
      std::free(slots_);
      std::free(overflow_);
      slots_ = other.slots_;
      overflow_ = other.overflow_;
      bucketCount_ = other.bucketCount_;
      other.slots_ = nullptr;
      other.overflow_ = nullptr;
      other.bucketCount_ = 0;
    }
    return *this;
  }

  // All slots AVAILABLE. False when the memory is not there (the table is then empty).
  // All slots AVAILABLE, no bucket flagged.
  bool allocate(uint64_t bucketCount) {
    std::free(slots_);
    std::free(overflow_);
    slots_ = nullptr;
    overflow_ = nullptr;
    bucketCount_ = 0;
    if (bucketCount == 0 || bucketCount > SIZE_MAX / (kIndexBucketSlots * sizeof(IndexSlot))) return false;
    slots_ = static_cast<IndexSlot*>(std::calloc(static_cast<size_t>(bucketCount) * kIndexBucketSlots, sizeof(IndexSlot)));
    overflow_ = static_cast<uint64_t*>(std::calloc(static_cast<size_t>(flagWordsFor(bucketCount)), sizeof(uint64_t)));
    if (slots_ == nullptr || overflow_ == nullptr) {
      std::free(slots_);
      std::free(overflow_);
      slots_ = nullptr;
      overflow_ = nullptr;
      return false;
    }
    bucketCount_ = bucketCount;
    return true;
  }

  uint64_t bucketCount() const { return bucketCount_; }
  uint64_t slotCount() const { return bucketCount_ * kIndexBucketSlots; }
  // Memory held: the slots and the overflow flags.
  size_t byteLength() const {
    return static_cast<size_t>(slotCount()) * sizeof(IndexSlot) +
           static_cast<size_t>(flagWordsFor(bucketCount_)) * sizeof(uint64_t);
  }
  static uint64_t flagWordsFor(uint64_t bucketCount) { return (bucketCount + 63) / 64; }
  bool overflowed(uint64_t bucketIndex) const { return (overflow_[bucketIndex >> 6] >> (bucketIndex & 63)) & 1; }
  void markOverflowed(uint64_t bucketIndex) { overflow_[bucketIndex >> 6] |= uint64_t{1} << (bucketIndex & 63); }
  void markAllOverflowed() {
    for (uint64_t i = 0; i < flagWordsFor(bucketCount_); ++i) overflow_[i] = ~uint64_t{0};
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
        return static_cast<int64_t>(bucketIndex * kIndexBucketSlots + i);
      }
    }
    return -1;
  }

 private:
  IndexSlot* slots_ = nullptr;
  uint64_t* overflow_ = nullptr;  // one bit per bucket
  uint64_t bucketCount_ = 0;
};

}  // namespace cuckoo_bloom
