import { createHash } from 'node:crypto';
import { existsSync, renameSync, rmSync } from 'node:fs';
import { CuckooIndex, FilterError, internalRuntime, type CuckooIndexOptions, type IndexValue, type Key } from '../../index.js';
import { readSnapshotFile, syncDirectory, writeFileAtomically } from './durable-files.js';
import { FILE_HEADER_BYTES, FileRecordStore, type FileStoreOptions, type LogVersion } from './file-store.js';
import { core, judgeTail, readWithChain, scanWholeRecords, withBytesInWasm } from './log-tail.js';
import { repairLog, type RepairOptions, type RepairReport } from './repair.js';
import { WriterLock } from './writer-lock.js';

export type { RepairOptions, RepairReport } from './repair.js';

/** Options of {@link FileCuckooIndex.open}: the table's ({@link CuckooIndexOptions}), the file's ({@link FileStoreOptions}), and what open and close do. */
export interface FileCuckooIndexOptions extends CuckooIndexOptions, FileStoreOptions {
  /**
   * Whether close() saves the table as a snapshot (see saveSnapshot()) when
   * the log changed since the snapshot was loaded on open or last saved, so
   * the next open loads it instead of replaying the log. Default true. A
   * close after no change writes nothing, and neither does one while the
   * table is growing (a doubling's old table still draining, which saving
   * would first read back key by key; the next open then replays the log
   * after the last snapshot). Saving costs one read of the log (its checksum)
   * and one write of the table (8 bytes a slot): about 120 ms at 1M URL keys.
   * Turn it off when closes must be quick, or when something else decides
   * when snapshots are taken (saveSnapshot() still works).
   */
  snapshotOnClose?: boolean | undefined;
  /**
   * For version-1 logs only: drop a tail that may be an unfinished last
   * write. In a version-1 log a record that runs past the end of the file
   * (or ends exactly there with a bad checksum) is either a write that never
   * finished or a committed record whose length was damaged, and the two
   * cannot be told apart, so opening is `CORRUPT` by default; with
   * `dropTornTail: true` such a tail is dropped as torn (cut off the file by
   * a writer, ignored by a reader) — unless a whole record follows it, which
   * makes it damage for certain. Version-2 logs tell the two apart and need
   * no option (it changes nothing there). Default false.
   */
  dropTornTail?: boolean | undefined;
}

/** What opening found at the end of the log. */
export interface OpenReport {
  /**
   * Bytes of an unfinished last record that opening cut off the file (with
   * `readOnly`: left in the file and ignored); 0 when the log ended cleanly.
   */
  droppedTailBytes: number;
  /** The log's version: 3, or 1 or 2 for a log written before version 3 (until compact() rewrites it). */
  logVersion: LogVersion;
  /** Live keys after replaying the log. */
  keys: number;
  /**
   * Log bytes the table was loaded for from the snapshot (`path.snapshot`,
   * saved by saveSnapshot() or close()); 0 when there was none or it did not
   * match the log, and the whole log was replayed.
   */
  snapshotLogBytes: number;
}

/**
 * A CuckooIndex whose records live in an append-only file (Node only). The
 * table is rebuilt from the file on open (from the snapshot close() saved,
 * plus the records after it); a record is in the file when set or delete
 * returns (see `syncEveryWrite` for power loss). Durability, precisely:
 * https://github.com/cuckoo-bloom-wasm/cuckoo-bloom-wasm/blob/main/docs/EXACT-INDEX.md.
 */
export class FileCuckooIndex extends CuckooIndex {
  #store: FileRecordStore;
  readonly #path: string;
  readonly #syncEveryWrite: boolean;
  readonly #bufferWrites: boolean;
  readonly #snapshotOnClose: boolean;
  readonly #readOnly: boolean;
  #openReport: OpenReport = { droppedTailBytes: 0, logVersion: 2, keys: 0, snapshotLogBytes: 0 };
  /** The writer's lock (null for a read-only index, and after close). */
  #lock: WriterLock | null = null;
  /**
   * The log's length when it last needed no new snapshot: at the end of
   * open, or at the last saveSnapshot(). The log only grows between (appends;
   * a failed append is cut back), so a different length at close means it
   * changed. -1 after a compaction, which replaces the log and drops its snapshot.
   */
  #unchangedLength = -1;
  /**
   * The log's length when it last ended with a close marker (version 3), or
   * -1: close() appends one when the log changed since. The marker says the
   * record before it was committed: damage to that record is then CORRUPT,
   * never dropped as an unfinished last write.
   */
  #markedLength = -1;
  /** The log's length at the end of open (-1 after a compaction): a close after no change appends nothing. */
  #openedLength = -1;
  /**
   * The table was loaded from a snapshot, not rebuilt from the log: compact()
   * then rebuilds it from the log first (a snapshot can cost time, never a record).
   */
  #fromSnapshot = false;
  #closed = false;

  private constructor(path: string, store: FileRecordStore, options: FileCuckooIndexOptions) {
    const { syncEveryWrite, snapshotOnClose, readOnly, bufferWrites, dropTornTail, ...indexOptions } = options;
    void dropTornTail; // an option of open() only
    super(indexOptions, store);
    this.#store = store;
    this.#path = path;
    this.#syncEveryWrite = syncEveryWrite === true;
    this.#bufferWrites = bufferWrites === true;
    this.#readOnly = readOnly === true;
    this.#snapshotOnClose = snapshotOnClose !== false && !this.#readOnly;
  }

  /** Opened with `readOnly: true`: set, delete, compact and saveSnapshot throw `UNSUPPORTED`. */
  get readOnly(): boolean {
    return this.#readOnly;
  }

  #refuseWrite(what: string): void {
    if (this.#readOnly) {
      throw new FilterError('UNSUPPORTED', `${this.#path} was opened with readOnly: true: ${what} would write to it`);
    }
  }

  override set(key: Key, value?: IndexValue): boolean {
    this.#refuseWrite('set');
    return super.set(key, value);
  }

  override delete(key: Key): boolean {
    this.#refuseWrite('delete');
    return super.delete(key);
  }

  /**
   * Opens the index log at `path` (created as version 3 when absent) and
   * rebuilds the table from it. A writing open takes the log's writer lock
   * (`path.lock`: one writer per log; close() releases it). Only an
   * unfinished last write (a torn tail: an intact record header whose record
   * runs to the end of the file, or zero bytes to the end) is dropped, and
   * only when nothing says it was committed (a close marker after it, or a
   * snapshot whose length reaches past it); any other damage — in version 3
   * also a record cut out, moved or copied in from another log — is
   * `CORRUPT`, naming the byte offset, and the file is left untouched
   * (salvage is explicit: repair()). `await init()` first.
   * @throws FilterError `CORRUPT`, `LOCKED` (another writer holds the log),
   * `UNAVAILABLE` (I/O), `UNSUPPORTED_VERSION`, `INVALID_ARGUMENT`, `NOT_INITIALIZED`.
   */
  static open(path: string, options: FileCuckooIndexOptions = {}): FileCuckooIndex {
    if (typeof path !== 'string' || path.length === 0) {
      throw new FilterError('INVALID_ARGUMENT', 'FileCuckooIndex.open needs a file path');
    }
    for (const name of ['snapshotOnClose', 'readOnly', 'syncEveryWrite', 'bufferWrites', 'dropTornTail'] as const) {
      const value = options[name];
      if (value !== undefined && typeof value !== 'boolean') {
        throw new FilterError('INVALID_ARGUMENT', `FileCuckooIndex: ${name} must be true or false, got ${String(value)}`);
      }
    }
    // Before any file is touched: an open before init() creates nothing.
    internalRuntime();
    const readOnly = options.readOnly === true;
    const lock = readOnly ? null : WriterLock.acquire(path);
    try {
      const index = FileCuckooIndex.#openLocked(path, options);
      index.#lock = lock;
      return index;
    } catch (error) {
      lock?.release();
      throw error;
    }
  }

  /**
   * Salvages a damaged log, explicitly: keeps every whole record and moves
   * only the damaged bytes aside. At the first record that is not whole it
   * resynchronises at the next offset where a whole record starts; each
   * damaged stretch goes, byte for byte, to a new file beside the log
   * (`path.damaged-at-<offset>`, never overwriting one; written, flushed and
   * renamed into place before the log changes). Then the log is cut at the
   * damage when nothing whole follows it, or rewritten beside itself and
   * renamed over it (the records after the damage re-chained, version 3).
   * The snapshot is deleted. The log then opens. A whole log is left as it
   * is. Takes the writer lock for its duration (`LOCKED` while a writer has
   * the log open). With `dryRun: true` it only reports what it would move.
   * @throws FilterError `LOCKED`, `UNAVAILABLE` (I/O; a missing file), `CORRUPT` (not an index log), `NOT_INITIALIZED`.
   */
  static repair(path: string, options: RepairOptions = {}): RepairReport {
    if (typeof path !== 'string' || path.length === 0) {
      throw new FilterError('INVALID_ARGUMENT', 'FileCuckooIndex.repair needs a file path');
    }
    internalRuntime();
    if (!existsSync(path)) throw new FilterError('UNAVAILABLE', `cannot repair ${path}: no such file`);
    const lock = WriterLock.acquire(path);
    try {
      return repairLog(path, options);
    } finally {
      lock.release();
    }
  }

  static #openLocked(path: string, options: FileCuckooIndexOptions): FileCuckooIndex {
    // A compaction that crashed before its rename left only a temporary file
    // (a reader leaves it: it may be a writer's compaction in progress; a
    // writer holds the lock, so no other writer's compaction is running).
    if (options.readOnly !== true && existsSync(compactPath(path))) rmSync(compactPath(path), { force: true });
    const store = FileRecordStore.open(path, options);
    let index: FileCuckooIndex;
    try {
      // Without a capacity, size the table from the log (about 64 bytes a record
      // for URL keys), so replaying a large log does not rebuild the table at
      // every doubling, reading every key back each time.
      const sized =
        options.capacity === undefined
          ? { ...options, capacity: Math.max(1024, Math.ceil((store.byteLength - FILE_HEADER_BYTES) / 64)) }
          : options;
      index = new FileCuckooIndex(path, store, sized);
    } catch (error) {
      store.close();
      throw error;
    }
    try {
      const length = store.byteLength;
      // The snapshot is a cache: used only when it is whole and describes the
      // start of this very log; else the log is replayed from its start.
      // A new log (the file was absent or shorter than a header): a snapshot
      // beside it is left from a log deleted before; it describes nothing here.
      // A writer removes it, so it cannot outlive this log's first records.
      if (store.fresh && options.readOnly !== true) rmSync(snapshotPath(path), { force: true });
      const snapshot = store.fresh ? undefined : readSnapshotFile(snapshotPath(path));
      // Loaded only when the log vouches for its table too: the record at the
      // length it covers is a snapshot mark of exactly that table. A snapshot
      // forged or damaged alone (a slot dropped, its checksum recomputed) is
      // then ignored, never trusted (version 1 and 2 logs have no marks: replayed).
      const { loaded: fromSnapshot, claimed } =
        snapshot === undefined
          ? { loaded: undefined, claimed: 0 }
          : index.loadSnapshot(snapshot, (slots, liveKeys, covered) => markVouches(store, covered, slots, liveKeys));
      const replayed = index.replayStore(fromSnapshot ?? FILE_HEADER_BYTES, length);
      // A whole snapshot is written only after the log was flushed to the
      // disk up to the length it records (in version 3 its snapshot mark
      // too, just after that length): every byte below was committed, so a
      // log that ends (or stops being whole) below it lost committed records
      // — damage, never a torn tail, whatever the tail looks like.
      const flushed = claimed > 0 && store.recordFormat === 3 ? claimed + SNAPSHOT_MARK_RECORD_BYTES : claimed;
      const committed =
        flushed > replayed.end
          ? `its snapshot (${snapshotPath(path)}) says the log held ${flushed} bytes when it was written, flushed`
          : undefined;
      const repairAdvice = (at: number): string =>
        `the file was left untouched. To keep every whole record and move the damaged bytes from byte ${at} to a ` +
        `file beside the log, run \`cuckoo-bloom-wasm repair ${path}\` (FileCuckooIndex.repair), or restore the log from a copy`;
      if (replayed.stop === 'end' && committed !== undefined) {
        throw new FilterError(
          'CORRUPT',
          `${path}: the log ends at byte ${replayed.end}, but ${committed}: committed records are missing; ` +
            `${repairAdvice(replayed.end)} (a log restored from an older copy on purpose: delete the snapshot, which describes the newer log)`,
        );
      }
      let dropped = 0;
      if (replayed.stop !== 'end') {
        const verdict = judgeTail(
          store,
          store.recordFormat,
          replayed.end,
          replayed.stop,
          replayed.claimedBytes,
          options.dropTornTail === true,
        );
        if (!verdict.torn || committed !== undefined) {
          const reason = verdict.torn ? `it ends the log like an unfinished last write, but ${committed}` : verdict.reason;
          throw new FilterError(
            'CORRUPT',
            `${path}: the record at byte ${replayed.end} is damaged (${reason}); ${repairAdvice(replayed.end)}`,
          );
        }
        dropped = length - replayed.end;
        store.truncate(replayed.end);
      }
      index.#openReport = {
        droppedTailBytes: dropped,
        logVersion: store.recordFormat,
        keys: index.size,
        snapshotLogBytes: fromSnapshot ?? 0,
      };
      index.#fromSnapshot = fromSnapshot !== undefined;
      if (endsWithCloseMarker(store)) index.#markedLength = store.byteLength;
      // Opening changed nothing worth a snapshot: a read-only session's close
      // writes nothing (even when the log was replayed, in part or whole).
      index.#unchangedLength = store.byteLength;
      index.#openedLength = store.byteLength;
      return index;
    } catch (error) {
      index.#release();
      throw error;
    }
  }

  /** What opening found: a torn tail dropped, keys replayed. */
  get openReport(): OpenReport {
    return { ...this.#openReport };
  }

  protected override describeLog(): string {
    return JSON.stringify(this.#path);
  }

  /** The log file's path. */
  get path(): string {
    return this.#path;
  }

  /**
   * Saves the table to `path.snapshot` (the package's byte format, type 32:
   * https://github.com/cuckoo-bloom-wasm/cuckoo-bloom-wasm/blob/main/docs/FORMAT.md), with the log's length and checksum, written whole or not
   * at all, after the log was flushed to the disk (fdatasync): its length is
   * then proof those bytes were committed, and a log found shorter, or
   * damaged below it, is `CORRUPT` on open. The next open loads it instead of
   * replaying the log — when the log still starts with the bytes it
   * describes — and replays only the records written after it. Costs one
   * read of the log (its checksum) and a write of the table (8 bytes a slot);
   * while the table is growing (a doubling's old table still draining into
   * the new one, 2 buckets a write), it also reads back each key still in
   * the old table, one record each: right after the doubling at 262k keys,
   * 2.7 s. close() skips its snapshot then.
   * The log stays the record of truth: a damaged snapshot, or one of another
   * log, is ignored, never trusted.
   * @throws FilterError `UNAVAILABLE` when the file cannot be written (the old snapshot, if any, stays);
   * `CORRUPT` when a key still draining cannot be read back (nothing written).
   */
  saveSnapshot(): void {
    this.#refuseWrite('saveSnapshot');
    try {
      // The snapshot covers the log up to here. A version-3 log first gets a
      // snapshot mark there, the digest of the table being saved: open loads
      // the snapshot only when the record at the length it covers is a mark
      // of exactly its table, so the snapshot alone cannot vouch for itself.
      const covered = this.#store.byteLength;
      if (this.#store.recordFormat === 3) this.appendSnapshotMark(tableMark(this.tableSlotBytes(), this.size));
      // The snapshot describes the log as it is on the disk: flushed first
      // (the mark included), so a snapshot's length is proof the log held
      // those bytes (open treats a log ending below it as damaged), and a
      // snapshot on the disk always has its mark. A crash between the two
      // leaves a mark without a snapshot: replay steps over it.
      this.#store.sync();
      writeFileAtomically(snapshotPath(this.#path), (write) => this.writeSnapshot(write, covered));
      this.#unchangedLength = this.#store.byteLength;
    } catch (error) {
      throw error instanceof FilterError
        ? error
        : new FilterError('UNAVAILABLE', `saving the snapshot of ${this.#path} failed: ${String(error)}`, { cause: error });
    }
  }

  /** Flushes the log to the disk (fdatasync): everything set so far survives power loss. */
  sync(): void {
    this.#store.sync();
  }

  /**
   * Rewrites the log with only the live records: a new file beside it, flushed,
   * then renamed over the old one (atomic: a crash leaves one or the other, whole).
   * The live records are the log's: a table loaded from a snapshot is rebuilt
   * from the log first (a snapshot can cost time, never a record). The new
   * log is version 3, whatever the old one was. The writer lock is kept.
   */
  override compact(): void {
    this.#refuseWrite('compact');
    // The old log whole on the file first: it stays the log if compaction fails.
    this.#store.flush();
    // A table loaded from a snapshot is trusted for no more than time: the
    // new log is written from what the old log holds, replayed afresh (a
    // snapshot with a slot dropped or two offsets swapped must not delete a
    // record for good). A table rebuilt from the log in this session is it.
    const source = this.#fromSnapshot ? this.#replayedTable() : this;
    const temporary = compactPath(this.#path);
    rmSync(temporary, { force: true });
    // Buffered: the new file is written in megabytes, and flushed before its rename.
    const store = FileRecordStore.open(temporary, { bufferWrites: true });
    let fresh: FileCuckooIndex;
    try {
      fresh = new FileCuckooIndex(temporary, store, {
        ...this.indexOptions,
        capacity: Math.max(1, this.size),
        syncEveryWrite: false,
        snapshotOnClose: false,
      });
    } catch (error) {
      store.close();
      throw error;
    }
    try {
      source.copyLiveInto(fresh);
      store.sync();
      // The old snapshot describes the old log: gone before the new log takes
      // its place (a snapshot longer than the log it sits beside is damage).
      rmSync(snapshotPath(this.#path), { force: true });
      syncDirectory(this.#path);
      renameSync(temporary, this.#path);
      syncDirectory(this.#path);
    } catch (error) {
      fresh.#release();
      rmSync(temporary, { force: true });
      throw error instanceof FilterError
        ? error
        : new FilterError('UNAVAILABLE', `compacting ${this.#path} failed: ${String(error)}`, { cause: error });
    } finally {
      if (source !== this) source.free();
    }
    this.#unchangedLength = -1; // a new log without a snapshot: close saves one
    this.#markedLength = -1;
    this.#openedLength = -1;
    this.#fromSnapshot = false;
    const old = this.#store;
    this.adoptFrom(fresh);
    this.#store = store;
    old.close();
    store.setBufferWrites(this.#bufferWrites);
    if (this.#syncEveryWrite) store.setSyncEveryWrite(true);
  }

  /** A table rebuilt from the whole log (over this index's store), for compact(); the caller frees it. */
  #replayedTable(): FileCuckooIndex {
    const length = this.#store.byteLength;
    const table = new FileCuckooIndex(this.#path, this.#store, {
      ...this.indexOptions,
      capacity: Math.max(1024, this.size, Math.ceil((length - FILE_HEADER_BYTES) / 64)),
    });
    try {
      const replayed = table.replayStore(FILE_HEADER_BYTES, length);
      if (replayed.stop !== 'end') {
        throw new FilterError(
          'CORRUPT',
          `${this.#path}: the record at byte ${replayed.end} is damaged; nothing was compacted (run \`cuckoo-bloom-wasm repair ${this.#path}\`)`,
        );
      }
      return table;
    } catch (error) {
      table.free();
      throw error;
    }
  }

  /**
   * Ends a version-3 log that changed since open with a close marker (so its
   * last record counts as committed), saves a snapshot when the log changed
   * since the one loaded on open or last saved (unless `snapshotOnClose:
   * false`), then frees the table and closes the file. Idempotent.
   * @throws FilterError `UNAVAILABLE` when the snapshot could not be saved;
   * the file is closed and the table freed all the same, and the log is whole
   * (the next open replays the records no saved snapshot covers).
   */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    let failure: unknown;
    // A clean close of a changed version-3 log ends it with a close marker
    // (before the snapshot, which then covers it).
    const length = this.#store.byteLength;
    if (!this.#readOnly && !this.freed && this.#store.recordFormat === 3 && length !== this.#markedLength && length !== this.#openedLength) {
      try {
        this.appendCloseMarker();
        this.#markedLength = this.#store.byteLength;
      } catch (error) {
        failure = error;
      }
    }
    // After free() there is no table left to save. Nor while a doubling's old
    // table drains: saving would first read back each of its keys (seconds
    // just after a doubling at 262k keys); a snapshot saved before still
    // covers the log's start, and the next open replays the rest.
    if (
      failure === undefined &&
      this.#snapshotOnClose &&
      !this.freed &&
      !this.growing &&
      this.#store.byteLength !== this.#unchangedLength
    ) {
      try {
        this.saveSnapshot();
      } catch (error) {
        failure = error;
      }
    }
    this.#release();
    if (failure !== undefined) {
      const reason = failure instanceof Error ? failure.message : String(failure);
      throw new FilterError(
        'UNAVAILABLE',
        `closing ${this.#path}: the close marker or the snapshot could not be written (the log is closed and whole; ` +
          `the next open replays what no saved snapshot covers): ${reason}`,
        { cause: failure },
      );
    }
  }

  /** {@link FileCuckooIndex.close}, for `using index = FileCuckooIndex.open(...)`: closed when the scope ends. */
  override [Symbol.dispose](): void {
    this.close();
  }

  /** Frees the table, closes the file and releases the writer lock, saving nothing. */
  #release(): void {
    this.#closed = true;
    try {
      this.free();
      this.#store.close();
    } finally {
      this.#lock?.release();
      this.#lock = null;
    }
  }
}

/** The size of a version-3 close marker: a 13-byte header and an 8-byte checksum. */
const CLOSE_MARKER_BYTES = 21;
/** What a snapshot mark carries (record_store.h kSnapshotMarkBytes): SHA-256 of the slot words, u64 live keys. */
const SNAPSHOT_MARK_DIGEST_BYTES = 32;
const SNAPSHOT_MARK_BYTES = SNAPSHOT_MARK_DIGEST_BYTES + 8;
/** A whole snapshot mark record: header 13, the mark, checksum 8. */
const SNAPSHOT_MARK_RECORD_BYTES = 13 + SNAPSHOT_MARK_BYTES + 8;
/** Record kind 5 (record_store.h RecordKind::SnapshotMark). */
const SNAPSHOT_MARK_KIND = 5;

/**
 * The 40 bytes of a snapshot mark: SHA-256 of the table's slot words, then
 * its live keys (u64 little-endian). SHA-256, not XXH3: the snapshot beside
 * the log is a file anyone who can write the directory can rewrite, and a
 * table of their making must not match a mark (XXH3 collisions can be built).
 */
function tableMark(slots: Uint8Array, liveKeys: number): Uint8Array {
  const mark = new Uint8Array(SNAPSHOT_MARK_BYTES);
  mark.set(createHash('sha256').update(slots).digest());
  new DataView(mark.buffer).setBigUint64(SNAPSHOT_MARK_DIGEST_BYTES, BigInt(liveKeys), true);
  return mark;
}

/**
 * Whether the record at `at` in a version-3 log is a whole snapshot mark
 * (chained to the bytes before it) of the table whose slot words `slots`
 * gives (taken after the read: a view of wasm memory) and whose live keys
 * are `liveKeys`. False for version 1 and 2 logs, which have no marks.
 */
function markVouches(store: FileRecordStore, at: number, slots: () => Uint8Array, liveKeys: number): boolean {
  if (store.recordFormat !== 3 || at + SNAPSHOT_MARK_RECORD_BYTES > store.byteLength) return false;
  const record = readWithChain(store, at, SNAPSHOT_MARK_RECORD_BYTES);
  if (record.length !== 8 + SNAPSHOT_MARK_RECORD_BYTES) return false;
  // [8 bytes for the scan's output][8 bytes of chain][the record]
  const scanned = new Uint8Array(8 + record.length);
  scanned.set(record, 8);
  const whole = withBytesInWasm(scanned, (pointer) => core()._cbw_record_scan(pointer + 16, SNAPSHOT_MARK_RECORD_BYTES, pointer, 3) === 0);
  const body = record.subarray(8);
  // A whole record of kind 5 is a mark (the core checks its key is the 40 bytes).
  if (!whole || body[8] !== SNAPSHOT_MARK_KIND) return false;
  const expected = tableMark(slots(), liveKeys);
  const carried = body.subarray(13, 13 + SNAPSHOT_MARK_BYTES);
  if (!expected.every((byte, i) => byte === carried[i])) return false;
  // And `at` is where a record of the log starts, not a place inside one: a value
  // (or key) may hold the bytes of a whole mark chained to its own 8 bytes before
  // it, and a snapshot forged to point there hid every key and let a writable
  // open cut the log. The log's whole records from its header must end exactly
  // at `at` (one read of the prefix, as its hash already costs).
  return scanWholeRecords(store, FILE_HEADER_BYTES, undefined, at).end === at;
}

/** Whether a version-3 log's last record is a whole close marker (a clean close). */
function endsWithCloseMarker(store: FileRecordStore): boolean {
  const at = store.byteLength - CLOSE_MARKER_BYTES;
  if (store.recordFormat !== 3 || at < FILE_HEADER_BYTES) return false;
  const bytes = readWithChain(store, at, CLOSE_MARKER_BYTES);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
  // Replay checked every record up to the end: a record ending there with
  // no key and kind 4 is the marker (a put of an empty key is kind 1).
  return bytes.length === CLOSE_MARKER_BYTES + 8 && view.getUint32(8, true) === 0 && bytes[16] === 4;
}

function compactPath(path: string): string {
  return `${path}.compact`;
}

function snapshotPath(path: string): string {
  return `${path}.snapshot`;
}

