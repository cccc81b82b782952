import { WasmOwner } from '../core/wasm-owner.js';
import { coreError, FilterError } from '../errors.js';
import { adoptHandle } from '../core/wasm-status.js';
import { getRuntime } from '../runtime/init.js';
import { describeValue, invalidKey, isDetached, detachedKey, type Key, type KeyArena } from '../keys/keys.js';
import { requireInteger } from '../options.js';
import {
  StoreBridge,
  type IndexCore,
  type IndexHandle,
  type IndexRecordStore,
} from './record-store.js';

export type { IndexRecordStore } from './record-store.js';

/** A value: bytes, or a string (stored as its UTF-8 bytes). */
export type IndexValue = string | Uint8Array;

/** Options of a {@link CuckooIndex} (and of a FileCuckooIndex's table): sizing, tags, seed. */
export interface CuckooIndexOptions {
  /** Keys the first table is sized for; it doubles as needed. Default 1024. */
  capacity?: number | undefined;
  /**
   * Bits of each key's hash kept in its slot (1..24, default 24). An absent key
   * reads a record only when one of the <= 8 slots it probes has its tag: about
   * 8 / 2^tagBits of lookups (one in ~4M at 24). Fewer bits change no answer,
   * only cost reads.
   */
  tagBits?: number | undefined;
  /** Hash seed, a non-negative safe integer. Default 0. */
  seed?: number | undefined;
  /** Moves one insert's cuckoo walk tries before the table is doubled (1..100000). Default 500. */
  maxKicks?: number | undefined;
}

/** What an index holds and what it costs. */
export interface CuckooIndexStats {
  /** Live keys. */
  size: number;
  /** Records in the log that answer nothing any more (replaced puts, deletions): what compact() drops. */
  deadRecords: number;
  /**
   * Bytes of the slot table (8 per slot, buckets of 4) and its summary bytes (1 per bucket); while a
   * doubling's old table is still draining into the new one, both.
   */
  tableBytes: number;
  /** Buckets in the slot table (4 slots each). */
  bucketCount: number;
  /** Live keys / slots in the table, in [0, 1]. */
  loadFactor: number;
  /**
   * Times the table doubled. Growth is incremental: a doubling allocates the new table, and each
   * later write moves 2 buckets of the old one into it (lookups probe both meanwhile), so no single
   * call pays for a whole rebuild.
   */
  rebuilds: number;
  /** Records read from the log since the index was made or resetStoreReads(). */
  storeReads: number;
  /** Bytes of the log. */
  logBytes: number;
  /** In-memory log only: bytes of wasm memory it has reserved (0 for a file). */
  logAllocatedBytes: number;
}

const KNOWN_OPTIONS = ['capacity', 'tagBits', 'seed', 'maxKicks'];
const decoder = new TextDecoder();
const encoder = new TextEncoder();
/** Record kinds (record_store.h). */
const KIND_PUT_WITH_VALUE = 2;
/** Bytes the log chunk of a replay starts at (a longer record gets a chunk of its own size). */
const REPLAY_CHUNK_BYTES = 1 << 20;

// A safety net only: free()/close() releases an index's memory promptly.
const leakedHandles =
  typeof FinalizationRegistry === 'function'
    ? new FinalizationRegistry<IndexHandle>((handle) => handle.delete())
    : null;

function checkIndexOptions(options: unknown): Required<{ [K in keyof CuckooIndexOptions]-?: number }> {
  if (options === undefined) options = {};
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new FilterError('INVALID_ARGUMENT', `CuckooIndex options must be an object, got ${describeValue(options)}`);
  }
  for (const name of Object.keys(options)) {
    if (!KNOWN_OPTIONS.includes(name)) {
      throw new FilterError('INVALID_ARGUMENT', `CuckooIndex: unknown option '${name}' (known options: ${KNOWN_OPTIONS.join(', ')})`);
    }
  }
  const { capacity = 1024, tagBits = 24, seed = 0, maxKicks = 500 } = options as CuckooIndexOptions;
  requireInteger(capacity, 'capacity', 'CuckooIndex', 1, 2 ** 40);
  requireInteger(tagBits, 'tagBits', 'CuckooIndex', 1, 24);
  requireInteger(seed, 'seed', 'CuckooIndex', 0, Number.MAX_SAFE_INTEGER);
  requireInteger(maxKicks, 'maxKicks', 'CuckooIndex', 1, 100000);
  return { capacity, tagBits, seed, maxKicks };
}

/** UTF-8 bytes of a value, or null for none; anything else is INVALID_ARGUMENT. */
function valueBytes(value: unknown): Uint8Array | null {
  if (value === undefined) return null;
  if (typeof value === 'string') return encoder.encode(value);
  if (value instanceof Uint8Array) {
    if (value.length === 0 && isDetached(value)) {
      throw new FilterError('INVALID_ARGUMENT', 'the value is a Uint8Array whose ArrayBuffer was transferred or detached');
    }
    return value;
  }
  throw new FilterError('INVALID_ARGUMENT', `a value must be a string, a Uint8Array or absent, got ${describeValue(value)}`);
}

/**
 * Exact answers: a cuckoo hash table in wasm memory over an append-only log
 * of records. Unlike a filter it never says "maybe": `has` is true exactly for
 * the keys set and not deleted since. Each slot keeps a 24-bit tag of the
 * key's hash and the offset of its record; a lookup reads a record only when
 * a tag matches, and then compares the full key (https://github.com/cuckoo-bloom-wasm/cuckoo-bloom-wasm/blob/main/docs/EXACT-INDEX.md).
 *
 * By default the log lives in wasm memory too (fast, gone with the process).
 * `cuckoo-bloom-wasm/index-file` opens one over an append-only file in Node
 * that survives restarts and crashes.
 *
 * Keys are strings (their UTF-8 bytes) or Uint8Arrays, as for the filters:
 * "a" and the bytes [0x61] are the same key. Values are optional: without
 * them the index is an exact set.
 */
export class CuckooIndex extends WasmOwner {
  #handle: IndexHandle | null;
  #address: number;
  #bridge: StoreBridge | undefined;
  readonly #core: IndexCore;
  readonly #arena: KeyArena;
  readonly #options: Required<{ [K in keyof CuckooIndexOptions]-?: number }>;
  /** 5 uint32 where the core describes a record (key pointer, key length, value pointer, value length, kind). */
  #recordInfo: number;
  /** Bumped by every change: an iterator made before a change refuses to continue. */
  #version = 0;

  /**
   * An empty index with its log in wasm memory, or over `store` (an advanced
   * use: `cuckoo-bloom-wasm/index-file` passes its file store here).
   * @throws FilterError `INVALID_ARGUMENT` for bad options, `NOT_INITIALIZED` before init().
   */
  constructor(options?: CuckooIndexOptions, store?: IndexRecordStore) {
    const checked = checkIndexOptions(options);
    super(new.target.name, 'copy its entries (for (const [key, value] of index) copy.set(key, value ?? undefined)), or reopen its log');
    this.#options = checked;
    const { module, arena } = getRuntime();
    this.#core = module as IndexCore;
    this.#arena = arena;
    this.#bridge = store === undefined ? undefined : new StoreBridge(store, module);
    this.#handle = this.#makeHandle(this.#bridge);
    this.#address = this.#handle.address();
    this.#recordInfo = this.#core._malloc(24);
    if (this.#recordInfo === 0) {
      this.#handle.delete();
      throw new FilterError('OUT_OF_MEMORY', 'out of wasm memory creating a CuckooIndex');
    }
    leakedHandles?.register(this, this.#handle, this);
  }

  #makeHandle(bridge: StoreBridge | undefined): IndexHandle {
    return adoptHandle(this.#core.createIndex(this.#options, bridge));
  }

  /** Live keys. */
  get size(): number {
    return this.#live().size();
  }

  /** True exactly when the key was set and not deleted since. */
  has(key: Key): boolean {
    const length = this.#encodeKey(key);
    return this.#check(this.#core._cbw_index_has(this.#address, this.#arena.pointer, length)) === 1;
  }

  /** The key's value: its bytes, `null` for a key set without one, `undefined` for an absent key. */
  get(key: Key): Uint8Array | null | undefined {
    const length = this.#encodeKey(key);
    if (this.#check(this.#core._cbw_index_get(this.#address, this.#arena.pointer, length, this.#recordInfo)) === 0) {
      return undefined;
    }
    return this.#valueOfRecord();
  }

  /** As get(), the value decoded as UTF-8. */
  getString(key: Key): string | null | undefined {
    const value = this.get(key);
    return value == null ? value : decoder.decode(value);
  }

  /**
   * Stores the key (and its value; without one the key is stored as a set
   * member). A key already present gets a new record and keeps its one slot.
   * Returns true for a new key, false for an update. The record is in the log
   * (the file, for a file index) when this returns.
   * @throws FilterError; on any failure nothing changed.
   */
  set(key: Key, value?: IndexValue): boolean {
    const bytes = valueBytes(value);
    // A merged value, not a bare `typeof key === 'string'` test, before `.length`: see KeyArena.encode.
    const text = typeof key === 'string' ? key : undefined;
    const keyBound = text !== undefined ? text.length * 3 : key instanceof Uint8Array ? key.length : 0;
    this.#arena.reserve(keyBound + (bytes?.length ?? 0) + 8);
    const length = this.#encodeKey(key);
    const valueAt = this.#arena.pointer + length;
    if (bytes !== null && bytes.length > 0) this.#arena.view().set(bytes, length);
    this.#version++;
    const result = this.#core._cbw_index_set(
      this.#address,
      this.#arena.pointer,
      length,
      valueAt,
      bytes?.length ?? 0,
      bytes === null ? 0 : 1,
    );
    return this.#check(result) === 1;
  }

  /** Deletes the key (appending a tombstone to the log); false when it was absent. */
  delete(key: Key): boolean {
    const length = this.#encodeKey(key);
    this.#version++;
    return this.#check(this.#core._cbw_index_delete(this.#address, this.#arena.pointer, length)) === 1;
  }

  /**
   * [key, value] of every live record in the log's order (value `null` for a
   * key set without one). The index must not change while iterating: an
   * iterator continued after a change throws INVALID_ARGUMENT.
   */
  *entries(): IterableIterator<[Uint8Array, Uint8Array | null]> {
    const offsets = this.#liveOffsets();
    const version = this.#version;
    for (let i = 0; i < offsets.length; i++) {
      this.#checkUnchanged(version);
      yield this.#readRecord(offsets[i]!);
    }
  }

  /** The live keys (bytes) in the log's order; decode with TextDecoder for string keys. */
  *keys(): IterableIterator<Uint8Array> {
    for (const [key] of this.entries()) yield key;
  }

  /** The same as {@link CuckooIndex.entries}: `for (const [key, value] of index)`. */
  [Symbol.iterator](): IterableIterator<[Uint8Array, Uint8Array | null]> {
    return this.entries();
  }

  /** Sizes and counters (see CuckooIndexStats). */
  stats(): CuckooIndexStats {
    const handle = this.#live();
    return {
      size: handle.size(),
      deadRecords: handle.deadRecords(),
      tableBytes: handle.tableBytes(),
      bucketCount: handle.bucketCount(),
      loadFactor: handle.loadFactor(),
      rebuilds: handle.rebuilds(),
      storeReads: handle.storeReads(),
      logBytes: this.#bridge === undefined ? handle.logBytes() : this.#bridge.store.byteLength,
      logAllocatedBytes: handle.logAllocatedBytes(),
    };
  }

  /** Sets {@link CuckooIndexStats.storeReads} back to 0, to count the reads of what follows. */
  resetStoreReads(): void {
    this.#live().resetStoreReads();
  }

  /**
   * Rewrites the log with only the live records (in their order): replaced
   * values and deletions are dropped, every answer stays the same. An
   * in-memory index does it in place: the records slide down within the log's
   * own wasm memory and the memory left over is freed, so it needs no memory
   * beyond what the index already holds and cannot fail for lack of it (a
   * copy into a second log needs both at once: at 10M URL keys that took
   * wasm memory to within 31 MiB of its 2 GiB limit).
   * A file index writes a new file and renames it over the old one. An
   * iterator made before a compaction refuses to continue.
   */
  compact(): void {
    const handle = this.#live();
    this.#version++;
    if (this.#bridge === undefined) {
      this.#check(handle.compactInPlace());
      return;
    }
    // A store passed to the constructor (the file index overrides this): the
    // live records are copied into a new in-memory index, which takes over.
    const fresh = new CuckooIndex({ ...this.#options, capacity: Math.max(1, this.size) });
    try {
      this.copyLiveInto(fresh);
    } catch (error) {
      fresh.free();
      throw error;
    }
    this.adoptFrom(fresh);
  }

  /** Releases the wasm memory (table and in-memory log). Later calls throw FREED. Idempotent. */
  free(): void {
    if (this.#handle === null) return;
    leakedHandles?.unregister(this);
    this.#handle.delete();
    this.#core._free(this.#recordInfo);
    this.#handle = null;
    this.#address = 0;
  }

  /** `String(index)`, and what `console.log` shows: its keys, log and table sizes on one line. */
  toString(): string {
    const name = this.constructor.name;
    if (this.#handle === null) return `${name} { freed }`;
    const { size, deadRecords, logBytes, tableBytes } = this.stats();
    return `${name} { size: ${size}, deadRecords: ${deadRecords}, log: ${this.describeLog()}, logBytes: ${logBytes}, tableBytes: ${tableBytes} }`;
  }

  /** Where the log lives, for the summary: 'memory', or (a store-backed subclass) its file. */
  protected describeLog(): string {
    return this.#bridge === undefined ? "'memory'" : "'store'";
  }

  // ---- For the store-backed subclasses (cuckoo-bloom-wasm/index-file). ----

  /** Whether free() (or close()) has released this index. */
  /** Whether a doubling's old table is still draining into the new one (a snapshot would first move the rest). */
  protected get growing(): boolean {
    return this.#live().growing();
  }

  protected get freed(): boolean {
    return this.#handle === null;
  }

  /** The options this index was made with (a compacted or reopened index reuses them). */
  protected get indexOptions(): CuckooIndexOptions {
    return { ...this.#options };
  }

  /** Sets every live record of this index into `target`, in log order. */
  protected copyLiveInto(target: CuckooIndex): void {
    for (const [key, value] of this.entries()) {
      if (value === null) target.set(key);
      else target.set(key, value);
    }
  }

  /** Takes over `other`'s table and store (other is left freed). */
  protected adoptFrom(other: CuckooIndex): void {
    const handle = other.#live();
    leakedHandles?.unregister(other);
    const old = this.#live();
    leakedHandles?.unregister(this);
    old.delete();
    this.#handle = handle;
    this.#address = handle.address();
    this.#bridge = other.#bridge;
    this.#version++;
    leakedHandles?.register(this, handle, this);
    other.#handle = null;
    other.#address = 0;
    other.#core._free(other.#recordInfo);
  }

  /**
   * Rebuilds the table from the log bytes [start, end) of the store, record by
   * record as they were written. Returns where the whole records end, and what
   * stopped the scan there: 'end', 'incomplete' (a record running past `end`,
   * or a header cut short), 'garbled' (a header that passes but a bad
   * checksum) or 'bad-header' (a header no writer makes: in record format 2,
   * one that fails its own check), with the length the stopping record's
   * header claims (0 if unknown or unreadable).
   */
  protected replayStore(
    start: number,
    end: number,
  ): { end: number; stop: 'end' | 'incomplete' | 'garbled' | 'bad-header'; claimedBytes: number } {
    const store = this.#bridge?.store;
    if (store === undefined) throw new FilterError('UNSUPPORTED', 'only an index over a store replays a log');
    let position = start;
    let chunkBytes = REPLAY_CHUNK_BYTES;
    const module = this.#core;
    // Buffer layout: 8 bytes for the scan's output, the 8 log bytes before
    // `position` (format 3 chains each record to them; a log file's records
    // start after its 16-byte header), then the chunk.
    const DATA = 16;
    const before = this.#bridge!.recordFormat === 3 ? 8 : 0;
    let buffer = 0;
    let bufferBytes = 0;
    try {
      while (position < end) {
        const want = Math.min(chunkBytes, end - position);
        if (want + DATA > bufferBytes) {
          if (buffer !== 0) module._free(buffer);
          bufferBytes = want + DATA;
          buffer = module._malloc(bufferBytes);
          if (buffer === 0) throw new FilterError('OUT_OF_MEMORY', 'out of wasm memory reading the index log');
        }
        const read = store.readInto(position - before, module.HEAPU8.subarray(buffer + DATA - before, buffer + DATA + want));
        const got = Math.max(0, read - before);
        this.#version++;
        const applied = module._cbw_index_replay(this.#address, buffer + DATA, got, position);
        this.#check(applied);
        position += applied;
        if (applied === got) {
          if (got < want) break; // the store ended early
          continue;
        }
        // Stopped inside this chunk: what is there?
        const kind = module._cbw_record_scan(buffer + DATA + applied, got - applied, buffer, this.#bridge!.recordFormat);
        const claimed = module.HEAPF64[buffer / 8]!;
        if (kind === 1 && position + claimed <= end && claimed > got - applied) {
          // A whole record longer than what was left of the chunk: read it in one piece.
          chunkBytes = Math.max(REPLAY_CHUNK_BYTES, claimed);
          continue;
        }
        if (kind === 1 && claimed === 0 && position + (got - applied) < end) {
          continue; // a header cut by the chunk's end
        }
        return { end: position, stop: kind === 3 ? 'bad-header' : kind === 2 ? 'garbled' : 'incomplete', claimedBytes: claimed };
      }
      return { end: position, stop: 'end', claimedBytes: 0 };
    } finally {
      if (buffer !== 0) module._free(buffer);
    }
  }

  /**
   * Writes a snapshot of the table (https://github.com/cuckoo-bloom-wasm/cuckoo-bloom-wasm/blob/main/docs/FORMAT.md, type 32) covering the
   * store's log bytes [0, length) (default: the whole log as it is now), through `write`: its parts in order (the
   * middle one a view of the table in wasm memory, valid during the call).
   */
  protected writeSnapshot(write: (bytes: Uint8Array) => void, length?: number): void {
    const handle = this.#live();
    const store = this.#bridge?.store;
    if (store === undefined) throw new FilterError('UNSUPPORTED', 'only an index over a store writes a snapshot');
    length ??= store.byteLength;
    if (!this.#hashStorePrefix(length)) throw new FilterError('UNAVAILABLE', 'the log ended while it was being read');
    this.#check(handle.prepareSnapshot(length));
    try {
      const heap = this.#core.HEAPU8;
      const head = handle.snapshotHeadData();
      const payload = handle.snapshotPayloadData();
      write(heap.subarray(head, head + handle.snapshotHeadLength()));
      write(heap.subarray(payload, payload + handle.snapshotPayloadLength()));
      const checksum = handle.snapshotChecksumData();
      write(heap.subarray(checksum, checksum + 8));
    } finally {
      handle.releaseSnapshot();
    }
  }

  /**
   * Takes its table from a snapshot's bytes when they are whole (format
   * checksum, every slot checked), made with this index's seed and tagBits,
   * and the store's log still starts with the bytes they describe (length
   * and XXH3-64). Returns `loaded`, the log length the snapshot covers
   * (replay the records after it), or undefined: the index is unchanged,
   * replay it all; and `claimed`, the log length a whole snapshot says it
   * covered even when it no longer matches the log (0 for none): the log was
   * flushed that far before the snapshot was written, so bytes below it were
   * committed. Only for an index that holds nothing yet. `vouched`, when
   * given, must also accept the decoded table (a view of its slot words, as
   * the snapshot stores them — take it after any allocation —, and its live
   * keys) for the snapshot to be loaded:
   * the file index checks it against the snapshot mark in its log.
   */
  protected loadSnapshot(
    bytes: Uint8Array,
    vouched?: (slots: () => Uint8Array, liveKeys: number, covered: number) => boolean,
  ): { loaded: number | undefined; claimed: number } {
    const handle = this.#live();
    const store = this.#bridge?.store;
    if (store === undefined) return { loaded: undefined, claimed: 0 };
    const module = this.#core;
    const at = module._malloc(Math.max(1, bytes.length));
    if (at === 0) return { loaded: undefined, claimed: 0 }; // no room for it: a rebuild needs less
    let covered: number;
    try {
      module.HEAPU8.set(bytes, at);
      covered = handle.readSnapshot(at, bytes.length);
    } finally {
      module._free(at);
    }
    if (covered < 0) return { loaded: undefined, claimed: 0 };
    const slots = (): Uint8Array => {
      const data = handle.pendingSlotsData();
      return module.HEAPU8.subarray(data, data + handle.pendingSlotsLength());
    };
    if (
      covered > store.byteLength ||
      (vouched !== undefined && !vouched(slots, handle.pendingLiveCount(), covered)) ||
      !this.#hashStorePrefix(covered)
    ) {
      handle.dropPendingSnapshot();
      return { loaded: undefined, claimed: covered };
    }
    this.#version++;
    return { loaded: handle.adoptPendingSnapshot() ? covered : undefined, claimed: covered };
  }

  /** A version-3 log file's snapshot mark: appends a SnapshotMark carrying `mark` (40 bytes) through the core (which chains it). */
  protected appendSnapshotMark(mark: Uint8Array): void {
    const handle = this.#live();
    const module = this.#core;
    const at = module._malloc(mark.length);
    if (at === 0) throw new FilterError('OUT_OF_MEMORY', 'out of wasm memory writing a snapshot mark');
    try {
      module.HEAPU8.set(mark, at);
      this.#check(handle.appendSnapshotMark(at));
    } finally {
      module._free(at);
    }
  }

  /** The live table's slot words as a snapshot stores them (a view of wasm memory: use it before the next call). */
  protected tableSlotBytes(): Uint8Array {
    const handle = this.#live();
    // One table: a doubling's draining table is moved whole first (growth is
    // incremental, CuckooIndex::finishGrowth), as the snapshot will hold it.
    this.#check(handle.finishGrowth());
    const data = handle.tableSlotsData();
    return this.#core.HEAPU8.subarray(data, data + handle.tableSlotsLength());
  }

  /** A version-3 log file's clean close: appends its Close marker through the core (which chains it). */
  protected appendCloseMarker(): void {
    this.#check(this.#live().appendCloseMarker());
  }

  /** Streams the store's bytes [0, length) through the core's log hash; false if the store has fewer. */
  #hashStorePrefix(length: number): boolean {
    const handle = this.#live();
    const store = this.#bridge!.store;
    const module = this.#core;
    const chunkBytes = Math.min(REPLAY_CHUNK_BYTES, Math.max(1, length));
    const buffer = module._malloc(chunkBytes);
    if (buffer === 0) throw new FilterError('OUT_OF_MEMORY', 'out of wasm memory reading the index log');
    try {
      handle.hashLogBegin();
      for (let position = 0; position < length; ) {
        const want = Math.min(chunkBytes, length - position);
        const got = store.readInto(position, module.HEAPU8.subarray(buffer, buffer + want));
        if (got <= 0) return false;
        handle.hashLog(buffer, got);
        position += got;
      }
      return true;
    } finally {
      module._free(buffer);
    }
  }

  // ---- Internals. ----

  #live(): IndexHandle {
    if (this.#handle === null) throw new FilterError('FREED', 'this CuckooIndex was freed or closed');
    return this.#handle;
  }

  #encodeKey(key: Key): number {
    this.#live();
    if (typeof key !== 'string' && !(key instanceof Uint8Array)) throw invalidKey(key);
    if (typeof key !== 'string' && key.length === 0 && isDetached(key)) throw detachedKey();
    return this.#arena.encode(key);
  }

  /** A core result: >= 0 passes through; negative is a status code, thrown as FilterError. */
  #check(result: number): number {
    if (result >= 0) {
      // A store error the core met and set aside in a call that succeeded (a
      // draining bucket it could not read: left for a later write) is not a
      // later call's cause.
      if (this.#bridge !== undefined) this.#bridge.failure = undefined;
      return result;
    }
    const failure = this.#bridge?.takeFailure();
    const names = this.#core.statusCodeNames();
    const message = this.#live().lastMessage();
    const error = coreError(names[-result] ?? 'CORRUPT', message);
    if (failure !== undefined) {
      throw new FilterError(
        failure instanceof FilterError ? failure.code : error.code,
        `${message}: ${failure instanceof Error ? failure.message : String(failure)}`,
        { cause: failure },
      );
    }
    throw error;
  }

  #valueOfRecord(): Uint8Array | null {
    const info = this.#core.HEAPU32.subarray(this.#recordInfo / 4, this.#recordInfo / 4 + 5);
    if (info[4] !== KIND_PUT_WITH_VALUE) return null;
    return this.#core.HEAPU8.slice(info[2]!, info[2]! + info[3]!);
  }

  #readRecord(offset: number): [Uint8Array, Uint8Array | null] {
    this.#check(this.#core._cbw_index_read(this.#address, offset, this.#recordInfo));
    const info = this.#core.HEAPU32.subarray(this.#recordInfo / 4, this.#recordInfo / 4 + 5);
    const key = this.#core.HEAPU8.slice(info[0]!, info[0]! + info[1]!);
    return [key, this.#valueOfRecord()];
  }

  /** Offsets of every live record, ascending (a copy: the core's list is released at once). */
  #liveOffsets(): Float64Array {
    const handle = this.#live();
    const count = handle.collectLiveOffsets();
    if (count < 0) {
      throw new FilterError('OUT_OF_MEMORY', 'out of wasm memory listing the live records of the index (it is unchanged)');
    }
    const at = handle.liveOffsetsData() / 8;
    const offsets = this.#core.HEAPF64.slice(at, at + count);
    handle.releaseLiveOffsets();
    return offsets;
  }

  #checkUnchanged(version: number): void {
    if (this.#version !== version) {
      throw new FilterError('INVALID_ARGUMENT', 'the CuckooIndex changed while it was being iterated');
    }
  }
}
