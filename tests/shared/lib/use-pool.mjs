// A test file's worker pool, started before its tests and terminated after them. Apart
// from pool.mjs because it registers Jest hooks: memory-probe.mjs uses the pool outside Jest.
import { afterAll, beforeAll } from '@jest/globals';
import { WorkerPool } from './pool.mjs';

/**
 * The calling test file's pool: `initEntries()` (the entries' init) first, then `size`
 * workers, ready before the file's tests and terminated after them. Returns a holder whose
 * `pool` is the WorkerPool once beforeAll has run.
 */
export function useWorkerPool(size, initEntries) {
  const holder = { pool: undefined };
  beforeAll(async () => {
    await initEntries();
    holder.pool = new WorkerPool(size);
    await holder.pool.ready;
  }, 60_000);
  afterAll(async () => {
    await holder.pool?.terminate();
  });
  return holder;
}
