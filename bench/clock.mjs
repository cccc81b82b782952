// The clock, the collection before each timed run and the summary the batch benches
// share. CPU time by default: on a shared machine wall time counts the other processes'
// slices (one has() loop read 316–554 ns by wall clock and 151–164 ns by CPU time in one
// run), CPU time only this process's.

/** A function giving nanoseconds on `clock`: 'cpu' (this process's user + system time) or 'wall'. */
export function benchClock(clock) {
  if (clock === 'wall') return () => Number(process.hrtime.bigint());
  return () => {
    const { user, system } = process.cpuUsage();
    return (user + system) * 1000;
  };
}

/** The median of `values` (the mean of the middle two for an even count). */
export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

const pause = new Int32Array(new SharedArrayBuffer(4));
const cpuNow = benchClock('cpu');

/**
 * A full collection (`node --expose-gc`; nothing without it), then a wait (in
 * 2 ms sleeps, at most 50) until this process spends under 0.3 ms of CPU in
 * one: its helper threads have finished sweeping after the collection. Counted
 * by CPU time, that sweeping (0.1-2.6 ms after each gc() here) was charged to
 * whichever timed run came next (bench/batches.mjs says more).
 */
export function collect() {
  globalThis.gc?.();
  for (let i = 0; i < 50; i++) {
    const before = cpuNow();
    Atomics.wait(pause, 0, 0, 2);
    if (cpuNow() - before < 300_000) break;
  }
}
