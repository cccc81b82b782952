// XXH3-64 (seed 0, the default secret) in plain JavaScript, for inputs of 17
// bytes or more: the trailing checksum of a filter file (https://github.com/cuckoo-bloom-wasm/cuckoo-bloom-wasm/blob/main/docs/FORMAT.md) is
// XXH3-64 of everything before it. diffFilters checks both filters with it,
// so a damaged filter is refused without the wasm module (in any entry and
// before `init()`, as applyPatch). Follows xxhash.h (XXH3_64bits): the mid
// sizes in BigInt (at most 240 bytes), the long loop in 32-bit halves (a
// filter can be 2 GiB; BigInt there would be ~50x slower).

const MASK64 = (1n << 64n) - 1n;
const PRIME32_1 = 0x9e3779b1;
const PRIME32_2 = 0x85ebca77;
const PRIME32_3 = 0xc2b2ae3d;
const PRIME64_1 = 0x9e3779b185ebca87n;
const PRIME64_2 = 0xc2b2ae3d27d4eb4fn;
const PRIME64_3 = 0x165667b19e3779f9n;
const PRIME64_4 = 0x85ebca77c2b2ae63n;
const PRIME64_5 = 0x27d4eb2f165667c5n;

// XXH3_kSecret: the default 192-byte secret.
const SECRET = new Uint8Array([
  0xb8, 0xfe, 0x6c, 0x39, 0x23, 0xa4, 0x4b, 0xbe, 0x7c, 0x01, 0x81, 0x2c, 0xf7, 0x21, 0xad, 0x1c,
  0xde, 0xd4, 0x6d, 0xe9, 0x83, 0x90, 0x97, 0xdb, 0x72, 0x40, 0xa4, 0xa4, 0xb7, 0xb3, 0x67, 0x1f,
  0xcb, 0x79, 0xe6, 0x4e, 0xcc, 0xc0, 0xe5, 0x78, 0x82, 0x5a, 0xd0, 0x7d, 0xcc, 0xff, 0x72, 0x21,
  0xb8, 0x08, 0x46, 0x74, 0xf7, 0x43, 0x24, 0x8e, 0xe0, 0x35, 0x90, 0xe6, 0x81, 0x3a, 0x26, 0x4c,
  0x3c, 0x28, 0x52, 0xbb, 0x91, 0xc3, 0x00, 0xcb, 0x88, 0xd0, 0x65, 0x8b, 0x1b, 0x53, 0x2e, 0xa3,
  0x71, 0x64, 0x48, 0x97, 0xa2, 0x0d, 0xf9, 0x4e, 0x38, 0x19, 0xef, 0x46, 0xa9, 0xde, 0xac, 0xd8,
  0xa8, 0xfa, 0x76, 0x3f, 0xe3, 0x9c, 0x34, 0x3f, 0xf9, 0xdc, 0xbb, 0xc7, 0xc7, 0x0b, 0x4f, 0x1d,
  0x8a, 0x51, 0xe0, 0x4b, 0xcd, 0xb4, 0x59, 0x31, 0xc8, 0x9f, 0x7e, 0xc9, 0xd9, 0x78, 0x73, 0x64,
  0xea, 0xc5, 0xac, 0x83, 0x34, 0xd3, 0xeb, 0xc3, 0xc5, 0x81, 0xa0, 0xff, 0xfa, 0x13, 0x63, 0xeb,
  0x17, 0x0d, 0xdd, 0x51, 0xb7, 0xf0, 0xda, 0x49, 0xd3, 0x16, 0x55, 0x26, 0x29, 0xd4, 0x68, 0x9e,
  0x2b, 0x16, 0xbe, 0x58, 0x7d, 0x47, 0xa1, 0xfc, 0x8f, 0xf8, 0xb8, 0xd1, 0x7a, 0xd0, 0x31, 0xce,
  0x45, 0xcb, 0x3a, 0x8f, 0x95, 0x16, 0x04, 0x28, 0xaf, 0xd7, 0xfb, 0xca, 0xbb, 0x4b, 0x40, 0x7e,
]);
const SECRET_SIZE = SECRET.length;
const STRIPE = 64;
const STRIPES_PER_BLOCK = (SECRET_SIZE - STRIPE) / 8;
const BLOCK = STRIPE * STRIPES_PER_BLOCK;

function read32(bytes: Uint8Array, at: number): number {
  return (bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16) | (bytes[at + 3]! << 24)) >>> 0;
}

function read64(bytes: Uint8Array, at: number): bigint {
  return (BigInt(read32(bytes, at + 4)) << 32n) | BigInt(read32(bytes, at));
}

function mul128Fold64(a: bigint, b: bigint): bigint {
  const product = a * b;
  return (product & MASK64) ^ (product >> 64n);
}

function avalanche(h: bigint): bigint {
  h ^= h >> 37n;
  h = (h * 0x165667919e3779f9n) & MASK64;
  return h ^ (h >> 32n);
}

function mix16(input: Uint8Array, at: number, secretAt: number): bigint {
  return mul128Fold64(read64(input, at) ^ read64(SECRET, secretAt), read64(input, at + 8) ^ read64(SECRET, secretAt + 8));
}

function midSize(input: Uint8Array): bigint {
  const len = input.length;
  let acc = (BigInt(len) * PRIME64_1) & MASK64;
  if (len <= 128) {
    if (len > 32) {
      if (len > 64) {
        if (len > 96) acc += mix16(input, 48, 96) + mix16(input, len - 64, 112);
        acc += mix16(input, 32, 64) + mix16(input, len - 48, 80);
      }
      acc += mix16(input, 16, 32) + mix16(input, len - 32, 48);
    }
    acc += mix16(input, 0, 0) + mix16(input, len - 16, 16);
    return avalanche(acc & MASK64);
  }
  for (let i = 0; i < 8; i++) acc += mix16(input, 16 * i, 16 * i);
  acc = avalanche(acc & MASK64);
  for (let i = 8; i < Math.floor(len / 16); i++) acc += mix16(input, 16 * i, 16 * (i - 8) + 3);
  acc += mix16(input, len - 16, 136 - 17);
  return avalanche(acc & MASK64);
}

/** The low and high 32 bits of a × b (both u32), exactly. */
function mul32(a: number, b: number, out: Float64Array): void {
  const a0 = a & 0xffff;
  const a1 = a >>> 16;
  const b0 = b & 0xffff;
  const b1 = b >>> 16;
  const middle = a0 * b1 + a1 * b0;
  const low = a0 * b0 + (middle % 65536) * 65536;
  out[0] = low >>> 0;
  out[1] = a1 * b1 + Math.floor(middle / 65536) + Math.floor(low / 4294967296);
}

/** The long-input state: eight u64 accumulators as 32-bit halves. */
class Accumulators {
  readonly lo = new Float64Array(8);
  readonly hi = new Float64Array(8);
  readonly #product = new Float64Array(2);

  constructor() {
    const initial = [BigInt(PRIME32_3), PRIME64_1, PRIME64_2, PRIME64_3, PRIME64_4, BigInt(PRIME32_2), PRIME64_5, BigInt(PRIME32_1)];
    initial.forEach((value, i) => {
      this.lo[i] = Number(value & 0xffffffffn);
      this.hi[i] = Number(value >> 32n);
    });
  }

  #add(lane: number, lo: number, hi: number): void {
    const sum = this.lo[lane]! + lo;
    this.lo[lane] = sum >>> 0;
    this.hi[lane] = (this.hi[lane]! + hi + (sum > 0xffffffff ? 1 : 0)) >>> 0;
  }

  /** XXH3_accumulate_512: one 64-byte stripe at `at` with the secret from `secretAt`. */
  stripe(input: Uint8Array, at: number, secretAt: number): void {
    const product = this.#product;
    for (let i = 0; i < 8; i++) {
      const dataLo = read32(input, at + 8 * i);
      const dataHi = read32(input, at + 8 * i + 4);
      const keyLo = (dataLo ^ read32(SECRET, secretAt + 8 * i)) >>> 0;
      const keyHi = (dataHi ^ read32(SECRET, secretAt + 8 * i + 4)) >>> 0;
      this.#add(i ^ 1, dataLo, dataHi);
      mul32(keyLo, keyHi, product);
      this.#add(i, product[0]!, product[1]!);
    }
  }

  /** XXH3_scrambleAcc with the secret's last 64 bytes. */
  scramble(): void {
    const product = this.#product;
    const secretAt = SECRET_SIZE - STRIPE;
    for (let i = 0; i < 8; i++) {
      const hi = this.hi[i]!;
      const lo = ((this.lo[i]! ^ (hi >>> 15)) ^ read32(SECRET, secretAt + 8 * i)) >>> 0;
      const hiKeyed = (hi ^ read32(SECRET, secretAt + 8 * i + 4)) >>> 0;
      mul32(lo, PRIME32_1, product);
      this.lo[i] = product[0]!;
      this.hi[i] = (product[1]! + Math.imul(hiKeyed, PRIME32_1)) >>> 0;
    }
  }

  lane(i: number): bigint {
    return (BigInt(this.hi[i]!) << 32n) | BigInt(this.lo[i]!);
  }
}

function long(input: Uint8Array): bigint {
  const len = input.length;
  const acc = new Accumulators();
  const blocks = Math.floor((len - 1) / BLOCK);
  for (let block = 0; block < blocks; block++) {
    for (let s = 0; s < STRIPES_PER_BLOCK; s++) acc.stripe(input, block * BLOCK + s * STRIPE, s * 8);
    acc.scramble();
  }
  const stripes = Math.floor((len - 1 - blocks * BLOCK) / STRIPE);
  for (let s = 0; s < stripes; s++) acc.stripe(input, blocks * BLOCK + s * STRIPE, s * 8);
  acc.stripe(input, len - STRIPE, SECRET_SIZE - STRIPE - 7);
  let result = (BigInt(len) * PRIME64_1) & MASK64;
  for (let i = 0; i < 4; i++) {
    result += mul128Fold64(acc.lane(2 * i) ^ read64(SECRET, 11 + 16 * i), acc.lane(2 * i + 1) ^ read64(SECRET, 11 + 16 * i + 8));
  }
  return avalanche(result & MASK64);
}

/** XXH3-64 (seed 0) of `input`, which must be at least 17 bytes (a filter's checksummed bytes are at least 56). */
export function xxh3(input: Uint8Array): bigint {
  if (input.length <= 16) throw new RangeError('xxh3: inputs of 16 bytes or fewer are not implemented (no filter is that short)');
  return input.length <= 240 ? midSize(input) : long(input);
}
