// The filters of `cuckoo-bloom-wasm/shared`: one filter in a shared memory,
// used from every thread that holds a handle to it (docs/CONCURRENCY.md).
import { FilterError } from '../errors.js';
import type { HasManyOptions } from '../core/filter-base.js';
import { KeyBatch } from '../keys/key-batch.js';
import { describeValue, type Key } from '../keys/keys.js';
import { keyArenaOf, type SharedBatch, type SharedKeyArena } from './shared-keys.js';
import type { SharedFilterHandle, SharedFilterType } from './shared-handle.js';
import { FilterPlace, HANDLE_KIND } from './shared-place.js';
import { allocatorGiveUps, allocatorLocked, guarded, scratch, type SharedRuntime } from './shared-runtime.js';

// bindings/shared.cpp's negative results.
const FREED = -1;
const FULL = -2;
const LOCKED = -3;

/**
 * What the four shared filters have in common. Every method may be called
 * from any thread holding the filter (made here, or `attach`ed from a handle)
 * while other threads call theirs.
 *
 * A call that allocates in the shared memory throws FilterError `LOCKED` once
 * the memory's allocator is held by a call that stopped inside it (a worker
 * terminated there): a key or batch larger than this thread's scratch region
 * so far (256 KiB at first: 1,024 keys of 80 characters), a cuckoo add whose
 * kick path passes 256 moves, `serialize`, new filters and `attach`. Lookups,
 * Bloom-family adds and removes, and batches that fit answer on; `free()`
 * then keeps the table's memory
 * (https://github.com/cuckoo-bloom-wasm/cuckoo-bloom-wasm/blob/main/docs/CONCURRENCY.md).
 */
export abstract class SharedFilter {
  readonly #place: FilterPlace;
  readonly #typeId: number;
  /** This thread's key writer for the filter's memory (shared by every filter of it on this thread). */
  readonly #keys: SharedKeyArena;
  #freed = false;

  /** @internal The subclasses pass where the filter is (created, or attached from a handle). */
  protected constructor(place: object) {
    this.#place = place as FilterPlace;
    this.#typeId = this.#place.typeId;
    this.#keys = keyArenaOf(this.#place.runtime);
  }

  private get place(): FilterPlace {
    return this.#place;
  }

  /** The filter's type, as the plain filter of the same bytes names it. */
  get type(): SharedFilterType {
    return this.place.type;
  }

  /**
   * Adds a key (a string, hashed as its UTF-8 bytes, or bytes): afterwards every
   * thread's `has(key)` is true. @throws FilterError `INVALID_ARGUMENT` (not a
   * string or Uint8Array), `FULL` (cuckoo: no room; every key stored before is still
   * there), `FREED`.
   */
  add(key: Key): void {
    const { runtime } = this.place;
    const length = this.#keys.encode(key);
    const result = guarded(runtime, 'add', () =>
      runtime.exports.cbw_shared_add(runtime.thread, this.place.slot, this.place.generation, this.#typeId, runtime.scratchPointer, length),
    );
    if (result < 0) throw this.#failure(result, 'add');
  }

  /**
   * Whether the key may be in the filter (false: it certainly is not).
   * @throws FilterError `INVALID_ARGUMENT`, `FREED`, `LOCKED` (cuckoo: a
   *   bucket's lock was held for over 500 ms, by a thread that died inside a
   *   call; the message names the thread: see {@link SharedFilter.recover}).
   */
  has(key: Key): boolean {
    const { runtime } = this.place;
    const length = this.#keys.encode(key);
    const result = runtime.exports.cbw_shared_has(runtime.thread, this.place.slot, this.place.generation, this.#typeId, runtime.scratchPointer, length);
    if (result < 0) throw this.#failure(result, 'has');
    return result === 1;
  }

  /**
   * Adds every key, in batches of up to 16,384 keys (and 65,472 UTF-16 units) per call into wasm.
   * @throws FilterError `INVALID_ARGUMENT` (naming the key's index; the keys
   *   before its batch were added), `FULL` (cuckoo, with `index`: the first key
   *   not stored; every key before it was), `LOCKED` (cuckoo, with `index`, as
   *   for `has`), `FREED`.
   */
  addMany(keys: Iterable<Key> | KeyBatch): void {
    const list = listOf(keys, 'addMany');
    const count = countOf(list);
    if (count === 0) this.#requireLive('addMany');
    const { runtime } = this.place;
    for (let start = 0; start < count; ) {
      const batch = this.#batchOf(list, start);
      const result = guarded(runtime, 'addMany', () =>
        runtime.exports.cbw_shared_add_many(runtime.thread, this.place.slot, this.place.generation, this.#typeId, batch.data, batch.offsets, batch.count),
      );
      if (result === FREED || result === LOCKED) throw this.#failure(result, 'addMany', start);
      if (result < 0) {
        const index = start + (FULL - result);
        throw new FilterError('FULL', `cuckoo filter: key ${index} of addMany could not be stored (every key before it was)`, { index });
      }
      start = batch.end;
    }
  }

  /**
   * `has` of every key, in order, in batches of up to 16,384 keys (and 65,472
   * UTF-16 units) per call into wasm. Returns `boolean[]`, or with
   * `{ as: 'Uint8Array' }` one byte per key (1 = may be present, 0 =
   * certainly absent), which skips building the array of booleans: the main
   * entry's `hasMany` options.
   * @throws FilterError `INVALID_ARGUMENT` (naming the key's index, or a bad
   *   `options`), `FREED`, `LOCKED` (as for `has`, with `index`).
   */
  hasMany(keys: Iterable<Key> | KeyBatch): boolean[];
  hasMany(keys: Iterable<Key> | KeyBatch, options: { as: 'Uint8Array' }): Uint8Array;
  hasMany(keys: Iterable<Key> | KeyBatch, options: { as: 'boolean[]' }): boolean[];
  hasMany(keys: Iterable<Key> | KeyBatch, options?: HasManyOptions): boolean[] | Uint8Array {
    const form = answerForm(options);
    // In guarded() (a closure a batch of up to 16,384 keys): a trap must not leave this
    // thread's in-flight mark for free() to wait on.
    return this.#answersPerKey(listOf(keys, 'hasMany'), 'hasMany', 'cbw_shared_has_many', true, form);
  }

  /** Keys added (Bloom family: every add counts) or fingerprints stored (cuckoo); may lag adds in flight on other threads. @throws FilterError `FREED`. */
  get count(): number {
    const result = this.place.runtime.exports.cbw_shared_count(this.place.runtime.thread, this.place.slot, this.place.generation, this.#typeId);
    if (result < 0) throw this.#failure(FREED, 'count');
    return result;
  }

  /** Bytes of the filter's table in the shared memory. @throws FilterError `FREED`. */
  get byteLength(): number {
    const result = this.place.runtime.exports.cbw_shared_table_bytes(this.place.runtime.thread, this.place.slot, this.place.generation, this.#typeId);
    if (result < 0) throw this.#failure(FREED, 'byteLength');
    return result;
  }

  /**
   * The plain filter's bytes (the normal entry's `deserialize` of the same type
   * reads them; Bloom family: the same bytes as one thread adding the same keys).
   * Other threads may add, remove and query meanwhile: the bytes hold every key
   * whose add returned before the call began (the cuckoo filter's are taken
   * under every lock, so other threads wait for it;
   * https://github.com/cuckoo-bloom-wasm/cuckoo-bloom-wasm/blob/main/docs/CONCURRENCY.md).
   * @throws FilterError `FREED`, `OUT_OF_MEMORY` (no lock is kept: the filter
   *   works on), `LOCKED` (cuckoo, as for `has`; or the memory's allocator
   *   held by a thread terminated inside it).
   */
  serialize(): Uint8Array {
    const { runtime } = this.place;
    const lengthAt = scratch(runtime, 4);
    const giveUps = allocatorGiveUps(runtime);
    const pointer = guarded(runtime, 'serialize', () =>
      runtime.exports.cbw_shared_serialize(runtime.thread, this.place.slot, this.place.generation, this.#typeId, lengthAt),
    );
    const length = new DataView(runtime.memory.buffer).getUint32(lengthAt, true);
    if (pointer === 0) {
      if (length === 0) throw this.#failure(FREED, 'serialize');
      if (length === 2) throw this.#failure(LOCKED, 'serialize');
      if (allocatorGiveUps(runtime) !== giveUps) throw allocatorLocked(`${this.place.type} shared filter: serialize`);
      throw new FilterError('OUT_OF_MEMORY', `${this.place.type} shared filter: serialize: out of shared wasm memory for the bytes (no lock was kept: the filter works on)`);
    }
    // slice(): a copy in an ordinary ArrayBuffer, the caller's to keep.
    const bytes = runtime.heap.slice(pointer, pointer + length);
    runtime.exports.free(pointer);
    return bytes;
  }

  /**
   * A handle to post to another thread (`worker.postMessage(filter.handle())`),
   * where `attach(handle)` makes a filter over the same memory: no copy.
   * @throws FilterError `FREED`.
   */
  handle(): SharedFilterHandle {
    this.#requireLive('handle');
    const { runtime, type, slot, generation } = this.place;
    return {
      kind: HANDLE_KIND,
      type,
      memory: runtime.memory,
      module: runtime.module,
      slot,
      generation,
      mark: [runtime.mark[0], runtime.mark[1]],
      markAddress: runtime.markAddress,
    };
  }

  /**
   * Frees the filter for every thread: it waits for calls in flight on other
   * threads, then releases the table; from then on any call through any
   * handle to it, on any thread, throws FilterError `FREED`. Any holder may
   * free; a second free (here or elsewhere) does nothing.
   * @throws FilterError `LOCKED` when a call in flight on another thread did
   *   not end within 500 ms (a thread that died inside a call): the filter is
   *   still live; {@link SharedFilter.recover}, then free again.
   */
  free(): void {
    if (this.#freed) return;
    const { runtime } = this.place;
    const result = runtime.exports.cbw_shared_free(runtime.thread, this.place.slot, this.place.generation);
    if (result === LOCKED) throw this.#failure(LOCKED, 'free');
    this.#freed = true;
  }

  /**
   * After a thread was stopped inside a call on this filter
   * (`worker.terminate()`, a pool's timeout kill, a closed page): the calls
   * then answer `LOCKED` naming that thread, and `free()` cannot finish.
   * This finds the threads that have been inside a call on this filter for
   * over 500 ms without progress, releases their marks and the bucket locks
   * they held, and returns how many. Every key whose add returned before the
   * kill is still found; a key whose add was cut may be present or not.
   * Call it only for threads known to be gone: a live thread stalled that
   * long would lose its locks mid-write. Waits up to 500 ms.
   * @throws FilterError `FREED`.
   */
  recover(): number {
    const { runtime } = this.place;
    const result = runtime.exports.cbw_shared_recover(runtime.thread, this.place.slot, this.place.generation, this.#typeId);
    if (result < 0) throw this.#failure(result, 'recover');
    return result;
  }

  /** Whether this object's `free()` was called (another thread's free shows as `FREED` on the next call). */
  get freed(): boolean {
    return this.#freed;
  }

  /** @internal One key of remove(): 1 removed, 0 not found. */
  protected removeKey(key: Key): boolean {
    const { runtime } = this.place;
    const length = this.#keys.encode(key);
    const result = guarded(runtime, 'remove', () =>
      runtime.exports.cbw_shared_remove(runtime.thread, this.place.slot, this.place.generation, this.#typeId, runtime.scratchPointer, length),
    );
    if (result < 0) throw this.#failure(result, 'remove');
    return result === 1;
  }

  /** @internal removeMany(): per key, whether it was removed. */
  protected removeKeys(keys: Iterable<Key> | KeyBatch): boolean[] {
    return this.#answersPerKey(listOf(keys, 'removeMany'), 'removeMany', 'cbw_shared_remove_many', true, 'boolean[]');
  }

  /**
   * A batch export's per-key answers for `list`, in order, batch by batch (`guard`: the call
   * runs in guarded(), so a trap unwinds the module's locks), as booleans or as the answer
   * bytes; a negative result throws, with the index where its batch began.
   */
  #answersPerKey(list: KeyList, what: string, many: 'cbw_shared_has_many' | 'cbw_shared_remove_many', guard: boolean, form: 'boolean[]'): boolean[];
  #answersPerKey(list: KeyList, what: string, many: 'cbw_shared_has_many', guard: boolean, form: AnswerForm): boolean[] | Uint8Array;
  #answersPerKey(list: KeyList, what: string, many: 'cbw_shared_has_many' | 'cbw_shared_remove_many', guard: boolean, form: AnswerForm): boolean[] | Uint8Array {
    const count = countOf(list);
    // No keys, no call into the module: still FREED after free(), as every call is.
    if (count === 0) this.#requireLive(what);
    // One of the two is made, at its final size (as the main entry's hasMany).
    const bytes = form === 'Uint8Array' ? new Uint8Array(count) : undefined;
    const answers = bytes === undefined ? new Array<boolean>(count) : undefined;
    const { runtime } = this.place;
    for (let start = 0; start < count; ) {
      const batch = this.#batchOf(list, start);
      const call = () =>
        runtime.exports[many](runtime.thread, this.place.slot, this.place.generation, this.#typeId, batch.data, batch.offsets, batch.count, batch.results);
      const result = guard ? guarded(runtime, what, call) : call();
      if (result < 0) throw this.#failure(result, what, start);
      // Straight from the answer bytes into the result, as the main entry does.
      if (bytes !== undefined) bytes.set(runtime.heap.subarray(batch.results, batch.results + batch.count), start);
      else copyAsBooleans(runtime.heap, batch.results, batch.count, answers!, start);
      start = batch.end;
    }
    return bytes ?? answers!;
  }

  /** The batch of `list` from `start`: strings and bytes encoded, a KeyBatch's bytes copied. */
  #batchOf(list: KeyList, start: number): SharedBatch {
    // Array.isArray: a KeyBatch's instanceof reads its mark (key-batch.ts), a call per batch.
    return Array.isArray(list) ? this.#keys.encodeBatch(list as readonly Key[], start) : this.#keys.copyBatch(list as KeyBatch, start);
  }

  #requireLive(what: string): void {
    const { exports, thread } = this.place.runtime;
    if (this.#freed || exports.cbw_shared_check(thread, this.place.slot, this.place.generation, this.#typeId) !== 1) {
      throw this.#failure(FREED, what);
    }
  }

  /** The error of a negative result; `batchStart`: where the batch of a batch call began. */
  #failure(result: number, what: string, batchStart = 0): FilterError {
    if (result === FULL) return new FilterError('FULL', `cuckoo filter: ${what} could not store the key (every key stored before is still there)`);
    if (result === LOCKED) return lockedError(this.place.runtime, `${this.place.type} shared filter (slot ${this.place.slot})`, what, batchStart);
    return new FilterError('FREED', `${this.place.type} shared filter: ${what} after free() (on this or another thread)`);
  }
}

/**
 * LOCKED for a call that waited past the bound on another thread: the
 * module's record of this thread says on what (a call in flight, a bucket
 * lock) and which thread held it.
 */
function lockedError(runtime: SharedRuntime, filter: string, what: string, batchStart: number): FilterError {
  const at = runtime.exports.cbw_shared_failure(runtime.thread) >>> 2;
  const waitedOn = Atomics.load(runtime.words, at);
  const holder = Atomics.load(runtime.words, at + 1);
  const stripe = Atomics.load(runtime.words, at + 2);
  const index = batchStart + Atomics.load(runtime.words, at + 3);
  const held =
    waitedOn === 1
      ? `a call of thread ${holder} on it did not end`
      : `bucket lock stripe ${stripe} was held by thread ${holder}`;
  const message =
    `${filter}: ${what}: ${held} for over 500 ms (this thread is ${runtime.thread}); ` +
    'if that thread was terminated inside a call, filter.recover() releases what it held';
  return new FilterError('LOCKED', message, waitedOn === 2 && what.endsWith('Many') ? { index } : undefined);
}

type AnswerForm = 'boolean[]' | 'Uint8Array';

/** The main entry's check of hasMany's options (core/filter-base.ts, resultForm), with its message. */
function answerForm(options: unknown): AnswerForm {
  if (options === undefined) return 'boolean[]';
  const as = options !== null && typeof options === 'object' ? (options as { as?: unknown }).as : undefined;
  if (options === null || typeof options !== 'object' || (as !== undefined && as !== 'boolean[]' && as !== 'Uint8Array')) {
    const got = options !== null && typeof options === 'object' ? `as: ${describeValue(as)}` : describeValue(options);
    throw new FilterError('INVALID_ARGUMENT', `hasMany options: expected { as: 'boolean[]' | 'Uint8Array' }, got ${got}`);
  }
  return as ?? 'boolean[]';
}

/** `target[at + i] = bytes[from + i] !== 0` for i in [0, count): one batch's answers as booleans. */
function copyAsBooleans(bytes: Uint8Array, from: number, count: number, target: boolean[], at: number): void {
  for (let i = 0; i < count; i++) target[at + i] = bytes[from + i] !== 0;
}

/** A batch call's keys: an array of keys, or pre-encoded ones. */
type KeyList = readonly Key[] | KeyBatch;

const countOf = (list: KeyList): number => (Array.isArray(list) ? list.length : (list as KeyBatch).count);

function listOf(keys: Iterable<Key> | KeyBatch, what: string): KeyList {
  if (Array.isArray(keys) || keys instanceof KeyBatch) return keys;
  if (keys === null || typeof keys !== 'object' || typeof (keys as Iterable<Key>)[Symbol.iterator] !== 'function') {
    throw new FilterError('INVALID_ARGUMENT', `${what} needs an iterable of keys, got ${describeValue(keys)}`);
  }
  return Array.from(keys);
}
