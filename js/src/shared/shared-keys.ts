// Keys into the shared memory: the main entry's key routes (js/src/keys/keys.ts,
// KeyArena) for a memory that is a SharedArrayBuffer (issue #47).
//
// The routes are the main entry's: a batch is cut and checked by the same
// scanBatch (BATCH_KEYS keys or BATCH_UNITS units), its strings joined and
// written with one call; when they were all ASCII the unit offsets are the byte
// offsets, otherwise the core maps them (utf16OffsetsToUtf8) or, in Node after
// a batch that was not ASCII, encodes the UTF-16 units itself
// (utf16KeysToUtf8: Buffer copies units at memory speed, and V8's UTF-8 writer
// is slow on anything but ASCII). What differs is only how bytes get into a
// shared memory:
// - Where TextEncoder.encodeInto takes a view of shared memory (Node), it
//   writes there directly, as the main entry's does; a single key goes into one
//   view kept for the scratch region. Measured in Node 20 on 30-90 byte URLs
//   (CPU time, median of 15 interleaved rounds, load 15 on 2 cores): one key
//   72.6-83.9 ns against 91.3-103.8 for Buffer#write (whose JavaScript argument
//   handling is the difference); a joined batch 28.0-28.5 ns a key for both.
// - Where it refuses them (browsers: Chromium says "must not be shared";
//   tests/shared/shared-browser.test.mjs), strings are encoded into an ordinary
//   buffer and copied in with one set().
// - The units route (Node only) copies UTF-16 units with Buffer#write(utf16le).
// Before, a batch was written key by key (one Buffer#write call per key) and
// without the units limit: its joined string, past 64 Ki units, landed in V8's
// large-object space, whose flattening took a third of a hasMany (profiled).
import {
  BATCH_KEYS,
  BATCH_UNITS,
  invalidKey,
  isDetached,
  JOIN_MAX_UNITS,
  BatchLayoutGuard,
  type EncodedKeys,
  type Key,
  reenteredWhileEncoding,
  sampleMeanUnits,
  scanBatch,
} from '../keys/keys.js';
import { FilterError } from '../errors.js';
import { scratch, type SharedRuntime } from './shared-runtime.js';

/** The main entry's join limit on its UTF-16 route (keys.ts, JOIN_MAX_UNITS_AS_UNITS: measured there). */
const JOIN_MAX_UNITS_AS_UNITS = 200;
/**
 * Strings of up to this many units are written by a loop while ASCII: a
 * Buffer#write into the shared memory costs a native call, which a loop beats
 * up to about 16 units here (measured for this entry; the main entry's
 * TextEncoder call into ordinary memory is cheaper, so its loop stops at 32).
 */
const SHORT_KEY_UNITS = 16;
/** A KeyBatch's batch: at most as many bytes as a batch of strings may encode to (3 bytes a unit). */
const BATCH_COPY_BYTES = BATCH_UNITS * 3;

const encoder = new TextEncoder();

interface NodeBuffer {
  write(text: string, offset: number, encoding: 'utf8' | 'utf16le'): number;
}
const NodeBufferClass =
  typeof process !== 'undefined' && typeof process.versions === 'object' && !!process.versions.node
    ? (globalThis as { Buffer?: { from(buffer: ArrayBufferLike, offset: number, length: number): NodeBuffer } }).Buffer
    : undefined;

/** Where one batch lies in this thread's scratch region (the core's batch layout, bindings/shared.cpp). */
export interface SharedBatch {
  /** Index of the first key after this batch. */
  readonly end: number;
  readonly count: number;
  /** count + 1 uint32 byte offsets; key i is [data + offsets[i] - offsets[0], data + offsets[i + 1] - offsets[0]). */
  readonly offsets: number;
  /** One answer byte per key. */
  readonly results: number;
  readonly data: number;
}

/** Offsets (count + 1 uint32), then one result byte per key; the data after it starts 8-aligned. */
function headBytes(count: number): number {
  return (((count + 1) * 4 + count + 7) & ~7) >>> 0;
}

/**
 * One thread's key writer for one shared memory: keys go into the thread's
 * scratch region (`scratch()`; the memory never grows, so views stay valid).
 */
export class SharedKeyArena {
  readonly #runtime: SharedRuntime;
  readonly #heap: Uint8Array;
  /** The whole memory as a Node Buffer (Node only). */
  readonly #nodeHeap: NodeBuffer | undefined;
  /**
   * The last string batch, or the last string longer than SHORT_KEY_UNITS,
   * was not all ASCII (Node only): the next goes to the core as UTF-16 units
   * (the main entry's rule: one call's keys, and most workloads', are alike).
   */
  #utf16Next = false;
  /** A batch's unit ends, staged in ordinary memory and copied in with one set(). */
  readonly #unitEnds = new Uint32Array(BATCH_KEYS + 1);
  /** Whether TextEncoder.encodeInto writes into views of the shared memory (Node: yes; browsers refuse them). */
  readonly #encodesIntoShared: boolean;
  /** The scratch region as one view (re-made when the region moves): where a single key is encoded. */
  #keyView: Uint8Array = new Uint8Array(0);
  #keyViewPointer = -1;
  /** Browsers: where TextEncoder writes before the copy into the shared memory. */
  #staging = new Uint8Array(0);
  /** Set while encodeBatch lays a batch out: a key read may run code that calls back in (keys.ts). */
  readonly #layout = new BatchLayoutGuard();

  constructor(runtime: SharedRuntime) {
    this.#runtime = runtime;
    this.#heap = runtime.heap;
    this.#nodeHeap = NodeBufferClass?.from(runtime.memory.buffer, 0, runtime.memory.buffer.byteLength);
    this.#encodesIntoShared = encodesIntoShared(runtime.heap);
  }

  /**
   * Writes one key at the start of the scratch region; returns its length in
   * bytes. Read `runtime.scratchPointer` after it: the region may move.
   * @throws FilterError `INVALID_ARGUMENT` (not a key), `OUT_OF_MEMORY`.
   */
  encode(key: Key): number {
    if (this.#layout.busy) throw reenteredWhileEncoding();
    // `text` merged from both arms, as in KeyArena#encode (keys.ts: Node 20's
    // optimizing compiler once hoisted a length load above the type test).
    const text = typeof key === 'string' ? key : undefined;
    if (text !== undefined) {
      const length = text.length;
      const runtime = this.#runtime;
      const pointer = length * 3 <= runtime.scratchBytes ? runtime.scratchPointer : scratch(runtime, length * 3);
      if (length <= SHORT_KEY_UNITS) {
        const heap = this.#heap;
        let i = 0;
        for (; i < length; i++) {
          const unit = text.charCodeAt(i);
          if (unit > 0x7f) break;
          heap[pointer + i] = unit;
        }
        if (i === length) return length;
        return this.#writeUtf8(text, pointer);
      }
      if (!this.#utf16Next) {
        const written = this.#encodesIntoShared ? encoder.encodeInto(text, this.#keyViewAt(pointer)).written : this.#writeUtf8(text, pointer);
        if (written !== length && this.#nodeHeap !== undefined) this.#utf16Next = true;
        return written;
      }
      return this.#encodeUnits(text);
    }
    if (key instanceof Uint8Array) {
      if (key.length === 0 && isDetached(key)) throw new FilterError('INVALID_ARGUMENT', 'a key is detached (transferred)');
      this.#heap.set(key, scratch(this.#runtime, key.length));
      return key.length;
    }
    throw invalidKey(key);
  }

  /** The scratch region (at `pointer`) as a view, made again only when the region moved. */
  #keyViewAt(pointer: number): Uint8Array {
    if (this.#keyViewPointer !== pointer || this.#keyView.length !== this.#runtime.scratchBytes) {
      this.#keyView = this.#heap.subarray(pointer, pointer + this.#runtime.scratchBytes);
      this.#keyViewPointer = pointer;
    }
    return this.#keyView;
  }

  /** UTF-8 of `text` at `at` (room for 3 bytes a unit): straight into the memory, or TextEncoder and one copy. */
  #writeUtf8(text: string, at: number): number {
    if (this.#encodesIntoShared) return encoder.encodeInto(text, this.#heap.subarray(at, at + 3 * text.length)).written;
    const staging = this.#stagingFor(text.length * 3);
    const { written } = encoder.encodeInto(text, staging);
    this.#heap.set(staging.subarray(0, written), at);
    return written;
  }

  #stagingFor(bytes: number): Uint8Array {
    if (this.#staging.length < bytes) this.#staging = new Uint8Array(Math.max(bytes, this.#staging.length * 2, 4096));
    return this.#staging;
  }

  /**
   * Node, one string after one that was not ASCII: its units after the room
   * for its UTF-8 (and the 4 bytes the core may store past it), then the core
   * writes the UTF-8 at the start of the region.
   */
  #encodeUnits(text: string): number {
    const units = text.length;
    const staging = 3 * units + 4 + (units & 1); // even: the region starts 8-aligned
    const pointer = scratch(this.#runtime, staging + 2 * units);
    this.#nodeHeap!.write(text, pointer + staging, 'utf16le');
    const written = this.#runtime.exports.cbw_shared_utf16_key(pointer + staging, units, pointer);
    this.#utf16Next = written !== units;
    return written;
  }

  /**
   * Lays out keys[start, ...) as one batch in the scratch region: at most
   * BATCH_KEYS keys and BATCH_UNITS units (scanBatch), at least one key.
   * @throws FilterError `INVALID_ARGUMENT` (with `index`; nothing of the batch
   *   was sent), `OUT_OF_MEMORY`.
   */
  encodeBatch(keys: readonly Key[], start: number): SharedBatch {
    return this.#layout.run(() => this.#layOutBatch(keys, start));
  }

  /**
   * Copies pre-encoded keys (a KeyBatch) [start, ...) into the scratch region as one batch:
   * at most BATCH_KEYS keys and BATCH_COPY_BYTES bytes, at least one key. The offsets keep
   * their values (the core reads them relative to the first).
   * @throws FilterError `OUT_OF_MEMORY`.
   */
  copyBatch(keys: EncodedKeys, start: number): SharedBatch {
    const ends = keys.offsets;
    const first = ends[start]!;
    const keyLimit = Math.min(ends.length - 1, start + BATCH_KEYS);
    let end = start + 1;
    while (end < keyLimit && ends[end + 1]! - first <= BATCH_COPY_BYTES) end++;
    const count = end - start;
    const head = headBytes(count);
    const dataBytes = ends[end]! - first;
    const base = scratch(this.#runtime, head + dataBytes);
    this.#runtime.words.set(ends.subarray(start, end + 1), base >>> 2);
    this.#heap.set(keys.bytes.subarray(first, ends[end]), base + head);
    return { end, count, offsets: base, results: base + (count + 1) * 4, data: base + head };
  }

  #layOutBatch(keys: readonly Key[], start: number): SharedBatch {
    const unitEnds = this.#unitEnds;
    const join = sampleMeanUnits(keys, start) <= (this.#utf16Next ? JOIN_MAX_UNITS_AS_UNITS : JOIN_MAX_UNITS);
    const { end, units, stringUnits, allStrings, joined } = scanBatch(keys, start, unitEnds, join);
    const count = end - start;
    const head = headBytes(count);
    const dataBytes = stringUnits * 3 + (units - stringUnits);
    // Units after the data and the 4 bytes the core may store past it, at an even address.
    const staging = head + dataBytes + 4 + (dataBytes & 1);
    const asUnits = allStrings && this.#utf16Next;
    const runtime = this.#runtime;
    const base = scratch(runtime, asUnits ? staging + 2 * units : head + dataBytes);
    const batch: SharedBatch = { end, count, offsets: base, results: base + (count + 1) * 4, data: base + head };
    const words = base >>> 2;
    if (asUnits) {
      // Units, then the core encodes each key as TextEncoder would encode it
      // alone (a surrogate pair split between two keys included).
      const nodeHeap = this.#nodeHeap!;
      if (join) nodeHeap.write(joined, base + staging, 'utf16le');
      else for (let i = 0; i < count; i++) nodeHeap.write(keys[start + i] as string, base + staging + 2 * unitEnds[i]!, 'utf16le');
      runtime.words.set(unitEnds.subarray(0, count + 1), words);
      const written = runtime.exports.cbw_shared_utf16_keys(base + staging, base, count, batch.data);
      this.#utf16Next = written !== units;
      return batch;
    }
    if (allStrings && join) {
      const written = this.#writeUtf8(joined, batch.data);
      runtime.words.set(unitEnds.subarray(0, count + 1), words);
      // One byte a unit: every key was ASCII, and unit offsets are byte offsets.
      if (written === units) return batch;
      if (this.#nodeHeap !== undefined) this.#utf16Next = true;
      // Otherwise the core maps them in one pass over the bytes; it cannot when a
      // surrogate pair is split between two keys (then key by key, below).
      if (runtime.exports.cbw_shared_utf8_offsets(batch.data, written, base, count) === 1) return batch;
    }
    // Long strings, a mix of strings and bytes, or a split pair: key by key.
    let at = 0;
    const data = batch.data;
    for (let i = 0; i < count; i++) {
      unitEnds[i] = at;
      const key = keys[start + i]!;
      if (typeof key === 'string') at += this.#writeUtf8(key, data + at);
      else {
        this.#heap.set(key, data + at);
        at += key.length;
      }
    }
    unitEnds[count] = at;
    runtime.words.set(unitEnds.subarray(0, count + 1), words);
    return batch;
  }
}

/** Whether this TextEncoder writes into a view of shared memory (an empty string into an empty view: nothing is written). */
function encodesIntoShared(heap: Uint8Array): boolean {
  try {
    encoder.encodeInto('', heap.subarray(0, 0));
    return true;
  } catch {
    return false;
  }
}

const arenas = new WeakMap<SharedRuntime, SharedKeyArena>();

/** This thread's key writer for a runtime's memory (one per runtime). */
export function keyArenaOf(runtime: SharedRuntime): SharedKeyArena {
  let arena = arenas.get(runtime);
  if (arena === undefined) {
    arena = new SharedKeyArena(runtime);
    arenas.set(runtime, arena);
  }
  return arena;
}
