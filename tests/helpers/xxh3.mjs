// XXH3-64 (seed 0, default secret), the package format's checksum (docs/FORMAT.md),
// in plain JS: the fuzz tests give mutated blobs a valid checksum with it, and the index
// tests re-seal crafted snapshots. tests/fast-check/deserialize-fuzz.test.mjs checks it
// against the checksums the library writes, for blobs of every XXH3 length class.
const M = (1n << 64n) - 1n;
const P32_1 = 0x9E3779B1n, P32_2 = 0x85EBCA77n, P32_3 = 0xC2B2AE3Dn;
const P64_1 = 0x9E3779B185EBCA87n, P64_2 = 0xC2B2AE3D27D4EB4Fn, P64_3 = 0x165667B19E3779F9n,
  P64_4 = 0x85EBCA77C2B2AE63n, P64_5 = 0x27D4EB2F165667C5n;
const MX1 = 0x165667919E3779F9n, MX2 = 0x9FB21C651E98DF25n;
// The 192-byte default secret, written as hex (48 bytes a line).
const SECRET = Uint8Array.from(Buffer.from(
  'b8fe6c3923a44bbe7c01812cf721ad1cded46de9839097db7240a4a4b7b3671fcb79e64eccc0e578825ad07dccff7221' +
  'b8084674f743248ee03590e6813a264c3c2852bb91c300cb88d0658b1b532ea371644897a20df94e3819ef46a9deacd8' +
  'a8fa763fe39c343ff9dcbbc7c70b4f1d8a51e04bcdb45931c89f7ec9d9787364eac5ac8334d3ebc3c581a0fffa1363eb' +
  '170ddd51b7f0da49d316552629d4689e2b16be587d47a1fc8ff8b8d17ad031ce45cb3a8f95160428afd7fbcabb4b407e',
  'hex',
));
const SV = new DataView(SECRET.buffer);
const s64 = (o) => SV.getBigUint64(o, true);
const s32 = (o) => BigInt(SV.getUint32(o, true));
const mul = (a, b) => (a * b) & M;
const fold = (a, b) => { const p = a * b; return (p & M) ^ (p >> 64n); };
const avalanche = (h) => { h ^= h >> 37n; h = mul(h, MX1); return h ^ (h >> 32n); };
const xxh64Avalanche = (h) => { h ^= h >> 33n; h = mul(h, P64_2); h ^= h >> 29n; h = mul(h, P64_3); return h ^ (h >> 32n); };
const rotl = (x, r) => ((x << BigInt(r)) | (x >> BigInt(64 - r))) & M;
const swap64 = (x) => { let r = 0n; for (let i = 0; i < 8; i++) { r = (r << 8n) | (x & 0xffn); x >>= 8n; } return r; };

/**
 * XXH3-64 with the default secret and seed 0 (what the format's checksum is),
 * or another seed (a BigInt) for 9 to 128 bytes: an index log record's checks
 * (docs/EXACT-INDEX.md), which tests re-seal after changing a record.
 */
export function xxh3(bytes, seed = 0n) {
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const r64 = (o) => v.getBigUint64(o, true);
  const r32 = (o) => BigInt(v.getUint32(o, true));
  const len = bytes.length;
  const L = BigInt(len);
  seed &= M;
  if (seed !== 0n && (bytes.length < 9 || bytes.length > 128)) throw new Error('xxh3: a seed only for 9 to 128 bytes');
  const mix16 = (i, s) => fold(r64(i) ^ ((s64(s) + seed) & M), r64(i + 8) ^ ((s64(s + 8) - seed) & M));
  if (len === 0) return xxh64Avalanche(s64(56) ^ s64(64));
  if (len <= 3) {
    const c = (BigInt(bytes[0]) << 16n) | (BigInt(bytes[len >> 1]) << 24n) | BigInt(bytes[len - 1]) | (L << 8n);
    return xxh64Avalanche(c ^ (s32(0) ^ s32(4)));
  }
  if (len <= 8) {
    const input64 = (r32(len - 4) + (r32(0) << 32n)) & M;
    let h = input64 ^ (s64(8) ^ s64(16));
    h ^= rotl(h, 49) ^ rotl(h, 24);
    h = mul(h, MX2);
    h ^= (h >> 35n) + L;
    h = mul(h, MX2);
    return h ^ (h >> 28n);
  }
  if (len <= 16) {
    const lo = r64(0) ^ (((s64(24) ^ s64(32)) + seed) & M);
    const hi = r64(len - 8) ^ (((s64(40) ^ s64(48)) - seed) & M);
    return avalanche((L + swap64(lo) + hi + fold(lo, hi)) & M);
  }
  if (len <= 128) {
    let acc = mul(L, P64_1);
    if (len > 32) {
      if (len > 64) {
        if (len > 96) acc += mix16(48, 96) + mix16(len - 64, 112);
        acc += mix16(32, 64) + mix16(len - 48, 80);
      }
      acc += mix16(16, 32) + mix16(len - 32, 48);
    }
    acc += mix16(0, 0) + mix16(len - 16, 16);
    return avalanche(acc & M);
  }
  if (len <= 240) {
    let acc = mul(L, P64_1);
    for (let i = 0; i < 8; i++) acc += mix16(16 * i, 16 * i);
    acc = avalanche(acc & M);
    const rounds = len >> 4;
    for (let i = 8; i < rounds; i++) acc += mix16(16 * i, 16 * (i - 8) + 3);
    acc += mix16(len - 16, 136 - 17);
    return avalanche(acc & M);
  }
  const acc = [P32_3, P64_1, P64_2, P64_3, P64_4, P32_2, P64_5, P32_1];
  const stripe = (i, s) => {
    for (let j = 0; j < 8; j++) {
      const d = r64(i + 8 * j);
      const k = d ^ s64(s + 8 * j);
      acc[j ^ 1] = (acc[j ^ 1] + d) & M;
      acc[j] = (acc[j] + (k & 0xffffffffn) * (k >> 32n)) & M;
    }
  };
  const stripesPerBlock = (192 - 64) / 8;
  const blockLen = 64 * stripesPerBlock;
  const blocks = Math.floor((len - 1) / blockLen);
  for (let n = 0; n < blocks; n++) {
    for (let s = 0; s < stripesPerBlock; s++) stripe(n * blockLen + s * 64, s * 8);
    for (let j = 0; j < 8; j++) {
      let a = acc[j];
      a ^= a >> 47n;
      a ^= s64(192 - 64 + 8 * j);
      acc[j] = mul(a, P32_1);
    }
  }
  const stripes = Math.floor((len - 1 - blockLen * blocks) / 64);
  for (let s = 0; s < stripes; s++) stripe(blocks * blockLen + s * 64, s * 8);
  stripe(len - 64, 192 - 64 - 7);
  let result = mul(L, P64_1);
  for (let i = 0; i < 4; i++) result += fold(acc[2 * i] ^ s64(11 + 16 * i), acc[2 * i + 1] ^ s64(11 + 16 * i + 8));
  return avalanche(result & M);
}
