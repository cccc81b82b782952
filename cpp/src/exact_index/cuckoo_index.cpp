#include "cuckoo_bloom/exact_index/cuckoo_index.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>

namespace cuckoo_bloom {
namespace {

// The walk's generator, decorrelated from the hash seed (as CuckooFilter's).
uint64_t walkSeedFor(uint64_t hashSeed) { return mix64(hashSeed ^ 0x510E527FADE682D1ull); }

// Doublings one set may trigger before giving up: each one at least doubles
// the slots, so a walk failing after 8 of them (256x the slots) means the
// keys cannot be spread at all (e.g. thousands of keys with one hash), not a
// table that is too small.
constexpr int kMaxGrowthsPerSet = 8;

// The largest table: 2^40 slots (8 TiB) is far beyond any memory; it keeps
// bucketCount * 4 and byte sizes inside 64 bits everywhere.
constexpr uint64_t kMaxBucketCount = uint64_t{1} << 38;

}  // namespace

uint64_t indexBucketCountFor(uint64_t capacity) {
  const double needed = std::ceil(static_cast<double>(capacity) / (kIndexBucketSlots * CuckooIndex::kMaxLoad));
  uint64_t buckets = needed >= static_cast<double>(kMaxBucketCount) ? kMaxBucketCount : static_cast<uint64_t>(needed);
  buckets = std::max<uint64_t>(2, buckets);
  return buckets + (buckets & 1);
}

Result<CuckooIndex> CuckooIndex::create(RecordStore& store, const CuckooIndexOptions& options) {
  if (options.tagBits < 1 || options.tagBits > kMaxIndexTagBits) {
    return Status::invalidArgument("tagBits must be in 1.." + std::to_string(kMaxIndexTagBits) + ", got " +
                                   std::to_string(options.tagBits));
  }
  if (options.capacity == 0) return Status::invalidArgument("capacity must be at least 1");
  if (options.maxKicks > 100000) return Status::invalidArgument("maxKicks must be at most 100000");
  CuckooIndex index;
  index.store_ = &store;
  index.options_ = options;
  index.random_ = SplitMix64(walkSeedFor(options.seed));
  if (!index.table_.allocate(indexBucketCountFor(options.capacity))) {
    return Status::outOfMemory("out of memory allocating an index table for " + std::to_string(options.capacity) +
                               " keys");
  }
  return index;
}

CuckooIndex::Located CuckooIndex::locate(const KeyHash& hash, uint64_t bucketCount) const {
  Located where;
  // The tag is the cuckoo fingerprint (never 0), so the other bucket follows
  // from (bucket, tag) alone and a kick never needs the key.
  where.tag = cuckooFingerprint(hash, options_.tagBits);
  where.bucket1 = cuckooBucketIndexModulo(hash, bucketCount);
  where.bucket2 = cuckooAltBucketIndexModulo(where.bucket1, where.tag, bucketCount);
  return where;
}

Result<IndexSlot*> CuckooIndex::findInBucket(IndexTable& table, uint64_t bucket, uint32_t tag, const uint8_t* key,
                                             size_t length, RecordView& record) {
  IndexSlot* slots = table.bucket(bucket);
  for (uint32_t i = 0; i < kIndexBucketSlots; ++i) {
    if (!slots[i].isOccupied() || slots[i].tag() != tag) continue;
    // A tag match is a candidate only: the record's key decides.
    Status read = store_->read(slots[i].offset(), record);
    if (!read.isOk()) return read;
    if (record.keyLength == length && (length == 0 || std::memcmp(record.key, key, length) == 0)) {
      return &slots[i];
    }
  }
  return static_cast<IndexSlot*>(nullptr);
}

Result<IndexSlot*> CuckooIndex::findIn(IndexTable& table, const KeyHash& hash, const uint8_t* key, size_t length,
                                       RecordView& record) {
  const Located where = locate(hash, table.bucketCount());
  // A bucket whose summary lacks the tag's bit holds no slot with the tag
  // (index_table.h): it is not read at all.
  if (table.mayHoldTag(where.bucket1, where.tag)) {
    Result<IndexSlot*> found = findInBucket(table, where.bucket1, where.tag, key, length, record);
    if (!found.isOk() || found.value() != nullptr) return found;
  }
  // A key is in its second bucket only if it was placed there or kicked out
  // of its first, and both flag the first bucket (insertWithKicks): an
  // unflagged first bucket proves the key absent without touching the
  // second — one cache miss instead of two for most absent keys in a large table.
  if (!table.overflowed(where.bucket1) || !table.mayHoldTag(where.bucket2, where.tag)) {
    return static_cast<IndexSlot*>(nullptr);
  }
  return findInBucket(table, where.bucket2, where.tag, key, length, record);
}

Result<IndexSlot*> CuckooIndex::findSlot(const KeyHash& hash, const uint8_t* key, size_t length, RecordView& record) {
  Result<IndexSlot*> found = findIn(table_, hash, key, length, record);
  if (!found.isOk() || found.value() != nullptr || !growing()) return found;
  // Not moved yet: the key may still be in the draining table. Its buckets
  // below the cursor are empty, so a key whose two buckets both are is absent.
  const Located old = locate(hash, draining_.bucketCount());
  if (old.bucket1 < drainCursor_ && old.bucket2 < drainCursor_) return found;
  return findIn(draining_, hash, key, length, record);
}

Result<bool> CuckooIndex::contains(const uint8_t* key, size_t length) {
  RecordView record;
  Result<IndexSlot*> found = findSlot(hashKey(key, length, options_.seed), key, length, record);
  if (!found.isOk()) return found.status();
  return found.value() != nullptr;
}

Status CuckooIndex::get(const uint8_t* key, size_t length, RecordView& record, uint64_t* offset) {
  Result<IndexSlot*> found = findSlot(hashKey(key, length, options_.seed), key, length, record);
  if (!found.isOk()) return found.status();
  if (found.value() == nullptr) return Status::notFound("the key is not in the index");
  if (offset != nullptr) *offset = found.value()->offset();
  return Status::ok();
}

Result<bool> CuckooIndex::set(const uint8_t* key, size_t length, const uint8_t* value, uint32_t valueLength,
                              bool hasValue) {
  if (length > kMaxRecordKeyBytes) {
    return Status::invalidArgument("a key of " + std::to_string(length) + " bytes is longer than the index's limit of " +
                                   std::to_string(kMaxRecordKeyBytes));
  }
  const RecordKind kind = hasValue ? RecordKind::PutWithValue : RecordKind::Put;
  if (!hasValue) valueLength = 0;
  const KeyHash hash = hashKey(key, length, options_.seed);
  RecordView existing;
  Result<IndexSlot*> found = findSlot(hash, key, length, existing);
  if (!found.isOk()) return found.status();
  const auto keyLength = static_cast<uint32_t>(length);
  const uint64_t offset = store_->offsetForAppend(recordSize(keyLength, valueLength));
  if (offset > kMaxIndexOffset) return Status::full("the record log is past the index's 256 GiB offset limit");
  if (found.value() != nullptr) {
    // Duplicate guard: the key keeps its one slot, which now points at the new record.
    Result<uint64_t> appended = store_->append(kind, key, keyLength, value, valueLength);
    if (!appended.isOk()) return appended.status();
    IndexSlot& slot = *found.value();
    slot = IndexSlot::occupied(slot.tag(), appended.value());
    ++deadRecords_;
    drainSome();
    return false;
  }
  Status placed = place(hash, offset);
  if (!placed.isOk()) return placed;
  Result<uint64_t> appended = store_->append(kind, key, keyLength, value, valueLength);
  if (!appended.isOk() || appended.value() != offset) {
    withdraw(hash, offset);
    if (!appended.isOk()) return appended.status();
    return Status::corrupt("the record store appended at offset " + std::to_string(appended.value()) +
                           " instead of the announced " + std::to_string(offset));
  }
  ++liveCount_;
  drainSome();
  return true;
}

// A new key's slot stays in one of its own two buckets of the current table
// (place() puts it there and a walk moves only the others), and no other slot
// has its offset (fresh from offsetForAppend()).
void CuckooIndex::withdraw(const KeyHash& hash, uint64_t offset) {
  const Located where = locate(hash, table_.bucketCount());
  for (const uint64_t bucket : {where.bucket1, where.bucket2}) {
    IndexSlot* slots = table_.bucket(bucket);
    for (uint32_t i = 0; i < kIndexBucketSlots; ++i) {
      if (slots[i].isOccupied() && slots[i].offset() == offset) {
        slots[i] = IndexSlot{};
        return;
      }
    }
  }
}

Result<bool> CuckooIndex::remove(const uint8_t* key, size_t length) {
  RecordView record;
  Result<IndexSlot*> found = findSlot(hashKey(key, length, options_.seed), key, length, record);
  if (!found.isOk()) return found.status();
  if (found.value() == nullptr) return false;
  // The tombstone goes to the log first: if it cannot be written, the key stays.
  Result<uint64_t> appended = store_->append(RecordKind::Delete, key, static_cast<uint32_t>(length), nullptr, 0);
  if (!appended.isOk()) return appended.status();
  *found.value() = IndexSlot::deleted();
  --liveCount_;
  deadRecords_ += 2;  // the key's last put and the tombstone
  drainSome();
  return true;
}

Status CuckooIndex::applyRecord(uint64_t offset, const RecordView& incoming) {
  // Copy the key: findSlot's reads may reuse the buffer the view points into.
  std::vector<uint8_t> key(incoming.key, incoming.key + incoming.keyLength);
  const KeyHash hash = hashKey(key.data(), key.size(), options_.seed);
  RecordView existing;
  Result<IndexSlot*> found = findSlot(hash, key.data(), key.size(), existing);
  if (!found.isOk()) return found.status();
  if (incoming.kind == RecordKind::Delete) {
    if (found.value() != nullptr) {
      *found.value() = IndexSlot::deleted();
      --liveCount_;
      deadRecords_ += 2;
    } else {
      ++deadRecords_;
    }
    drainSome();
    return Status::ok();
  }
  if (offset > kMaxIndexOffset) return Status::full("the record log is past the index's 256 GiB offset limit");
  if (found.value() != nullptr) {
    IndexSlot& slot = *found.value();
    slot = IndexSlot::occupied(slot.tag(), offset);
    ++deadRecords_;
    drainSome();
    return Status::ok();
  }
  Status placed = place(hash, offset);
  if (!placed.isOk()) return placed;
  ++liveCount_;
  drainSome();
  return Status::ok();
}

namespace {

// The index's side of MemoryRecordLog::compactInPlace. A record is live iff
// an OCCUPIED slot with its key's tag, in one of its key's two buckets, holds
// its offset: every OCCUPIED slot holds the offset of its key's one live
// record, and no two hold the same offset, so matching the offset needs no
// read of any record (none is read while the log is being moved).
// While the index is growing, a live record's slot is in the current table
// or in the draining one (never both): both are searched.
class SlotRelocator final : public RecordRelocator {
 public:
  SlotRelocator(IndexTable& table, IndexTable& draining, uint64_t seed, uint32_t tagBits)
      : tables_{&table, &draining}, seed_(seed), tagBits_(tagBits) {}

  bool isLive(uint64_t offset, const RecordView& record) override {
    const KeyHash hash = hashKey(record.key, record.keyLength, seed_);
    const uint32_t tag = cuckooFingerprint(hash, tagBits_);
    for (IndexTable* table : tables_) {
      if (table->bucketCount() == 0) continue;
      const uint64_t bucket1 = cuckooBucketIndexModulo(hash, table->bucketCount());
      const uint64_t bucket2 = cuckooAltBucketIndexModulo(bucket1, tag, table->bucketCount());
      // Both buckets, whatever the overflow flag says: the flag only saves a
      // lookup a probe, and here a wrong "dead" would drop a live record.
      for (const uint64_t bucket : {bucket1, bucket2}) {
        IndexSlot* slots = table->bucket(bucket);
        for (uint32_t i = 0; i < kIndexBucketSlots; ++i) {
          if (slots[i].isOccupied() && slots[i].tag() == tag && slots[i].offset() == offset) {
            found_ = &slots[i];
            return true;
          }
        }
      }
    }
    return false;
  }

  void relocated(uint64_t offset) override { *found_ = IndexSlot::occupied(found_->tag(), offset); }

 private:
  IndexTable* tables_[2];
  uint64_t seed_;
  uint32_t tagBits_;
  IndexSlot* found_ = nullptr;  // the slot of the record isLive() last found live
};

// DELETED slots only stood for dead records in the log: none after a compaction.
void clearDeletedSlots(IndexTable& table) {
  for (uint64_t i = 0; i < table.slotCount(); ++i) {
    if (table.slot(i).status() == SlotStatus::Deleted) table.slot(i) = IndexSlot{};
  }
}

}  // namespace

Status CuckooIndex::compactInPlace(MemoryRecordLog& log) {
  if (static_cast<RecordStore*>(&log) != store_) {
    return Status::invalidArgument("compactInPlace needs the log this index was made over");
  }
  SlotRelocator relocator(table_, draining_, options_.seed, options_.tagBits);
  log.compactInPlace(relocator);
  clearDeletedSlots(table_);
  clearDeletedSlots(draining_);
  deadRecords_ = 0;
  return Status::ok();
}

Status CuckooIndex::place(const KeyHash& hash, uint64_t offset) {
  for (int growths = 0; growths <= kMaxGrowthsPerSet; ++growths) {
    const bool crowded = double(liveCount_ + 1) > kMaxLoad * double(table_.slotCount());
    if (!crowded) {
      const Located where = locate(hash, table_.bucketCount());
      if (insertWithKicks(table_, where, IndexSlot::occupied(where.tag, offset))) return Status::ok();
    }
    if (growths == kMaxGrowthsPerSet) break;
    Status grown = grow();
    if (!grown.isOk()) return grown;
  }
  return Status::full("no room for the key after " + std::to_string(kMaxGrowthsPerSet) +
                      " doublings of the index table (too many keys with the same hash)");
}

bool CuckooIndex::insertWithKicks(IndexTable& table, const Located& where, IndexSlot slot) {
  if (table.insert(where.bucket1, slot) >= 0) return true;
  // Overflow flags (index_table.h): whenever a slot goes into a bucket, the
  // other bucket of its pair is flagged — for the new key that is its first
  // bucket; a kicked slot leaves the bucket it is flagged from. A slot whose
  // first bucket is unflagged is therefore in its first bucket. Flags are only
  // ever set (a failed walk keeps them, a rebuild starts afresh): a stale flag
  // costs a probe of the second bucket, a missing one would lose a key.
  if (table.insert(where.bucket2, slot) >= 0) {
    table.markOverflowed(where.bucket1);
    return true;
  }
  // Random walk as in CuckooFilter::addTo: put the slot in hand into a random
  // place of the current bucket, carry the one it displaces to that one's
  // other bucket. Every bucket is saved before it changes, so a failed walk is
  // undone exactly (last change first).
  savedBuckets_.clear();
  const uint64_t bucketCount = table.bucketCount();
  uint64_t bucket = (random_.next() & 1) ? where.bucket1 : where.bucket2;
  if (bucket == where.bucket2) table.markOverflowed(where.bucket1);
  IndexSlot inHand = slot;
  for (uint32_t kick = 0; kick < options_.maxKicks; ++kick) {
    SavedBucket& saved = savedBuckets_.emplace_back();
    saved.bucket = bucket;
    IndexSlot* slots = table.bucket(bucket);
    std::copy(slots, slots + kIndexBucketSlots, saved.slots);
    const auto place = static_cast<uint32_t>(random_.next() & (kIndexBucketSlots - 1));
    std::swap(slots[place], inHand);
    table.noteTag(bucket, slots[place].tag());
    table.markOverflowed(bucket);  // inHand leaves `bucket` for its other one
    bucket = cuckooAltBucketIndexModulo(bucket, inHand.tag(), bucketCount);
    if (table.insert(bucket, inHand) >= 0) return true;
  }
  for (size_t step = savedBuckets_.size(); step-- > 0;) {
    std::copy(savedBuckets_[step].slots, savedBuckets_[step].slots + kIndexBucketSlots,
              table.bucket(savedBuckets_[step].bucket));
  }
  savedBuckets_.clear();
  return false;
}

Status CuckooIndex::grow() {
  const uint64_t doubled = table_.bucketCount() * 2;
  if (table_.bucketCount() > kMaxBucketCount / 2) return Status::full("the index table cannot grow past 2^40 slots");
  // A doubling while the last one is still draining (a walk failed in the
  // new table, which is rare below kMaxLoad): both are rebuilt at once.
  if (growing()) return rebuild(doubled);
  IndexTable grown;
  const bool withinLimit = doubled <= tableMemoryLimit_ / (kIndexBucketSlots * sizeof(IndexSlot));
  if (!withinLimit || !grown.allocate(doubled)) {
    return Status::outOfMemory("out of memory growing the index table to " + std::to_string(doubled) +
                               " buckets; the index is unchanged");
  }
  draining_ = std::move(table_);
  table_ = std::move(grown);
  drainCursor_ = 0;
  ++rebuilds_;
  return Status::ok();
}

Status CuckooIndex::rebuild(uint64_t bucketCount) {
  // Each attempt doubles again; a rebuild fails only when one walk fails,
  // which at half the load is rare (then the next doubling is tried).
  for (int attempt = 0; attempt < kMaxGrowthsPerSet; ++attempt, bucketCount *= 2) {
    if (bucketCount > kMaxBucketCount) return Status::full("the index table cannot grow past 2^40 slots");
    IndexTable grown;
    const bool withinLimit = bucketCount <= tableMemoryLimit_ / (kIndexBucketSlots * sizeof(IndexSlot));
    if (!withinLimit || !grown.allocate(bucketCount)) {
      return Status::outOfMemory("out of memory growing the index table to " + std::to_string(bucketCount) +
                                 " buckets; the index is unchanged");
    }
    bool placedAll = true;
    for (const IndexTable* from : {&table_, &draining_}) {
      for (uint64_t i = 0; i < from->slotCount() && placedAll; ++i) {
        const IndexSlot slot = from->slot(i);
        if (!slot.isOccupied()) continue;  // DELETED slots are dropped here
        RecordView record;
        Status read = store_->read(slot.offset(), record);
        if (!read.isOk()) return read;
        const KeyHash hash = hashKey(record.key, record.keyLength, options_.seed);
        const Located where = locate(hash, bucketCount);
        if (where.tag != slot.tag()) {
          return Status::corrupt("the record at offset " + std::to_string(slot.offset()) +
                                 " does not hold the key its slot was made for");
        }
        placedAll = insertWithKicks(grown, where, slot);
      }
    }
    if (placedAll) {
      table_ = std::move(grown);
      draining_ = IndexTable{};
      drainCursor_ = 0;
      ++rebuilds_;
      return Status::ok();
    }
  }
  return Status::full("the index table could not be rebuilt (keys that cannot be spread)");
}

Status CuckooIndex::moveDrainingBucket(uint64_t bucket) {
  IndexSlot* slots = draining_.bucket(bucket);
  for (uint32_t i = 0; i < kIndexBucketSlots; ++i) {
    const IndexSlot slot = slots[i];
    if (!slot.isOccupied()) {
      slots[i] = IndexSlot{};  // a DELETED slot is dropped, as a rebuild drops it
      continue;
    }
    RecordView record;
    Status read = store_->read(slot.offset(), record);
    if (!read.isOk()) return read;
    const KeyHash hash = hashKey(record.key, record.keyLength, options_.seed);
    const Located where = locate(hash, table_.bucketCount());
    if (where.tag != slot.tag()) {
      return Status::corrupt("the record at offset " + std::to_string(slot.offset()) +
                             " does not hold the key its slot was made for");
    }
    if (!insertWithKicks(table_, where, slot)) return Status::full("a walk failed moving a slot to the new table");
    // Landed in the new table: cleared here in the same step, so the key is
    // in exactly one table whatever happens next.
    slots[i] = IndexSlot{};
  }
  return Status::ok();
}

void CuckooIndex::drainSome() {
  if (!growing()) return;
  const uint64_t end = std::min(draining_.bucketCount(), drainCursor_ + kDrainBucketsPerWrite);
  while (drainCursor_ < end) {
    const Status moved = moveDrainingBucket(drainCursor_);
    // A walk that failed in the new table: both rebuilt into a larger one now
    // (rare; on failure, out of memory, nothing changed and the next write
    // meets it again).
    if (moved.code() == StatusCode::Full) {
      (void)rebuild(table_.bucketCount() * 2);
      return;
    }
    if (!moved.isOk()) return;
    ++drainCursor_;
  }
  if (drainCursor_ == draining_.bucketCount()) {
    draining_ = IndexTable{};
    drainCursor_ = 0;
  }
}

Status CuckooIndex::finishGrowth() {
  while (growing()) {
    Status moved = moveDrainingBucket(drainCursor_);
    if (moved.code() == StatusCode::Full) return rebuild(table_.bucketCount() * 2);
    if (!moved.isOk()) return moved;
    if (++drainCursor_ == draining_.bucketCount()) {
      draining_ = IndexTable{};
      drainCursor_ = 0;
    }
  }
  return Status::ok();
}

Status CuckooIndex::adoptSnapshot(IndexSnapshot&& snapshot) {
  if (liveCount_ != 0 || deadRecords_ != 0 || growing()) {
    return Status::invalidArgument("only an empty index adopts a snapshot");
  }
  if (snapshot.seed != options_.seed || snapshot.params.tagBits != options_.tagBits) {
    return Status::invalidArgument("the snapshot was made with another seed or tag width");
  }
  table_ = std::move(snapshot.table);
  // A snapshot keeps no summaries: the tag bits follow from its slots, but
  // the slots say nothing of which bucket was a key's first, so every bucket
  // is flagged and every lookup may probe both, as before flags existed,
  // until the next rebuild sets them afresh.
  table_.resetSummariesFromSlots();
  liveCount_ = snapshot.liveCount;
  deadRecords_ = snapshot.params.deadRecords;
  return Status::ok();
}

void CuckooIndex::liveOffsets(std::vector<uint64_t>& out) const {
  out.clear();
  out.reserve(static_cast<size_t>(liveCount_));
  for (const IndexTable* table : {&table_, &draining_}) {
    for (uint64_t i = 0; i < table->slotCount(); ++i) {
      if (table->slot(i).isOccupied()) out.push_back(table->slot(i).offset());
    }
  }
  std::sort(out.begin(), out.end());
}

void CuckooIndex::countSlots(uint64_t counts[3]) const {
  counts[0] = counts[1] = counts[2] = 0;
  for (const IndexTable* table : {&table_, &draining_}) {
    for (uint64_t i = 0; i < table->slotCount(); ++i) ++counts[static_cast<int>(table->slot(i).status())];
  }
}

}  // namespace cuckoo_bloom
