import { FilterError } from '../errors.js';
import {
  BATCH_KEYS,
  describeValue,
  type EncodedKeys,
  invalidKey,
  JOIN_MAX_UNITS,
  type Key,
  keyArray,
  requireAttached,
  sampleMeanUnits,
  scanBatch,
  writeKeys,
} from './keys.js';

const encoder = new TextEncoder();

// Every KeyBatch carries this mark (as every FilterError does, errors.ts): the shared and
// reader entries are bundles of their own with their own copy of this class, and a batch
// made by the main entry's KeyBatch.from must be a KeyBatch to the shared filters' hasMany.
const KEY_BATCH_MARK: unique symbol = Symbol.for('cuckoo-bloom-wasm/KeyBatch') as never;

/** A KeyBatch holds at most this many bytes: its offsets are uint32. */
const MAX_KEY_BATCH_BYTES = 2 ** 32 - 1;

/**
 * Keys encoded once, for callers who query the same keys often or have bytes
 * already: every filter's `hasMany`, `addMany` and `removeMany` take a
 * KeyBatch as well as an array, and then only copy bytes (no string
 * encoding per call).
 *
 * ```ts
 * const batch = KeyBatch.from(urls);          // strings or Uint8Arrays
 * const seen = filter.hasMany(batch, { as: 'Uint8Array' });
 * const fromWire = KeyBatch.fromBytes(bytes, offsets); // key i = bytes[offsets[i], offsets[i + 1])
 * ```
 *
 * A KeyBatch lives in ordinary JavaScript memory: nothing to free.
 */
export class KeyBatch implements EncodedKeys {
  /** `value instanceof KeyBatch`: true for a KeyBatch of any entry's bundle or copy of the package. */
  static [Symbol.hasInstance](value: unknown): boolean {
    if (this !== KeyBatch) return Function.prototype[Symbol.hasInstance].call(this, value);
    return typeof value === 'object' && value !== null && (value as { [KEY_BATCH_MARK]?: unknown })[KEY_BATCH_MARK] === true;
  }

  /** The keys' bytes, one after another. */
  readonly bytes: Uint8Array;
  /** `count + 1` offsets: key i is `bytes[offsets[i], offsets[i + 1])`. */
  readonly offsets: Uint32Array;

  private constructor(bytes: Uint8Array, offsets: Uint32Array) {
    this.bytes = bytes;
    this.offsets = offsets;
    Object.defineProperty(this, KEY_BATCH_MARK, { value: true });
  }

  /** The number of keys. */
  get count(): number {
    return this.offsets.length - 1;
  }

  /** Total bytes of the keys. */
  get byteLength(): number {
    return this.offsets[this.count]! - this.offsets[0]!;
  }

  /** Key `index` as bytes (a view into `bytes`, not a copy). */
  key(index: number): Uint8Array {
    if (!Number.isInteger(index) || index < 0 || index >= this.count) {
      throw new FilterError('INVALID_ARGUMENT', `key index must be an integer in [0, ${this.count}), got ${describeValue(index)}`);
    }
    return this.bytes.subarray(this.offsets[index], this.offsets[index + 1]);
  }

  /**
   * Encodes keys (strings as UTF-8, Uint8Arrays copied) once.
   * @throws FilterError `INVALID_ARGUMENT` (with `index`) for a bad key, or when the keys exceed 4 GiB.
   */
  static from(keys: Iterable<Key>): KeyBatch {
    const list = keyArray(keys, 'KeyBatch.from');
    const offsets = new Uint32Array(list.length + 1);
    const unitEnds = new Uint32Array(BATCH_KEYS + 1);
    let bytes: Uint8Array = new Uint8Array(Math.max(16, estimateBytes(list)));
    let offset = 0;
    // Batch by batch as the key arena cuts them: a batch of strings up to
    // JOIN_MAX_UNITS long is encoded with one encodeInto, and when that was
    // all ASCII its unit offsets are the byte offsets; anything else is
    // written key by key (past that length the join's extra copy of every
    // string costs more than a view and an encodeInto a key). A batch that
    // was not ASCII sends the next straight to key by key: its joined
    // encoding would be thrown away, and TextEncoder is slow on such text in
    // Node (keys.ts, nodeBuffer).
    let asciiSoFar = true;
    for (let start = 0; start < list.length; ) {
      const join = asciiSoFar && sampleMeanUnits(list, start) <= JOIN_MAX_UNITS;
      const { end, units, stringUnits, allStrings, joined } = scanBatch(list, start, unitEnds, join);
      bytes = ensure(bytes, offset, stringUnits * 3 + (units - stringUnits));
      if (join && allStrings && encoder.encodeInto(joined, bytes.subarray(offset)).written === units) {
        for (let i = start; i <= end; i++) offsets[i] = offset + unitEnds[i - start]!;
        offset += units;
      } else {
        const from = offset;
        offset = writeKeys(list, start, end, bytes, offset, offsets, start);
        // Bytes keys count as ASCII here: only strings decide the route.
        asciiSoFar = offset - from === units;
      }
      start = end;
    }
    return new KeyBatch(bytes.subarray(0, offset), offsets);
  }

  /**
   * Wraps keys that are already bytes: key i is `bytes[offsets[i], offsets[i + 1])`.
   * Nothing is copied; do not change `bytes` while the batch is in use.
   * @throws FilterError `INVALID_ARGUMENT` unless the offsets are non-decreasing integers within `bytes`.
   */
  static fromBytes(bytes: Uint8Array, offsets: Uint32Array | readonly number[]): KeyBatch {
    if (!(bytes instanceof Uint8Array)) {
      throw new FilterError('INVALID_ARGUMENT', `KeyBatch.fromBytes: bytes must be a Uint8Array, got ${describeValue(bytes)}`);
    }
    requireAttached(bytes, 'KeyBatch.fromBytes: bytes');
    if (!(offsets instanceof Uint32Array) && !Array.isArray(offsets)) {
      throw new FilterError('INVALID_ARGUMENT', `KeyBatch.fromBytes: offsets must be a Uint32Array or an array of numbers, got ${describeValue(offsets)}`);
    }
    if (offsets.length === 0) {
      throw new FilterError('INVALID_ARGUMENT', 'KeyBatch.fromBytes: offsets needs count + 1 entries (at least [0])');
    }
    const checked = new Uint32Array(offsets.length);
    let previous = 0;
    for (let i = 0; i < offsets.length; i++) {
      const value = offsets[i] as number;
      if (!Number.isInteger(value) || value < previous || value > bytes.length) {
        throw new FilterError(
          'INVALID_ARGUMENT',
          `KeyBatch.fromBytes: offsets[${i}] = ${describeValue(value)}; offsets must be non-decreasing integers from 0 to bytes.length (${bytes.length})`,
          { index: i },
        );
      }
      checked[i] = value;
      previous = value;
    }
    return new KeyBatch(bytes, checked);
  }
}

/** Bytes if every string is ASCII (the buffer grows when one is not). */
function estimateBytes(list: readonly Key[]): number {
  let total = 0;
  for (let i = 0; i < list.length; i++) {
    const key = list[i];
    if (typeof key === 'string' || key instanceof Uint8Array) total += key.length;
    else throw invalidKey(key, i);
  }
  if (total > MAX_KEY_BATCH_BYTES) throw tooLarge(total);
  return total;
}

/** `bytes` with room for `more` bytes after `used`, grown (copied) if needed. */
function ensure(bytes: Uint8Array, used: number, more: number): Uint8Array {
  const needed = used + more;
  if (needed <= bytes.length) return bytes;
  if (needed > MAX_KEY_BATCH_BYTES) throw tooLarge(needed);
  let grown: Uint8Array;
  try {
    grown = new Uint8Array(Math.min(MAX_KEY_BATCH_BYTES, Math.max(needed, bytes.length * 2)));
  } catch (error) {
    throw new FilterError('OUT_OF_MEMORY', `cannot allocate ${needed} bytes for a KeyBatch`, { cause: error });
  }
  grown.set(bytes.subarray(0, used));
  return grown;
}

function tooLarge(bytes: number): FilterError {
  return new FilterError('INVALID_ARGUMENT', `a KeyBatch holds at most ${MAX_KEY_BATCH_BYTES} bytes of keys; these need ${bytes}: split them`);
}
