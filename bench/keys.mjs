// Deterministic URL-like keys, 30-90 bytes of ASCII, the same on every run.
//
// Present keys come from one seed, absent keys from another; absent keys that
// happen to equal a present key are dropped, so "absent" is exact and every
// positive answer for one of them is a false positive.

import { writeFileSync } from 'node:fs';

// mulberry32, the seeded generator of the tests and the demo (web-demo/src/seeded.mjs): one copy of
// it, so a seed means the same draws in the benches and in the tests.
import { prng as rng } from '../tests/helpers/keys.mjs';

export { rng };

const WORDS = (
  'news shop cdn static img api blog docs mail login account media video cloud data app help ' +
  'forum wiki store files download update secure pay track assets search maps play'
).split(' ');
const TLDS = ['com', 'net', 'org', 'io', 'de', 'co.uk', 'info', 'xyz', 'ru', 'fr'];
const PATH_CHARS = 'abcdefghijklmnopqrstuvwxyz0123456789-_';

export const MIN_KEY_BYTES = 30;
export const MAX_KEY_BYTES = 90;

function pick(random, list) {
  return list[Math.floor(random() * list.length)];
}

/**
 * One URL-like key of exactly `length` bytes (30..90): scheme, host, a path of
 * words and random characters, sometimes a query. Written into `out` from 0.
 */
function writeKey(random, out, length) {
  let text = random() < 0.85 ? 'https://' : 'http://';
  if (random() < 0.5) text += pick(random, WORDS) + '.';
  text += pick(random, WORDS) + Math.floor(random() * 1000) + '.' + pick(random, TLDS) + '/';
  if (random() < 0.7) text += pick(random, WORDS) + '/';
  if (text.length > length - 12) text = text.slice(0, length - 12);
  const queryAt = random() < 0.3 ? length - 8 : -1;
  let i = 0;
  for (; i < text.length; i++) out[i] = text.charCodeAt(i);
  for (; i < length; i++) {
    if (i === queryAt) {
      out[i] = 0x3f; // '?'
    } else if (queryAt >= 0 && i === queryAt + 2) {
      out[i] = 0x3d; // '='
    } else if (random() < 0.08 && i > text.length + 2 && i < length - 2) {
      out[i] = 0x2f; // '/'
    } else {
      out[i] = PATH_CHARS.charCodeAt(Math.floor(random() * PATH_CHARS.length));
    }
  }
}

/**
 * `count` distinct keys from `seed`, none of which is in `exclude` (a Set of
 * strings). Strings are flat one-byte V8 strings (decoded from bytes), so no
 * implementation pays for flattening a rope on its first use.
 */
export function makeKeys(count, seed, exclude = null) {
  const random = rng(seed);
  const seen = new Set();
  const strings = [];
  const scratch = Buffer.alloc(MAX_KEY_BYTES);
  while (strings.length < count) {
    const length = MIN_KEY_BYTES + Math.floor(random() * (MAX_KEY_BYTES - MIN_KEY_BYTES + 1));
    writeKey(random, scratch, length);
    const key = scratch.toString('latin1', 0, length);
    if (seen.has(key) || (exclude !== null && exclude.has(key))) continue;
    seen.add(key);
    strings.push(key);
  }
  return { strings, seen };
}

/**
 * The same keys as UTF-8 bytes (all ASCII, so one byte per character): one
 * Uint8Array each, all views into one buffer (as keys sliced out of a file or a
 * network message would be), which also keeps millions of separate
 * ArrayBuffers out of the garbage collector's way.
 */
export function encodeKeys(strings) {
  let total = 0;
  for (const key of strings) total += key.length;
  const all = Buffer.alloc(total);
  const views = new Array(strings.length);
  let offset = 0;
  for (let i = 0; i < strings.length; i++) {
    const written = all.write(strings[i], offset, 'utf8');
    views[i] = new Uint8Array(all.buffer, all.byteOffset + offset, written);
    offset += written;
  }
  return views;
}

/** Writes keys for bench/core_loop.cpp: "CBWK", u32 count, u32 offsets[count + 1], bytes (little-endian). */
export function writeKeyFile(path, strings) {
  let total = 0;
  for (const key of strings) total += key.length;
  const header = 8 + (strings.length + 1) * 4;
  const file = Buffer.alloc(header + total);
  file.write('CBWK', 0, 'latin1');
  file.writeUInt32LE(strings.length, 4);
  let offset = 0;
  for (let i = 0; i < strings.length; i++) {
    file.writeUInt32LE(offset, 8 + i * 4);
    file.write(strings[i], header + offset, 'latin1');
    offset += strings[i].length;
  }
  file.writeUInt32LE(offset, 8 + strings.length * 4);
  writeFileSync(path, file);
}

/** Mean key length in bytes. */
export function meanLength(strings) {
  let total = 0;
  for (const key of strings) total += key.length;
  return total / strings.length;
}
