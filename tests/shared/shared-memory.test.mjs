// Issue #31's memory figure: 4 worker_threads share one ~100 MB blocked Bloom
// filter, and the process RSS (every thread of it) grows by at most 1.15x one
// copy of the table. A copy per worker (what deserializing in each worker
// costs) would be ~5x: the main thread's copy plus four.
//
// The figure is read in a fresh child process (lib/memory-probe.mjs), not in this
// Jest worker: a worker that ran other suites first returned their pages to the
// system during the measurement and failed a full run with a negative growth
// (issue #47). Nothing else runs in the child, so other suites cannot move it.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const PROBE = fileURLToPath(new URL('./lib/memory-probe.mjs', import.meta.url));

test('4 workers attached to one 100 MB blocked Bloom filter: RSS grows by at most 1.15x one copy', async () => {
  const { stdout } = await promisify(execFile)(process.execPath, ['--expose-gc', PROBE], {
    timeout: 110_000,
    maxBuffer: 1 << 20,
  });
  const { table, before, after, missing } = JSON.parse(stdout.trim().split('\n').pop());
  expect(table).toBeGreaterThan(100e6);
  expect(table).toBeLessThan(110e6);
  expect(missing).toEqual([0, 0, 0, 0]);
  const growth = after - before;
  // Printed for the record (docs/CONCURRENCY.md quotes a run).
  console.log(`table ${(table / 1e6).toFixed(1)} MB; RSS ${(before / 1e6).toFixed(1)} -> ${(after / 1e6).toFixed(1)} MB: growth ${(growth / table).toFixed(3)}x one copy`);
  // The table is really resident (the fill touched every page): both readings follow a
  // full collection in every thread of a process that runs nothing else, 0.97-1.03x
  // one copy over runs here. The floor keeps a fill that never reached the memory
  // (or a reading of the wrong process) from passing.
  expect(growth).toBeGreaterThan(0.85 * table);
  expect(growth).toBeLessThanOrEqual(1.15 * table);
}, 120_000);
