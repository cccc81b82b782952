// The keys of the batch benches (bench/batches.mjs, bench/batch-parts.mjs): every key
// exactly `bytes` UTF-8 bytes long, ASCII or not, "built" or "sliced".

import { rng } from './keys.mjs';

/**
 * `count` distinct keys of exactly `bytes` UTF-8 bytes; non-ASCII ones mix 1-,
 * 2- and 3-byte characters. Decoded from bytes, so each is a flat V8 string,
 * as strings read from files, sockets or JSON are (a string built one `+=` at
 * a time is a rope that every encoder walks piece by piece). `sliced`: each key
 * is a slice of one text holding them all, a line each (V8 keeps a slice of 13
 * or more characters as a view into its parent).
 */
export function batchKeys(count, bytes, nonAscii, seed, sliced) {
  const random = rng(seed);
  const wide = ['é', 'ß', 'Ж', '€', '日', '한'];
  const utf8 = new TextEncoder();
  const decoder = new TextDecoder();
  const keys = new Array(count);
  for (let i = 0; i < count; i++) {
    let key = `${i.toString(36)}:`;
    let size = key.length;
    while (size < bytes) {
      const room = bytes - size;
      if (nonAscii && room >= 3 && random() < 0.3) {
        const char = wide[Math.floor(random() * wide.length)];
        const width = new TextEncoder().encode(char).length;
        if (width <= room) {
          key += char;
          size += width;
          continue;
        }
      }
      key += String.fromCharCode(97 + Math.floor(random() * 26));
      size += 1;
    }
    keys[i] = decoder.decode(utf8.encode(key));
  }
  if (!sliced) return keys;
  const text = decoder.decode(utf8.encode(keys.join('\n')));
  let at = 0;
  return keys.map((key) => {
    const slice = text.slice(at, at + key.length);
    at += key.length + 1;
    return slice;
  });
}
