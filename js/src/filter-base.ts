import type { CoreHandle, CoreModule } from './core-module.js';
import { coreError, FilterError } from './errors.js';
import { getRuntime } from './init.js';
import { BATCH_KEYS, type Key, KeyArena, describeValue } from './keys.js';

// A safety net only: free() is the way to release a filter's memory promptly.
const leakedHandles =
  typeof FinalizationRegistry === 'function'
    ? new FinalizationRegistry<CoreHandle>((handle) => handle.delete())
    : null;

// `using filter = new BloomFilter(...)` needs Symbol.dispose; older runtimes
// lack it, and TypeScript's own downlevel helper looks for this same symbol.
(Symbol as { dispose?: symbol }).dispose ??= Symbol.for('Symbol.dispose');

/** Takes ownership of a freshly created handle, or throws the error it carries. */
export function adoptHandle<H extends CoreHandle>(handle: H): H {
  if (!handle.ok()) {
    const error = coreError(handle.errorCode(), handle.errorMessage());
    handle.delete();
    throw error;
  }
  return handle;
}

/** Copies `bytes` into wasm, runs `read` on them, frees the copy. */
export function withBytesInWasm<T>(bytes: unknown, read: (pointer: number, length: number) => T): T {
  if (!(bytes instanceof Uint8Array)) {
    throw new FilterError('INVALID_ARGUMENT', `serialized filter must be a Uint8Array, got ${describeValue(bytes)}`);
  }
  const { module, arena } = getRuntime();
  const pointer = arena.copyIn(bytes);
  try {
    return read(pointer, bytes.length);
  } finally {
    module._free(pointer);
  }
}

/**
 * What every filter shares: key encoding, batch calls, serialization, and
 * ownership of the wasm-side object. Subclasses add what their structure allows.
 */
export abstract class Filter<H extends CoreHandle = CoreHandle> {
  #handle: H | null;
  #address: number;
  protected readonly module: CoreModule;
  protected readonly arena: KeyArena;

  protected constructor(handle: H) {
    const runtime = getRuntime();
    this.module = runtime.module;
    this.arena = runtime.arena;
    this.#handle = handle;
    this.#address = handle.address();
    leakedHandles?.register(this, handle, this);
  }

  /** The filter type's name in the byte format and in `info` output. */
  abstract get type(): 'bloom' | 'blocked-bloom' | 'counting-bloom' | 'cuckoo';

  protected get handle(): H {
    if (this.#handle === null) throw this.#freedError();
    return this.#handle;
  }

  /** The wasm address of the live handle, for the single-key fast path. */
  protected get address(): number {
    if (this.#handle === null) throw this.#freedError();
    return this.#address;
  }

  #freedError(): FilterError {
    return new FilterError('FREED', `this ${this.type} filter was freed; create or deserialize a new one`);
  }

  /**
   * The single-key fast path: a plain wasm export taking (handle address, key
   * pointer, key length), returning non-zero when the key may be present.
   */
  protected abstract fastHas(address: number, key: number, length: number): number;

  /**
   * True when the key may have been added (false positives at about the
   * filter's rate); false means it certainly was not (or was removed).
   * @throws FilterError `INVALID_ARGUMENT` for a key that is not a string or Uint8Array; `FREED`.
   */
  has(key: Key): boolean {
    const address = this.address;
    const length = this.arena.encode(key);
    return this.fastHas(address, this.arena.pointer, length) !== 0;
  }

  /**
   * `has` for many keys with one boundary crossing per batch of 16,384 keys.
   * @throws FilterError `INVALID_ARGUMENT` if `keys` is not an array or holds a bad key; `FREED`.
   */
  hasMany(keys: readonly Key[]): boolean[] {
    const handle = this.handle;
    const answers = new Array<boolean>(checkKeyArray(keys).length);
    for (let start = 0; start < keys.length; start += BATCH_KEYS) {
      const end = Math.min(keys.length, start + BATCH_KEYS);
      const batch = this.arena.encodeBatch(keys, start, end);
      handle.hasMany(batch.data, batch.offsets, end - start, batch.results);
      const results = this.module.HEAPU8;
      for (let i = start; i < end; i++) answers[i] = results[batch.results + i - start] === 1;
    }
    return answers;
  }

  /** Adds every key; one boundary crossing per batch. */
  addMany(keys: readonly Key[]): void {
    const handle = this.handle;
    checkKeyArray(keys);
    for (let start = 0; start < keys.length; start += BATCH_KEYS) {
      const end = Math.min(keys.length, start + BATCH_KEYS);
      const batch = this.arena.encodeBatch(keys, start, end);
      const stored = handle.addMany(batch.data, batch.offsets, end - start);
      if (stored !== end - start) this.onBatchFull(start + stored, keys);
    }
  }

  /** Called when a batch add stopped early (cuckoo only). */
  protected onBatchFull(index: number, _keys: readonly Key[]): never {
    throw new FilterError('FULL', `filter is full at key ${index}`);
  }

  /** The filter in the documented byte format (docs/FORMAT.md). */
  serialize(): Uint8Array {
    const handle = this.handle;
    const bytes = handle.serialize().slice();
    handle.releaseSerialized();
    return bytes;
  }

  /** Removes every key (the sizing and seed stay). */
  clear(): void {
    this.handle.clear();
  }

  /** Keys stored: for Bloom filters, adds that set at least one new bit. */
  get count(): number {
    return this.handle.count();
  }
  /** The number of keys the filter was sized for. */
  get capacity(): number {
    return this.handle.capacity();
  }
  /** The hash seed. */
  get seed(): number {
    return this.handle.seed();
  }
  /** Bytes of the in-memory table (the serialized form adds 72-80 bytes of header, parameters and checksum). */
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
  /** In-memory bits per stored key (Infinity when empty). */
  get bitsPerKey(): number {
    return (this.byteLength * 8) / this.count;
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
  }

  [Symbol.dispose](): void {
    this.free();
  }
}

function checkKeyArray(keys: unknown): readonly Key[] {
  if (!Array.isArray(keys)) {
    throw new FilterError('INVALID_ARGUMENT', `keys must be an array, got ${describeValue(keys)}`);
  }
  return keys as readonly Key[];
}

/**
 * Reads serialized bytes into a new handle with `read`, then builds the
 * filter object around it with `make` (which calls the class's constructor).
 */
export function deserializeInto<T, H extends CoreHandle>(
  bytes: Uint8Array,
  read: (module: CoreModule, pointer: number, length: number) => H,
  make: () => T,
): T {
  const handle = withBytesInWasm(bytes, (pointer, length) => adoptHandle(read(getRuntime().module, pointer, length)));
  return wrapHandle(make, handle);
}

// Deserialization builds a filter around an existing handle: the public
// constructors take options only, so the handle waits here for the
// constructor to pick it up (synchronously, within the same call).
let pendingHandle: CoreHandle | null = null;

export function takePendingHandle<H extends CoreHandle>(): H | null {
  const handle = pendingHandle as H | null;
  pendingHandle = null;
  return handle;
}

export function wrapHandle<T>(create: () => T, handle: CoreHandle): T {
  pendingHandle = handle;
  try {
    return create();
  } finally {
    pendingHandle = null;
  }
}
