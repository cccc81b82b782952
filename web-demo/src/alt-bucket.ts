// The cuckoo filter's "other bucket" from a bucket and a fingerprint alone, as the C++
// core computes it (cpp/include/cuckoo_bloom/core/hashing.h, cuckooAltBucketIndexModulo):
//   i₂ = (h(fp) − i₁) mod m,  h(fp) = 2·⌊mix64(fp)·(m/2) / 2⁶⁴⌋ + 1  (an odd number below m)
// Subtracting from the same h(fp) is symmetric (i₁ = (h(fp) − i₂) mod m), which is why a
// kicked-out fingerprint can move without its key; h(fp) odd and m even keep the two
// buckets apart. Drawn in the demo to show that; the e2e tests check it against the real
// filter's locate() and its kick paths.

const MASK64 = (1n << 64n) - 1n;

/** SplitMix64's finalizer (hashing.h mix64), on 64-bit unsigned integers. */
function mix64(value: bigint): bigint {
  let v = value & MASK64;
  v ^= v >> 30n;
  v = (v * 0xbf58476d1ce4e5b9n) & MASK64;
  v ^= v >> 27n;
  v = (v * 0x94d049bb133111ebn) & MASK64;
  v ^= v >> 31n;
  return v;
}

/** hashing.h reduceRange: ⌊hash · n / 2⁶⁴⌋ (the top 32 bits when n fits in 32 bits). */
function reduceRange(hash: bigint, n: number): bigint {
  const range = BigInt(n);
  return range <= 0xffffffffn ? ((hash >> 32n) * range) >> 32n : (hash * range) >> 64n;
}

/** h(fp): the sum of a fingerprint's two bucket numbers, modulo the bucket count. */
export function fingerprintPairSum(fingerprint: number, bucketCount: number): number {
  return Number(2n * reduceRange(mix64(BigInt(fingerprint)), bucketCount / 2) + 1n);
}

export function otherBucket(bucket: number, fingerprint: number, bucketCount: number): number {
  const sum = fingerprintPairSum(fingerprint, bucketCount);
  return (((sum - bucket) % bucketCount) + bucketCount) % bucketCount;
}
