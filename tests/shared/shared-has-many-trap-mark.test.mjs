// Found by an outside attack (shared/ADVERSARY.md) on the shared batch lookup (issue #47):
// hasMany ran its export outside guarded(), so a call that trapped (here: a key getter
// calling hasMany again while the batch was encoded) left the thread's call mark, and
// another thread's free() then waited 500 ms and failed LOCKED, naming a live thread as
// one "terminated inside a call". Now such a re-entry is refused before the module is
// called (tests/core/reentrant-key-access.test.mjs) and hasMany runs in guarded() as the
// writes do. A call that fails must leave the filter as it was: free() from another
// thread right after succeeds at once.
import { Worker } from 'node:worker_threads';

const shared = await import(new URL('../../dist/shared.import.cjs', import.meta.url).href);
const WORKER = new URL('./lib/free-worker.mjs', import.meta.url);

beforeAll(() => shared.init({ maximumMemory: 64 * 2 ** 20 }));

const KEYS = Array.from({ length: 100 }, (_, i) => `key-${i}`);

test.each(['SharedBloomFilter', 'SharedCuckooFilter'])('%s: after a hasMany that failed, another thread frees the filter at once', async (className) => {
  const filter = new shared[className]({ capacity: 1000 });
  filter.addMany(KEYS);
  const worker = new Worker(WORKER, { workerData: { handle: filter.handle() } });
  const ask = (operation) =>
    new Promise((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
      worker.postMessage(operation);
    });
  try {
    const list = KEYS.slice();
    Object.defineProperty(list, 50, {
      get() {
        filter.hasMany(['z'.repeat(70)]);
        return 'key-50';
      },
    });
    let failure;
    try {
      filter.hasMany(list);
    } catch (error) {
      failure = error;
    }
    // The failing call is what this test is about (a silent wrong answer is reentrant-key-access's).
    expect(failure).toBeDefined();
    const freed = await ask('free');
    expect(freed.code).toBe('');
    expect(freed.ms).toBeLessThan(100);
  } finally {
    if (!filter.freed) {
      await ask('recover');
      await ask('free');
    }
    await worker.terminate();
  }
});
