// XXH64 (xxHash's 64-bit hash, https://github.com/Cyan4973/xxHash doc/xxhash_spec.md),
// the hash the Parquet spec fixes for Bloom filters, with seed 0. BigInt keeps it
// short and exact; it is the reader's path until the wasm core hashes (the
// library's C++ SplitBlockBloomFilter uses xxHash's own XXH64).
const MASK = 0xffffffffffffffffn;
const PRIME1 = 0x9e3779b185ebca87n;
const PRIME2 = 0xc2b2ae3d27d4eb4fn;
const PRIME3 = 0x165667b19e3779f9n;
const PRIME4 = 0x85ebca77c2b2ae63n;
const PRIME5 = 0x27d4eb2f165667c5n;

const rotl = (value: bigint, bits: bigint): bigint => ((value << bits) | (value >> (64n - bits))) & MASK;
const round = (accumulator: bigint, lane: bigint): bigint => (rotl((accumulator + lane * PRIME2) & MASK, 31n) * PRIME1) & MASK;
const mergeRound = (accumulator: bigint, value: bigint): bigint => ((accumulator ^ round(0n, value)) * PRIME1 + PRIME4) & MASK;
const read64 = (view: DataView, at: number): bigint => view.getBigUint64(at, true);

/** XXH64 of `bytes` with seed 0, as an unsigned 64-bit bigint. */
export function xxhash64(bytes: Uint8Array): bigint {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const length = bytes.length;
  let at = 0;
  let hash: bigint;
  if (length >= 32) {
    let v1 = (PRIME1 + PRIME2) & MASK;
    let v2 = PRIME2;
    let v3 = 0n;
    let v4 = (0n - PRIME1) & MASK;
    for (; at + 32 <= length; at += 32) {
      v1 = round(v1, read64(view, at));
      v2 = round(v2, read64(view, at + 8));
      v3 = round(v3, read64(view, at + 16));
      v4 = round(v4, read64(view, at + 24));
    }
    hash = (rotl(v1, 1n) + rotl(v2, 7n) + rotl(v3, 12n) + rotl(v4, 18n)) & MASK;
    hash = mergeRound(hash, v1);
    hash = mergeRound(hash, v2);
    hash = mergeRound(hash, v3);
    hash = mergeRound(hash, v4);
  } else {
    hash = PRIME5;
  }
  hash = (hash + BigInt(length)) & MASK;
  for (; at + 8 <= length; at += 8) {
    hash ^= round(0n, read64(view, at));
    hash = (rotl(hash, 27n) * PRIME1 + PRIME4) & MASK;
  }
  if (at + 4 <= length) {
    hash ^= (BigInt(view.getUint32(at, true)) * PRIME1) & MASK;
    hash = (rotl(hash, 23n) * PRIME2 + PRIME3) & MASK;
    at += 4;
  }
  for (; at < length; at++) {
    hash ^= (BigInt(bytes[at]!) * PRIME5) & MASK;
    hash = (rotl(hash, 11n) * PRIME1) & MASK;
  }
  hash ^= hash >> 33n;
  hash = (hash * PRIME2) & MASK;
  hash ^= hash >> 29n;
  hash = (hash * PRIME3) & MASK;
  hash ^= hash >> 32n;
  return hash;
}
