// Faults on a real Redis Cluster (./lib/cluster.mjs, node timeout 1 s) while a
// filter is being added to, through node-redis's createCluster and ioredis's
// Redis.Cluster: a master failed over by CLUSTER FAILOVER, a master SIGKILLed
// (with durability, the only way an acknowledged add survives that: see
// cluster-durability.test.mjs for the loss without it), and the filter's slot
// resharded back and forth with redis-cli. Every add that resolved is then
// checked with a fresh client: none may be answered false. Adds that rejected
// meanwhile were not acknowledged, and may only reject UNAVAILABLE.
import { startCluster } from './lib/cluster.mjs';
import { addsThroughFault } from './lib/cluster-adds.mjs';
import { CLIENT_NAMES } from './lib/cluster-clients.mjs';
import { failoverByCommand, failoverByKill, keyInSlotZero, reshardBackAndForth } from './lib/cluster-faults.mjs';
import { describeIfRedis } from './lib/suite.mjs';

let cluster;
beforeAll(async () => {
  cluster = await startCluster({ nodeTimeoutMs: 1000 });
});
afterAll(async () => {
  await cluster?.stop();
});

function expectNoLoss(outcome) {
  expect(outcome.acknowledged.length).toBeGreaterThan(400);
  expect(outcome.missing).toEqual([]);
  for (const error of outcome.errors) expect(error).toMatch(/^UNAVAILABLE: /);
}

describeIfRedis.each(CLIENT_NAMES)('faults during adds through %s', (clientName) => {
  test.each(['single', 'spread'])("CLUSTER FAILOVER of the filter's master, slots '%s': no acknowledged add is lost", async (slots) => {
    const outcome = await addsThroughFault(cluster, clientName, {
      key: `failover-${clientName}-${slots}`,
      options: { capacity: 50_000, shardBytes: 4096, slots },
      fault: (key) => failoverByCommand(cluster, key),
    });
    expectNoLoss(outcome);
  });

  test.each([
    ['RedisBloomFilter', 'single'],
    ['RedisBloomFilter', 'spread'],
    ['RedisExpiringBloomFilter', 'single'],
  ])("SIGKILL of the filter's master, %s with slots '%s' and durability { replicas: 1 }: no acknowledged add is lost", async (className, slots) => {
    const outcome = await addsThroughFault(cluster, clientName, {
      className,
      key: `kill-${clientName}-${className}-${slots}`,
      options:
        className === 'RedisBloomFilter'
          ? { capacity: 50_000, shardBytes: 4096, slots, durability: { replicas: 1, timeoutMs: 1000 } }
          : { windowMs: 600_000, capacity: 50_000, durability: { replicas: 1, timeoutMs: 1000 } },
      fault: (key) => failoverByKill(cluster, key),
    });
    expectNoLoss(outcome);
  });

  test("resharding the filter's slot back and forth (redis-cli --cluster reshard) during adds: no acknowledged add is lost", async () => {
    const outcome = await addsThroughFault(cluster, clientName, {
      key: keyInSlotZero(`reshard-${clientName}-`),
      // 1 KiB shards: ~60 strings and their counters in the slot, moved one by one.
      options: { capacity: 50_000, shardBytes: 1024 },
      fault: (key) => reshardBackAndForth(cluster, key, 4),
    });
    expectNoLoss(outcome);
    // MOVED and ASK are followed by the clients, TRYAGAIN (keys of one script on both
    // nodes mid-migration) retried by ioredis and by this package for node-redis.
    expect(outcome.errors).toEqual([]);
    console.log(`reshard through ${clientName}: ${outcome.acknowledged.length} keys acknowledged, ${outcome.rejected} adds rejected${outcome.errors.length > 0 ? ` (first: ${outcome.errors[0]})` : ''}`);
  });
});
