// The clock and the summary the batch benches share. CPU time by default: on a shared
// machine wall time counts the other processes' slices (one has() loop read 316–554 ns
// by wall clock and 151–164 ns by CPU time in one run), CPU time only this process's.

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
