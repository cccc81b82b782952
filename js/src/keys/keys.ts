import type { CoreModule } from '../runtime/core-module.js';
import { FilterError } from '../errors.js';

/** A key: a string (hashed as its UTF-8 bytes) or raw bytes. `has(bytes)` ≡ `has(the same UTF-8 string)`. */
export type Key = string | Uint8Array;

const encoder = new TextEncoder();


/**
 * Bytes this package returns and owns no longer: a fresh copy with its own
 * ArrayBuffer. On TypeScript >= 5.7 this is `Uint8Array<ArrayBuffer>`, which
 * `new Blob([bytes])`, `new Response(bytes)` and `bytes.buffer` as an
 * `ArrayBuffer` accept; on older TypeScript it is plain `Uint8Array`.
 */
export type OwnedBytes = ReturnType<Uint8Array['slice']>;

/** A value as an error message names it: "undefined", "a string ('0.01')", "an Object", "an ArrayBuffer". */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'undefined';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return `a string (${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)})`;
  if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean') {
    return `${article(typeof value)} ${typeof value} (${String(value)})`;
  }
  const name = typeof value === 'object' ? ((value as object).constructor?.name ?? 'object') : typeof value;
  return `${article(name)} ${name}`;
}

function article(word: string): string {
  return /^[aeiou]/i.test(word) ? 'an' : 'a';
}

export function invalidKey(key: unknown, index?: number): FilterError {
  return new FilterError(
    'INVALID_ARGUMENT',
    `${index === undefined ? 'a key' : `key ${index}`} must be a string or a Uint8Array, got ${describeValue(key)}`,
    index === undefined ? undefined : { index },
  );
}

/**
 * Batch limits. A batch crosses the boundary in one call; its strings are
 * joined and encoded with one TextEncoder call. Joined strings above a few
 * tens of KiB land in V8's large-object space, in fresh pages whose first
 * touch costs tens of µs on common VMs: measured on 60-byte URL keys, batches
 * of 16-64 Ki characters ran at 70 ns/key against 260-290 ns/key for batches
 * of 0.25-1 Mi characters. A batch is cut at whichever limit comes first.
 * 65,472 units is the most whose joined string stays a regular object when
 * its characters take two bytes (2 x 65,472 + a 16-byte header < 128 KiB,
 * V8's limit); against 32 Ki units it cut the per-batch cost (calls, views)
 * per key: encoding 200-byte ASCII keys 43-49 -> 37-41 ns a key, 60-byte
 * 18.6-19.3 -> 16.6 (non-ASCII batches unchanged).
 */
export const BATCH_KEYS = 16384;
export const BATCH_UNITS = 65472;
/** Bytes for one batch's data: at most 3 UTF-8 bytes per UTF-16 unit. */
const BATCH_DATA_BYTES = BATCH_UNITS * 3;
/** Room after the data for the batch's UTF-16 units, when they go that way (see nodeBuffer). */
const BATCH_STAGING_BYTES = 6 + BATCH_UNITS * 2;
/** The fixed head of the arena in batch calls: offsets (BATCH_KEYS + 1 uint32), then one result byte per key. */
const OFFSETS_BYTES = (BATCH_KEYS + 1) * 4;
const HEAD_BYTES = OFFSETS_BYTES + BATCH_KEYS + 4; // data stays 8-byte aligned
/**
 * The largest region the arena asks wasm for. wasm32 sizes are 32-bit and the
 * module's memory stops at 2 GiB: a size past this is OUT_OF_MEMORY here,
 * before it could wrap into a small allocation on the way to `_malloc`.
 */
export const MAX_ARENA_BYTES = 2 ** 31 - 2 ** 16;

/**
 * Node's Buffer, in Node only: `Buffer#write(text, offset, 'utf16le')` copies a
 * string's UTF-16 code units at memory speed, and the core then encodes them
 * to UTF-8 (utf8_offsets.h). Node 20's TextEncoder is fast on ASCII but slow
 * on anything else: measured on batches of 60-byte keys with 2- and 3-byte
 * characters, 145 ns a key to encode against 20 to copy the units, and 500
 * against 72 at 200 bytes. Browsers keep TextEncoder (no Buffer, and a
 * charCodeAt loop is slower than copying).
 */
interface NodeBytes {
  readonly byteLength: number;
  write(text: string, offset: number, encoding: 'utf16le'): number;
}
interface NodeBufferClass {
  from(buffer: ArrayBufferLike, byteOffset: number, length: number): NodeBytes;
}
const nodeBuffer: NodeBufferClass | undefined =
  typeof process !== 'undefined' && typeof process.versions === 'object' && !!process.versions.node
    ? (globalThis as { Buffer?: NodeBufferClass }).Buffer
    : undefined;

/**
 * Strings of up to this many units that are not ASCII are encoded to UTF-8
 * in JavaScript, by one loop, rather than through TextEncoder or the core:
 * both of those cost a call of about 40 ns whatever the length. Measured in
 * Node 20, has() of 10-byte keys mixing 2- and 3-byte characters: 105-118
 * -> 69-73 ns; 20-byte keys (about 15 units): 142-145 -> 124-127 ns. At
 * about 22 units the loop's branch on each character's width, mispredicted
 * on mixed text, costs as much as the call it saves.
 */
const SHORT_WIDE_UNITS = 16;

/**
 * A batch's strings are joined and encoded in one call while their mean
 * length is at most this many UTF-16 units. Joining copies every string once
 * more (the rope is flattened) to save a call of ~50 ns a key, and that copy
 * outgrows the call for long strings. Beyond it, on the TextEncoder route
 * (ASCII so far, and browsers), the batch runs the single-key path key by key
 * (`keyByKey`): writing each key at its own offset in the arena costs more
 * than has()'s encodeInto into its one fixed view (Buffer#write 73 against
 * 56 ns at 200 bytes, 275 against 205 at 1000; encodeInto into a fresh view
 * more still), so laying long ASCII keys out one by one never beat the loop.
 * On Node's UTF-16 route (JOIN_MAX_UNITS_AS_UNITS) the copy of each key's
 * units is the same in a batch as alone, and one by one into the arena then
 * one crossing saves two calls a key.
 *
 * Measured in Node 20 (one process, rounds interleaved, CPU time, median of
 * per-round ratios; load 14 on 2 shared cores), bloom hasMany(strings) as
 * Uint8Array, "built" keys each a string of its own, "sliced" keys slices of
 * one text:
 *
 * | bytes | ASCII joined ÷ loop, built / sliced | not ASCII, one by one ÷ joined, built / sliced |
 * | --- | ---: | ---: |
 * | 30  | 0.46 / 0.32 | 1.60 / 1.68 |
 * | 60  | 0.64 / 0.45 | 1.47 / 1.41 |
 * | 100 | 0.58 / 0.50 | 1.23 / 1.30 |
 * | 150 | 0.66 / 0.60 | 1.08 / 1.15 |
 * | 200 | 0.75 / 0.66 | 0.91 / 1.13 |
 * | 300 | 0.93-1.05 / 0.74-0.84 | 0.96-1.00 / 0.96-1.03 |
 * | 500 | 1.14 / 1.21 | 0.93 / 0.97 |
 * | 1000 | 1.80 / 1.62 | |
 *
 * (A key that is not ASCII has about 0.7 units a byte here: 200 bytes are
 * about 140 units, 300 about 210.) ASCII: joining stops paying between 300
 * and 500 units, so 320. Not ASCII: one by one is even with joining from
 * about 200 units and ahead beyond. A limit of 120 units, tried in
 * bench/batches.mjs (9 rounds, old and new side by side), put 200-byte keys
 * one by one at 0.83-0.97 of the loop (built) and 0.78-0.89 (sliced),
 * against 0.85-0.92 and 0.70-0.75 joined: so 200.
 */
export const JOIN_MAX_UNITS = 320;
/** The same limit on the UTF-16 route (Node, after a batch that was not ASCII). */
const JOIN_MAX_UNITS_AS_UNITS = 200;
/** How many keys at the start of a batch decide its route. */
const ROUTE_SAMPLE_KEYS = 8;

/**
 * The mean length in UTF-16 units of the first ROUTE_SAMPLE_KEYS strings
 * from keys[start] (0 when there are none: bytes, or bad keys, which the scan
 * then reports).
 */
export function sampleMeanUnits(keys: readonly Key[], start: number): number {
  const stop = Math.min(keys.length, start + ROUTE_SAMPLE_KEYS);
  let units = 0;
  let strings = 0;
  for (let i = start; i < stop; i++) {
    const key = keys[i];
    if (typeof key === 'string') {
      units += key.length;
      strings++;
    }
  }
  return strings === 0 ? 0 : units / strings;
}

/** Where one encoded batch lies in wasm memory, and the key after it. */
interface EncodedBatch {
  /** Index of the first key not in this batch. */
  readonly end: number;
  readonly count: number;
  /**
   * Nothing was laid out: the caller runs the single-key path (KeyPath)
   * over keys[end - count, end), which the scan has checked.
   */
  readonly keyByKey: boolean;
  readonly offsets: number;
  readonly results: number;
  readonly data: number;
}

/** Pre-encoded keys (KeyBatch) as the arena reads them. */
export interface EncodedKeys {
  readonly bytes: Uint8Array;
  /** count + 1 entries; key i is bytes[offsets[i], offsets[i + 1]). */
  readonly offsets: Uint32Array;
}

/** True for a Uint8Array whose buffer was transferred away (it reads as empty). */
export function isDetached(bytes: Uint8Array): boolean {
  if (bytes.byteLength !== 0) return false;
  try {
    void new Uint8Array(bytes.buffer, 0, 0);
    return false;
  } catch {
    return true;
  }
}

/** @throws FilterError `INVALID_ARGUMENT` when `bytes` was transferred or detached (it would read as empty). */
export function requireAttached(bytes: Uint8Array, what: string): void {
  if (bytes.length === 0 && isDetached(bytes)) {
    throw new FilterError('INVALID_ARGUMENT', `${what} is a Uint8Array whose ArrayBuffer was transferred or detached`);
  }
}

/**
 * A batch's keys are read while the batch is laid out in the one scratch region, so code
 * that runs on a key read (a getter, a Proxy) and calls the library again would overwrite
 * the batch half written: keys missed, or a trap. Such a call is refused with this instead.
 */
export function reenteredWhileEncoding(): FilterError {
  return new FilterError(
    'INVALID_ARGUMENT',
    'the key list ran code while its keys were being read (a getter or Proxy) that called this library again: pass an array of plain keys',
  );
}

/**
 * Whether a batch is being laid out in a key arena (this one and the shared entry's): a key
 * read may run code that calls the library again, which must be refused, not let write
 * into the region under the batch.
 */
export class BatchLayoutGuard {
  /** A batch is being laid out: a single key's encode must refuse too. */
  busy = false;

  /** Runs `layOut` marked busy; a call while busy is refused (reenteredWhileEncoding). */
  run<T>(layOut: () => T): T {
    if (this.busy) throw reenteredWhileEncoding();
    this.busy = true;
    try {
      return layOut();
    } finally {
      this.busy = false;
    }
  }
}

export function detachedKey(index?: number): FilterError {
  return new FilterError(
    'INVALID_ARGUMENT',
    `${index === undefined ? 'the key' : `key ${index}`} is a Uint8Array whose ArrayBuffer was transferred or detached`,
    index === undefined ? undefined : { index },
  );
}

/**
 * One scratch region in wasm memory, reused by every call, so a key crosses
 * the JS/wasm boundary as (pointer, length) with no allocation per key, and a
 * batch always lands in the same, already touched pages.
 *
 * The heap view is re-read whenever it may be stale: growing wasm memory
 * detaches every existing view of it.
 */
export class KeyArena {
  readonly #module: CoreModule;
  #pointer = 0;
  #capacity = 0;
  #view: Uint8Array = new Uint8Array(0);
  /**
   * Views of the region's batch layout (the offsets, the data after the
   * head), made again only when #view is: a batch of short keys is
   * thousands of keys, but every typed array made per batch is an
   * allocation the JavaScript heap and its collector pay for.
   */
  #offsets: Uint32Array = new Uint32Array(0);
  #data: Uint8Array = new Uint8Array(0);
  /** The region as a Node Buffer (Node only), for writing UTF-16 units into it. */
  #nodeView: NodeBytes | undefined;
  /**
   * The last batch of strings, or the last string of more than 32 units, was
   * not all ASCII (and Node's Buffer is at hand): the next goes to the core as
   * UTF-16 units. The keys of one call, and of most workloads, are alike, so
   * one decides for the next; an ASCII one sends the next back to
   * TextEncoder, the faster route for ASCII. (A string of up to 32 units is
   * checked as it is copied, and takes its own route.)
   */
  #utf16Next = false;
  /**
   * Whether strings may go as UTF-16 units at all: Node's Buffer, and a
   * module with the core's encoding exports (the reader's module has none).
   */
  readonly #unitsRoute: boolean;
  /** Set while encodeBatch lays a batch out: a key read may run code that calls back in. */
  readonly #layout = new BatchLayoutGuard();

  constructor(module: CoreModule) {
    this.#module = module;
    this.#unitsRoute =
      nodeBuffer !== undefined &&
      typeof (module as Partial<CoreModule>)._cbw_utf16_key === 'function' &&
      typeof (module as Partial<CoreModule>)._cbw_utf16_keys === 'function';
    this.reserve(HEAD_BYTES + BATCH_DATA_BYTES + (this.#unitsRoute ? BATCH_STAGING_BYTES : 0));
  }

  get pointer(): number {
    return this.#pointer;
  }

  /**
   * Makes the region at least `bytes` long (contents are not kept).
   * @throws FilterError `OUT_OF_MEMORY` past MAX_ARENA_BYTES or when wasm memory cannot grow.
   */
  reserve(bytes: number): void {
    if (bytes <= this.#capacity) return;
    if (!(bytes <= MAX_ARENA_BYTES)) {
      throw new FilterError('OUT_OF_MEMORY', `a key or batch of ${bytes} bytes does not fit in wasm memory (at most ${MAX_ARENA_BYTES})`);
    }
    const capacity = Math.min(MAX_ARENA_BYTES, Math.max(bytes, this.#capacity * 2));
    const pointer = this.#module._malloc(capacity);
    if (pointer === 0) {
      throw new FilterError('OUT_OF_MEMORY', `out of wasm memory: cannot reserve ${capacity} bytes for keys`);
    }
    if (this.#pointer !== 0) this.#module._free(this.#pointer);
    this.#pointer = pointer;
    this.#capacity = capacity;
    this.#setViews(this.#module.HEAPU8.subarray(pointer, pointer + capacity));
    this.#nodeView = undefined;
  }

  #setViews(view: Uint8Array): void {
    this.#view = view;
    this.#offsets = new Uint32Array(view.buffer, view.byteOffset, BATCH_KEYS + 1);
    this.#data = view.subarray(HEAD_BYTES);
  }

  /** The region as bytes, valid until the next call that may grow memory. */
  view(): Uint8Array {
    // A view of a buffer that memory growth replaced has length 0.
    if (this.#view.byteLength === 0 && this.#capacity > 0) {
      this.#setViews(this.#module.HEAPU8.subarray(this.#pointer, this.#pointer + this.#capacity));
    }
    return this.#view;
  }

  /** The region as a Node Buffer (Node only; stale after memory growth, so re-made then). */
  #nodeBytes(): NodeBytes {
    if (this.#nodeView === undefined || this.#nodeView.byteLength === 0) {
      const view = this.view();
      this.#nodeView = nodeBuffer!.from(view.buffer, view.byteOffset, view.byteLength);
    }
    return this.#nodeView;
  }

  /**
   * UTF-8 of a short string at the start of the region, exactly as
   * TextEncoder writes it: a surrogate pair is one 4-byte character, a lone
   * surrogate is U+FFFD (EF BF BD). The caller reserved 3 bytes per unit,
   * enough for both.
   */
  #encodeShortWide(text: string): number {
    const view = this.view();
    const length = text.length;
    let at = 0;
    for (let i = 0; i < length; i++) {
      const unit = text.charCodeAt(i);
      if (unit < 0x80) {
        view[at++] = unit;
      } else if (unit < 0x800) {
        view[at] = 0xc0 | (unit >> 6);
        view[at + 1] = 0x80 | (unit & 0x3f);
        at += 2;
      } else if (unit < 0xd800 || unit > 0xdfff) {
        view[at] = 0xe0 | (unit >> 12);
        view[at + 1] = 0x80 | ((unit >> 6) & 0x3f);
        view[at + 2] = 0x80 | (unit & 0x3f);
        at += 3;
      } else {
        const next = i + 1 < length ? text.charCodeAt(i + 1) : 0;
        if (unit <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
          const point = 0x10000 + ((unit - 0xd800) << 10) + (next - 0xdc00);
          view[at] = 0xf0 | (point >> 18);
          view[at + 1] = 0x80 | ((point >> 12) & 0x3f);
          view[at + 2] = 0x80 | ((point >> 6) & 0x3f);
          view[at + 3] = 0x80 | (point & 0x3f);
          at += 4;
          i++;
        } else {
          view[at] = 0xef;
          view[at + 1] = 0xbf;
          view[at + 2] = 0xbd;
          at += 3;
        }
      }
    }
    return at;
  }

  /**
   * A string that is (likely) not ASCII. Up to SHORT_WIDE_UNITS units: encoded
   * here (#encodeShortWide). Longer, in Node (#unitsRoute): its UTF-16 units after the
   * room for its UTF-8 (and the 4 bytes the core may store past it), then the
   * core writes the UTF-8 at the start of the region. Elsewhere, or for a
   * string too long for both copies: TextEncoder.
   */
  #encodeWide(key: string): number {
    const units = key.length;
    if (units <= SHORT_WIDE_UNITS) return this.#encodeShortWide(key);
    const staging = 3 * units + 4 + (units & 1); // even: the region starts 8-aligned
    if (!this.#unitsRoute || staging + 2 * units > MAX_ARENA_BYTES) {
      return encoder.encodeInto(key, this.view()).written;
    }
    if (staging + 2 * units > this.#capacity) this.reserve(staging + 2 * units);
    this.#nodeBytes().write(key, staging, 'utf16le');
    const written = this.#module._cbw_utf16_key(this.#pointer + staging, units, this.#pointer);
    this.#utf16Next = written !== units;
    return written;
  }

  /**
   * Writes one key at the start of the region; returns its length in bytes.
   * Read `pointer` only after this returns: a long key grows (moves) the region.
   */
  encode(key: Key): number {
    if (this.#layout.busy) throw reenteredWhileEncoding();
    // Not `if (typeof key === 'string')` with `key.length` inside: Node 20's
    // optimizing compiler (V8 11.3) scheduled that length load above the test
    // once has() had met strings and Uint8Arrays, and has(42) then crashed
    // the process (SIGSEGV) instead of throwing
    // (tests/core/wrong-type-after-warm-up.test.mjs). `text` is a value merged from
    // both arms, so its length cannot be read before the test; at worst it is
    // read from `undefined`, a heap object too. Written out here: through a
    // helper function, has() measured 2-3% slower. Past this line, `text`.
    const text = typeof key === 'string' ? key : undefined;
    if (text !== undefined) {
      // UTF-8 needs at most 3 bytes per UTF-16 code unit.
      const length = text.length;
      if (length * 3 > this.#capacity) this.reserve(length * 3);
      const view = this.view();
      if (length <= 32) {
        // Short keys: a plain loop beats TextEncoder's ~40 ns call overhead when all ASCII.
        let i = 0;
        for (; i < length; i++) {
          const unit = text.charCodeAt(i);
          if (unit > 0x7f) break;
          view[i] = unit;
        }
        if (i === length) return length;
      } else if (!this.#utf16Next) {
        const written = encoder.encodeInto(text, view).written;
        if (written !== length && this.#unitsRoute) this.#utf16Next = true;
        return written;
      }
      // Kept out of this method, which the per-key calls inline: a short key
      // that is not ASCII, or a long one after a string that was not.
      return this.#encodeWide(text);
    }
    if (key instanceof Uint8Array) {
      if (key.length > this.#capacity) this.reserve(key.length);
      if (key.length === 0 && isDetached(key)) throw detachedKey();
      this.view().set(key);
      return key.length;
    }
    throw invalidKey(key);
  }

  /**
   * Lays out keys[start, ...) as one batch: a uint32 offsets array at
   * `offsets`, the key bytes at `data`, and one spare byte per key at
   * `results`. The batch ends at BATCH_KEYS keys or BATCH_UNITS units of
   * key length, whichever comes first, but always holds at least one key.
   * Long strings on the TextEncoder route are not laid out (`keyByKey`).
   */
  encodeBatch(keys: readonly Key[], start: number): EncodedBatch {
    return this.#layout.run(() => this.#layOutBatch(keys, start));
  }

  #layOutBatch(keys: readonly Key[], start: number): EncodedBatch {
    let offsets = this.#offsetsView();
    // By cost (JOIN_MAX_UNITS): join short strings; long ones key by key.
    const join = sampleMeanUnits(keys, start) <= (this.#utf16Next ? JOIN_MAX_UNITS_AS_UNITS : JOIN_MAX_UNITS);
    const { end, units, stringUnits, allStrings, joined } = scanBatch(keys, start, offsets, join);
    const count = end - start;
    if (!join && allStrings && !this.#utf16Next) {
      // Long strings on the TextEncoder route: the caller runs the single
      // key path over them (JOIN_MAX_UNITS says why). The scan has checked them.
      return { end, count, keyByKey: true, offsets: 0, results: 0, data: 0 };
    }
    // Only a batch of one key can pass the budget; growing moves the region.
    const dataBytes = stringUnits * 3 + (units - stringUnits);
    // The UTF-16 copy goes after the data and the 4 bytes the core may
    // store past it, at an even address (a key too long for both copies in
    // wasm's memory goes through TextEncoder).
    const staging = HEAD_BYTES + dataBytes + 4 + (dataBytes & 1);
    const asUnits = allStrings && this.#utf16Next && staging + 2 * units <= MAX_ARENA_BYTES;
    const needed = asUnits ? staging + 2 * units : HEAD_BYTES + dataBytes;
    if (needed > this.#capacity) {
      this.reserve(needed);
      offsets = this.#offsetsView();
      offsets[0] = 0;
      offsets[1] = units;
    }
    const batch: EncodedBatch = {
      end,
      count,
      keyByKey: false,
      offsets: this.#pointer,
      results: this.#pointer + OFFSETS_BYTES,
      data: this.#pointer + HEAD_BYTES,
    };
    if (asUnits) {
      // Units, then the core encodes each key as TextEncoder would encode it
      // alone (a surrogate pair split between two keys included).
      const bytes = this.#nodeBytes();
      if (join) {
        bytes.write(joined, staging, 'utf16le');
      } else {
        // offsets[i] is already where key i's units start.
        for (let i = 0; i < count; i++) bytes.write(keys[start + i] as string, staging + 2 * offsets[i]!, 'utf16le');
      }
      const written = this.#module._cbw_utf16_keys(this.#pointer + staging, batch.offsets, count, batch.data);
      this.#utf16Next = written !== units;
      return batch;
    }
    if (allStrings && join) {
      const written = encoder.encodeInto(joined, this.#dataView()).written;
      // One byte per unit means every key was ASCII: unit offsets are byte
      // offsets. Otherwise the core maps them in one pass over the bytes.
      if (written === units) return batch;
      this.#utf16Next = this.#unitsRoute;
      if (this.#module._cbw_utf8_offsets(batch.data, written, batch.offsets, count) === 1) return batch;
    }
    // Mixed strings and bytes, or a surrogate pair split between two keys:
    // key by key.
    writeKeys(keys, start, end, this.#dataView(), 0, this.#offsetsView(), 0);
    return batch;
  }

  /**
   * Copies pre-encoded keys [start, ...) into the region as one batch, cut at
   * BATCH_KEYS keys or BATCH_DATA_BYTES bytes (at least one key). The
   * offsets keep their absolute values: the core reads them relative to the
   * first.
   */
  copyBatch(keys: EncodedKeys, start: number): EncodedBatch {
    const ends = keys.offsets;
    const total = ends.length - 1;
    const first = ends[start]!;
    let end = start + 1;
    const keyLimit = Math.min(total, start + BATCH_KEYS);
    while (end < keyLimit && ends[end + 1]! - first <= BATCH_DATA_BYTES) end++;
    const dataBytes = ends[end]! - first;
    if (HEAD_BYTES + dataBytes > this.#capacity) this.reserve(HEAD_BYTES + dataBytes);
    this.#offsetsView().set(ends.subarray(start, end + 1));
    this.view().set(keys.bytes.subarray(first, ends[end]), HEAD_BYTES);
    return {
      end,
      count: end - start,
      keyByKey: false,
      offsets: this.#pointer,
      results: this.#pointer + OFFSETS_BYTES,
      data: this.#pointer + HEAD_BYTES,
    };
  }

  #offsetsView(): Uint32Array {
    this.view(); // re-made after memory growth
    return this.#offsets;
  }

  /** The region after the batch head, where a batch's key bytes go. */
  #dataView(): Uint8Array {
    this.view();
    return this.#data;
  }

  /**
   * Copies bytes into a fresh allocation the caller must `_free`.
   * @throws FilterError `OUT_OF_MEMORY`.
   */
  copyIn(bytes: Uint8Array): number {
    requireAttached(bytes, 'the bytes');
    const size = Math.max(1, bytes.length);
    const pointer = size <= MAX_ARENA_BYTES ? this.#module._malloc(size) : 0;
    if (pointer === 0) {
      throw new FilterError('OUT_OF_MEMORY', `out of wasm memory: cannot copy ${bytes.length} bytes into wasm`);
    }
    this.#module.HEAPU8.set(bytes, pointer);
    return pointer;
  }
}

/**
 * The keys of a batch as an array: an array as it is, any other iterable read
 * into one. `caller`, when given, starts the error message (`KeyBatch.from: ...`).
 */
export function keyArray(keys: unknown, caller?: string): readonly Key[] {
  if (Array.isArray(keys)) return keys as readonly Key[];
  if (keys !== null && typeof keys === 'object' && typeof (keys as Iterable<Key>)[Symbol.iterator] === 'function' && !(keys instanceof Uint8Array)) {
    return Array.from(keys as Iterable<Key>);
  }
  throw new FilterError(
    'INVALID_ARGUMENT',
    `${caller === undefined ? '' : `${caller}: `}keys must be an array or another iterable of keys, got ${typeof keys === 'string' ? 'a string (one key: use add/has)' : describeValue(keys)}`,
  );
}

/** What {@link scanBatch} found in the keys of one batch. */
interface BatchScan {
  /** One past the batch's last key. */
  end: number;
  /** The keys' lengths summed: UTF-16 units for strings, bytes for Uint8Arrays. */
  units: number;
  /** The part of `units` that is strings. */
  stringUnits: number;
  /** True when every key of the batch is a string; then `joined` is all of them. */
  allStrings: boolean;
  /** The batch's strings joined, while every key so far was a string. */
  joined: string;
}

/**
 * Checks keys[start, ...) and cuts them into one batch: at most BATCH_KEYS
 * keys and BATCH_UNITS units of key length, whichever comes first, but
 * always at least one key. `unitEnds[i + 1]` gets the units of the batch's
 * keys 0..i (`unitEnds[0]` = 0): byte offsets already when every key turns
 * out ASCII. One pass checks the keys, sums their lengths and, when `join`,
 * joins the strings: V8 builds `+=` chains as ropes that encodeInto flattens
 * once (without `join`, `joined` stays empty).
 * @throws FilterError `INVALID_ARGUMENT` (with `index`) for a key that is
 *   neither a string nor a Uint8Array, or a detached Uint8Array.
 */
export function scanBatch(keys: readonly Key[], start: number, unitEnds: Uint32Array, join = true): BatchScan {
  const total = keys.length;
  const stop = Math.min(total, start + BATCH_KEYS);
  unitEnds[0] = 0;
  let units = 0;
  let joined = '';
  let end = start;
  // Strings only, the usual batch: one type test a key and nothing to track
  // but the length. It stops at the budget, or at the first key that is not
  // a string, which the general loop below takes from there. (Measured on
  // 10-byte keys: 0.5 ns a key less than the general loop alone.)
  for (; end < stop; end++) {
    const key = keys[end];
    if (typeof key !== 'string') break;
    const next = units + key.length;
    if (next > BATCH_UNITS && end > start) return { end, units, stringUnits: units, allStrings: true, joined };
    if (join) joined += key;
    units = next;
    unitEnds[end + 1 - start] = units;
  }
  let allStrings = true;
  let stringUnits = units;
  while (end < stop) {
    const key = keys[end];
    const isString = typeof key === 'string';
    if (!isString && !(key instanceof Uint8Array)) throw invalidKey(key, end);
    const size = key.length;
    if (units + size > BATCH_UNITS && end > start) break;
    if (isString) {
      stringUnits += size;
      if (allStrings && join) joined += key;
    } else {
      if (size === 0 && isDetached(key)) throw detachedKey(end);
      allStrings = false;
    }
    units += size;
    end++;
    unitEnds[end - start] = units;
  }
  return { end, units, stringUnits, allStrings, joined };
}

/**
 * Writes keys[start, end) one after another into `target` from byte `at`
 * (strings as UTF-8): key i starts at `offsets[first + i - start]`, and
 * `offsets[first + end - start]` is where the last one ends, which is
 * returned. `target` must have room (3 bytes a UTF-16 unit).
 */
export function writeKeys(keys: readonly Key[], start: number, end: number, target: Uint8Array, at: number, offsets: Uint32Array, first: number): number {
  let offset = at;
  for (let i = start; i < end; i++) {
    offsets[first + i - start] = offset;
    const key = keys[i] as Key;
    if (typeof key === 'string') {
      offset += encoder.encodeInto(key, target.subarray(offset)).written;
    } else {
      target.set(key, offset);
      offset += key.length;
    }
  }
  offsets[first + end - start] = offset;
  return offset;
}
