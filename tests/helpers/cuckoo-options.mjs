// Cuckoo options for property tests, made consistent before use. Nothing here
// depends on the package under test.

// Options that agree with each other: fingerprintBits below what the rate
// needs (ceil(log2(2b / rate)), at least 4) is INVALID_ARGUMENT, so a
// contradictory rate is dropped and the bits decide the rate.
export function consistentCuckooOptions(options) {
  const { falsePositiveRate: rate, fingerprintBits: bits, bucketSize = 4 } = options;
  if (rate === undefined || bits === undefined) return options;
  const needed = Math.max(4, Math.ceil(Math.log2((2 * bucketSize) / rate)));
  if (bits >= needed) return options;
  const { falsePositiveRate: _dropped, ...rest } = options;
  return rest;
}
