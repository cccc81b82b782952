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

// XXH3_kSecret: the default 192-byte secret (xxhash.h), as hex.
const SECRET_HEX =
  'b8fe6c3923a44bbe7c01812cf721ad1cded46de9839097db7240a4a4b7b3671fcb79e64eccc0e578825ad07dccff7221' +
  'b8084674f743248ee03590e6813a264c3c2852bb91c300cb88d0658b1b532ea371644897a20df94e3819ef46a9deacd8' +
  'a8fa763fe39c343ff9dcbbc7c70b4f1d8a51e04bcdb45931c89f7ec9d9787364eac5ac8334d3ebc3c581a0fffa1363eb' +
  '170ddd51b7f0da49d316552629d4689e2b16be587d47a1fc8ff8b8d17ad031ce45cb3a8f95160428afd7fbcabb4b407e';
const SECRET = Uint8Array.from(SECRET_HEX.match(/../g)!, (pair) => parseInt(pair, 16));
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
