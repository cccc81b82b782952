// CuckooIndex: exact answers over a record log. Not a filter (it owns no
// false positives and is not in filter_types.h): a cuckoo hash table whose
// slots hold a short tag and the offset of the key's live record in a
// RecordStore (record_store.h); the full key is checked against that record
// whenever the tag matches. Slot layout and the reasons for it: index_table.h.
//
//   lookup  hash the key once (hashing.h), compare its tag with the occupied
//           slots of its two buckets, read and compare the record only on a
//           tag match: an absent key almost never reads the store.
//   set     a key already present gets a new record and its slot is repointed
//           (never two live slots for one key); a new key is placed by a
//           cuckoo walk with exact undo (as CuckooFilter's), and when the walk
//           fails (or the load passes kMaxLoad) the table doubles.
//   growth  incremental, as Redis rehashes its dict: a doubling allocates the
//           new table and keeps the old one as the *draining* table; every
//           later write that succeeds moves the next kDrainBucketsPerWrite
//           buckets of it into the new one (each key read back from the store:
//           tags and buckets need the full hash). Lookups probe the new table,
//           then the draining one. So no single call reads more than a few
//           records for growth, where a whole rebuild read every key (seconds
//           at 300k keys of a log file). A key is in exactly one of the two
//           tables at any time: a moved slot is cleared from the draining table
//           in the same step it lands in the new one.
//   delete  a tombstone record is appended, then the slot is marked DELETED
//           (free for reuse).
//   compact (in-memory log) the live records slide down in the log's own
//           memory and their slots follow them (compactInPlace): no second
//           log, no allocation, so it cannot fail.
//
// Order of effects, so that a failure changes nothing: a new key is placed in
// the table first (its offset is the store's offsetForAppend()), then its record is
// appended; if the append fails the placement is withdrawn. An update appends
// first and repoints after (repointing cannot fail). The store is never left
// holding a record the table does not describe, nor the table pointing at a
// record that was not written.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "cuckoo_bloom/core/hashing.h"
#include "cuckoo_bloom/core/status.h"
#include "cuckoo_bloom/exact_index/index_snapshot.h"
#include "cuckoo_bloom/exact_index/index_table.h"
#include "cuckoo_bloom/exact_index/memory_record_log.h"
#include "cuckoo_bloom/exact_index/record_store.h"

namespace cuckoo_bloom {

struct CuckooIndexOptions {
  uint64_t capacity = 1024;  // keys the first table is sized for; it doubles past that
  uint32_t tagBits = 24;     // 1..24. Fewer bits only make more store reads (tests force collisions with 1-2)
  uint32_t maxKicks = 500;   // moves a walk tries before the table is doubled
  uint64_t seed = 0;         // hash seed (the table is rebuilt from the log on open, so it is not stored)
};

class CuckooIndex {
 public:
  // Keeps a pointer to `store`, which must outlive the index.
  static Result<CuckooIndex> create(RecordStore& store, const CuckooIndexOptions& options);

  // Buckets of the draining table moved per successful write. The new table
  // holds twice the buckets, and its load passes kMaxLoad only after about
  // 3.7x the draining table's buckets in new keys, so moving 2 per write
  // empties it long before (a walk that fails meanwhile rebuilds both at once).
  static constexpr uint64_t kDrainBucketsPerWrite = 2;

  // Whether the key has a live record.
  Result<bool> contains(const uint8_t* key, size_t length);
  // The key's live record, read into `record` (views valid until the store's
  // next call) and its offset. NotFound when the key is absent.
  Status get(const uint8_t* key, size_t length, RecordView& record, uint64_t* offset = nullptr);
  // Stores the key (and value, when hasValue). True: a new key; false: a key
  // already present, now pointing at the new record.
  Result<bool> set(const uint8_t* key, size_t length, const uint8_t* value, uint32_t valueLength, bool hasValue);
  // True: the key was present and is now deleted (a tombstone was appended); false: absent, nothing written.
  Result<bool> remove(const uint8_t* key, size_t length);
  // Rebuilding from a log: applies a record that is already in the store at
  // `offset`, exactly as the set or remove that wrote it did, without appending.
  Status applyRecord(uint64_t offset, const RecordView& record);
  // Compacts `log` (this index's store) in place: only the live records stay,
  // in their order, each slot repointed at its record's new offset; DELETED
  // slots become AVAILABLE (the log no longer holds their records) and
  // deadRecords() is 0. Allocates nothing, so it cannot fail: the only error
  // is InvalidArgument when `log` is not this index's store (nothing changes).
  // The table's buckets and overflow flags are untouched (no key moves bucket).
  Status compactInPlace(MemoryRecordLog& log);
  // Moves every slot still in the draining table into the new one (a
  // snapshot writes one table). Reads each key from the store; on a read
  // error or a corrupt record it stops there (nothing lost: the slot stays in
  // the draining table) and returns the error.
  Status finishGrowth();
  // Whether a doubling is still moving slots out of the old table.
  bool growing() const { return draining_.bucketCount() != 0; }

  uint64_t size() const { return liveCount_; }
  // Records in the log that no longer answer anything (superseded puts and tombstones).
  uint64_t deadRecords() const { return deadRecords_; }
  // The current (newest) table's buckets and slots; tableBytes() counts the draining table too.
  uint64_t bucketCount() const { return table_.bucketCount(); }
  uint64_t slotCount() const { return table_.slotCount(); }
  size_t tableBytes() const { return table_.byteLength() + draining_.byteLength(); }
  uint32_t tagBits() const { return options_.tagBits; }
  uint64_t seed() const { return options_.seed; }
  uint64_t rebuilds() const { return rebuilds_; }
  double loadFactor() const { return table_.slotCount() == 0 ? 0.0 : double(liveCount_) / double(table_.slotCount()); }
  RecordStore& store() { return *store_; }
  // Offsets of every live record, ascending (the log's order): iteration and compaction.
  void liveOffsets(std::vector<uint64_t>& out) const;
  // The slots themselves (tests compare them word for word around a failed
  // set), and the draining table's (empty when not growing()).
  const IndexTable& table() const { return table_; }
  const IndexTable& drainingTable() const { return draining_; }
  // Slots by status, for tests: [AVAILABLE, OCCUPIED, DELETED], over both
  // tables while growing() (the draining table's moved buckets are AVAILABLE).
  void countSlots(uint64_t counts[3]) const;
  // Opening from a snapshot (index_snapshot.h): takes over its table, live
  // count and dead-record count. Only an index that holds nothing yet, made
  // with the snapshot's seed and tagBits (else InvalidArgument: the slots'
  // tags and buckets would mean other keys); the caller has checked that the
  // store's log starts with the bytes the snapshot covers.
  Status adoptSnapshot(IndexSnapshot&& snapshot);
  // Growth to a table of more than `bytes` fails with OUT_OF_MEMORY, as a
  // failed allocation does (tests provoke it; the index stays as it was).
  void setTableMemoryLimit(uint64_t bytes) { tableMemoryLimit_ = bytes; }

  // The load above which a set grows the table before walking: walks get long
  // near the 4-way cuckoo limit (~0.95-0.98), and a rebuild is cheaper than
  // many failed walks.
  static constexpr double kMaxLoad = 0.93;

 private:
  struct Located {
    uint64_t bucket1;
    uint64_t bucket2;
    uint32_t tag;
  };
  struct SavedBucket {
    uint64_t bucket;
    IndexSlot slots[kIndexBucketSlots];
  };

  CuckooIndex() = default;
  Located locate(const KeyHash& hash, uint64_t bucketCount) const;
  // The slot holding the key's live record, in either table (the record read
  // into `record`), nullptr when absent, or the store's read error.
  Result<IndexSlot*> findSlot(const KeyHash& hash, const uint8_t* key, size_t length, RecordView& record);
  // The same in one table.
  Result<IndexSlot*> findIn(IndexTable& table, const KeyHash& hash, const uint8_t* key, size_t length,
                            RecordView& record);
  // The slot of `bucket` holding the key (tag match, then the record's key), or nullptr.
  Result<IndexSlot*> findInBucket(IndexTable& table, uint64_t bucket, uint32_t tag, const uint8_t* key,
                                  size_t length, RecordView& record);
  // Places a new key's slot in the current table (the key is known absent), doubling as needed.
  Status place(const KeyHash& hash, uint64_t offset);
  // A cuckoo walk in `table`; on failure every changed bucket is restored and false returned.
  bool insertWithKicks(IndexTable& table, const Located& where, IndexSlot slot);
  // Doubles: starts draining the current table into one of twice the
  // buckets, or, when one is still draining, rebuilds both at once (rebuild()).
  Status grow();
  // Rebuilds every key of both tables into one table of at least `bucketCount`
  // buckets, doubling again while a walk fails; on failure nothing changed.
  Status rebuild(uint64_t bucketCount);
  // Moves the occupied slots of the draining table's bucket into the current
  // table. Ok: the bucket is empty. Full: a walk failed (the slots not yet
  // moved stay). A read error or corrupt record: the same.
  Status moveDrainingBucket(uint64_t bucket);
  // After a successful write: moves the next kDrainBucketsPerWrite buckets.
  // Errors are left for the next write, or finishGrowth(), to meet again:
  // the write itself succeeded, and every key stays findable meanwhile.
  void drainSome();
  void withdraw(const KeyHash& hash, uint64_t offset);

  RecordStore* store_ = nullptr;
  CuckooIndexOptions options_;
  IndexTable table_;
  // The table before the last doubling while its slots move into table_
  // (empty otherwise); its buckets below drainCursor_ are empty.
  IndexTable draining_;
  uint64_t drainCursor_ = 0;
  SplitMix64 random_;
  uint64_t liveCount_ = 0;
  uint64_t deadRecords_ = 0;
  uint64_t rebuilds_ = 0;
  uint64_t tableMemoryLimit_ = UINT64_MAX;
  std::vector<SavedBucket> savedBuckets_;
};

// Buckets for `capacity` keys at the load a table is grown at: an even count of
// at least 2 (the alternate-bucket map of hashing.h needs it).
uint64_t indexBucketCountFor(uint64_t capacity);

}  // namespace cuckoo_bloom
