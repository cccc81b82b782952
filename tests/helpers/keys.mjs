// Deterministic key generators and small assertion helpers shared by the Jest
// suites. Nothing here depends on the package under test, so nothing here can
// hide one of its bugs.

export const utf8 = new TextEncoder();

/** mulberry32: a tiny seeded PRNG, uniform in [0, 1). Same seed, same sequence (the demo's generator). */
import { seededRandom } from '../../web-demo/src/seeded.mjs';

export { seededRandom as prng };

/** Uniform integer in [0, n). */
export function randomInt(random, n) {
  return Math.floor(random() * n);
}

/**
 * `count` distinct ASCII keys: `${prefix}${start}`, `${prefix}${start + 1}`, ...
 * Keys made with different prefixes (that are not prefixes of one another
 * followed by digits) never collide, so `asciiKeys(n, 'in-')` and
 * `asciiKeys(n, 'out-')` are disjoint sets: present and absent keys.
 */
export function asciiKeys(count, prefix = 'key-', start = 0) {
  const keys = new Array(count);
  for (let i = 0; i < count; i++) keys[i] = prefix + (start + i);
  return keys;
}

/**
 * `distinct` with its first half repeated, shuffled (Fisher-Yates) by a PRNG of
 * `seed`: the input of a set built from keys given in any order, repeats and all.
 */
export function shuffledWithRepeats(distinct, seed) {
  const random = seededRandom(seed);
  const input = [...distinct, ...distinct.slice(0, distinct.length >> 1)];
  for (let i = input.length - 1; i > 0; i--) {
    const j = randomInt(random, i + 1);
    [input[i], input[j]] = [input[j], input[i]];
  }
  return input;
}

// Pieces of every UTF-8 length: 2-byte (é, ß, Ж), 3-byte (日本, €), 4-byte (emoji, 𝄞).
const NON_ASCII_PIECES = ['é', 'ß', 'Ж', '日本', '€', '😀', '𝄞', 'ñ', '한', '🚀', 'ü', '中文'];

/** `count` distinct keys that each contain non-ASCII characters (1-4 UTF-8 bytes per code point). */
export function nonAsciiKeys(count, prefix = 'ü-', start = 0) {
  const keys = new Array(count);
  for (let i = 0; i < count; i++) {
    const n = start + i;
    keys[i] = `${prefix}${NON_ASCII_PIECES[n % NON_ASCII_PIECES.length]}${n}${NON_ASCII_PIECES[(n * 7) % NON_ASCII_PIECES.length]}`;
  }
  return keys;
}

/** Deterministic random bytes. */
export function randomBytes(random, length) {
  const bytes = new Uint8Array(length);
  for (let i = 0; i < length; i++) bytes[i] = randomInt(random, 256);
  return bytes;
}

/** A string of exactly `length` UTF-16 units built from `unit` repeated, with an index tag in front. */
export function longKey(length, unit = 'a', tag = '') {
  const body = unit.repeat(Math.ceil(length / unit.length));
  return (tag + body).slice(0, length);
}

/** What `fn` throws, or `whenNone` (undefined) when it returns: for runs that may or may not throw. */
export function thrownBy(fn, whenNone = undefined) {
  try {
    fn();
  } catch (error) {
    return error;
  }
  return whenNone;
}

const RETURNED = Symbol('returned normally');

/** Runs `fn` and returns what it threw (fails the test if it did not throw). */
export function thrown(fn) {
  const error = thrownBy(fn, RETURNED);
  if (error === RETURNED) throw new Error(`expected ${fn} to throw, but it returned normally`);
  return error;
}

/** Same as `thrown`, for async functions. */
export async function rejected(fn) {
  try {
    await fn();
  } catch (error) {
    return error;
  }
  throw new Error(`expected ${fn} to reject, but it resolved`);
}

/** Number of 1 bits in a byte array (independent of the filter's own setBitCount). */
export function popcount(bytes) {
  let total = 0;
  for (let i = 0; i < bytes.length; i++) {
    let b = bytes[i];
    while (b) {
      total += b & 1;
      b >>= 1;
    }
  }
  return total;
}

/** Little-endian readers for the byte format's header (docs/FORMAT.md, cpp/include/cuckoo_bloom/core/format.h). */
export function header(bytes) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return {
    magic: String.fromCharCode(...bytes.subarray(0, 4)),
    version: view.getUint16(4, true),
    type: view.getUint8(6),
    hashAlgorithm: view.getUint8(7),
    flags: view.getUint32(8, true),
    paramsLength: view.getUint32(12, true),
    seed: Number(view.getBigUint64(16, true)),
    itemCount: Number(view.getBigUint64(24, true)),
    capacity: Number(view.getBigUint64(32, true)),
    falsePositiveRate: view.getFloat64(40, true),
    payloadLength: Number(view.getBigUint64(48, true)),
  };
}

export const HEADER_BYTES = 56;
export const CHECKSUM_BYTES = 8;

/** The payload section of a blob (the table bytes, without header, parameters or checksum). */
export function payloadOf(bytes) {
  const { paramsLength, payloadLength } = header(bytes);
  const start = HEADER_BYTES + paramsLength;
  return bytes.subarray(start, start + payloadLength);
}

/** Buffer-free equality that prints the first difference instead of two megabyte arrays. */
export function firstDifference(a, b) {
  if (a.length !== b.length) return `lengths differ: ${a.length} vs ${b.length}`;
  for (let i = 0; i < a.length; i++) {
    if (a[i] !== b[i]) return `byte ${i}: ${a[i]} vs ${b[i]}`;
  }
  return null;
}

/** Whether two byte arrays hold the same bytes (for property checks that report through fail()). */
export function sameBytes(a, b) {
  return firstDifference(a, b) === null;
}

/** Throws an Error with `message`: how a fast-check property reports what went wrong. */
export function fail(message) {
  throw new Error(message);
}
