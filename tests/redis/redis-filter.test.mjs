import { inspect } from 'node:util';
// RedisBloomFilter against a private redis-server, with node-redis and ioredis:
// answers, sharding, snapshots read by deserialize(), parameters checked on
// open, and failures reported as FilterError (never as an answer).
import { BlockedBloomFilter as LocalBlockedBloom, deserialize as deserializeInBrowserBuild, init as initBrowserBuild } from 'cuckoo-bloom-wasm';
import { RedisBloomFilter } from 'cuckoo-bloom-wasm/redis';
import { FilterError, deserialize } from '../../dist/index.import.cjs';
import { CLIENT_NAMES, connect } from './lib/clients.mjs';
import { startRedis } from './lib/redis-server.mjs';
import { describeIfRedis, expectFilterError, keysOf, privateRedis, run } from './lib/suite.mjs';

describeIfRedis.each(CLIENT_NAMES)('RedisBloomFilter with %s', (clientName) => {
  const redis = privateRedis({ clientName });
  beforeAll(async () => {
    await initBrowserBuild();
  });

  test('add says whether a key was new; has finds every added key and few others', async () => {
    const filter = await RedisBloomFilter.create(redis.client, 'basic', { capacity: 20_000, falsePositiveRate: 0.01 });
    expect(await filter.add('first')).toBe(true);
    expect(await filter.add('first')).toBe(false);
    expect(await filter.has('first')).toBe(true);
    const keys = keysOf('key:', 20_000);
    const added = await filter.addMany(keys);
    expect(added.filter(Boolean).length).toBeGreaterThan(19_500); // a few collide with earlier keys' bits
    expect((await filter.hasMany(keys)).every(Boolean)).toBe(true);
    const absent = await filter.hasMany(keysOf('absent:', 20_000));
    // Seeded keys, honest bound: target 1%, measured well under 2% over 20,000 probes.
    expect(absent.filter(Boolean).length / absent.length).toBeLessThan(0.02);
    expect(await filter.count()).toBe(added.filter(Boolean).length + 1);
    // Byte keys are their UTF-8 string.
    expect(await filter.has(new TextEncoder().encode('key:7'))).toBe(true);
    await filter.delete();
  });

  test('sets exactly the bits of a local BlockedBloomFilter with the same options: snapshot bytes are equal', async () => {
    const options = { capacity: 5000, falsePositiveRate: 0.001, seed: 42 };
    const filter = await RedisBloomFilter.create(redis.client, 'same-bits', options);
    const keys = keysOf('url:', 5000);
    await filter.addMany(keys);
    const local = new LocalBlockedBloom(options);
    local.addMany(keys);
    expect(Buffer.from(await filter.snapshot()).equals(Buffer.from(local.serialize()))).toBe(true);
    local.free();
    await filter.delete();
  });

  test('addMany over several script calls answers "new" exactly as adding one by one to a local filter', async () => {
    // 10,000 keys (three calls of at most 4,096), many repeated and many sharing a block
    // (a tiny table): each call is planned in block order, and must still answer as
    // sequential adds in batch order do.
    const options = { capacity: 600, falsePositiveRate: 0.05, seed: 9 };
    const filter = await RedisBloomFilter.create(redis.client, 'sequential', { ...options, shardBytes: 256 });
    // Non-ASCII strings and bytes too: both are hashed as their UTF-8 bytes, as locally.
    const keys = Array.from({ length: 10_000 }, (_, i) => {
      const n = (i * 7919) % 2500;
      if (n % 5 === 0) return `ключ-🔑:${n}`;
      return n % 5 === 1 ? new TextEncoder().encode(`bytes:${n}`) : `key:${n}`;
    });
    const local = new LocalBlockedBloom(options);
    const expected = keys.map((key) => local.addIfNew(key));
    expect(expected.filter((isNew) => !isNew).length).toBeGreaterThan(7000); // repeats and saturated blocks
    expect(await filter.addMany(keys)).toEqual(expected);
    expect(await filter.count()).toBe(local.count);
    expect(Buffer.from(await filter.snapshot()).equals(Buffer.from(local.serialize()))).toBe(true);
    local.free();
    await filter.delete();
  });

  test('a snapshot stays valid when the item counter was changed behind the filter: the count yields to the set bits', async () => {
    const filter = await RedisBloomFilter.create(redis.client, 'counter', { capacity: 1000, shardBytes: 1024 });
    await filter.addMany(keysOf('c', 300));
    const counters = (await run(redis.client, ['KEYS', '{counter}:*:count'])).map(String);
    await run(redis.client, ['SET', counters[0], '100000000']);
    const bytes = await filter.snapshot({ chunkBytes: 100 });
    const local = deserialize(bytes); // checksum and count ≤ set bits checked by the reader
    expect(local.count).toBeLessThan(100_000_000);
    expect(local.count).toBeGreaterThanOrEqual(300 * 0.9);
    expect(local.hasMany(keysOf('c', 300)).every(Boolean)).toBe(true);
    local.free();
    await filter.delete();
  });

  test('snapshot → deserialize (Node and browser builds) answers exactly as the Redis filter', async () => {
    const filter = await RedisBloomFilter.create(redis.client, 'snapshot', { capacity: 30_000, falsePositiveRate: 0.01, shardBytes: 64 * 64 });
    await filter.addMany(keysOf('in:', 30_000));
    const probes = [...keysOf('in:', 30_000), ...keysOf('out:', 30_000)];
    const remote = await filter.hasMany(probes);
    const bytes = await filter.snapshot({ chunkBytes: 1000 });
    for (const read of [deserialize, deserializeInBrowserBuild]) {
      const local = read(bytes);
      expect(local.type).toBe('blocked-bloom');
      expect(local.hasMany(probes)).toEqual(remote);
      local.free();
    }
    await filter.delete();
  });

  test('a filter sharded over many small keys answers exactly like an unsharded one (both slot layouts)', async () => {
    const options = { capacity: 20_000, falsePositiveRate: 0.01, seed: 7 };
    const whole = await RedisBloomFilter.create(redis.client, 'whole', options);
    const sharded = await RedisBloomFilter.create(redis.client, 'sharded', { ...options, shardBytes: 1024 });
    const spread = await RedisBloomFilter.create(redis.client, 'spread', { ...options, shardBytes: 4096, slots: 'spread' });
    expect(whole.shardCount).toBe(1);
    expect(sharded.shardCount).toBeGreaterThan(20);
    expect(sharded.blockCount).toBe(whole.blockCount);
    const keys = keysOf('k', 20_000);
    const newInWhole = await whole.addMany(keys);
    expect(await sharded.addMany(keys)).toEqual(newInWhole);
    expect(await spread.addMany(keys)).toEqual(newInWhole);
    const probes = [...keys, ...keysOf('other', 20_000)];
    const answers = await whole.hasMany(probes);
    expect(await sharded.hasMany(probes)).toEqual(answers);
    expect(await spread.hasMany(probes)).toEqual(answers);
    const bytes = Buffer.from(await whole.snapshot());
    expect(Buffer.from(await sharded.snapshot()).equals(bytes)).toBe(true);
    expect(Buffer.from(await spread.snapshot()).equals(bytes)).toBe(true);
    await Promise.all([whole.delete(), sharded.delete(), spread.delete()]);
  });

  test('load and fromSnapshot restore a snapshot in chunks', async () => {
    const source = await RedisBloomFilter.create(redis.client, 'load-source', { capacity: 10_000, shardBytes: 2048 });
    await source.addMany(keysOf('s', 10_000));
    const bytes = await source.snapshot();
    const restored = await RedisBloomFilter.fromSnapshot(redis.client, 'load-copy', bytes, { shardBytes: 4096, chunkBytes: 500 });
    expect(Buffer.from(await restored.snapshot()).equals(Buffer.from(bytes))).toBe(true);
    expect((await restored.hasMany(keysOf('s', 10_000))).every(Boolean)).toBe(true);
    expect(await restored.count()).toBe(await source.count());
    const other = await RedisBloomFilter.create(redis.client, 'load-other', { capacity: 999 });
    await expectFilterError(other.load(bytes), 'INVALID_ARGUMENT', /same parameters/);
    await expectFilterError(other.load(bytes.subarray(0, 100)), 'CORRUPT');
    await Promise.all([source.delete(), restored.delete(), other.delete()]);
  });

  test('parameters are stored beside the filter and checked: other parameters are refused', async () => {
    const filter = await RedisBloomFilter.create(redis.client, 'params', { capacity: 1000, falsePositiveRate: 0.01, seed: 3 });
    await filter.add('x');
    // The same parameters open the same filter (every process may call create).
    const again = await RedisBloomFilter.create(redis.client, 'params', { capacity: 1000, falsePositiveRate: 0.01, seed: 3 });
    expect(await again.has('x')).toBe(true);
    await expectFilterError(
      RedisBloomFilter.create(redis.client, 'params', { capacity: 1000, falsePositiveRate: 0.001, seed: 3 }),
      'INVALID_ARGUMENT',
      /other parameters.*falsePositiveRate 0\.01 stored, 0\.001 asked/,
    );
    await expectFilterError(RedisBloomFilter.create(redis.client, 'params', { capacity: 1000, seed: 4 }), 'INVALID_ARGUMENT', /seed 3 stored, 4 asked/);
    const opened = await RedisBloomFilter.open(redis.client, 'params');
    expect([opened.capacity, opened.falsePositiveRate, opened.seed]).toEqual([1000, 0.01, 3]);
    await expectFilterError(RedisBloomFilter.open(redis.client, 'no-such-filter'), 'INVALID_ARGUMENT', /holds no filter/);
    await run(redis.client, ['SET', 'plain-string', 'x']);
    await expectFilterError(RedisBloomFilter.open(redis.client, 'plain-string'), 'CORRUPT');
    await filter.delete();
  });

  test('bad options and keys are INVALID_ARGUMENT before Redis is touched', async () => {
    await expectFilterError(RedisBloomFilter.create(redis.client, 'bad', { capacity: 0 }), 'INVALID_ARGUMENT', /capacity/);
    await expectFilterError(RedisBloomFilter.create(redis.client, 'bad', { capacity: 10, fpr: 0.1 }), 'INVALID_ARGUMENT', /unknown option 'fpr'/);
    await expectFilterError(RedisBloomFilter.create(redis.client, 'bad', { capacity: 10, shardBytes: 100 }), 'INVALID_ARGUMENT', /multiple of 64/);
    await expectFilterError(RedisBloomFilter.create({}, 'bad', { capacity: 10 }), 'INVALID_ARGUMENT', /client/);
    const filter = await RedisBloomFilter.create(redis.client, 'keys', { capacity: 10 });
    await expectFilterError(filter.hasMany(['ok', 42]), 'INVALID_ARGUMENT', /key 1 must be a string/);
    await expectFilterError(filter.addMany('one key'), 'INVALID_ARGUMENT', /a string \(one key: use add\/has\)/);
    await expectFilterError(filter.addMany(42), 'INVALID_ARGUMENT', /keys must be an array or another iterable/);
    await filter.delete();
  });

  test('console.log / String show the key, sizing and bytes without asking Redis', async () => {
    const filter = await RedisBloomFilter.create(redis.client, 'shown', { capacity: 1000, falsePositiveRate: 0.01 });
    const shown = inspect(filter);
    expect(shown).toBe(
      `RedisBloomFilter { key: "shown", capacity: 1000, falsePositiveRate: 0.01, byteLength: ${filter.byteLength}, shards: 1, slots: 'single' }`,
    );
    expect(String(filter)).toBe(shown);
    await filter.destroy();
    expect(inspect(filter)).toMatch(/, destroyed \}$/);
  });

  test('batches take any iterable of keys, as the in-memory filters do', async () => {
    const filter = await RedisBloomFilter.create(redis.client, 'iterables', { capacity: 1000 });
    expect(await filter.addMany(new Set(['a', 'b', 'a']))).toEqual([true, true]);
    expect(await filter.addMany(new Map([['c', 1]]).keys())).toEqual([true]);
    function* generated() {
      yield 'd';
      yield new TextEncoder().encode('e');
    }
    expect(await filter.addMany(generated())).toEqual([true, true]);
    expect(await filter.hasMany(new Set(['a', 'b', 'c', 'd', 'e']))).toEqual([true, true, true, true, true]);
    await filter.delete();
  });

  test('a missing shard is an error, never a "not present" answer', async () => {
    const filter = await RedisBloomFilter.create(redis.client, 'lost', { capacity: 10_000, shardBytes: 1024 });
    await filter.addMany(keysOf('k', 1000));
    const shards = await run(redis.client, ['KEYS', '{lost}:*']);
    await run(redis.client, ['DEL', shards.find((name) => !name.endsWith(':count'))]);
    await expectFilterError(filter.hasMany(keysOf('k', 1000)), 'CORRUPT', /missing/);
    // (A script checks the shards its keys fall in: these 1,000 keys cover every shard.)
    await expectFilterError(filter.addMany(keysOf('k', 1000)), 'CORRUPT', /missing/);
    await expectFilterError(filter.snapshot(), 'CORRUPT', /missing/);
    // After destroy() and a new create under the same key, another old handle cannot read the new filter.
    const stale = await RedisBloomFilter.open(redis.client, 'lost');
    await filter.destroy();
    await expectFilterError(filter.has('k1'), 'FREED');
    await RedisBloomFilter.create(redis.client, 'lost', { capacity: 10_000, shardBytes: 1024 });
    await expectFilterError(stale.has('k1'), 'CORRUPT', /another filter/);
  });

  test('a flushed script cache (NOSCRIPT) is reloaded transparently', async () => {
    const filter = await RedisBloomFilter.create(redis.client, 'noscript', { capacity: 1000 });
    await filter.add('a');

    await run(redis.client, ['SCRIPT', 'FLUSH']);
    expect(await filter.hasMany(['a', 'b'])).toEqual([true, false]);
    await run(redis.client, ['SCRIPT', 'FLUSH']);
    expect(await filter.add('b')).toBe(true);
    await filter.delete();
  });
});

describeIfRedis('RedisBloomFilter when Redis is down', () => {
  test.each(CLIENT_NAMES)('%s: calls reject with UNAVAILABLE (no answer), and work again after a restart', async (clientName) => {
    const server = await startRedis();
    const { client, close } = await connect(clientName, server, { failFast: true });
    try {
      const filter = await RedisBloomFilter.create(client, 'down', { capacity: 1000, timeoutMs: 1000 });
      await filter.add('kept');
      await server.kill('SIGKILL');
      await expectFilterError(filter.has('kept'), 'UNAVAILABLE');
      await expectFilterError(filter.addMany(['a', 'b']), 'UNAVAILABLE');
      await server.start(); // no persistence: the restarted server is empty
      let error = null;
      for (let attempt = 0; attempt < 100; attempt++) {
        error = await filter.has('kept').then(() => null, (caught) => caught);
        if (error?.code !== 'UNAVAILABLE') break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      // The data is gone with the server: reported as such, not as "not present".
      expect(error).toBeInstanceOf(FilterError);
      expect(error.code).toBe('CORRUPT');
    } finally {
      await close();
      await server.stop();
    }
  });
});
