// Thin bindings for CuckooIndex (cuckoo_bloom/cuckoo_index.h): exact answers
// over a record log. Like embind.cpp, handles are created through embind and
// the per-key calls are plain C exports (cbw_index_*) taking the handle's
// address and (pointer, length) pairs; results are integers, a failure is
// minus its status code and the handle's lastMessage() says why
// (handle_status.h: the convention of every module).
//
// Where the log lives, and why:
// - In memory (the default): a MemoryRecordLog in wasm memory, in 16 MiB
//   segments (memory_record_log.h), so 10M URL keys fit in wasm32. A lookup is one
//   wasm call: hash, probe, and on a tag match compare the key with the record
//   in place, with no JS in between — the only way `has` gets near Map.has.
// - In a file (Node, js/src/exact-index/file/): the log is a file JavaScript owns,
//   and the index reaches it through JsRecordStore below, which calls back into
//   JavaScript to append and read records. The whole algorithm (tags, the
//   full-key check, the duplicate guard, kicks with undo, rebuilding by
//   doubling with keys read back, replay on open) stays in C++, once, for both
//   stores; JavaScript only moves bytes between the file and wasm memory. The
//   callbacks cost ~1 µs each, but happen only on a tag match or an append,
//   where a file read or write costs more anyway. Records are encoded and
//   checked (length + XXH3 checksum) here, so JavaScript needs no hash code.
#include <emscripten/bind.h>
#include <emscripten/emscripten.h>
#include <emscripten/val.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cuckoo_bloom/exact_index/cuckoo_index.h"
#include "cuckoo_bloom/exact_index/index_snapshot.h"
#include "cuckoo_bloom/exact_index/memory_record_log.h"
#include "cuckoo_bloom/exact_index/record_store.h"
#include "handle_status_embind.h"

using namespace emscripten;
using namespace cuckoo_bloom;

namespace {

const uint8_t* bytesAt(uintptr_t pointer) { return reinterpret_cast<const uint8_t*>(pointer); }

// A record store whose bytes live in JavaScript. The JS object has:
//   appendRecord(pointer, length): writes the encoded record found in wasm
//     memory; returns its offset, or minus a status code (nothing appended).
//   readRecord(offset, pointer, capacity): copies up to `capacity` bytes of the
//     log from `offset` into wasm memory; returns how many (fewer only at the
//     end of the log), or minus a status code.
//   nextOffset(): the log's length (where the next append lands). Asked, not
//     cached, so JavaScript stays the one owner of the log's length (opening
//     truncates a torn tail, compaction swaps files).
//   recordFormat: 1, 2 or 3, the record layout of this log (record_store.h;
//     a log file's version), read once: a store never changes its layout.
// Format 3's checks are chained to the 8 bytes before each record, which are
// read from the log with the record (a read starts 8 bytes early; an append
// reads them when the log's end moved since this store's last append).
// Neither may throw: JavaScript catches and keeps its error for the caller.
class JsRecordStore final : public RecordStore {
 public:
  explicit JsRecordStore(val store)
      : store_(std::move(store)),
        format_(recordFormatOf(static_cast<int>(store_["recordFormat"].as<double>()))) {}

  RecordFormat format() const { return format_; }

  uint64_t nextOffset() const override { return static_cast<uint64_t>(store_.call<double>("nextOffset")); }

  Result<uint64_t> append(RecordKind kind, const uint8_t* key, uint32_t keyLength, const uint8_t* value,
                          uint32_t valueLength) override {
    uint64_t chain = 0;
    if (format_ == RecordFormat::V3) {
      Result<uint64_t> found = chainAtEnd();
      if (!found.isOk()) return found.status();
      chain = found.value();
    }
    encoded_.clear();
    Status encoded = encodeRecord(kind, key, keyLength, value, valueLength, encoded_, format_, chain);
    if (!encoded.isOk()) return encoded;
    const double offset = store_.call<double>("appendRecord", static_cast<double>(reinterpret_cast<uintptr_t>(encoded_.data())),
                                              static_cast<double>(encoded_.size()));
    if (offset < 0) return Status(static_cast<StatusCode>(-offset), "the record log could not append (see the cause)");
    // The next record chains to this one's checksum, its last 8 bytes.
    chainEnd_ = static_cast<uint64_t>(offset) + encoded_.size();
    chain_ = recordChainAt(encoded_.data() + encoded_.size() - kRecordChecksumBytes);
    return static_cast<uint64_t>(offset);
  }

  Status read(uint64_t offset, RecordView& out) override {
    ++readCount_;
    // Format 3: the 8 bytes before the record come with it (its chain).
    const size_t before = format_ == RecordFormat::V3 && offset >= 8 ? 8 : 0;
    if (buffer_.size() < kInitialReadBytes) buffer_.resize(kInitialReadBytes);
    for (int attempt = 0; attempt < 2; ++attempt) {
      const double read = store_.call<double>("readRecord", static_cast<double>(offset - before),
                                              static_cast<double>(reinterpret_cast<uintptr_t>(buffer_.data())),
                                              static_cast<double>(buffer_.size()));
      if (read < 0) return Status(static_cast<StatusCode>(-read), "the record log could not be read (see the cause)");
      if (read < static_cast<double>(before)) break;
      const double got = read - static_cast<double>(before);
      const uint64_t chain = before == 0 ? 0 : recordChainAt(buffer_.data());
      const RecordScanResult scanned = scanRecord(buffer_.data() + before, static_cast<size_t>(got), format_, chain);
      if (scanned.scan == RecordScan::Whole) {
        out = scanned.record;
        return Status::ok();
      }
      // A record longer than the buffer: read again with room for all of it.
      if (scanned.scan == RecordScan::Incomplete && static_cast<size_t>(read) == buffer_.size() && scanned.size > got) {
        buffer_.resize(static_cast<size_t>(scanned.size) + before);
        continue;
      }
      break;
    }
    return Status::corrupt("the record at offset " + std::to_string(offset) +
                           " of the log is damaged (its length or checksum is wrong)");
  }

  // Appends a format-3 Close marker (a clean close: the record before it was committed).
  Status appendCloseMarker() {
    if (format_ != RecordFormat::V3) return Status::unsupported("only a log of version 3 has close markers");
    Result<uint64_t> appended = append(RecordKind::Close, nullptr, 0, nullptr, 0);
    return appended.isOk() ? Status::ok() : appended.status();
  }

  // Appends a format-3 SnapshotMark carrying `mark` (kSnapshotMarkBytes: the
  // digest of the table a snapshot is about to be written of).
  Status appendSnapshotMark(const uint8_t* mark) {
    if (format_ != RecordFormat::V3) return Status::unsupported("only a log of version 3 has snapshot marks");
    Result<uint64_t> appended = append(RecordKind::SnapshotMark, mark, kSnapshotMarkBytes, nullptr, 0);
    return appended.isOk() ? Status::ok() : appended.status();
  }

 private:
  // The chain for a record appended at the log's end: the checksum of this
  // store's last append, or (the log's end moved: opened, cut back) its last 8 bytes.
  Result<uint64_t> chainAtEnd() {
    const uint64_t end = nextOffset();
    if (end == chainEnd_) return chain_;
    uint8_t preceding[8] = {};
    const double got = store_.call<double>("readRecord", static_cast<double>(end - 8),
                                           static_cast<double>(reinterpret_cast<uintptr_t>(preceding)), 8.0);
    if (got < 0) return Status(static_cast<StatusCode>(-got), "the record log could not be read (see the cause)");
    if (got != 8) return Status::corrupt("the record log ends inside its header");
    chainEnd_ = end;
    chain_ = recordChainAt(preceding);
    return chain_;
  }

  // Most records (URL keys, short values) fit; longer ones cost a second read.
  static constexpr size_t kInitialReadBytes = 512;
  val store_;
  RecordFormat format_;
  uint64_t chainEnd_ = ~uint64_t{0};  // where the last append ended (none yet: no offset)
  uint64_t chain_ = 0;                // the checksum that ends there
  std::vector<uint8_t> encoded_;
  std::vector<uint8_t> buffer_;
};

class IndexHandle : public HandleStatus {
 public:
  IndexHandle() = default;
  IndexHandle(const IndexHandle&) = delete;
  IndexHandle& operator=(const IndexHandle&) = delete;
  ~IndexHandle() { releaseLiveOffsets(); }

  // options: { capacity, tagBits, maxKicks, seed } (numbers, all present);
  // store: undefined for the in-memory log, else a JS store (above).
  static IndexHandle* create(const val& options, const val& store) {
    auto* handle = new IndexHandle();
    if (store.isUndefined()) {
      auto log = std::make_unique<MemoryRecordLog>();
      handle->memoryLog_ = log.get();
      handle->store_ = std::move(log);
    } else {
      auto js = std::make_unique<JsRecordStore>(store);
      handle->format_ = js->format();
      handle->jsStore_ = js.get();
      handle->store_ = std::move(js);
    }
    CuckooIndexOptions parsed;
    parsed.capacity = static_cast<uint64_t>(options["capacity"].as<double>());
    parsed.tagBits = static_cast<uint32_t>(options["tagBits"].as<double>());
    parsed.maxKicks = static_cast<uint32_t>(options["maxKicks"].as<double>());
    parsed.seed = static_cast<uint64_t>(options["seed"].as<double>());
    handle->keep(CuckooIndex::create(*handle->store_, parsed), handle->index_);
    return handle;
  }

  // Made when it holds an index (its status is the last failed call's).
  bool made() const { return index_.has_value(); }
  uintptr_t address() const { return reinterpret_cast<uintptr_t>(this); }

  double size() const { return static_cast<double>(index_->size()); }
  double deadRecords() const { return static_cast<double>(index_->deadRecords()); }
  double bucketCount() const { return static_cast<double>(index_->bucketCount()); }
  double tableBytes() const { return static_cast<double>(index_->tableBytes()); }
  double loadFactor() const { return index_->loadFactor(); }
  double rebuilds() const { return static_cast<double>(index_->rebuilds()); }
  bool growing() const { return index_->growing(); }
  double storeReads() const { return static_cast<double>(store_->readCount()); }
  void resetStoreReads() { store_->resetReadCount(); }
  double nextOffset() const { return static_cast<double>(store_->nextOffset()); }
  // In-memory log only (0 for a file): bytes used and bytes reserved.
  double logBytes() const { return memoryLog_ == nullptr ? 0.0 : static_cast<double>(memoryLog_->byteLength()); }
  double logAllocatedBytes() const {
    return memoryLog_ == nullptr ? 0.0 : static_cast<double>(memoryLog_->allocatedBytes());
  }
  // Live record offsets, ascending: count returned, then read from
  // liveOffsetsData() as float64; or minus OUT_OF_MEMORY when the wasm heap
  // has no room for them. malloc, not a std::vector: without exceptions a
  // failed vector allocation aborts the module, and every filter of the
  // process with it. (The message fits std::string's inline buffer: nothing
  // else is allocated on this path.)
  int collectLiveOffsets() {
    releaseLiveOffsets();
    const uint64_t count = index_->size();
    liveOffsets_ = static_cast<uint64_t*>(std::malloc(static_cast<size_t>(count + 1) * sizeof(uint64_t)));
    if (liveOffsets_ == nullptr) return fail(Status::outOfMemory("heap full"));
    index_->liveOffsetsInto(liveOffsets_);
    for (uint64_t i = 0; i < count; ++i) {
      const double offset = static_cast<double>(liveOffsets_[i]);
      std::memcpy(&liveOffsets_[i], &offset, sizeof offset);  // in place, one slot at a time
    }
    return static_cast<int>(count);
  }
  uintptr_t liveOffsetsData() const { return reinterpret_cast<uintptr_t>(liveOffsets_); }
  void releaseLiveOffsets() {
    std::free(liveOffsets_);
    liveOffsets_ = nullptr;
  }
  // In-memory log only: compacts it in place (CuckooIndex::compactInPlace),
  // which allocates nothing and so cannot run out of memory. 0, or minus a
  // status code (UNSUPPORTED for a store in JavaScript: nothing changed).
  int compactInPlace() {
    if (memoryLog_ == nullptr) {
      return fail(Status::unsupported("only an index over the in-memory log compacts in place"));
    }
    Status compacted = index_->compactInPlace(*memoryLog_);
    return compacted.isOk() ? 0 : fail(compacted);
  }

  // Snapshots (index_snapshot.h). JavaScript owns the log file, so it streams
  // the log prefix a snapshot covers through hashLog() (XXH3-64, seed 0) both
  // when writing one and when checking one against the log on open.
  void hashLogBegin() { XXH3_64bits_reset(&logHash_); }
  void hashLog(uintptr_t data, uint32_t length) { XXH3_64bits_update(&logHash_, bytesAt(data), length); }
  // Writing: the parts of a snapshot covering log bytes [0, logLength) just
  // hashed; the payload is the live table (no copy), valid until the next change.
  // 0, or minus a status code (a table still draining after a doubling is
  // moved whole first: a snapshot holds one table; that can fail on a read).
  int prepareSnapshot(double logLength) {
    Result<SerializedParts> parts =
        indexSnapshotParts(*index_, static_cast<uint64_t>(logLength), XXH3_64bits_digest(&logHash_));
    if (!parts.isOk()) return fail(parts.status());
    snapshot_ = std::move(parts).value();
    for (int i = 0; i < 8; ++i) snapshotChecksum_[i] = static_cast<uint8_t>(snapshot_.checksum >> (8 * i));
    return 0;
  }
  // Moves every slot of a table still draining after a doubling into the
  // current one (CuckooIndex::finishGrowth): 0, or minus a status code.
  int finishGrowth() {
    Status finished = index_->finishGrowth();
    return finished.isOk() ? 0 : fail(finished);
  }
  uintptr_t snapshotHeadData() const { return reinterpret_cast<uintptr_t>(snapshot_.head.data()); }
  double snapshotHeadLength() const { return static_cast<double>(snapshot_.head.size()); }
  uintptr_t snapshotPayloadData() const { return reinterpret_cast<uintptr_t>(snapshot_.payload); }
  double snapshotPayloadLength() const { return static_cast<double>(snapshot_.payloadLength); }
  uintptr_t snapshotChecksumData() const { return reinterpret_cast<uintptr_t>(snapshotChecksum_); }
  void releaseSnapshot() { snapshot_ = SerializedParts{}; }
  // Reading: decodes and checks a snapshot's bytes and keeps it pending;
  // returns the log length it covers, or -1 (the reason in lastMessage()).
  double readSnapshot(uintptr_t data, uint32_t length) {
    pending_.reset();
    Result<IndexSnapshot> decoded = decodeIndexSnapshot(bytesAt(data), length);
    if (!decoded.isOk()) {
      remember(decoded.status());
      return -1;
    }
    pending_.emplace(std::move(decoded).value());
    return static_cast<double>(pending_->params.logLength);
  }
  void dropPendingSnapshot() { pending_.reset(); }
  // Adopts the pending snapshot when the log prefix just hashed is the one it
  // covers and it was made with this index's seed and tag width; false
  // otherwise (the index is unchanged: the caller replays the whole log).
  bool adoptPendingSnapshot() {
    if (!pending_.has_value()) return false;
    IndexSnapshot snapshot = std::move(*pending_);
    pending_.reset();
    if (XXH3_64bits_digest(&logHash_) != snapshot.params.logChecksum) {
      remember(Status::corrupt("the log does not start with the bytes the snapshot describes"));
      return false;
    }
    Status adopted = index_->adoptSnapshot(std::move(snapshot));
    if (!adopted.isOk()) remember(adopted);
    return adopted.isOk();
  }

  // A format-3 file log's clean close: 0, or minus a status code.
  int appendCloseMarker() {
    if (jsStore_ == nullptr) return fail(Status::unsupported("only a log file has close markers"));
    Status appended = jsStore_->appendCloseMarker();
    return appended.isOk() ? 0 : fail(appended);
  }

  // A format-3 file log's snapshot mark (kSnapshotMarkBytes at `data`): 0, or minus a status code.
  int appendSnapshotMark(uintptr_t data) {
    if (jsStore_ == nullptr) return fail(Status::unsupported("only a log file has snapshot marks"));
    Status appended = jsStore_->appendSnapshotMark(bytesAt(data));
    return appended.isOk() ? 0 : fail(appended);
  }
  // The slot words of the live table and of the pending snapshot (as the
  // snapshot stores them: u64 little-endian each, which wasm memory is), for
  // the digest a snapshot mark carries; 0 bytes when there is none. The live
  // table's only after finishGrowth() (else it is one of two tables).
  uintptr_t tableSlotsData() const { return reinterpret_cast<uintptr_t>(&index_->table().slot(0).word); }
  double tableSlotsLength() const { return static_cast<double>(index_->table().slotCount() * sizeof(IndexSlot)); }
  uintptr_t pendingSlotsData() const {
    return pending_.has_value() ? reinterpret_cast<uintptr_t>(&pending_->table.slot(0).word) : 0;
  }
  double pendingSlotsLength() const {
    return pending_.has_value() ? static_cast<double>(pending_->table.slotCount() * sizeof(IndexSlot)) : 0;
  }
  double pendingLiveCount() const { return pending_.has_value() ? static_cast<double>(pending_->liveCount) : 0; }

  CuckooIndex& index() { return *index_; }
  RecordStore& store() { return *store_; }
  RecordFormat format() const { return format_; }
  // Records a failure; returns minus its code (this handle's calls' sign).
  int fail(const Status& status) { return -remember(status); }

 private:
  std::unique_ptr<RecordStore> store_;
  MemoryRecordLog* memoryLog_ = nullptr;
  JsRecordStore* jsStore_ = nullptr;
  RecordFormat format_ = RecordFormat::V1;  // the in-memory log's, or the JS store's
  std::optional<CuckooIndex> index_;
  uint64_t* liveOffsets_ = nullptr;  // collectLiveOffsets()'s list (float64 bits), malloc'd
  XXH3_state_t logHash_;
  SerializedParts snapshot_;
  uint8_t snapshotChecksum_[8] = {};
  std::optional<IndexSnapshot> pending_;
};

IndexHandle* handleAt(uintptr_t address) { return reinterpret_cast<IndexHandle*>(address); }

// Writes a record's place in wasm memory to `out` (5 uint32: key pointer, key
// length, value pointer, value length, kind).
void describeRecord(const RecordView& record, uintptr_t out) {
  auto* words = reinterpret_cast<uint32_t*>(out);
  words[0] = static_cast<uint32_t>(reinterpret_cast<uintptr_t>(record.key));
  words[1] = record.keyLength;
  words[2] = static_cast<uint32_t>(reinterpret_cast<uintptr_t>(record.value));
  words[3] = record.valueLength;
  words[4] = static_cast<uint32_t>(record.kind);
}

}  // namespace

extern "C" {
// 1: present, 0: absent, negative: minus a status code.
EMSCRIPTEN_KEEPALIVE int cbw_index_has(uintptr_t handle, uintptr_t key, uint32_t length) {
  IndexHandle* index = handleAt(handle);
  Result<bool> found = index->index().contains(bytesAt(key), length);
  return found.isOk() ? (found.value() ? 1 : 0) : index->fail(found.status());
}
// 1: present, its record described at `out` (valid until the next call on
// this index); 0: absent; negative: minus a status code.
EMSCRIPTEN_KEEPALIVE int cbw_index_get(uintptr_t handle, uintptr_t key, uint32_t length, uintptr_t out) {
  IndexHandle* index = handleAt(handle);
  RecordView record;
  Status status = index->index().get(bytesAt(key), length, record);
  if (status.code() == StatusCode::NotFound) return 0;
  if (!status.isOk()) return index->fail(status);
  describeRecord(record, out);
  return 1;
}
// 1: a new key, 0: a present key updated, negative: minus a status code (nothing changed).
EMSCRIPTEN_KEEPALIVE int cbw_index_set(uintptr_t handle, uintptr_t key, uint32_t length, uintptr_t value,
                                       uint32_t valueLength, int hasValue) {
  IndexHandle* index = handleAt(handle);
  Result<bool> added = index->index().set(bytesAt(key), length, bytesAt(value), valueLength, hasValue != 0);
  return added.isOk() ? (added.value() ? 1 : 0) : index->fail(added.status());
}
// 1: deleted, 0: absent (nothing written), negative: minus a status code.
EMSCRIPTEN_KEEPALIVE int cbw_index_delete(uintptr_t handle, uintptr_t key, uint32_t length) {
  IndexHandle* index = handleAt(handle);
  Result<bool> removed = index->index().remove(bytesAt(key), length);
  return removed.isOk() ? (removed.value() ? 1 : 0) : index->fail(removed.status());
}
// The record at `offset`, described at `out`: 0 or minus a status code.
EMSCRIPTEN_KEEPALIVE int cbw_index_read(uintptr_t handle, double offset, uintptr_t out) {
  IndexHandle* index = handleAt(handle);
  RecordView record;
  Status status = index->store().read(static_cast<uint64_t>(offset), record);
  if (!status.isOk()) return index->fail(status);
  describeRecord(record, out);
  return 0;
}
// The chain of the record at `at` in `bytes` (format 3: the 8 bytes before
// it, which for at = 0 the caller placed before `bytes`; 0 otherwise).
uint64_t chainBefore(const uint8_t* bytes, size_t at, RecordFormat format) {
  return format == RecordFormat::V3 ? recordChainAt(bytes + at - 8) : 0;
}

// Replays log bytes (a chunk of a log file read on open, starting at log
// offset `baseOffset`; in format 3 the 8 log bytes before it precede `data`)
// into the index: applies every whole record from the start (a Close marker
// and a SnapshotMark change nothing) and stops at the first that is not whole. Returns the
// bytes applied (>= 0), or minus a status code when applying failed.
EMSCRIPTEN_KEEPALIVE double cbw_index_replay(uintptr_t handle, uintptr_t data, uint32_t length, double baseOffset) {
  IndexHandle* index = handleAt(handle);
  const uint8_t* bytes = bytesAt(data);
  size_t at = 0;
  while (at < length) {
    const RecordScanResult scanned =
        scanRecord(bytes + at, length - at, index->format(), chainBefore(bytes, at, index->format()));
    if (scanned.scan != RecordScan::Whole) break;
    if (scanned.record.kind == RecordKind::Close || scanned.record.kind == RecordKind::SnapshotMark) {
      at += static_cast<size_t>(scanned.size);
      continue;
    }
    Status applied = index->index().applyRecord(static_cast<uint64_t>(baseOffset) + at, scanned.record);
    if (!applied.isOk()) return index->fail(applied);
    at += static_cast<size_t>(scanned.size);
  }
  return static_cast<double>(at);
}
// In the exports below, `format` is 1, 2 or 3; in format 3 the 8 log bytes
// before `data` must precede it in memory (the first record's chain).
//
// What starts at `data`, read in record format `format`: 0 a whole
// record, 1 incomplete, 2 a body whose checksum fails (its header passes),
// 3 a header no writer makes; the length the record's header claims (0 when
// unreadable) is written to `size` (a float64).
EMSCRIPTEN_KEEPALIVE int cbw_record_scan(uintptr_t data, uint32_t length, uintptr_t size, int format) {
  const RecordFormat layout = recordFormatOf(format);
  const RecordScanResult scanned = scanRecord(bytesAt(data), length, layout, chainBefore(bytesAt(data), 0, layout));
  *reinterpret_cast<double*>(size) = static_cast<double>(scanned.size);
  switch (scanned.scan) {
    case RecordScan::Whole: return 0;
    case RecordScan::Incomplete: return 1;
    case RecordScan::Garbled: return 2;
    case RecordScan::BadHeader: return 3;
  }
  return 3;
}
// Counts the whole records at the start of `data`, without an index
// (repair): returns the bytes they take and writes their count (Close
// markers included) to `count` (a float64).
EMSCRIPTEN_KEEPALIVE double cbw_records_whole(uintptr_t data, uint32_t length, int format, uintptr_t count) {
  const RecordFormat layout = recordFormatOf(format);
  size_t at = 0;
  double records = 0;
  while (at < length) {
    const RecordScanResult scanned =
        scanRecord(bytesAt(data) + at, length - at, layout, chainBefore(bytesAt(data), at, layout));
    if (scanned.scan != RecordScan::Whole) break;
    at += static_cast<size_t>(scanned.size);
    ++records;
  }
  *reinterpret_cast<double*>(count) = records;
  return static_cast<double>(at);
}
// The first offset in [from, length) where a whole record starts, or -1: a
// damaged record followed by a whole one is damage, never a torn tail (a torn
// write is always the last thing in the file); repair resumes there. In
// format 3 a record's chain is the 8 bytes before it wherever it starts, so
// a record whose predecessor was damaged in its body is still found.
EMSCRIPTEN_KEEPALIVE double cbw_record_find_whole(uintptr_t data, uint32_t length, uint32_t from, int format) {
  const RecordFormat layout = recordFormatOf(format);
  for (size_t at = from; at < length; ++at) {
    const uint8_t* bytes = bytesAt(data);
    if (scanRecord(bytes + at, length - at, layout, chainBefore(bytes, at, layout)).scan == RecordScan::Whole) {
      return static_cast<double>(at);
    }
  }
  return -1;
}
// Re-chains the whole records at the start of `data` (format 3, checked
// against their own chain: the 8 bytes before `data`) to follow the 8 bytes
// at `chain` instead, in place, stopping at the first record that is not
// whole: repair keeps the records after damage it moved aside this way.
// Returns the bytes re-chained and writes their count to `count` (a float64).
// Formats 1 and 2 have no chain: their records are counted, not changed.
EMSCRIPTEN_KEEPALIVE double cbw_records_rechain(uintptr_t data, uint32_t length, int format, uintptr_t chain,
                                                uintptr_t count) {
  const RecordFormat layout = recordFormatOf(format);
  auto* bytes = reinterpret_cast<uint8_t*>(data);
  uint64_t next = layout == RecordFormat::V3 ? recordChainAt(bytesAt(chain)) : 0;
  // The old chain of the record at `at`, saved before the record before it was rewritten.
  uint64_t old = chainBefore(bytes, 0, layout);
  size_t at = 0;
  double records = 0;
  while (at < length) {
    const RecordScanResult scanned = scanRecord(bytes + at, length - at, layout, old);
    if (scanned.scan != RecordScan::Whole) break;
    const size_t size = static_cast<size_t>(scanned.size);
    old = layout == RecordFormat::V3 ? recordChainAt(bytes + at + size - kRecordChecksumBytes) : 0;
    if (layout == RecordFormat::V3) {
      rechainRecord(bytes + at, size, next);
      next = recordChainAt(bytes + at + size - kRecordChecksumBytes);
    }
    at += size;
    ++records;
  }
  *reinterpret_cast<double*>(count) = records;
  return static_cast<double>(at);
}
}

EMSCRIPTEN_BINDINGS(cuckoo_index) {
  constant("recordOverheadBytes", static_cast<uint32_t>(kRecordOverheadBytes));
  bindHandleStatus(class_<IndexHandle>("IndexHandle"))
      .function("address", &IndexHandle::address)
      .function("size", &IndexHandle::size)
      .function("deadRecords", &IndexHandle::deadRecords)
      .function("bucketCount", &IndexHandle::bucketCount)
      .function("tableBytes", &IndexHandle::tableBytes)
      .function("loadFactor", &IndexHandle::loadFactor)
      .function("rebuilds", &IndexHandle::rebuilds)
      .function("growing", &IndexHandle::growing)
      .function("storeReads", &IndexHandle::storeReads)
      .function("resetStoreReads", &IndexHandle::resetStoreReads)
      .function("nextOffset", &IndexHandle::nextOffset)
      .function("logBytes", &IndexHandle::logBytes)
      .function("logAllocatedBytes", &IndexHandle::logAllocatedBytes)
      .function("collectLiveOffsets", &IndexHandle::collectLiveOffsets)
      .function("liveOffsetsData", &IndexHandle::liveOffsetsData)
      .function("releaseLiveOffsets", &IndexHandle::releaseLiveOffsets)
      .function("compactInPlace", &IndexHandle::compactInPlace)
      .function("hashLogBegin", &IndexHandle::hashLogBegin)
      .function("hashLog", &IndexHandle::hashLog)
      .function("prepareSnapshot", &IndexHandle::prepareSnapshot)
      .function("finishGrowth", &IndexHandle::finishGrowth)
      .function("snapshotHeadData", &IndexHandle::snapshotHeadData)
      .function("snapshotHeadLength", &IndexHandle::snapshotHeadLength)
      .function("snapshotPayloadData", &IndexHandle::snapshotPayloadData)
      .function("snapshotPayloadLength", &IndexHandle::snapshotPayloadLength)
      .function("snapshotChecksumData", &IndexHandle::snapshotChecksumData)
      .function("releaseSnapshot", &IndexHandle::releaseSnapshot)
      .function("readSnapshot", &IndexHandle::readSnapshot)
      .function("dropPendingSnapshot", &IndexHandle::dropPendingSnapshot)
      .function("adoptPendingSnapshot", &IndexHandle::adoptPendingSnapshot)
      .function("appendCloseMarker", &IndexHandle::appendCloseMarker)
      .function("appendSnapshotMark", &IndexHandle::appendSnapshotMark)
      .function("tableSlotsData", &IndexHandle::tableSlotsData)
      .function("tableSlotsLength", &IndexHandle::tableSlotsLength)
      .function("pendingSlotsData", &IndexHandle::pendingSlotsData)
      .function("pendingSlotsLength", &IndexHandle::pendingSlotsLength)
      .function("pendingLiveCount", &IndexHandle::pendingLiveCount);
  function("createIndex", &IndexHandle::create, allow_raw_pointers());
}
