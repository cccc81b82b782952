// The lab's keys and probes, and the sizes it offers: plain JavaScript, so the e2e test
// (tests/e2e/lab.test.mjs) builds the same filters in Node from the same keys and checks
// every number the page shows against the library's own. Keys and probes never overlap
// (different prefixes), so every probe a filter answers "maybe" for is a false positive.

/** Key counts the side-by-side table offers; the first is the default. */
export const LAB_KEY_COUNTS = [10_000, 1_000, 100_000];
/** Target false-positive rates it offers; the first is the default. */
export const LAB_RATES = [0.01, 0.001];
/** Lookups of keys never added, for every measured rate. */
export const LAB_PROBE_COUNT = 100_000;
/** Keys in the small filters (the k toy and counting Bloom's pitfalls): few enough to draw. */
export const TOY_KEY_COUNT = 16;
/** Lookups that measure the k toy's rate. */
export const TOY_PROBE_COUNT = 20_000;
/** The k slider's range: beyond 8 probes the library sizes 16 keys with fewer (its optimum). */
export const TOY_K_RANGE = { min: 1, max: 8, initial: 4 };
/** Counting Bloom's pitfalls: its sizing, and how often the saturation demo adds one key. */
export const COUNTING_TOY = { falsePositiveRate: 0.05, repeats: 20 };

/** `count` keys, the same on every load: "lab-key-0", "lab-key-1", … */
export function labKeys(count) {
  return Array.from({ length: count }, (_, i) => `lab-key-${i}`);
}

/** `count` keys never added: "lab-probe-0", … */
export function labProbes(count) {
  return Array.from({ length: count }, (_, i) => `lab-probe-${i}`);
}

/** The k toy's target rate for k probes: 2^-k, the rate at which k probes is the optimum (k = log2(1/ε)). */
export function toyRateForProbes(probes) {
  return 2 ** -probes;
}
