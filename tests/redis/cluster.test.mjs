// The Redis filters on a real Redis Cluster (3 masters + 3 replicas, started for
// this file: ./lib/cluster.mjs) through node-redis's createCluster and ioredis's
// Redis.Cluster, in both slot layouts: every added key found, from this client
// and a fresh one; 'spread' really spreads over the masters and 'single' keeps
// one slot; shards put back to older copies (RESTORE, COPY … REPLACE) are refused by
// every handle. And the durability option: validated, WAIT sent only when asked,
// an add rejected UNAVAILABLE when too few replicas acknowledge.
import { RedisBloomFilter, RedisExpiringBloomFilter } from 'cuckoo-bloom-wasm/redis';
import Redis from 'ioredis';
import { cli, slotOf, startCluster } from './lib/cluster.mjs';
import { CLIENT_NAMES, connectCluster } from './lib/cluster-clients.mjs';
import { startRedis } from './lib/redis-server.mjs';
import { connect } from './lib/clients.mjs';
import { describeIfRedis, expectFilterError, keysOf } from './lib/suite.mjs';
import { ackThenPutBackOlderShards, COPY_METHODS } from './lib/copies.mjs';
import { expectNoFalseNegatives, KINDS } from './lib/faults.mjs';

let cluster;
beforeAll(async () => {
  cluster = await startCluster();
});
afterAll(async () => {
  await cluster?.stop();
});

/** The masters (ports) holding at least one key whose name starts with `prefix` (the filter's hash tag). */
async function mastersHolding(pattern) {
  const holding = [];
  for (const node of await cluster.nodes()) {
    if (node.role !== 'master') continue;
    const keys = (await cli(node.port, ['--scan', '--pattern', pattern])).trim();
    if (keys !== '') holding.push(node.port);
  }
  return holding;
}

describeIfRedis.each(CLIENT_NAMES)('Redis filters on a cluster through %s', (clientName) => {
  let client;
  let close;
  beforeAll(async () => {
    ({ client, close } = await connectCluster(clientName, cluster));
  });
  afterAll(async () => {
    await close?.();
  });

  test.each(['single', 'spread'])("RedisBloomFilter, slots '%s': every added key is found, by this client and a fresh one", async (slots) => {
    const key = `bloom-${clientName}-${slots}`;
    // 512-byte shards: ~50 strings. Their slots follow the filter's random id: all of
    // them miss one of 3 masters with probability 3 × (2/3)^50 ≈ 5e-9.
    const filter = await RedisBloomFilter.create(client, key, { capacity: 20_000, falsePositiveRate: 0.01, shardBytes: 512, slots });
    expect(filter.shardCount).toBeGreaterThan(40);
    expect(await filter.add('first')).toBe(true);
    expect(await filter.add('first')).toBe(false);
    expect(await filter.has('first')).toBe(true);
    const keys = keysOf(`${key}:`, 20_000);
    await filter.addMany(keys);
    expect((await filter.hasMany(keys)).every(Boolean)).toBe(true);
    const absent = await filter.hasMany(keysOf('absent:', 10_000));
    // Seeded keys, honest bound: target 1%, measured well under 2%.
    expect(absent.filter(Boolean).length / absent.length).toBeLessThan(0.02);
    const holding = await mastersHolding(`*${key}*`);
    if (slots === 'single') expect(holding).toHaveLength(1);
    else expect(holding).toHaveLength(3);

    const fresh = await connectCluster(clientName, cluster);
    try {
      const reopened = await RedisBloomFilter.open(fresh.client, key);
      expect((await reopened.hasMany(keys)).every(Boolean)).toBe(true);
      expect(await reopened.count()).toBe(await filter.count());
      // A snapshot reads every shard from its master.
      expect((await reopened.snapshot()).length).toBe(64 + filter.byteLength + 8);
    } finally {
      await fresh.close();
    }
    await filter.delete();
    expect(await mastersHolding(`*${key}*`)).toEqual([]);
  });

  test('RedisExpiringBloomFilter: every added key is found within the window, by this client and a fresh one', async () => {
    const key = `expiring-${clientName}`;
    const filter = await RedisExpiringBloomFilter.create(client, key, { windowMs: 60_000, capacity: 10_000, shardBytes: 1024 });
    const keys = keysOf(`${key}:`, 10_000);
    expect((await filter.addMany(keys)).filter(Boolean).length).toBeGreaterThan(9900);
    expect((await filter.hasMany(keys)).every(Boolean)).toBe(true);
    expect(await filter.add(keys[0])).toBe(false);
    const fresh = await connectCluster(clientName, cluster);
    try {
      const reopened = await RedisExpiringBloomFilter.open(fresh.client, key);
      expect((await reopened.hasMany(keys)).every(Boolean)).toBe(true);
    } finally {
      await fresh.close();
    }
    expect(await mastersHolding(`*${key}*`)).toHaveLength(1);
    await filter.delete();
  });

  const restorable = [
    [KINDS[0], 'single'],
    [KINDS[0], 'spread'],
    [KINDS[1], 'single'],
  ];
  for (const [kind, slots] of restorable) {
    for (const method of COPY_METHODS) {
      test(`${kind.name}, slots '${slots}', ${method}: shards put back to older copies are refused (CORRUPT) by old and fresh handles`, async () => {
        const key = `restored-${clientName}-${kind.name}-${slots}-${method.slice(0, 4)}`;
        const options = kind.name === 'RedisBloomFilter' ? { ...kind.options, slots } : kind.options;
        const io = new Redis.Cluster(cluster.live().map((port) => ({ host: '127.0.0.1', port })), { lazyConnect: true });
        io.on('error', () => {});
        await io.connect();
        const fresh = await connectCluster(clientName, cluster);
        try {
          const filter = await kind.Class.create(client, key, options);
          const acked = await ackThenPutBackOlderShards(filter, io, key, method);
          const said = await expectNoFalseNegatives([filter, await kind.Class.open(fresh.client, key)], acked);
          expect(said.map((answer) => answer.refused)).toEqual(['CORRUPT', 'CORRUPT']);
          for (const answer of said) expect(answer.message).toMatch(/put back to an older copy/);
          await filter.destroy();
        } finally {
          await fresh.close();
          io.disconnect();
        }
      });
    }
  }

  test.each(['single', 'spread'])("durability { replicas: 1 }, slots '%s': adds resolve once a replica has them", async (slots) => {
    const key = `durable-${clientName}-${slots}`;
    const durability = { replicas: 1, timeoutMs: 2000 };
    const filter = await RedisBloomFilter.create(client, key, { capacity: 5000, shardBytes: 1024, slots, durability });
    const keys = keysOf(`${key}:`, 5000);
    await filter.addMany(keys);
    expect((await filter.hasMany(keys)).every(Boolean)).toBe(true);
    const expiring = await RedisExpiringBloomFilter.create(client, `${key}-expiring`, { windowMs: 60_000, capacity: 1000, durability });
    await expiring.addMany(keys.slice(0, 1000));
    expect((await expiring.hasMany(keys.slice(0, 1000))).every(Boolean)).toBe(true);
    await filter.delete();
    await expiring.delete();
  });

  test('durability asking more replicas than a master has: create and add reject UNAVAILABLE saying how many acknowledged', async () => {
    // Every master has one replica: WAIT 2 times out with 1.
    const durability = { replicas: 2, timeoutMs: 200 };
    const name = `too-many-${clientName}`;
    await expectFilterError(RedisBloomFilter.create(client, name, { capacity: 1000, durability }), 'UNAVAILABLE', /1 of the 2 replica\(s\) asked for acknowledged the write within 200 ms/);
    // The filter was made on the master (the create is safe to retry); a durable handle's add rejects the same way.
    const filter = await RedisBloomFilter.open(client, name, { durability });
    await expectFilterError(filter.add('k'), 'UNAVAILABLE', /1 of the 2 replica\(s\) asked for acknowledged the write within 200 ms/);
    // The bits may be set (the script ran): a handle without durability finds the key.
    const plain = await RedisBloomFilter.open(client, name);
    expect(await plain.has('k')).toBe(true);
    const expiring = await RedisExpiringBloomFilter.create(client, `too-many-expiring-${clientName}`, { windowMs: 60_000, capacity: 1000 });
    const durableExpiring = await RedisExpiringBloomFilter.open(client, `too-many-expiring-${clientName}`, { durability });
    await expectFilterError(durableExpiring.addMany(['a', 'b']), 'UNAVAILABLE', /1 of the 2 replica/);
    expect(await expiring.hasMany(['a', 'b'])).toEqual([true, true]);
    await plain.delete();
    await expiring.delete();
  });
});

describeIfRedis('the durability option', () => {
  test('bad shapes are INVALID_ARGUMENT naming the option, on create and open of both classes, before Redis is touched', async () => {
    const { client, close } = await connectCluster('node-redis', cluster);
    try {
      const bad = [
        ['yes', /durability must be an object/],
        [null, /durability must be an object/],
        [{ replicas: 1 }, /durability\.timeoutMs must be an integer/],
        [{ timeoutMs: 100 }, /durability\.replicas must be an integer/],
        [{ replicas: 0, timeoutMs: 100 }, /durability\.replicas must be an integer in \[1,/],
        [{ replicas: 1.5, timeoutMs: 100 }, /durability\.replicas/],
        [{ replicas: 1, timeoutMs: 0 }, /durability\.timeoutMs must be an integer in \[1,/],
        [{ replicas: 1, timeoutMs: 100, wait: true }, /unknown durability option 'wait'/],
      ];
      for (const [durability, pattern] of bad) {
        await expectFilterError(RedisBloomFilter.create(client, 'never', { capacity: 10, durability }), 'INVALID_ARGUMENT', pattern);
        await expectFilterError(RedisBloomFilter.open(client, 'never', { durability }), 'INVALID_ARGUMENT', pattern);
        await expectFilterError(
          RedisExpiringBloomFilter.create(client, 'never', { windowMs: 1000, capacity: 10, durability }),
          'INVALID_ARGUMENT',
          pattern,
        );
        await expectFilterError(RedisExpiringBloomFilter.open(client, 'never', { durability }), 'INVALID_ARGUMENT', pattern);
      }
      expect(await client.sendCommand('never', true, ['EXISTS', 'never'])).toBe(0);
    } finally {
      await close();
    }
  });

  test('WAIT is sent after each add only when asked for (a recording runner), and never for has', async () => {
    const io = new Redis.Cluster(cluster.live().map((port) => ({ host: '127.0.0.1', port })), { lazyConnect: true });
    io.on('error', () => {});
    await io.connect();
    const sent = [];
    // A runner of the documented shape (no sendToMasterOf: WAIT goes through send).
    const runner = {
      send: (args) => (sent.push(String(args[0])), io.call(...args)),
      sendForBytes: (args) => (sent.push(String(args[0])), io.callBuffer(...args)),
    };
    try {
      const plain = await RedisBloomFilter.create(runner, 'recorded', { capacity: 1000 });
      await plain.addMany(keysOf('r', 100));
      await plain.has('r1');
      expect(sent).not.toContain('WAIT');
      const durable = await RedisBloomFilter.open(runner, 'recorded', { durability: { replicas: 1, timeoutMs: 1000 } });
      sent.length = 0;
      await durable.has('r1');
      expect(sent).not.toContain('WAIT');
      await durable.addMany(keysOf('r', 100));
      expect(sent.filter((command) => command === 'WAIT')).toHaveLength(1);
      await plain.delete();
    } finally {
      io.disconnect();
    }
  });

  test('on one server without replicas, a durable create and add reject UNAVAILABLE: 0 of 1 acknowledged', async () => {
    const server = await startRedis();
    const { client, close } = await connect('node-redis', server);
    try {
      const durability = { replicas: 1, timeoutMs: 100 };
      await expectFilterError(RedisBloomFilter.create(client, 'alone', { capacity: 1000, durability }), 'UNAVAILABLE', /0 of the 1 replica\(s\) asked for acknowledged/);
      const filter = await RedisBloomFilter.open(client, 'alone', { durability });
      await expectFilterError(filter.add('k'), 'UNAVAILABLE', /0 of the 1 replica\(s\) asked for acknowledged/);
    } finally {
      await close();
      await server.stop();
    }
  });
});

test('slotOf (the tests\' copy) agrees with CLUSTER KEYSLOT', async () => {
  for (const key of ['foo', '{user1000}.following', 'a{b}c', 'a{}b', '{}{x}', 'ключ']) {
    expect(slotOf(key)).toBe(Number((await cli(cluster.live()[0], ['CLUSTER', 'KEYSLOT', key])).trim()));
  }
});
