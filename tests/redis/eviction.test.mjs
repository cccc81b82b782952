// maxmemory under each eviction policy, for RedisBloomFilter and RedisExpiringBloomFilter:
// a filter is filled with acknowledged adds, then Redis is filled with other keys past
// maxmemory until something of the filter is evicted (or writes fail: noeviction, and
// volatile-* when the filter's keys carry no expiry). The invariant of lib/faults.mjs is
// asserted under memory pressure, after the limit is raised, and for a new process's
// open and create. The one documented exception: when every key of a filter was evicted,
// a new create cannot know it existed and makes a new, empty filter; hence create and open
// refuse (UNSUPPORTED) a server whose policy may evict the filter's keys, or whose policy
// cannot be read, unless allowEviction: true (the filters here are made before the limit).
import Redis from 'ioredis';
import { createClient } from 'redis';
import { connect } from './lib/clients.mjs';
import { addRecorded, askAbout, expectNoFalseNegatives, KINDS, keysOfFilter } from './lib/faults.mjs';
import { describeIfRedis, expectFilterError, keysOf, privateRedis, run } from './lib/suite.mjs';

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const POLICIES = ['noeviction', 'allkeys-lru', 'allkeys-lfu', 'allkeys-random', 'volatile-lru', 'volatile-lfu', 'volatile-random', 'volatile-ttl'];
const FILL_VALUE = 'x'.repeat(4096);
/** Bytes Redis may hold above what it holds with the filter in it: ~60 fill values. */
const HEADROOM = 256 * 1024;
const MAX_FILLS = 3000;
/** Fill keys older than the filter's keys but the hash, for the hash-alone test: 400 KiB. */
const OLDER_FILLS = 100;

async function usedMemory(client) {
  return Number(/used_memory:(\d+)/.exec(String(await run(client, ['INFO', 'memory'])))[1]);
}

async function existing(client, names) {
  const out = [];
  for (const name of names) if (Number(await run(client, ['EXISTS', name])) === 1) out.push(name);
  return out;
}

/**
 * Fills Redis with 4 KiB keys (every other one with an expiry, longer than any
 * generation's, so volatile-* policies have candidates) until `stop(gone)` says so
 * for the filter keys gone, or writes fail with OOM. Under LFU policies each fill
 * key is read 32 times in one MGET (lfu-log-factor 0: each read counts), so the filter is
 * the coldest: each add call reads its parameters hash about twice per shard it touches
 * (the write counters' mirror), a handful of times for these small filters.
 */
async function fill(client, filterNames, { lfu, stop, checkEvery = 5 }) {
  let fills = 0;
  let refused = 0;
  let gone = [];
  for (; fills < MAX_FILLS; fills++) {
    const name = `fill:${fills}`;
    try {
      await run(client, fills % 2 === 0 ? ['SET', name, FILL_VALUE] : ['SET', name, FILL_VALUE, 'EX', String(86_400 + fills)]);
      if (lfu) await run(client, ['MGET', ...Array.from({ length: 32 }, () => name)]);
    } catch (error) {
      if (!/OOM/.test(String(error?.message))) throw error;
      if (++refused >= 20) break;
    }
    if (fills % checkEvery === checkEvery - 1) {
      const left = await existing(client, filterNames);
      gone = filterNames.filter((n) => !left.includes(n));
      if (stop(gone)) break;
    }
  }
  return { fills, refused, gone };
}

describeIfRedis('Redis filters under maxmemory and each eviction policy', () => {
  const redis = privateRedis({ clientName: 'ioredis' });
  let other; // "another process"
  const seen = [];
  beforeAll(async () => {
    other = await connect('node-redis', redis.server);
  });
  afterAll(async () => {
    await other?.close();
    // What each policy did, for the table in docs/REDIS.md (CBW_PRINT_EVICTIONS=1 prints it).
    if (process.env.CBW_PRINT_EVICTIONS) console.log(seen.map((row) => JSON.stringify(row)).join('\n'));
  });

  async function prepare(kind, policy) {
    const client = redis.client;
    await run(client, ['CONFIG', 'SET', 'maxmemory', '0']);
    await run(client, ['FLUSHALL']);
    await run(client, ['CONFIG', 'SET', 'maxmemory-policy', policy]);
    await run(client, ['CONFIG', 'SET', 'lfu-log-factor', '0']);
    await run(client, ['CONFIG', 'SET', 'maxmemory-samples', '5']);
    const key = `evicted:${kind.name}:${policy}`;
    const filter = await kind.Class.create(client, key, kind.options);
    const acked = [];
    expect(await addRecorded(filter, keysOf('a', 2000), acked)).toBeNull();
    const names = await keysOfFilter(client, key);
    return { client, key, filter, acked, names };
  }

  async function limit(client) {
    await run(client, ['CONFIG', 'SET', 'maxmemory', String((await usedMemory(client)) + HEADROOM)]);
  }

  for (const kind of KINDS) {
    test(`${kind.name}: create and open refuse (UNSUPPORTED, naming the policy) where Redis may evict its keys, unless allowEviction: true`, async () => {
      const key = `refused:${kind.name}`;
      await run(redis.client, ['FLUSHALL']);
      await run(redis.client, ['CONFIG', 'SET', 'maxmemory', '0']);
      await kind.Class.create(redis.client, key, kind.options);
      const expiring = kind.name === 'RedisExpiringBloomFilter';
      // [policy, maxmemory, refused]: allkeys-* evict any key; volatile-* only keys with an
      // expiry (an expiring filter's generations); no limit (0) evicts nothing.
      const cases = [
        ['allkeys-lru', '100mb', true],
        ['allkeys-lfu', '100mb', true],
        ['allkeys-random', '100mb', true],
        ['volatile-lru', '100mb', expiring],
        ['volatile-ttl', '100mb', expiring],
        ['noeviction', '100mb', false],
        ['allkeys-lru', '0', false],
      ];
      try {
        for (const [policy, maxmemory, refused] of cases) {
          await run(redis.client, ['CONFIG', 'SET', 'maxmemory-policy', policy]);
          await run(redis.client, ['CONFIG', 'SET', 'maxmemory', maxmemory]);
          for (const client of [redis.client, other.client]) {
            if (refused) {
              const named = new RegExp(`maxmemory-policy ${policy}.*allowEviction: true`);
              await expectFilterError(kind.Class.create(client, key, kind.options), 'UNSUPPORTED', named);
              await expectFilterError(kind.Class.open(client, key), 'UNSUPPORTED', named);
            } else {
              await kind.Class.create(client, key, kind.options);
              await kind.Class.open(client, key);
            }
            // The opt-in: both proceed, and the filter answers.
            const created = await kind.Class.create(client, key, { ...kind.options, allowEviction: true });
            await created.add('k');
            expect(await (await kind.Class.open(client, key, { allowEviction: true })).has('k')).toBe(true);
          }
        }
      } finally {
        await run(redis.client, ['CONFIG', 'SET', 'maxmemory', '0']);
        await run(redis.client, ['CONFIG', 'SET', 'maxmemory-policy', 'noeviction']);
      }
    });

    test(`${kind.name}: where INFO is refused (the policy cannot be read), create and open refuse unless allowEviction: true`, async () => {
      const key = `no-info:${kind.name}`;
      await run(redis.client, ['FLUSHALL']);
      await kind.Class.create(redis.client, key, kind.options);
      await run(redis.client, ['ACL', 'SETUSER', 'no-info', 'on', '>secret', '~*', '&*', '+@all', '-info', '-config']);
      const clients = [
        new Redis({ port: redis.server.port, host: '127.0.0.1', username: 'no-info', password: 'secret', lazyConnect: true }),
        createClient({ url: `redis://no-info:secret@127.0.0.1:${redis.server.port}` }),
      ];
      try {
        for (const client of clients) {
          client.on('error', () => {});
          await client.connect();
          await expectFilterError(kind.Class.create(client, key, kind.options), 'UNSUPPORTED', /cannot tell whether Redis may evict.*INFO memory was refused/);
          await expectFilterError(kind.Class.open(client, key), 'UNSUPPORTED', /cannot tell whether Redis may evict/);
          const opened = await kind.Class.open(client, key, { allowEviction: true });
          await opened.add('k');
          expect(await (await kind.Class.create(client, key, { ...kind.options, allowEviction: true })).has('k')).toBe(true);
        }
      } finally {
        for (const client of clients) await (client.quit ? client.quit() : client.disconnect());
        await run(redis.client, ['ACL', 'DELUSER', 'no-info']);
      }
    });

    test(`${kind.name}: allowEviction must be a boolean (INVALID_ARGUMENT, before Redis is asked)`, async () => {
      for (const allowEviction of ['yes', 1, null]) {
        await expectFilterError(kind.Class.create(redis.client, 'never', { ...kind.options, allowEviction }), 'INVALID_ARGUMENT', /allowEviction must be true or false/);
        await expectFilterError(kind.Class.open(redis.client, 'never', { allowEviction }), 'INVALID_ARGUMENT', /allowEviction must be true or false/);
      }
    });
  }

  for (const kind of KINDS) {
    for (const policy of POLICIES) {
      test(`${kind.name}, ${policy}: no acknowledged add is answered false, by any handle`, async () => {
        const { client, key, filter, acked, names } = await prepare(kind, policy);
        if (/lru/.test(policy)) await sleep(1100); // LRU clocks tick in seconds: let the filter be the idlest
        await limit(client);
        const filled = await fill(client, names, { lfu: /lfu/.test(policy), stop: (gone) => gone.length > 0 });
        // Under pressure: adds may be refused (OOM: UNAVAILABLE; lost keys: CORRUPT), never answered wrong.
        const addUnderPressure = await addRecorded(filter, keysOf('b', 200), acked);
        const underPressure = await askAbout(filter, acked);
        if ('missing' in underPressure) expect(underPressure.missing).toBe(0);
        await run(client, ['CONFIG', 'SET', 'maxmemory', '0']); // the operator raises the limit
        const left = await existing(client, names);
        const said = await expectNoFalseNegatives([filter], acked);
        let opened = 'no filter';
        try {
          said.push(...(await expectNoFalseNegatives([await kind.Class.open(other.client, key)], acked)));
          opened = 'opened';
        } catch (error) {
          if (error?.code !== 'INVALID_ARGUMENT') throw error; // the hash is gone: "holds no filter"
        }
        let created;
        const fresh = await kind.Class.create(other.client, key, kind.options).catch((error) => {
          expect(error?.code).toBe('CORRUPT');
          created = `refused: ${/parameters lost/.test(error.message) ? 'parameters lost, shards remain' : 'CORRUPT'}`;
          return null;
        });
        if (fresh !== null) {
          // With every key gone a new create cannot know a filter existed (documented); else the invariant holds.
          if (left.length > 0) said.push(...(await expectNoFalseNegatives([fresh], acked)));
          created = left.length > 0 ? 'opened' : 'new filter (every key was evicted)';
        }
        seen.push({
          kind: kind.name,
          policy,
          fills: filled.fills,
          oom: filled.refused,
          evicted: filled.gone.map((name) => (name === key ? 'hash' : name.replace(/^.*:/, ''))),
          left: left.length,
          add: addUnderPressure === null ? 'added' : `${addUnderPressure.code}${/OOM/.test(addUnderPressure.message) ? ' (OOM)' : ''}`,
          pressure: underPressure.refused ?? 'answered',
          old: said[0].refused ?? 'answered',
          open: opened,
          create: created,
        });
        // Which policies may take the filter's keys: every allkeys-* one, and volatile-*
        // ones only the expiring filter's generations (the only keys with an expiry).
        const evictable = policy.startsWith('allkeys-') || (policy.startsWith('volatile-') && kind.name === 'RedisExpiringBloomFilter');
        if (evictable) expect(filled.gone.length).toBeGreaterThan(0);
        else {
          expect(filled.gone).toEqual([]);
          expect(filled.refused).toBeGreaterThan(0); // Redis refused writes instead
          expect(said[0]).toEqual({ missing: 0 }); // nothing lost: every handle answers
        }
      });
    }

    test(`${kind.name}: the parameters hash alone evicted (allkeys-lru): every handle refuses, create refuses`, async () => {
      const { client, key, filter, acked, names } = await prepare(kind, 'allkeys-lru');
      // Three ages, as Redis's LRU clock counts them (in seconds): the hash the oldest, then
      // older fill keys, then the filter's other keys with the new fills. One write may
      // evict several keys; those after the hash are then the older fills, never the
      // filter's last keys tied with the new fills (as when every key but the hash was as
      // old as the fills, and one run saw the whole filter go). 64 samples per eviction (the
      // most Redis takes, 5 by default) find the idlest key among these few hundred at once.
      await sleep(1100);
      for (let i = 0; i < OLDER_FILLS; i++) await run(client, ['SET', `older:${i}`, FILL_VALUE]);
      await sleep(1100);
      await run(client, ['TOUCH', ...names.filter((name) => name !== key)]);
      await run(client, ['CONFIG', 'SET', 'maxmemory-samples', '64']);
      await limit(client);
      const filled = await fill(client, names, { lfu: false, stop: (gone) => gone.includes(key), checkEvery: 1 });
      await run(client, ['CONFIG', 'SET', 'maxmemory', '0']);
      // One write may evict several keys: the hash went, and (at least) some of the rest stayed.
      expect(filled.gone).toContain(key);
      expect((await existing(client, names)).length).toBeGreaterThan(0);
      const refusal = await addRecorded(filter, keysOf('b', 200), acked);
      expect(refusal?.code).toBe('CORRUPT');
      const said = await expectNoFalseNegatives([filter], acked);
      expect(said[0].refused).toBe('CORRUPT');
      await expectFilterError(kind.Class.create(other.client, key, kind.options), 'CORRUPT', /parameters lost, shards remain/);
      await expectFilterError(kind.Class.open(other.client, key), 'INVALID_ARGUMENT', /holds no filter/);
    });
  }
});
