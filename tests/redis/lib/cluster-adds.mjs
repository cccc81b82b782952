// Adds batches to a Redis filter in a loop while a test breaks the cluster, and
// records every batch whose add resolved (acknowledged) and every one that
// rejected (not acknowledged: allowed during a failover, but only as UNAVAILABLE);
// then asks a fresh client about every acknowledged key (addsThroughFault).
import { RedisBloomFilter, RedisExpiringBloomFilter } from 'cuckoo-bloom-wasm/redis';
import { connectCluster } from './cluster-clients.mjs';

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Starts the loop; `stop()` ends it after the batch in flight and returns
 * { acknowledged: string[], rejected: number, errors: string[] (codes and messages of rejections) }.
 */
export function addInLoop(filter, prefix, { batch = 20, pauseMs = 5 } = {}) {
  const acknowledged = [];
  const errors = [];
  let stopped = false;
  let next = 0;
  const loop = (async () => {
    while (!stopped) {
      const keys = Array.from({ length: batch }, () => `${prefix}${next++}`);
      try {
        await filter.addMany(keys);
        acknowledged.push(...keys);
      } catch (error) {
        errors.push(`${error.code ?? error.constructor.name}: ${error.message}`);
        await sleep(50);
      }
      await sleep(pauseMs);
    }
  })();
  return {
    get acknowledgedCount() {
      return acknowledged.length;
    },
    /** The last rejections, for a failure message. */
    get lastErrors() {
      return errors.slice(-3);
    },
    async stop() {
      stopped = true;
      await loop;
      return { acknowledged, rejected: errors.length, errors };
    },
  };
}

/** Waits until the loop has `count` more acknowledged keys than now (the cluster is answering adds again). */
export async function waitForAcks(loop, count, timeoutMs, what) {
  const target = loop.acknowledgedCount + count;
  const deadline = Date.now() + timeoutMs;
  while (loop.acknowledgedCount < target) {
    if (Date.now() > deadline) {
      throw new Error(`adds did not resume within ${timeoutMs} ms ${what}; last rejections: ${loop.lastErrors.join(' | ') || 'none'}`);
    }
    await sleep(20);
  }
}

/** Keys of `keys` that `filter` answers false for (checked in batches). */
export async function missingKeys(filter, keys) {
  const answers = await filter.hasMany(keys);
  return keys.filter((_, i) => !answers[i]);
}

const CLASSES = { RedisBloomFilter, RedisExpiringBloomFilter };

/**
 * Creates a filter, adds in a loop, runs `fault` once adds flow, waits until adds
 * flow again, stops; then opens the filter with a fresh client and returns the
 * acknowledged keys it answers false for, with the loop's counts.
 */
export async function addsThroughFault(cluster, clientName, { className = 'RedisBloomFilter', key, options, fault, loopOptions }) {
  const Filter = CLASSES[className];
  const { client, close } = await connectCluster(clientName, cluster);
  let result;
  try {
    // The create waits for a replica (durability), whatever the adds do: a fault moments
    // after a create that never reached the replica loses the filter itself (then CORRUPT,
    // never a false answer), and the measurement is about adds.
    const { durability, ...tableOptions } = options;
    await Filter.create(client, key, { ...tableOptions, durability: { replicas: 1, timeoutMs: 5000 } });
    // A short timeout: an add stuck on a dead node rejects instead of waiting 10 s.
    const filter = await Filter.open(client, key, { timeoutMs: 1500, ...(durability ? { durability } : {}) });
    const loop = addInLoop(filter, `${key}:`, loopOptions);
    try {
      await waitForAcks(loop, 200, 10_000, 'before the fault');
      await fault(key);
      await waitForAcks(loop, 200, 20_000, 'after the fault');
    } finally {
      result = await loop.stop();
    }
  } finally {
    await close();
  }
  const fresh = await connectCluster(clientName, cluster);
  try {
    const reopened = await Filter.open(fresh.client, key);
    return { ...result, missing: await missingKeys(reopened, result.acknowledged) };
  } finally {
    await fresh.close();
  }
}
