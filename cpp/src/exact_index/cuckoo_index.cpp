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

Result<int64_t> CuckooIndex::findInBucket(uint64_t bucket, uint32_t tag, const uint8_t* key, size_t length,
                                          RecordView& record) {
  const IndexSlot* slots = table_.bucket(bucket);
  for (uint32_t i = 0; i < kIndexBucketSlots; ++i) {
    if (!slots[i].isOccupied() || slots[i].tag() != tag) continue;
    // A tag match is a candidate only: the record's key decides.
    Status read = store_->read(slots[i].offset(), record);
    if (!read.isOk()) return read;
    if (record.keyLength == length && (length == 0 || std::memcmp(record.key, key, length) == 0)) {
      return static_cast<int64_t>(bucket * kIndexBucketSlots + i);
    }
  }
  return int64_t{-1};
}

Result<int64_t> CuckooIndex::findSlot(const KeyHash& hash, const uint8_t* key, size_t length, RecordView& record) {
  const Located where = locate(hash, table_.bucketCount());
  // A bucket whose summary lacks the tag's bit holds no slot with the tag
  // (index_table.h): it is not read at all.
  if (table_.mayHoldTag(where.bucket1, where.tag)) {
    Result<int64_t> found = findInBucket(where.bucket1, where.tag, key, length, record);
    if (!found.isOk() || found.value() >= 0) return found;
  }
  // A key is in its second bucket only if it was placed there or kicked out
  // of its first, and both flag the first bucket (insertWithKicks): an
  // unflagged first bucket proves the key absent without touching the
  // second — one cache miss instead of two for most absent keys in a large table.
  if (!table_.overflowed(where.bucket1) || !table_.mayHoldTag(where.bucket2, where.tag)) return int64_t{-1};
  return findInBucket(where.bucket2, where.tag, key, length, record);
}

Result<bool> CuckooIndex::contains(const uint8_t* key, size_t length) {
  RecordView record;
  Result<int64_t> found = findSlot(hashKey(key, length, options_.seed), key, length, record);
  if (!found.isOk()) return found.status();
  return found.value() >= 0;
}

Status CuckooIndex::get(const uint8_t* key, size_t length, RecordView& record, uint64_t* offset) {
  Result<int64_t> found = findSlot(hashKey(key, length, options_.seed), key, length, record);
  if (!found.isOk()) return found.status();
  if (found.value() < 0) return Status::notFound("the key is not in the index");
  if (offset != nullptr) *offset = table_.slot(static_cast<uint64_t>(found.value())).offset();
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
  Result<int64_t> found = findSlot(hash, key, length, existing);
  if (!found.isOk()) return found.status();
  const auto keyLength = static_cast<uint32_t>(length);
  const uint64_t offset = store_->offsetForAppend(recordSize(keyLength, valueLength));
  if (offset > kMaxIndexOffset) return Status::full("the record log is past the index's 256 GiB offset limit");
  if (found.value() >= 0) {
    // Duplicate guard: the key keeps its one slot, which now points at the new record.
    Result<uint64_t> appended = store_->append(kind, key, keyLength, value, valueLength);
    if (!appended.isOk()) return appended.status();
    IndexSlot& slot = table_.slot(static_cast<uint64_t>(found.value()));
    slot = IndexSlot::occupied(slot.tag(), appended.value());
    ++deadRecords_;
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
  return true;
}

// A new key's slot stays in one of its own two buckets (a walk moves the
// others), and no other slot has its offset (fresh from offsetForAppend()).
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
  Result<int64_t> found = findSlot(hashKey(key, length, options_.seed), key, length, record);
  if (!found.isOk()) return found.status();
  if (found.value() < 0) return false;
  // The tombstone goes to the log first: if it cannot be written, the key stays.
  Result<uint64_t> appended = store_->append(RecordKind::Delete, key, static_cast<uint32_t>(length), nullptr, 0);
  if (!appended.isOk()) return appended.status();
  table_.slot(static_cast<uint64_t>(found.value())) = IndexSlot::deleted();
  --liveCount_;
  deadRecords_ += 2;  // the key's last put and the tombstone
  return true;
}

Status CuckooIndex::applyRecord(uint64_t offset, const RecordView& incoming) {
  // Copy the key: findSlot's reads may reuse the buffer the view points into.
  std::vector<uint8_t> key(incoming.key, incoming.key + incoming.keyLength);
  const KeyHash hash = hashKey(key.data(), key.size(), options_.seed);
  RecordView existing;
  Result<int64_t> found = findSlot(hash, key.data(), key.size(), existing);
  if (!found.isOk()) return found.status();
  if (incoming.kind == RecordKind::Delete) {
    if (found.value() >= 0) {
      table_.slot(static_cast<uint64_t>(found.value())) = IndexSlot::deleted();
      --liveCount_;
      deadRecords_ += 2;
    } else {
      ++deadRecords_;
    }
    return Status::ok();
  }
  if (offset > kMaxIndexOffset) return Status::full("the record log is past the index's 256 GiB offset limit");
  if (found.value() >= 0) {
    IndexSlot& slot = table_.slot(static_cast<uint64_t>(found.value()));
    slot = IndexSlot::occupied(slot.tag(), offset);
    ++deadRecords_;
    return Status::ok();
  }
  Status placed = place(hash, offset);
  if (!placed.isOk()) return placed;
  ++liveCount_;
  return Status::ok();
}

namespace {

// The index's side of MemoryRecordLog::compactInPlace. A record is live iff
// an OCCUPIED slot with its key's tag, in one of its key's two buckets, holds
// its offset: every OCCUPIED slot holds the offset of its key's one live
// record, and no two hold the same offset, so matching the offset needs no
// read of any record (none is read while the log is being moved).
class SlotRelocator final : public RecordRelocator {
 public:
  SlotRelocator(IndexTable& table, uint64_t seed, uint32_t tagBits) : table_(table), seed_(seed), tagBits_(tagBits) {}

  bool isLive(uint64_t offset, const RecordView& record) override {
    const KeyHash hash = hashKey(record.key, record.keyLength, seed_);
    const uint32_t tag = cuckooFingerprint(hash, tagBits_);
    const uint64_t bucket1 = cuckooBucketIndexModulo(hash, table_.bucketCount());
    const uint64_t bucket2 = cuckooAltBucketIndexModulo(bucket1, tag, table_.bucketCount());
    // Both buckets, whatever the overflow flag says: the flag only saves a
    // lookup a probe, and here a wrong "dead" would drop a live record.
    for (const uint64_t bucket : {bucket1, bucket2}) {
      for (uint32_t i = 0; i < kIndexBucketSlots; ++i) {
        const IndexSlot slot = table_.bucket(bucket)[i];
        if (slot.isOccupied() && slot.tag() == tag && slot.offset() == offset) {
          found_ = bucket * kIndexBucketSlots + i;
          return true;
        }
      }
    }
    return false;
  }

  void relocated(uint64_t offset) override {
    IndexSlot& slot = table_.slot(found_);
    slot = IndexSlot::occupied(slot.tag(), offset);
  }

 private:
  IndexTable& table_;
  uint64_t seed_;
  uint32_t tagBits_;
  uint64_t found_ = 0;  // the slot of the record isLive() last found live
};

}  // namespace

Status CuckooIndex::compactInPlace(MemoryRecordLog& log) {
  if (static_cast<RecordStore*>(&log) != store_) {
    return Status::invalidArgument("compactInPlace needs the log this index was made over");
  }
  SlotRelocator relocator(table_, options_.seed, options_.tagBits);
  log.compactInPlace(relocator);
  // A DELETED slot only stood for dead records in the log, and there are none now.
  for (uint64_t i = 0; i < table_.slotCount(); ++i) {
    if (table_.slot(i).status() == SlotStatus::Deleted) table_.slot(i) = IndexSlot{};
  }
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
  // Each attempt doubles again; a rebuild fails only when one walk fails,
  // which at half the load is rare (then the next doubling is tried).
  uint64_t bucketCount = table_.bucketCount();
  for (int attempt = 0; attempt < kMaxGrowthsPerSet; ++attempt) {
    if (bucketCount > kMaxBucketCount / 2) return Status::full("the index table cannot grow past 2^40 slots");
    bucketCount *= 2;
    IndexTable grown;
    const bool withinLimit = bucketCount <= tableMemoryLimit_ / (kIndexBucketSlots * sizeof(IndexSlot));
    if (!withinLimit || !grown.allocate(bucketCount)) {
      return Status::outOfMemory("out of memory growing the index table to " + std::to_string(bucketCount) +
                                 " buckets; the index is unchanged");
    }
    bool placedAll = true;
    for (uint64_t i = 0; i < table_.slotCount() && placedAll; ++i) {
      const IndexSlot slot = table_.slot(i);
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
    if (placedAll) {
      table_ = std::move(grown);
      ++rebuilds_;
      return Status::ok();
    }
  }
  return Status::full("the index table could not be rebuilt (keys that cannot be spread)");
}

Status CuckooIndex::adoptSnapshot(IndexSnapshot&& snapshot) {
  if (liveCount_ != 0 || deadRecords_ != 0) return Status::invalidArgument("only an empty index adopts a snapshot");
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
  for (uint64_t i = 0; i < table_.slotCount(); ++i) {
    if (table_.slot(i).isOccupied()) out.push_back(table_.slot(i).offset());
  }
  std::sort(out.begin(), out.end());
}

void CuckooIndex::countSlots(uint64_t counts[3]) const {
  counts[0] = counts[1] = counts[2] = 0;
  for (uint64_t i = 0; i < table_.slotCount(); ++i) ++counts[static_cast<int>(table_.slot(i).status())];
}

}  // namespace cuckoo_bloom
