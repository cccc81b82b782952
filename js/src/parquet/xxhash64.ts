// XXH64 (xxHash's 64-bit hash, https://github.com/Cyan4973/xxHash doc/xxhash_spec.md),
// the hash the Parquet spec fixes for Bloom filters, with seed 0, in 32-bit halves.
//
// Why halves and not BigInt: every BigInt operation allocates, and the first
// version (BigInt throughout) made has() ~28x the blocked Bloom filter's time;
// a 64-bit value here is two uint32 locals, and a result is left in HASH_HIGH
// and HASH_LOW (no object per call). The library's C++ SplitBlockBloomFilter
// uses xxHash's own XXH64; tests check this one against xxHash's outputs.

// The primes as (high, low) halves.
const P1H = 0x9e3779b1, P1L = 0x85ebca87;
const P2H = 0xc2b2ae3d, P2L = 0x27d4eb4f;
const P3H = 0x165667b1, P3L = 0x9e3779f9;
const P4H = 0x85ebca77, P4L = 0xc2b2ae63;
const P5H = 0x27d4eb2f, P5L = 0x165667c5;

// The result registers of the 64-bit helpers below (and of xxhash64Halves):
// [high, low]. A typed array and not two `let`s: a uint32 over 2^30 in a
// module variable is a boxed number, allocated at every assignment (measured:
// that alone made the hash ~10x slower).
const result = new Uint32Array(2);

/** (ah, al) * (bh, bl) mod 2^64 into (high, low): al * bl in 16-bit pieces, the cross terms with Math.imul. */
function multiply(ah: number, al: number, bh: number, bl: number): void {
  const a0 = al & 0xffff, a1 = al >>> 16, b0 = bl & 0xffff, b1 = bl >>> 16;
  const p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
  const middle = (p00 >>> 16) + (p01 & 0xffff) + (p10 & 0xffff);
  result[1] = ((middle << 16) | (p00 & 0xffff)) >>> 0;
  result[0] = (p11 + (p01 >>> 16) + (p10 >>> 16) + (middle >>> 16) + Math.imul(ah, bl) + Math.imul(al, bh)) >>> 0;
}

/** (ah, al) + (bh, bl) mod 2^64 into result. */
function add(ah: number, al: number, bh: number, bl: number): void {
  const sum = al + bl;
  result[1] = sum >>> 0;
  result[0] = (ah + bh + (sum > 0xffffffff ? 1 : 0)) >>> 0;
}

/** Rotate (h, l) left by 0 < bits < 32 into result. */
function rotateLeft(h: number, l: number, bits: number): void {
  result[0] = ((h << bits) | (l >>> (32 - bits))) >>> 0;
  result[1] = ((l << bits) | (h >>> (32 - bits))) >>> 0;
}

// round(acc, lane) = rotl(acc + lane * PRIME2, 31) * PRIME1, into result.
function round(accH: number, accL: number, laneH: number, laneL: number): void {
  multiply(laneH, laneL, P2H, P2L);
  add(accH, accL, result[0]!, result[1]!);
  rotateLeft(result[0]!, result[1]!, 31);
  multiply(result[0]!, result[1]!, P1H, P1L);
}

const readLow = (bytes: Uint8Array, at: number): number =>
  (bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16) | (bytes[at + 3]! << 24)) >>> 0;

/** XXH64 of the first `length` bytes of `bytes`, seed 0, left in the halves hashHigh()/hashLow() return. */
export function xxhash64Halves(bytes: Uint8Array, length: number): void {
  let at = 0;
  let hH: number, hL: number;
  if (length >= 32) {
    add(P1H, P1L, P2H, P2L);
    let v1H = result[0]!, v1L = result[1]!;
    let v2H = P2H, v2L = P2L;
    let v3H = 0, v3L = 0;
    add(~P1H >>> 0, ~P1L >>> 0, 0, 1); // -PRIME1 = ~PRIME1 + 1
    let v4H = result[0]!, v4L = result[1]!;
    for (; at + 32 <= length; at += 32) {
      round(v1H, v1L, readLow(bytes, at + 4), readLow(bytes, at));
      v1H = result[0]!; v1L = result[1]!;
      round(v2H, v2L, readLow(bytes, at + 12), readLow(bytes, at + 8));
      v2H = result[0]!; v2L = result[1]!;
      round(v3H, v3L, readLow(bytes, at + 20), readLow(bytes, at + 16));
      v3H = result[0]!; v3L = result[1]!;
      round(v4H, v4L, readLow(bytes, at + 28), readLow(bytes, at + 24));
      v4H = result[0]!; v4L = result[1]!;
    }
    rotateLeft(v1H, v1L, 1);
    hH = result[0]!; hL = result[1]!;
    rotateLeft(v2H, v2L, 7);
    add(hH, hL, result[0]!, result[1]!);
    hH = result[0]!; hL = result[1]!;
    rotateLeft(v3H, v3L, 12);
    add(hH, hL, result[0]!, result[1]!);
    hH = result[0]!; hL = result[1]!;
    rotateLeft(v4H, v4L, 18);
    add(hH, hL, result[0]!, result[1]!);
    hH = result[0]!; hL = result[1]!;
    // mergeRound(h, v) = (h ^ round(0, v)) * PRIME1 + PRIME4
    for (const [vH, vL] of [[v1H, v1L], [v2H, v2L], [v3H, v3L], [v4H, v4L]] as const) {
      round(0, 0, vH, vL);
      multiply((hH ^ result[0]!) >>> 0, (hL ^ result[1]!) >>> 0, P1H, P1L);
      add(result[0]!, result[1]!, P4H, P4L);
      hH = result[0]!; hL = result[1]!;
    }
  } else {
    hH = P5H; hL = P5L;
  }
  add(hH, hL, Math.floor(length / 0x100000000), length >>> 0);
  hH = result[0]!; hL = result[1]!;
  for (; at + 8 <= length; at += 8) {
    round(0, 0, readLow(bytes, at + 4), readLow(bytes, at));
    rotateLeft((hH ^ result[0]!) >>> 0, (hL ^ result[1]!) >>> 0, 27);
    multiply(result[0]!, result[1]!, P1H, P1L);
    add(result[0]!, result[1]!, P4H, P4L);
    hH = result[0]!; hL = result[1]!;
  }
  if (at + 4 <= length) {
    multiply(0, readLow(bytes, at), P1H, P1L);
    rotateLeft((hH ^ result[0]!) >>> 0, (hL ^ result[1]!) >>> 0, 23);
    multiply(result[0]!, result[1]!, P2H, P2L);
    add(result[0]!, result[1]!, P3H, P3L);
    hH = result[0]!; hL = result[1]!;
    at += 4;
  }
  for (; at < length; at++) {
    multiply(0, bytes[at]!, P5H, P5L);
    rotateLeft((hH ^ result[0]!) >>> 0, (hL ^ result[1]!) >>> 0, 11);
    multiply(result[0]!, result[1]!, P1H, P1L);
    hH = result[0]!; hL = result[1]!;
  }
  // Avalanche: h ^= h >> 33; h *= PRIME2; h ^= h >> 29; h *= PRIME3; h ^= h >> 32.
  hL = (hL ^ (hH >>> 1)) >>> 0;
  multiply(hH, hL, P2H, P2L);
  hH = result[0]!; hL = result[1]!;
  hL = (hL ^ ((hL >>> 29) | (hH << 3))) >>> 0;
  hH = (hH ^ (hH >>> 29)) >>> 0;
  multiply(hH, hL, P3H, P3L);
  hH = result[0]!; hL = result[1]!;
  result[0] = hH;
  result[1] = (hL ^ hH) >>> 0;
}

/** The result[0]! 32 bits of the last xxhash64Halves result. */
export const hashHigh = (): number => result[0]!;
/** The result[1]! 32 bits of the last xxhash64Halves result. */
export const hashLow = (): number => result[1]!;

/** XXH64 of `bytes` with seed 0, as an unsigned 64-bit bigint. */
export function xxhash64(bytes: Uint8Array): bigint {
  xxhash64Halves(bytes, bytes.length);
  return (BigInt(result[0]!) << 32n) | BigInt(result[1]!);
}
