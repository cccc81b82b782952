// mulberry32, a small seeded generator, uniform in [0, 1): same seed, same sequence. The one
// copy in the repository: every "random" key, probe and teaching moment in the demo is the
// same on every load (a screenshot or a test sees the same state), and the Jest suites and
// benchmarks draw their keys from it too (tests/helpers/keys.mjs re-exports it as `prng`).
// Plain JavaScript, so Node runs it without a build; seeded.d.mts gives the demo its type.
export function seededRandom(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
