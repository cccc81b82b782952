// A worker_threads worker for tests/shared: attaches shared filters from the
// handles it is sent and runs what the test asks, replying { id, value } or
// { id, error: { code, message } }. Keys are `${prefix}${i}` for i in [from, to),
// made 16,384 at a time (one batch), so a fill of 250k keys keeps the heap small.
import { parentPort } from 'node:worker_threads';
import { forcedGc } from './forced-gc.mjs';

const shared = await import(new URL('../../../dist/shared.import.cjs', import.meta.url).href);
const filters = new Map();
const fullGc = forcedGc();
const BATCH = 16384;

function keys(prefix, from, to) {
  return Array.from({ length: to - from }, (_, i) => `${prefix}${from + i}`);
}

const ops = {
  attach({ name, handle }) {
    filters.set(name, shared.attach(handle));
    return filters.get(name).type;
  },
  addRange({ name, prefix, from, to }) {
    const filter = filters.get(name);
    for (let at = from; at < to; at += BATCH) filter.addMany(keys(prefix, at, Math.min(to, at + BATCH)));
    return to - from;
  },
  // How many of the keys `has` misses (0: no false negative), one key per call and in batches.
  missing({ name, prefix, from, to, batched = true }) {
    const filter = filters.get(name);
    let missing = 0;
    for (let at = from; at < to; at += BATCH) {
      const batch = keys(prefix, at, Math.min(to, at + BATCH));
      if (batched) for (const found of filter.hasMany(batch)) missing += found ? 0 : 1;
      else for (const key of batch) missing += filter.has(key) ? 0 : 1;
    }
    return missing;
  },
  has({ name, key }) {
    return filters.get(name).has(key);
  },
  add({ name, key }) {
    filters.get(name).add(key);
    return true;
  },
  // Queries until a call fails (the filter freed meanwhile by another thread); the error is the reply.
  hasUntilFreed({ name, prefix }) {
    const filter = filters.get(name);
    const batch = keys(prefix, 0, 1024);
    const started = Date.now();
    for (let rounds = 0; Date.now() - started < 20000; rounds++) {
      filter.hasMany(batch);
      if (rounds === 0) parentPort.postMessage({ started: true });
    }
    return 'never freed';
  },
  // Runs `kind` (addMany, removeMany, has: hasMany and has by turns, hasMany) over keys prefix+i, i from `from`, in
  // batches of `batch`, until the test terminates this worker (at most 20 s),
  // posting { acked: end } after each batch returned: keys below `end` were
  // added (addMany), or added and removed again (removeMany).
  loop({ name, kind, prefix, from, batch }) {
    const filter = filters.get(name);
    const queried = keys(prefix, from, from + batch);
    // Keys made before the loop, so that it spends its time in calls, where the kills should land.
    const made = Array.from({ length: 64 }, (_, i) => keys(prefix, from + i * batch, from + (i + 1) * batch));
    const batchAt = (at) => (at - from < made.length * batch ? made[(at - from) / batch] : keys(prefix, at, at + batch));
    const started = Date.now();
    for (let at = from, rounds = 0; Date.now() - started < 20000; at += batch, rounds++) {
      // addMany stops adding after the keys made (a bound on what a round adds), then looks them up.
      if (kind === 'addMany' && rounds >= made.length) filter.hasMany(made[rounds % made.length]);
      else if (kind === 'addMany') filter.addMany(batchAt(at));
      else if (kind === 'removeMany') {
        // Only keys this loop added (removing a key never added may take another key's fingerprint).
        const batchKeys = batchAt(at);
        filter.addMany(batchKeys);
        filter.removeMany(batchKeys);
      }
      else if (kind === 'hasMany' || rounds % 2 === 0) filter.hasMany(queried);
      else for (const key of queried) filter.has(key);
      if (kind !== 'addMany' || rounds < made.length) parentPort.postMessage({ acked: at + batch });
      if (rounds === 0) parentPort.postMessage({ started: true });
    }
    return 'never terminated';
  },
  free({ name }) {
    filters.get(name).free();
    return true;
  },
  rss() {
    return process.memoryUsage().rss;
  },
  // A full collection of this worker's heap (see forced-gc.mjs).
  collect() {
    fullGc();
    return true;
  },
};

parentPort.on('message', ({ id, op, ...args }) => {
  try {
    parentPort.postMessage({ id, value: ops[op](args) });
  } catch (error) {
    parentPort.postMessage({ id, error: { code: error.code, message: error.message } });
  }
});
parentPort.postMessage({ ready: true });
