// RedisExpiringBloomFilter ("seen in the last N ms") against a private redis-server:
// keys found for the whole window and gone one generation after it (Redis expires
// the generations), from one process and from several at once; lost generations
// reported as errors, never as "not seen".
import { RedisExpiringBloomFilter } from 'cuckoo-bloom-wasm/redis';
import { CLIENT_NAMES, connect } from './lib/clients.mjs';
import { startWorker } from './lib/fleet.mjs';
import { describeIfRedis, expectFilterError, keysOf, privateRedis, run } from './lib/suite.mjs';
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
// Short windows keep the suite quick: generations of 1 s (window 2 s, K = 3).
const WINDOW_MS = 2000;
const GENERATIONS = 3;
const GENERATION_MS = WINDOW_MS / (GENERATIONS - 1);
// Redis drops an expired key when it is next touched, at its PEXPIREAT; this much
// later every has must already miss (timers and a loaded machine, not the filter).
const SLACK_MS = 300;

/** hasMany every `intervalMs` until `until`; counts answers that had to be true (the call ended before `deadline`) and were not. */
async function watch(filter, keys, { deadline, until, intervalMs = 100 }) {
  let inside = 0;
  let missing = 0;
  while (Date.now() < until) {
    const answers = await filter.hasMany(keys);
    if (Date.now() <= deadline) {
      inside++;
      missing += answers.filter((answer) => !answer).length;
    }
    await sleep(intervalMs);
  }
  return { inside, missing };
}

describeIfRedis.each(CLIENT_NAMES)('RedisExpiringBloomFilter with %s', (clientName) => {
  const redis = privateRedis({ clientName });

  test('keys are found for the whole window, and gone (with their Redis keys) one generation after it', async () => {
    const filter = await RedisExpiringBloomFilter.create(redis.client, 'recent', {
      windowMs: WINDOW_MS,
      generations: GENERATIONS,
      capacity: 5000,
      shardBytes: 4096,
    });
    expect(filter.generationMs).toBe(GENERATION_MS);
    const keys = keysOf('k', 2000);
    const sentAt = Date.now();
    const added = await filter.addMany(keys);
    // New but for keys whose bits earlier keys of the batch happened to set (rate 1% / 3 per generation).
    expect(added.filter(Boolean).length).toBeGreaterThan(1950);
    expect((await filter.addMany(keys)).some(Boolean)).toBe(false); // all seen now
    const absent = await filter.hasMany(keysOf('other', 2000));
    expect(absent.filter(Boolean).length / absent.length).toBeLessThan(0.02);

    const { inside, missing } = await watch(filter, keys, { deadline: sentAt + WINDOW_MS, until: sentAt + WINDOW_MS + GENERATION_MS + SLACK_MS });
    expect(inside).toBeGreaterThanOrEqual(5);
    expect(missing).toBe(0);
    // Past window + one generation: every generation holding them expired.
    expect((await filter.hasMany(keys)).some(Boolean)).toBe(false);
    const left = (await run(redis.client, ['KEYS', '{recent}*'])).map(String).sort();
    expect(left).toHaveLength(1);
    expect(left[0]).toMatch(/^\{recent\}:[0-9a-f]+:written$/);
    await filter.delete();
    expect(await run(redis.client, ['KEYS', '*recent*'])).toEqual([]);
  });

  test('adding a key again keeps it for a window from its latest add', async () => {
    const filter = await RedisExpiringBloomFilter.create(redis.client, 'again', { windowMs: WINDOW_MS, generations: GENERATIONS, capacity: 1000 });
    expect(await filter.add('x')).toBe(true);
    await sleep(1500);
    const sentAt = Date.now();
    expect(await filter.add('x')).toBe(false); // seen within the window: not new, but refreshed
    const { inside, missing } = await watch(filter, ['x'], { deadline: sentAt + WINDOW_MS, until: sentAt + WINDOW_MS });
    expect(inside).toBeGreaterThanOrEqual(5);
    expect(missing).toBe(0);
    await sleep(Math.max(0, sentAt + WINDOW_MS + GENERATION_MS + SLACK_MS - Date.now()));
    expect(await filter.has('x')).toBe(false);
    await filter.delete();
  });

  test('parameters are stored and checked; bad options are INVALID_ARGUMENT', async () => {
    const options = { windowMs: 60_000, generations: 4, capacity: 1000, falsePositiveRate: 0.02, seed: 5 };
    const filter = await RedisExpiringBloomFilter.create(redis.client, 'params', options);
    await filter.add('y');
    const again = await RedisExpiringBloomFilter.create(redis.client, 'params', options);
    expect(await again.has('y')).toBe(true);
    const opened = await RedisExpiringBloomFilter.open(redis.client, 'params');
    expect([opened.windowMs, opened.generations, opened.capacity, opened.falsePositiveRate, opened.seed]).toEqual([60_000, 4, 1000, 0.02, 5]);
    expect(await opened.has('y')).toBe(true);
    await expectFilterError(RedisExpiringBloomFilter.create(redis.client, 'params', { ...options, windowMs: 30_000 }), 'INVALID_ARGUMENT', /windowMs 60000 stored, 30000 asked/);
    await expectFilterError(RedisExpiringBloomFilter.create(redis.client, 'bad', { capacity: 10 }), 'INVALID_ARGUMENT', /windowMs/);
    await expectFilterError(RedisExpiringBloomFilter.create(redis.client, 'bad', { windowMs: 1000, capacity: 10, generations: 1 }), 'INVALID_ARGUMENT', /generations/);
    await expectFilterError(RedisExpiringBloomFilter.create(redis.client, 'bad', { windowMs: 1000, capacity: 10, window: 5 }), 'INVALID_ARGUMENT', /unknown option 'window'/);
    await expectFilterError(RedisExpiringBloomFilter.open(redis.client, 'nothing'), 'INVALID_ARGUMENT', /holds no filter/);
    await expectFilterError(filter.hasMany(['ok', {}]), 'INVALID_ARGUMENT', /key 1 must be/);
    await filter.delete();
  });

  test('a generation lost before it expired is CORRUPT, never "not seen"', async () => {
    const filter = await RedisExpiringBloomFilter.create(redis.client, 'lost', { windowMs: 60_000, capacity: 1000, shardBytes: 1024 });
    await filter.addMany(keysOf('k', 500));
    const shards = (await run(redis.client, ['KEYS', '{lost}:*:g*'])).map(String);
    expect(shards.length).toBeGreaterThan(1);
    await run(redis.client, ['DEL', shards[0]]);
    await expectFilterError(filter.hasMany(keysOf('k', 500)), 'CORRUPT', /missing/);
    await expectFilterError(filter.addMany(keysOf('k', 500)), 'CORRUPT', /missing/);
    // Everything gone (a restart without persistence): the record of generations is gone too.
    await run(redis.client, ['FLUSHALL']);
    await expectFilterError(filter.has('k1'), 'CORRUPT', /missing/);
  });
});

describeIfRedis('RedisExpiringBloomFilter across processes', () => {
  const redis = privateRedis();

  test('three processes add while a fourth checks: no false negative inside the window, nothing left after it', async () => {
    const key = 'fleet:recent';
    const { client, close } = await connect('ioredis', redis.server);
    try {
      const filter = await RedisExpiringBloomFilter.create(client, key, { windowMs: WINDOW_MS, generations: GENERATIONS, capacity: 20_000 });
      const clients = ['node-redis', 'ioredis', 'node-redis'];
      const workers = clients.map((name, w) =>
        startWorker({ op: 'expiring-add', client: name, port: redis.server.port, key, prefix: `w${w}:`, batches: 12, batchSize: 200, pauseMs: 250 }),
      );
      const keysOfBatch = (w, batch) => keysOf(`w${w}:${batch}:`, 200);
      let inside = 0;
      let missing = 0;
      let running = true;
      const finished = Promise.all(workers.map((worker) => worker.done)).finally(() => (running = false));
      // Each round asks about every batch acknowledged so far, by any process. A batch's
      // keys must all be found by a call that ended before its add was sent + the window
      // (the add ran after it was sent, so the window had not passed for it).
      while (running) {
        const acked = workers.flatMap((worker, w) => worker.lines.filter((line) => line.batch !== undefined).map((line) => ({ w, ...line })));
        if (acked.length > 0) {
          const answers = await filter.hasMany(acked.flatMap(({ w, batch }) => keysOfBatch(w, batch)));
          const endedAt = Date.now();
          acked.forEach(({ sentAt }, i) => {
            if (endedAt > sentAt + WINDOW_MS) return;
            inside++;
            missing += answers.slice(i * 200, (i + 1) * 200).filter((answer) => !answer).length;
          });
        }
        await sleep(50);
      }
      await finished;
      expect(inside).toBeGreaterThan(30);
      expect(missing).toBe(0);
      // After the last add + window + one generation, nothing is left to find.
      const lastAck = Math.max(...workers.flatMap((worker) => worker.lines.map((line) => line.ackedAt ?? 0)));
      await sleep(Math.max(0, lastAck + WINDOW_MS + GENERATION_MS + SLACK_MS - Date.now()));
      const everything = clients.flatMap((_, w) => Array.from({ length: 12 }, (__, batch) => keysOfBatch(w, batch)).flat());
      expect((await filter.hasMany(everything)).some(Boolean)).toBe(false);
      expect((await run(client, ['KEYS', `{${key}}:*:g*`])).length).toBe(0);
      await filter.delete();
    } finally {
      close();
    }
  });
});
