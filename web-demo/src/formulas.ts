// The sizing formulas the tune panel shows, with where they come from. Plain math: the
// toy filters themselves are always sized by the library.

/** Bloom bits for n keys at rate ε: m = −n ln ε / (ln 2)² (optimal k, Bloom 1970 / Broder–Mitzenmacher 2004). */
export function bloomBits(keys: number, rate: number): number {
  return Math.ceil((-keys * Math.log(rate)) / Math.LN2 ** 2);
}

/** Probes per key that minimise the rate: k = (m/n) ln 2, at least 1. */
export function bloomHashes(bits: number, keys: number): number {
  return Math.max(1, Math.round((bits / keys) * Math.LN2));
}

/** Expected rate after x keys in m bits with k probes: (1 − e^(−kx/m))^k. */
export function bloomRate(bits: number, hashes: number, keysAdded: number): number {
  return (1 - Math.exp((-hashes * keysAdded) / bits)) ** hashes;
}

/**
 * Expected cuckoo rate with `used` fingerprints in `slots` slots, buckets of b, f-bit
 * fingerprints drawn from 2^f − 1 values: a lookup compares with the 2b slots of its two
 * buckets, each holding a fingerprint with probability used/slots, each equal with
 * probability 1/(2^f − 1): 1 − (1 − 1/(2^f − 1))^(2b · used/slots) (Fan et al. 2014, ≈ 2bα/2^f).
 */
export function cuckooRate(fingerprintBits: number, bucketSize: number, used: number, slots: number): number {
  const values = 2 ** fingerprintBits - 1;
  return 1 - (1 - 1 / values) ** ((2 * bucketSize * used) / slots);
}

/** The load cuckoo hashing reaches before inserts fail (Fan et al. 2014, table 2): ~84%, 95%, 98%. */
export function cuckooMaxLoad(bucketSize: number): number {
  return bucketSize <= 2 ? 0.84 : bucketSize <= 4 ? 0.95 : 0.98;
}

/** Bits per key at load α: f / α. */
export function cuckooBitsPerKey(fingerprintBits: number, load: number): number {
  return fingerprintBits / load;
}
