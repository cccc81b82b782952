import { FilterError } from '../errors.js';
import { BATCH_UNITS, describeValue, detachedKey, type EncodedKeys, invalidKey, isDetached, type Key, requireAttached } from './keys.js';

const encoder = new TextEncoder();

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
  /** The keys' bytes, one after another. */
  readonly bytes: Uint8Array;
  /** `count + 1` offsets: key i is `bytes[offsets[i], offsets[i + 1])`. */
  readonly offsets: Uint32Array;

  private constructor(bytes: Uint8Array, offsets: Uint32Array) {
    this.bytes = bytes;
    this.offsets = offsets;
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
    const list = Array.isArray(keys) ? (keys as readonly Key[]) : iterableToArray(keys);
    const offsets = new Uint32Array(list.length + 1);
    let bytes: Uint8Array = new Uint8Array(Math.max(16, estimateBytes(list)));
    let offset = 0;
    for (let start = 0; start < list.length; ) {
      // Strings a chunk at a time, joined: one encodeInto per chunk.
      let end = start;
      let units = 0;
      let joined = '';
      while (end < list.length && typeof list[end] === 'string' && (units === 0 || units + (list[end] as string).length <= BATCH_UNITS)) {
        const key = list[end] as string;
        joined += key;
        units += key.length;
        end++;
      }
      if (end > start) {
        bytes = ensure(bytes, offset, units * 3);
        const written = encoder.encodeInto(joined, bytes.subarray(offset)).written;
        if (written === units) {
          // All ASCII: each key's bytes are its units.
          for (let i = start; i < end; i++) {
            offsets[i] = offset;
            offset += (list[i] as string).length;
          }
        } else {
          for (let i = start; i < end; i++) {
            offsets[i] = offset;
            offset += encoder.encodeInto(list[i] as string, bytes.subarray(offset)).written;
          }
        }
        start = end;
        continue;
      }
      const key = list[start];
      if (!(key instanceof Uint8Array)) throw invalidKey(key, start);
      if (key.length === 0 && isDetached(key)) throw detachedKey(start);
      bytes = ensure(bytes, offset, key.length);
      bytes.set(key, offset);
      offsets[start] = offset;
      offset += key.length;
      start++;
    }
    offsets[list.length] = offset;
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

function iterableToArray(keys: unknown): readonly Key[] {
  if (keys !== null && typeof keys === 'object' && typeof (keys as Iterable<Key>)[Symbol.iterator] === 'function' && !(keys instanceof Uint8Array)) {
    return Array.from(keys as Iterable<Key>);
  }
  throw new FilterError('INVALID_ARGUMENT', `KeyBatch.from: keys must be an array or another iterable of keys, got ${describeValue(keys)}`);
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
