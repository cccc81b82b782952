import type { CoreModule } from '../runtime/core-module.js';
import { FilterError } from '../errors.js';

/**
 * Where a CuckooIndex keeps its records when they are not in wasm memory: an
 * append-only byte log (the Node file store, `cuckoo-bloom-wasm/index-file`,
 * is one). The index encodes and checks the records (length + checksum) itself;
 * a store only moves bytes. Calls are synchronous: a lookup that needs a record
 * reads it in the middle of a wasm call.
 */
export interface IndexRecordStore {
  /** The log's length in bytes: where the next append lands. */
  readonly byteLength: number;
  /**
   * The layout of the log's records (record_store.h): 1 (the default), 2,
   * whose headers carry their own check (log files of version 2), or 3,
   * whose checks are chained to the 8 bytes before each record (log files of
   * version 3). Read once, when the index is made over the store.
   */
  readonly recordFormat?: 1 | 2 | 3;
  /** Appends one encoded record; returns its offset. On failure it throws and leaves the log as it was. */
  append(record: Uint8Array): number;
  /**
   * Copies up to `length` bytes of the log from `offset` into `target` (from
   * its start); returns how many (fewer only at the end of the log).
   */
  readInto(offset: number, target: Uint8Array): number;
}

/** The plain C exports of bindings/cuckoo_index_bindings.cpp. */
interface IndexCoreExports {
  _cbw_index_has(handle: number, key: number, length: number): number;
  _cbw_index_get(handle: number, key: number, length: number, out: number): number;
  _cbw_index_set(handle: number, key: number, length: number, value: number, valueLength: number, hasValue: number): number;
  _cbw_index_delete(handle: number, key: number, length: number): number;
  _cbw_index_read(handle: number, offset: number, out: number): number;
  _cbw_index_replay(handle: number, data: number, length: number, baseOffset: number): number;
  _cbw_record_scan(data: number, length: number, size: number, format: number): number;
  _cbw_records_whole(data: number, length: number, format: number, count: number): number;
  _cbw_record_find_whole(data: number, length: number, from: number, format: number): number;
  _cbw_records_rechain(data: number, length: number, format: number, chain: number, count: number): number;
  createIndex(options: CoreIndexOptions, store: StoreCallbacks | undefined): IndexHandle;
  HEAPF64: Float64Array;
  recordOverheadBytes: number;
}

export type IndexCore = CoreModule & IndexCoreExports;

interface CoreIndexOptions {
  capacity: number;
  tagBits: number;
  maxKicks: number;
  seed: number;
}

export interface IndexHandle {
  ok(): boolean;
  errorCode(): string;
  errorMessage(): string;
  lastMessage(): string;
  address(): number;
  size(): number;
  deadRecords(): number;
  bucketCount(): number;
  tableBytes(): number;
  loadFactor(): number;
  rebuilds(): number;
  storeReads(): number;
  resetStoreReads(): void;
  nextOffset(): number;
  logBytes(): number;
  logAllocatedBytes(): number;
  collectLiveOffsets(): number;
  liveOffsetsData(): number;
  releaseLiveOffsets(): void;
  hashLogBegin(): void;
  hashLog(data: number, length: number): void;
  prepareSnapshot(logLength: number): number;
  finishGrowth(): number;
  snapshotHeadData(): number;
  snapshotHeadLength(): number;
  snapshotPayloadData(): number;
  snapshotPayloadLength(): number;
  snapshotChecksumData(): number;
  releaseSnapshot(): void;
  readSnapshot(data: number, length: number): number;
  dropPendingSnapshot(): void;
  adoptPendingSnapshot(): boolean;
  /** A version-3 log file's clean close: appends a Close marker (0, or minus a status code). */
  appendCloseMarker(): number;
  /** A version-3 log file's snapshot mark: appends one carrying the 40 bytes at `data` (0, or minus a status code). */
  appendSnapshotMark(data: number): number;
  /** The live table's slot words (u64 little-endian each): where they are in wasm memory, and their bytes. */
  tableSlotsData(): number;
  tableSlotsLength(): number;
  /** The same for the snapshot readSnapshot() decoded and keeps pending (0 bytes when none), and its live keys. */
  pendingSlotsData(): number;
  pendingSlotsLength(): number;
  pendingLiveCount(): number;
  /** In-memory log only: compaction in place (0, or minus a status code; UNSUPPORTED over a JS store). */
  compactInPlace(): number;
  delete(): void;
}

/** What the C++ JsRecordStore calls (cuckoo_index_bindings.cpp): never throws, returns minus a status code. */
interface StoreCallbacks {
  appendRecord(pointer: number, length: number): number;
  readRecord(offset: number, pointer: number, capacity: number): number;
  nextOffset(): number;
  readonly recordFormat: number;
}

/** Status code numbers the callbacks return (status.h); the cause is kept in `failure`. */
const CORRUPT = 3;
const OUT_OF_MEMORY = 7;

/**
 * Wraps a store for the core: copies bytes between it and wasm memory and
 * turns a thrown error into a status code, keeping the error so the index can
 * throw it (as a FilterError's cause) once the wasm call has returned —
 * an exception must never unwind through C++ frames.
 */
export class StoreBridge implements StoreCallbacks {
  failure: unknown = undefined;

  constructor(
    readonly store: IndexRecordStore,
    private readonly module: CoreModule,
  ) {}

  appendRecord(pointer: number, length: number): number {
    try {
      // A copy: the store may keep the bytes (a write queue) past this call.
      return this.store.append(this.module.HEAPU8.slice(pointer, pointer + length));
    } catch (error) {
      this.failure = error;
      return -(error instanceof FilterError && error.code === 'OUT_OF_MEMORY' ? OUT_OF_MEMORY : CORRUPT);
    }
  }

  readRecord(offset: number, pointer: number, capacity: number): number {
    try {
      return this.store.readInto(offset, this.module.HEAPU8.subarray(pointer, pointer + capacity));
    } catch (error) {
      this.failure = error;
      return -CORRUPT;
    }
  }

  nextOffset(): number {
    return this.store.byteLength;
  }

  get recordFormat(): number {
    return this.store.recordFormat ?? 1;
  }

  /** The error a callback caught since the last call, cleared. */
  takeFailure(): unknown {
    const failure = this.failure;
    this.failure = undefined;
    return failure;
  }
}
