// The Parquet spec's split-block Bloom filter written out by hand in JavaScript, as the
// reference the wasm SplitBlockBloomFilter is checked against: XXH64 (xxHash's
// doc/xxhash_spec.md) with BigInt, plainly and slowly, and the spec's bit rule
// (BloomFilter.md): block ((h >> 32) * numBlocks) >> 32, bit (key * SALT[i]) >> 27 of word i.
const MASK = (1n << 64n) - 1n;
const P1 = 0x9e3779b185ebca87n;
const P2 = 0xc2b2ae3d27d4eb4fn;
const P3 = 0x165667b19e3779f9n;
const P4 = 0x85ebca77c2b2ae63n;
const P5 = 0x27d4eb2f165667c5n;
const SALT = [0x47b6137b, 0x44974d91, 0x8824ad5b, 0xa2b7289d, 0x705495c7, 0x2df1424b, 0x9efc4947, 0x5c6bfb31];

const rotl = (x, r) => ((x << BigInt(r)) | (x >> BigInt(64 - r))) & MASK;
const mul = (a, b) => (a * b) & MASK;
const round = (acc, lane) => mul(rotl((acc + mul(lane, P2)) & MASK, 31), P1);
const merge = (h, v) => (mul(h ^ round(0n, v), P1) + P4) & MASK;
const lane64 = (view, at) => view.getBigUint64(at, true);

/** XXH64 of `bytes` with seed 0, as an unsigned bigint. */
export function xxhash64(bytes) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const length = bytes.length;
  let at = 0;
  let h;
  if (length >= 32) {
    const v = [(P1 + P2) & MASK, P2, 0n, (MASK + 1n - P1) & MASK];
    for (; at + 32 <= length; at += 32) for (let i = 0; i < 4; i++) v[i] = round(v[i], lane64(view, at + 8 * i));
    h = (rotl(v[0], 1) + rotl(v[1], 7) + rotl(v[2], 12) + rotl(v[3], 18)) & MASK;
    for (const lane of v) h = merge(h, lane);
  } else {
    h = P5;
  }
  h = (h + BigInt(length)) & MASK;
  for (; at + 8 <= length; at += 8) h = (mul(rotl(h ^ round(0n, lane64(view, at)), 27), P1) + P4) & MASK;
  if (at + 4 <= length) {
    h = (mul(rotl(h ^ mul(BigInt(view.getUint32(at, true)), P1), 23), P2) + P3) & MASK;
    at += 4;
  }
  for (; at < length; at++) h = mul(rotl(h ^ mul(BigInt(bytes[at]), P5), 11), P1);
  h = mul(h ^ (h >> 33n), P2);
  h = mul(h ^ (h >> 29n), P3);
  return h ^ (h >> 32n);
}

/** The spec bitset of `numBytes` bytes holding the values whose XXH64 hashes are `hashes`. */
export function specBitset(numBytes, hashes) {
  const words = new Uint32Array(numBytes / 4);
  const blocks = BigInt(numBytes / 32);
  for (const hash of hashes) {
    const block = Number(((hash >> 32n) * blocks) >> 32n);
    const key = Number(hash & 0xffffffffn);
    for (let i = 0; i < 8; i++) words[block * 8 + i] |= 1 << (Math.imul(key, SALT[i]) >>> 27);
  }
  const bytes = new Uint8Array(numBytes);
  const view = new DataView(bytes.buffer);
  words.forEach((word, i) => view.setUint32(4 * i, word, true));
  return bytes;
}
