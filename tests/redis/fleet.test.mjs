// Several Node processes against one Redis: what one adds, every other finds,
// with either client; and no acknowledged add is lost when Redis is killed and
// restarted mid-run with persistence on (append-only file, fsync always).
import { RedisBloomFilter } from 'cuckoo-bloom-wasm/redis';
import { connect } from './lib/clients.mjs';
import { startWorker } from './lib/fleet.mjs';
import { describeIfRedis, privateRedis } from './lib/suite.mjs';

async function createFilter(server, key, options) {
  const { client, close } = await connect('ioredis', server);
  try {
    await RedisBloomFilter.create(client, key, options);
  } finally {
    close();
  }
}

describeIfRedis('a fleet of processes sharing one filter', () => {
  const redis = privateRedis();

  test('keys added by each process are found by every process, with both clients', async () => {
    const key = 'fleet:shared';
    await createFilter(redis.server, key, { capacity: 50_000, falsePositiveRate: 0.01, shardBytes: 8192 });
    const prefixes = ['alpha:', 'beta:', 'gamma:'];
    const clients = ['node-redis', 'ioredis', 'node-redis'];
    const count = 4000;
    await Promise.all(
      prefixes.map((prefix, i) =>
        startWorker({ op: 'add', client: clients[i], port: redis.server.port, key, prefix, count, batch: 500 }).done,
      ),
    );
    const checks = await Promise.all(
      clients.map((client) => startWorker({ op: 'check', client, port: redis.server.port, key, prefixes, count }).done),
    );
    expect(checks.map((lines) => lines.at(-1).missing)).toEqual([0, 0, 0]);
  });
});

describeIfRedis('a Redis restart mid-run, with persistence on', () => {
  const redis = privateRedis({ persistent: true });

  test('no acknowledged add is lost when Redis is killed (SIGKILL) and restarted', async () => {
    const key = 'fleet:restart';
    await createFilter(redis.server, key, { capacity: 100_000, falsePositiveRate: 0.01, shardBytes: 16384 });
    const count = 6000;
    const workers = ['node-redis', 'ioredis'].map((client, i) =>
      startWorker({ op: 'add', client, port: redis.server.port, key, prefix: `w${i}:`, count, batch: 200, retry: true, pauseMs: 100 }),
    );
    // Kill once both workers have acknowledged a batch. Each runs 30 batches 100 ms apart
    // (at least 3 s): in CI one worker, started a moment before the other on a loaded
    // machine, once finished its 30 batches 10 ms apart before the other had acknowledged 3.
    const deadline = Date.now() + 60_000;
    while (workers.some((worker) => worker.lines.length < 1) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const acknowledgedAtKill = workers.map((worker) => worker.lines.at(-1)?.acknowledged ?? 0);
    await redis.server.kill('SIGKILL');
    await new Promise((resolve) => setTimeout(resolve, 300));
    await redis.server.start();
    const results = await Promise.all(workers.map((worker) => worker.done));

    // The kill landed mid-run: neither worker was done, and both went on afterwards.
    expect(acknowledgedAtKill.every((acknowledged) => acknowledged > 0 && acknowledged < count)).toBe(true);
    for (const lines of results) expect(lines.at(-1)).toMatchObject({ done: true });
    const check = await startWorker({ op: 'check', client: 'ioredis', port: redis.server.port, key, prefixes: ['w0:', 'w1:'], count }).done;
    expect(check.at(-1).missing).toBe(0);
  });
});
