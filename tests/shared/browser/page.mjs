// tests/shared/shared-browser.test.mjs: 4 Web Workers attach one shared filter of each type,
// add disjoint quarters of N keys at once, then each worker and the page find all N. The
// result goes to body[data-result] (JSON); a failure to body[data-error].
import { init, SharedBloomFilter, SharedBlockedBloomFilter, SharedCountingBloomFilter, SharedCuckooFilter } from '/dist/shared.js';

const params = new URLSearchParams(location.search);
const N = Number(params.get('n') ?? 100000);
const WORKERS = 4;
const keys = (from, to) => Array.from({ length: to - from }, (_, i) => `browser-key-${from + i}`);

function ask(worker, message) {
  return new Promise((resolve, reject) => {
    worker.onmessage = (event) => (event.data.error ? reject(new Error(event.data.error)) : resolve(event.data.value));
    worker.onerror = (event) => reject(new Error(event.message));
    worker.postMessage(message);
  });
}

async function run() {
  const result = { crossOriginIsolated: globalThis.crossOriginIsolated, types: {} };
  try {
    await init({ maximumMemory: 32 * 2 ** 20 });
  } catch (error) {
    result.initError = { code: error.code, message: error.message };
    return result;
  }
  const workers = Array.from({ length: WORKERS }, () => new Worker('./worker.mjs', { type: 'module' }));
  try {
    for (const [type, Class, capacity] of [
      ['bloom', SharedBloomFilter, N],
      ['blocked-bloom', SharedBlockedBloomFilter, N],
      ['counting-bloom', SharedCountingBloomFilter, N],
      ['cuckoo', SharedCuckooFilter, Math.ceil(N / 0.85)],
    ]) {
      const filter = new Class({ capacity, falsePositiveRate: 0.01 });
      const handle = filter.handle();
      const quarter = N / WORKERS;
      await Promise.all(workers.map((worker) => ask(worker, { op: 'attach', handle })));
      await Promise.all(workers.map((worker, i) => ask(worker, { op: 'add', from: i * quarter, to: (i + 1) * quarter })));
      const missing = await Promise.all(workers.map((worker) => ask(worker, { op: 'missing', from: 0, to: N })));
      const missingAsBytes = await Promise.all(workers.map((worker) => ask(worker, { op: 'missingAsBytes', from: 0, to: N })));
      const missingOnPage = filter.hasMany(keys(0, N)).filter((found) => !found).length;
      // { as: 'Uint8Array' }: the page's encodeInto refuses shared views, so its keys take the staging copy.
      const bytes = filter.hasMany(keys(0, N), { as: 'Uint8Array' });
      const missingOnPageAsBytes = bytes instanceof Uint8Array ? bytes.length - bytes.reduce((sum, byte) => sum + byte, 0) : `got ${typeof bytes}`;
      result.types[type] = { missing, missingAsBytes, missingOnPage, missingOnPageAsBytes, count: filter.count };
      filter.free();
    }
  } finally {
    for (const worker of workers) worker.terminate();
  }
  return result;
}

run().then(
  (result) => (document.body.dataset.result = JSON.stringify(result)),
  (error) => (document.body.dataset.error = String(error?.stack ?? error)),
);
