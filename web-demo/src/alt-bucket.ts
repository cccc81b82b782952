// The cuckoo filter's "other bucket" from a bucket and a fingerprint alone, as the C++
// core computes it (cpp/include/cuckoo_bloom/hashing.h, cuckooAltBucketIndex):
//   i₂ = i₁ ⊕ h(fp),  h(fp) = mix64(fp) & (bucketCount − 1), and 1 instead of 0
// XOR makes it symmetric (i₁ = i₂ ⊕ h(fp)), which is why a kicked-out fingerprint can move
// without its key. Drawn in the demo to show that; the e2e tests check it against the
// real filter's locate() and its kick paths.

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

/** h(fp): the offset between a fingerprint's two buckets (never 0: the buckets differ). */
export function fingerprintOffset(fingerprint: number, bucketCount: number): number {
  const offset = Number(mix64(BigInt(fingerprint)) & BigInt(bucketCount - 1));
  return offset === 0 ? 1 : offset;
}

export function otherBucket(bucket: number, fingerprint: number, bucketCount: number): number {
  return bucket ^ fingerprintOffset(fingerprint, bucketCount);
}
