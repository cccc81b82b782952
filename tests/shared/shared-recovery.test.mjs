// Workers terminated in the middle of calls (issue #47): no call on another
// thread waits more than 1 s (a wait on a dead thread's mark or lock fails
// with LOCKED after 500 ms, naming the thread), recover() releases what the
// dead thread held, and every key whose add returned before the kill is
// still found. 100 kills at random points of addMany, removeMany and has.
import { Worker } from 'node:worker_threads';
import { prng } from '../helpers/keys.mjs';

const shared = await import(new URL('../../dist/shared.import.cjs', import.meta.url).href);
const WORKER = new URL('./lib/filter-worker.mjs', import.meta.url);

const keys = (prefix, from, to) => Array.from({ length: to - from }, (_, i) => `${prefix}${from + i}`);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function once(worker, match) {
  return new Promise((resolve, reject) => {
    const onMessage = (message) => {
      if (!match(message)) return;
      worker.off('message', onMessage);
      resolve(message);
    };
    worker.on('message', onMessage);
    worker.once('error', reject);
  });
}

// A worker attached to `filter`, running `kind` in a loop; resolves once its first batch returned.
async function startLoop(filter, kind, prefix, batch = 1024) {
  const worker = new Worker(WORKER);
  const progress = { acked: 0 };
  worker.on('message', (message) => {
    if (message.acked !== undefined) progress.acked = Math.max(progress.acked, message.acked);
  });
  await once(worker, (message) => message.ready);
  worker.postMessage({ id: 1, op: 'attach', name: 'f', handle: filter.handle() });
  const attached = await once(worker, (message) => message.id === 1);
  if (attached.error) throw new Error(attached.error.message);
  const started = once(worker, (message) => message.started || message.id === 2);
  worker.postMessage({ id: 2, op: 'loop', name: 'f', kind, prefix, from: 0, batch });
  const first = await started;
  if (first.error) throw new Error(`the ${kind} loop failed: ${first.error.code} ${first.error.message}`);
  return { worker, progress };
}

// Runs `call`; its time in ms and its error code ('' when it answered).
function timed(call) {
  const start = performance.now();
  let code = '';
  try {
    call();
  } catch (error) {
    code = error.code ?? String(error);
  }
  return { ms: performance.now() - start, code };
}

describe('workers terminated inside calls', () => {
  beforeAll(() => shared.init({ maximumMemory: 64 * 2 ** 20 }));

  test('the filters have recover() (the API this file tests)', () => {
    expect(typeof shared.SharedFilter.prototype.recover).toBe('function');
    expect(typeof shared.SharedCuckooFilter.prototype.removeMany).toBe('function');
  });

  test('100 kills inside addMany, removeMany and has: no call waits 1 s, every acknowledged key is found after recover()', async () => {
    expect(typeof shared.SharedFilter.prototype.recover).toBe('function');
    // Each addMany round adds at most 64 batches of 1024 keys: 20 rounds of a filter at most 1.3M.
    const cuckoo = new shared.SharedCuckooFilter({ capacity: 2_000_000 });
    const counting = new shared.SharedCountingBloomFilter({ capacity: 1_000_000 });
    const blocked = new shared.SharedBlockedBloomFilter({ capacity: 2_000_000 });
    const kept = keys('kept-', 0, 20_000);
    for (const filter of [cuckoo, counting, blocked]) filter.addMany(kept);
    const plan = [
      [cuckoo, 'addMany'],
      [cuckoo, 'removeMany'],
      [cuckoo, 'has'],
      [counting, 'removeMany'],
      [blocked, 'addMany'],
    ];
    const next = prng(47); // fixed seed: the same kill times each run
    const waits = [];
    const codes = new Map();
    let recovered = 0;
    let missing = 0;
    // 100 kills at least; past that, kill on until 10 landed inside a call (a
    // loaded machine spends more of each loop between calls), at most 400.
    let round = 0;
    for (; round < 100 || (recovered < 10 && round < 400); round++) {
      const [filter, kind] = plan[round % plan.length];
      const prefix = `r${round}-`;
      const { worker, progress } = await startLoop(filter, kind, prefix);
      await sleep(Math.floor(next() * 40));
      await worker.terminate();
      const acked = progress.acked;
      // Other threads' calls right after the kill: answered, or LOCKED, within the bound.
      for (const probe of [
        () => filter.has('kept-7'),
        () => filter.add(`probe-${round}`),
        () => filter.hasMany(kept.slice(0, 2000)),
        () => (filter.removeMany ? filter.removeMany([`probe-${round}`]) : filter.add('x')),
      ]) {
        const { ms, code } = timed(probe);
        waits.push(ms);
        codes.set(code, (codes.get(code) ?? 0) + 1);
      }
      recovered += filter.recover();
      // After recovery: no lock left, every kept key, and every key of an acknowledged addMany.
      expect(timed(() => filter.has('kept-7')).code).toBe('');
      if (kind === 'addMany') missing += filter.hasMany(keys(prefix, 0, acked)).filter((found) => !found).length;
      missing += filter.hasMany(kept).filter((found) => !found).length;
    }
    console.log(`kills: ${recovered} of ${round} inside a call; probe answers ${JSON.stringify([...codes])}; longest wait ${Math.max(...waits).toFixed(0)} ms`);
    expect(missing).toBe(0);
    expect(Math.max(...waits)).toBeLessThan(1000);
    // Not vacuous: kills land inside a call (23 of 100 in a run at load 20, 8 of
    // 100 in one CI run; the rest between calls, in the loop's JavaScript).
    expect(recovered).toBeGreaterThanOrEqual(10);
    expect([...codes.keys()].every((code) => code === '' || code === 'LOCKED')).toBe(true);
    for (const filter of [cuckoo, counting, blocked]) {
      const { ms, code } = timed(() => filter.free());
      expect(code).toBe('');
      expect(ms).toBeLessThan(1000);
    }
  }, 400_000);

  test('free() while a dead worker is inside a call: LOCKED naming the thread within 1 s; after recover() it frees', async () => {
    expect(typeof shared.SharedFilter.prototype.recover).toBe('function');
    let seen = null;
    // Batches of 16,384 lookups: most of the loop's time is inside the call.
    for (let attempt = 0; attempt < 40 && seen === null; attempt++) {
      const filter = new shared.SharedBlockedBloomFilter({ capacity: 100_000 });
      filter.addMany(keys('k', 0, 1000));
      const { worker } = await startLoop(filter, 'hasMany', 'k', 16384);
      await sleep(1 + (attempt % 7));
      await worker.terminate();
      let error = null;
      const start = performance.now();
      try {
        filter.free();
      } catch (caught) {
        error = caught;
      }
      const ms = performance.now() - start;
      if (error === null) continue; // killed between two calls: nothing held, freed at once
      seen = { filter, error, ms };
    }
    expect(seen).not.toBeNull();
    expect(seen.error).toEqual(
      expect.objectContaining({ code: 'LOCKED', message: expect.stringMatching(/slot \d+.*free: a call of thread \d+ on it did not end for over 500 ms.*recover\(\)/) }),
    );
    expect(seen.ms).toBeLessThan(1000);
    expect(seen.filter.has('k5')).toBe(true);
    expect(seen.filter.recover()).toBe(1);
    seen.filter.free();
    expect(seen.filter.freed).toBe(true);
  }, 60_000);
});
