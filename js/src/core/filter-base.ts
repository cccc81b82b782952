import type { CoreFilterOptions, CoreModule, FilterHandle } from '../runtime/core-module.js';
import { coreError, FilterError, statusName } from '../errors.js';
import { WasmOwner } from './wasm-owner.js';
import { adoptHandle, type StatusHandle } from './wasm-status.js';
import { getRuntime } from '../runtime/init.js';
import { coreFilterType } from '../runtime/core-types.js';
import { KeyBatch } from '../keys/key-batch.js';
import { KeyPath } from '../keys/key-path.js';
import { type Key, KeyArena, keyArray, MAX_ARENA_BYTES, describeValue, requireAttached, type OwnedBytes } from '../keys/keys.js';
import { checkOptions, DEFAULT_FALSE_POSITIVE_RATE, type FilterOptions } from '../options.js';

import type { FilterTypeName } from './filter-type-name.js';

export type { FilterTypeName } from './filter-type-name.js';

// A safety net only: free() is the way to release a filter's memory promptly.
const leakedHandles =
  typeof FinalizationRegistry === 'function'
    ? new FinalizationRegistry<FilterHandle>((handle) => handle.delete())
    : null;

/**
 * Internal: carries a handle that already exists (read from bytes) into a
 * filter class's constructor, which otherwise creates one from options. Not
 * exported from the package, so users can only pass options.
 */
export class ExistingHandle {
  constructor(readonly handle: FilterHandle) {}
}

// The handles' status reader, where the callers that build on the base find it.
export { adoptHandle, type StatusHandle };

/** Serialized bytes as the readers accept them: a Uint8Array or an ArrayBuffer. */
export type SerializedBytes = Uint8Array | ArrayBuffer;

/** Copies `bytes` into wasm, runs `read` on them, frees the copy. */
export function withBytesInWasm<T>(input: unknown, read: (pointer: number, length: number) => T): T {
  const bytes = input instanceof ArrayBuffer ? new Uint8Array(input) : input;
  if (!(bytes instanceof Uint8Array)) {
    throw new FilterError(
      'INVALID_ARGUMENT',
      `serialized filter must be a Uint8Array or an ArrayBuffer, got ${describeValue(input)}`,
    );
  }
  const { module, arena } = getRuntime();
  const pointer = arena.copyIn(bytes);
  try {
    return read(pointer, bytes.length);
  } finally {
    module._free(pointer);
  }
}

/** Where a blob's payload starts: after the 56-byte header and the parameter block (its length is the u32 at byte 12). */
const HEADER_BYTES = 56;
function payloadOffsetOf(bytes: Uint8Array): number {
  if (bytes.length < HEADER_BYTES) return 0;
  const paramsLength = bytes[12]! | (bytes[13]! << 8) | (bytes[14]! << 16) | (bytes[15]! * 2 ** 24);
  return paramsLength <= bytes.length - HEADER_BYTES ? HEADER_BYTES + paramsLength : 0;
}

/**
 * Reads bytes of any registered filter type into a handle (the core
 * validates everything). The bytes go into one buffer in wasm memory placed
 * so that the payload is word-aligned; a Bloom, blocked or counting filter
 * then keeps that memory as its table, so reading needs one copy of the
 * filter in wasm memory, not two.
 */
export function readHandle(input: SerializedBytes): FilterHandle {
  const bytes = input instanceof ArrayBuffer ? new Uint8Array(input) : input;
  if (!(bytes instanceof Uint8Array)) {
    throw new FilterError('INVALID_ARGUMENT', `serialized filter must be a Uint8Array or an ArrayBuffer, got ${describeValue(input)}`);
  }
  requireAttached(bytes, 'the bytes');
  const { module } = getRuntime();
  const buffer = bytes.length <= MAX_ARENA_BYTES ? module._cbw_blob_buffer_new(bytes.length, payloadOffsetOf(bytes)) : 0;
  if (buffer === 0) {
    throw new FilterError('OUT_OF_MEMORY', `out of wasm memory: cannot hold ${bytes.length} bytes of a serialized filter`);
  }
  try {
    module.HEAPU8.set(bytes, module._cbw_blob_buffer_data(buffer));
  } catch (error) {
    module._cbw_blob_buffer_free(buffer);
    throw error;
  }
  return adoptHandle(module.deserializeBuffer(buffer));
}

/** What a filter class tells the base about its type: `Name` becomes the literal type of its `type`. */
export interface FilterClassInfo<Name extends FilterTypeName = FilterTypeName> {
  /** The type's name in the registry and the byte format. */
  readonly typeName: Name;
  /** The class name users see in errors. */
  readonly className: string;
  /** The rate to size for when the caller gave none (default 0.01). */
  readonly defaultRate?: (options: Record<string, unknown>) => number;
}

/**
 * What every filter shares: key encoding, single and batch calls through the
 * one wasm interface, serialization, and ownership of the wasm-side object.
 * Subclasses add what their structure allows. `Name` is the type's name, so
 * a subclass's `type` is its literal (`'bloom'`), never just any name;
 * `Options`, what its constructor takes.
 */
export abstract class Filter<Name extends FilterTypeName = FilterTypeName, Options = unknown> extends WasmOwner {
  readonly #type: Name;
  #handle: FilterHandle | null;
  #address: number;
  #sizing: Record<string, number> | null = null;
  readonly #module: CoreModule;
  readonly #arena: KeyArena;
  /** has/add/remove/addIfNew of one key: see key-path.ts for why they live there. */
  readonly #keyPath: KeyPath;

  /**
   * The filter's type, named once by each class (`protected static override
   * readonly info`): the base reads it from the class being constructed, so a
   * class whose options need no translation has no constructor of its own.
   */
  declare protected static readonly info: FilterClassInfo;

  /**
   * A filter of the class's type, sized by `options`.
   * @throws FilterError `INVALID_ARGUMENT` for bad options (capacity not a
   *   positive integer, rate outside (0, 1), an option the type does not take,
   *   too large); `OUT_OF_MEMORY`; `NOT_INITIALIZED` before `init()` resolved.
   */
  constructor(options: Options) {
    super('filter', 'serialize() it and deserialize() the bytes');
    const info = new.target.info as FilterClassInfo<Name>;
    const runtime = getRuntime();
    this.#type = info.typeName;
    this.#module = runtime.module;
    this.#arena = runtime.arena;
    // A handle read from bytes comes as an ExistingHandle (deserialize, clone,
    // the registry): one of another type is refused here, in this one place.
    const handle = options instanceof ExistingHandle ? existingOfType(options.handle, info) : createHandle(info, options);
    this.#handle = handle;
    this.#address = handle.address();
    this.#keyPath = new KeyPath(this.#address, runtime.calls, runtime.arena);
    leakedHandles?.register(this, handle, this);
  }

  /** The filter type's name in the byte format and in `info` output. */
  get type(): Name {
    return this.#type;
  }

  /**
   * Reads bytes produced by `serialize()` (here or by the C++ library) as a
   * filter of the class it is called on: `BloomFilter.deserialize(bytes)` is a `BloomFilter`.
   * @throws FilterError `CORRUPT`, `UNSUPPORTED_VERSION`, `WRONG_TYPE` (bytes of
   *   another filter type), `INVALID_ARGUMENT` (not a Uint8Array or ArrayBuffer), `OUT_OF_MEMORY`, `NOT_INITIALIZED`.
   */
  static deserialize<F extends Filter>(this: new (existing: never) => F, bytes: SerializedBytes): F {
    return new this(new ExistingHandle(readHandle(bytes)) as never);
  }

  /** The wasm module this filter lives in. */
  protected get module(): CoreModule {
    return this.#module;
  }

  /** The reused key arena of that module. */
  protected get arena(): KeyArena {
    return this.#arena;
  }

  protected get handle(): FilterHandle {
    if (this.#handle === null) throw this.#freedError();
    return this.#handle;
  }

  /** The wasm address of the live handle, for the fast path. */
  protected get address(): number {
    if (this.#handle === null) throw this.#freedError();
    return this.#address;
  }

  #freedError(): FilterError {
    return new FilterError('FREED', `this ${this.type} filter was freed; create or deserialize a new one`);
  }

  /**
   * True when the key may have been added (false positives at about the
   * filter's rate); false means it certainly was not (or was removed).
   * @throws FilterError `INVALID_ARGUMENT` for a key that is not a string or Uint8Array; `FREED`.
   */
  has(key: Key): boolean {
    const path = this.#keyPath;
    if (path.address === 0) throw this.#freedError();
    return path.has(key) !== 0;
  }

  /** Adds one key; returns the core's status name ('OK', 'FULL', ...). */
  protected addKey(key: Key): string {
    const path = this.#keyPath;
    if (path.address === 0) throw this.#freedError();
    const status = path.add(key);
    return status === 0 ? 'OK' : statusName(this.module, status);
  }

  /** Removes one occurrence; false when no matching key was found. */
  protected removeKey(key: Key): boolean {
    const path = this.#keyPath;
    if (path.address === 0) throw this.#freedError();
    const status = path.remove(key);
    if (status === 0) return true;
    const name = statusName(this.module, status);
    if (name === 'NOT_FOUND') return false;
    throw coreError(name, `${this.type} filter: remove failed (${name})`);
  }

  /**
   * The dedupe step: adds `key` unless the filter already reports it present,
   * with one hash and one wasm call. Returns true when the key was new (and
   * is now stored), false when it may have been seen before (nothing stored).
   * In a filter with removal, a new key reported present by a false positive
   * is not stored: do not remove keys from a filter you deduplicate into.
   * @throws FilterError `FULL` (cuckoo: no room; nothing changed), `INVALID_ARGUMENT`, `FREED`.
   */
  addIfNew(key: Key): boolean {
    const path = this.#keyPath;
    if (path.address === 0) throw this.#freedError();
    const outcome = path.addIfNew(key);
    if (outcome >= 0) return outcome === 1;
    const name = statusName(this.module, -outcome);
    if (name === 'FULL') {
      throw new FilterError('FULL', `${this.type} filter is full: the key was not stored; every key stored before is still there`);
    }
    throw coreError(name, `${this.type} filter: add failed (${name})`);
  }

  /**
   * `has` for many keys, one boundary crossing per batch (up to 16,384 keys
   * or 65,472 characters; strings of more than about 320 characters go key
   * by key, which costs them less). `keys`: an array, any iterable (read into an array
   * first), or a pre-encoded {@link KeyBatch} (fastest: no string encoding).
   * Returns `boolean[]`, or with `{ as: 'Uint8Array' }` one byte per key
   * (1 = may be present, 0 = certainly absent), which skips building the
   * array of booleans.
   * @throws FilterError `INVALID_ARGUMENT` (with `index` for a bad key); `FREED`.
   */
  hasMany(keys: Iterable<Key> | KeyBatch): boolean[];
  hasMany(keys: Iterable<Key> | KeyBatch, options: { as: 'Uint8Array' }): Uint8Array;
  hasMany(keys: Iterable<Key> | KeyBatch, options: { as: 'boolean[]' }): boolean[];
  hasMany(keysIn: Iterable<Key> | KeyBatch, options?: HasManyOptions): boolean[] | Uint8Array {
    const asBytes = resultForm(options) === 'Uint8Array';
    const address = this.address;
    const keys = keySource(keysIn);
    const batched = keys instanceof KeyBatch ? keys : undefined; // asked once: instanceof reads KeyBatch's mark
    const total = batched !== undefined ? batched.count : (keys as readonly Key[]).length;
    // One of the two is made, at its final size. The booleans are written
    // straight from each batch's result bytes in wasm memory: a Uint8Array
    // of them in between cost a fresh buffer and one more pass a key.
    const answers = asBytes ? new Uint8Array(total) : undefined;
    const booleans = asBytes ? undefined : new Array<boolean>(total);
    for (let start = 0; start < total; ) {
      const batch = batched !== undefined ? this.arena.copyBatch(batched, start) : this.arena.encodeBatch(keys as readonly Key[], start);
      if (batch.keyByKey) {
        // Long strings: the single-key path costs less here (keys.ts, JOIN_MAX_UNITS).
        const path = this.#keyPath;
        const list = keys as readonly Key[];
        if (answers !== undefined) {
          for (let i = start; i < batch.end; i++) answers[i] = path.has(list[i]!) === 0 ? 0 : 1;
        } else {
          for (let i = start; i < batch.end; i++) booleans![i] = path.has(list[i]!) !== 0;
        }
      } else {
        this.module._cbw_has_many(address, batch.data, batch.offsets, batch.count, batch.results);
        // HEAPU8 read after the call, and per batch: memory may have grown since the last.
        const results = this.module.HEAPU8;
        if (answers !== undefined) answers.set(results.subarray(batch.results, batch.results + batch.count), start);
        else copyAsBooleans(results, batch.results, batch.count, booleans!, start);
      }
      start = batch.end;
    }
    return answers ?? booleans!;
  }

  /**
   * Adds every key (an array, any iterable, or a {@link KeyBatch}); one
   * boundary crossing per batch.
   * @throws FilterError `FULL` or `OUT_OF_MEMORY` (a growing filter that
   *   cannot grow), with `index`: the first key not stored (all before it are).
   */
  addMany(keysIn: Iterable<Key> | KeyBatch): void {
    const address = this.address;
    const keys = keySource(keysIn);
    const batched = keys instanceof KeyBatch ? keys : undefined; // asked once: instanceof reads KeyBatch's mark
    const total = batched !== undefined ? batched.count : (keys as readonly Key[]).length;
    for (let start = 0; start < total; ) {
      const batch = batched !== undefined ? this.arena.copyBatch(batched, start) : this.arena.encodeBatch(keys as readonly Key[], start);
      if (batch.keyByKey) {
        // As cbw_add_many: stop at the first key not stored.
        const path = this.#keyPath;
        const list = keys as readonly Key[];
        for (let i = start; i < batch.end; i++) {
          const status = path.add(list[i]!);
          if (status !== 0) this.#batchStopped(i, total, statusName(this.module, status), null);
        }
      } else {
        const stored = this.module._cbw_add_many(address, batch.data, batch.offsets, batch.count);
        if (stored !== batch.count) {
          // cbw_add_many left why it stopped on the handle (FULL, OUT_OF_MEMORY, ...).
          const handle = this.handle;
          this.#batchStopped(start + stored, total, handle.errorCode(), handle.lastMessage());
        }
      }
      start = batch.end;
    }
  }

  /**
   * Removes each key once (types with removal expose this as `removeMany`);
   * returns how many were found and removed.
   */
  protected removeKeys(keysIn: Iterable<Key> | KeyBatch): number {
    const address = this.address;
    const keys = keySource(keysIn);
    const batched = keys instanceof KeyBatch ? keys : undefined; // asked once: instanceof reads KeyBatch's mark
    const total = batched !== undefined ? batched.count : (keys as readonly Key[]).length;
    let removed = 0;
    for (let start = 0; start < total; ) {
      const batch = batched !== undefined ? this.arena.copyBatch(batched, start) : this.arena.encodeBatch(keys as readonly Key[], start);
      if (batch.keyByKey) {
        const path = this.#keyPath;
        const list = keys as readonly Key[];
        for (let i = start; i < batch.end; i++) {
          const status = path.remove(list[i]!);
          if (status === 0) removed++;
          else if (statusName(this.module, status) !== 'NOT_FOUND') throw this.#removeError(status, i);
        }
        start = batch.end;
        continue;
      }
      const status = this.module._cbw_remove_many(address, batch.data, batch.offsets, batch.count, batch.results);
      if (status !== 0) throw this.#removeError(status, start);
      const outcomes = this.module.HEAPU8;
      for (let i = 0; i < batch.count; i++) removed += outcomes[batch.results + i]!;
      start = batch.end;
    }
    return removed;
  }

  #removeError(status: number, index: number): FilterError {
    const name = statusName(this.module, status);
    return coreError(name, `${this.type} filter: remove failed at key ${index} (${name}); keys before it were removed`);
  }

  /**
   * A batch add stopped at key `index` with status `name`: FULL is the
   * type's own message (onBatchFull); any other status (OUT_OF_MEMORY when a
   * growing filter cannot make its next link or table) is thrown as that
   * code, as `add` of the same key would, with `index`.
   */
  #batchStopped(index: number, total: number, name: string, detail: string | null): never {
    if (name === 'FULL') this.onBatchFull(index, total);
    const error = coreError(
      name,
      `${this.type} filter: addMany stopped at key ${index} of ${total} (${name}${detail ? `: ${detail}` : ''}); ` +
        `keys 0..${index - 1} were added, key ${index} and later were not (every key added before is still found)`,
    );
    throw new FilterError(error.code, error.message, { index });
  }

  /** Called when a batch add stopped early because the filter is full. */
  protected onBatchFull(index: number, _total: number): never {
    throw new FilterError('FULL', `filter is full at key ${index}`, { index });
  }

  /**
   * A filter holding `keys` (an array or any iterable), sized for them unless
   * `options.capacity` says otherwise: `BloomFilter.from(urls, { falsePositiveRate: 0.001 })`.
   * Duplicates count towards the sizing (a safe overestimate).
   * @throws FilterError as the constructor and `addMany` do.
   */
  static from<
    T extends Filter,
    O extends {
      /** How many keys to size for; default: the number of `keys` (at least 1). */
      capacity?: number | undefined;
    },
  >(
    this: new (options: O & { capacity: number }) => T,
    keys: Iterable<Key>,
    options?: O,
  ): T {
    const list = keyArray(keys);
    const filter = new this({ ...(options as O), capacity: options?.capacity ?? Math.max(1, list.length) });
    try {
      filter.addMany(list);
    } catch (error) {
      filter.free();
      throw error;
    }
    return filter;
  }

  /** An independent copy (its own wasm memory; free it too). */
  clone(): this {
    const copy = readHandle(this.serialize());
    return new (this.constructor as new (existing: ExistingHandle) => this)(new ExistingHandle(copy));
  }

  /**
   * True when `other` is a filter of the same type whose serialized bytes are
   * identical: same parameters, seed, count and table (for a cuckoo filter,
   * also the same eviction-walk state).
   */
  equals(other: unknown): boolean {
    if (!(other instanceof Filter) || other.type !== this.type) return false;
    const mine = this.serialize();
    const theirs = other.serialize();
    return mine.length === theirs.length && mine.every((byte, i) => byte === theirs[i]);
  }

  /** The filter in the documented byte format (https://github.com/cuckoo-bloom-wasm/cuckoo-bloom-wasm/blob/main/docs/FORMAT.md): a fresh copy the caller owns. */
  serialize(): OwnedBytes {
    const handle = this.handle;
    // Head, payload and checksum straight into one JavaScript buffer: the
    // payload is copied from the table itself, so serializing needs no
    // memory inside wasm beyond the filter (a filter near the wasm memory
    // limit still serializes).
    const parts = handle.serializeParts();
    if (parts === null) throw coreError(handle.errorCode(), handle.lastMessage());
    try {
      const headLength = parts.head.length - 8;
      const total = headLength + parts.payloadLength + 8;
      let bytes: OwnedBytes;
      try {
        bytes = new Uint8Array(total);
      } catch (error) {
        throw new FilterError('OUT_OF_MEMORY', `${this.type} filter: cannot allocate ${total} bytes for the serialized copy; the filter is unchanged`, {
          cause: error,
        });
      }
      bytes.set(parts.head.subarray(0, headLength));
      bytes.set(this.module.HEAPU8.subarray(parts.payload, parts.payload + parts.payloadLength), headLength);
      bytes.set(parts.head.subarray(headLength), headLength + parts.payloadLength);
      return bytes;
    } finally {
      handle.releaseSerialized();
    }
  }

  /** Removes every key (the sizing and seed stay). */
  clear(): void {
    this.handle.clear();
  }

  /**
   * Keys stored. Every `add` counts, a repeat too (`addIfNew` skips keys
   * already reported present), and every successful removal uncounts one; a
   * binary fuse filter counts its distinct keys, and the scalable Bloom and
   * expiring filters say in their descriptions how they count.
   */
  get count(): number {
    return this.handle.count();
  }
  /**
   * The number of keys the filter was sized for: in a scalable filter, the
   * sum of its links' capacities; in an expiring filter, the keys each
   * generation is sized for.
   */
  get capacity(): number {
    return this.handle.capacity();
  }
  /** The hash seed. */
  get seed(): number {
    return this.handle.seed();
  }
  /** Bytes of the in-memory table (the serialized form adds 80-88 bytes of header, parameters and checksum). */
  get byteLength(): number {
    return this.handle.byteLength();
  }
  /** The target false-positive rate the filter was sized for. */
  get falsePositiveRate(): number {
    return this.handle.targetFalsePositiveRate();
  }
  /** The false-positive rate estimated from the filter's current contents. */
  get estimatedFalsePositiveRate(): number {
    return this.handle.estimatedFalsePositiveRate();
  }
  /**
   * True when the estimated false-positive rate is more than twice the
   * target: the filter holds more keys than it was sized for (rebuild it
   * larger, or use a scalable filter).
   */
  get overfilled(): boolean {
    return this.estimatedFalsePositiveRate > 2 * this.falsePositiveRate;
  }
  /** In-memory bits per stored key (Infinity when empty). */
  get bitsPerKey(): number {
    return (this.byteLength * 8) / this.count;
  }
  /** The type's own parameters by name (bitCount, hashCount, bucketCount, ...), as the core reports them. */
  get parameters(): Record<string, number> {
    return this.handle.parameters();
  }

  /**
   * A parameter fixed for the filter's lifetime (its sizing: bit count,
   * hash count, bucket size, ...), read once: `parameters` also computes the
   * ones that change (set bits, load), which costs a pass over the table.
   */
  protected sizing(name: string): number {
    const handle = this.handle; // FREED after free(), cached or not
    this.#sizing ??= handle.parameters();
    return this.#sizing[name]!;
  }
  /**
   * Makes each of `names` a read-only getter of that sizing parameter (read
   * once, as `sizing` does) on the class's prototype. The class declares each
   * with its doc comment, `declare readonly bitCount: number;`, and calls this
   * once in a static block: one line a parameter instead of a getter each.
   */
  protected static defineSizingGetters(...names: string[]): void {
    for (const name of names) {
      Object.defineProperty(this.prototype, name, {
        configurable: true,
        get(this: Filter): number {
          return this.sizing(name);
        },
      });
    }
  }
  /** True after `free()`. */
  get freed(): boolean {
    return this.#handle === null;
  }

  /** Releases the wasm memory now. Idempotent; any later use throws `FREED`. */
  free(): void {
    if (this.#handle === null) return;
    leakedHandles?.unregister(this);
    this.#handle.delete();
    this.#handle = null;
    this.#address = 0;
    this.#keyPath.address = 0;
  }

  /** `String(filter)`: the one-line summary `console.log` shows. */
  toString(): string {
    const name = this.constructor.name;
    if (this.freed) return `${name} { freed }`;
    const rate = (value: number): string => Number(value.toPrecision(3)).toString();
    return (
      `${name} { count: ${this.count}, capacity: ${this.capacity}, falsePositiveRate: ${rate(this.falsePositiveRate)}, ` +
      `estimatedFalsePositiveRate: ${rate(this.estimatedFalsePositiveRate)}, byteLength: ${this.byteLength} }`
    );
  }

  /**
   * A filter has no JSON form: `JSON.stringify(filter)` throws this instead of
   * dumping wasm internals. @throws FilterError `UNSUPPORTED`, pointing to `serialize()`.
   */
  toJSON(): never {
    throw new FilterError(
      'UNSUPPORTED',
      `a ${this.type} filter has no JSON form: store filter.serialize() (bytes; base64 them for JSON) and read them back with deserialize()`,
    );
  }
}

/**
 * `BloomFilter.deserialize` and `BloomFilter.from` work detached, as callbacks:
 * `[bytes].map(BloomFilter.deserialize)`, `const { deserialize } = BloomFilter` (issue
 * #44: "this is not a constructor", a TypeError). Each is a static method reading its
 * class from `this`; reading it off a class now gives that method bound to the class
 * it was read from, so `this` is that class however it is called. One bound function
 * per class, kept in a WeakMap rather than as the class's own property: an own property
 * on a base class (GrowingFilter) would shadow this getter for its subclasses and bind
 * them to the base. The methods above stay as written for their types and docs.
 */
function bindToEachClass(name: 'deserialize' | 'from'): void {
  const method = Filter[name] as (...args: unknown[]) => unknown;
  const boundTo = new WeakMap<object, (...args: unknown[]) => unknown>();
  Object.defineProperty(Filter, name, {
    configurable: true,
    get(this: unknown) {
      if (typeof this !== 'function') return method;
      let bound = boundTo.get(this);
      if (bound === undefined) {
        bound = method.bind(this);
        boundTo.set(this, bound);
      }
      return bound;
    },
  });
}
bindToEachClass('deserialize');
bindToEachClass('from');

/**
 * Why `other` cannot be combined with a `type` filter (union), as a FilterError
 * `INVALID_ARGUMENT` that says exactly what it is. A filter of the right type
 * that is not an instance of this copy of the classes was made by another
 * entry of the package (/inline, /small: each loads its own WebAssembly
 * module, so their tables live in different memories) or another copy of the
 * package: its bytes travel, the object does not.
 */
export function unionMismatch(type: string, other: unknown): FilterError {
  if (other instanceof Filter) {
    return new FilterError('INVALID_ARGUMENT', `union needs another ${type} filter, got a ${other.type} filter`);
  }
  const looksLikeFilter =
    typeof other === 'object' && other !== null && typeof (other as { serialize?: unknown }).serialize === 'function' &&
    typeof (other as { type?: unknown }).type === 'string';
  if (looksLikeFilter) {
    return new FilterError(
      'INVALID_ARGUMENT',
      `union needs a ${type} filter of this entry of cuckoo-bloom-wasm; this ${String((other as { type: unknown }).type)} filter ` +
        'was made by another entry (/inline, /small, the main one) or another copy of the package, whose WebAssembly ' +
        'memory is not this one: pass deserialize(other.serialize()) instead',
    );
  }
  return new FilterError('INVALID_ARGUMENT', `union needs another ${type} filter, got ${describeValue(other)}`);
}

/** What `hasMany` returns: `boolean[]` (the default) or one byte per key. */
export interface HasManyOptions {
  /** `'boolean[]'` (the default), or `'Uint8Array'`: one byte per key, 1 for maybe present and 0 for absent. */
  readonly as?: 'boolean[]' | 'Uint8Array';
}

function resultForm(options: unknown): 'boolean[]' | 'Uint8Array' {
  if (options === undefined) return 'boolean[]';
  const as = options !== null && typeof options === 'object' ? (options as { as?: unknown }).as : undefined;
  if (options === null || typeof options !== 'object' || (as !== undefined && as !== 'boolean[]' && as !== 'Uint8Array')) {
    throw new FilterError(
      'INVALID_ARGUMENT',
      `hasMany options: expected { as: 'boolean[]' | 'Uint8Array' }, got ${options !== null && typeof options === 'object' ? `as: ${describeValue(as)}` : describeValue(options)}`,
    );
  }
  return as ?? 'boolean[]';
}

/** `target[at + i] = bytes[from + i] !== 0` for i in [0, count): one batch's results as booleans. */
function copyAsBooleans(bytes: Uint8Array, from: number, count: number, target: boolean[], at: number): void {
  for (let i = 0; i < count; i++) target[at + i] = bytes[from + i] !== 0;
}

/** Batch input: a KeyBatch as it is, otherwise an array of keys. */
function keySource(keys: unknown): readonly Key[] | KeyBatch {
  if (Array.isArray(keys)) return keys as readonly Key[];
  return keys instanceof KeyBatch ? keys : keyArray(keys);
}

/**
 * Validates a class's options and creates its handle through the C++ registry.
 * The options a type takes beyond the shared three are the ones its C++ class
 * declares (coreFilterType), in the core's spelling: a class whose users
 * spell one differently (a clock, an initial capacity) translates first.
 */
function createHandle(info: FilterClassInfo, options: unknown): FilterHandle {
  const { module } = getRuntime();
  const takes = coreFilterType(info.typeName).options;
  const checked = checkOptions<FilterOptions & Record<string, unknown>>(options, info.className, takes);
  const core: CoreFilterOptions = {
    capacity: checked.capacity,
    falsePositiveRate: checked.falsePositiveRate ?? info.defaultRate?.(checked) ?? DEFAULT_FALSE_POSITIVE_RATE,
    seed: checked.seed ?? 0,
  };
  for (const name of takes) {
    const value = checked[name];
    // Crosses as it is: the core reads a number, or a boolean as a flag, and
    // refuses anything else by name (never ignored).
    if (value !== undefined) core[name] = value as number | boolean;
  }
  return adoptHandle(module.createFilter(info.typeName, core));
}

/**
 * A handle read from bytes, for the class `info` describes: the core reads
 * any registered type, and anything but this class's type is WRONG_TYPE.
 */
function existingOfType(handle: FilterHandle, info: FilterClassInfo): FilterHandle {
  const got = handle.typeName();
  if (got !== info.typeName) {
    handle.delete();
    throw new FilterError('WRONG_TYPE', `expected a ${info.typeName} filter, got a ${got} filter`);
  }
  return handle;
}
