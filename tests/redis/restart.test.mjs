// The server SIGKILLed and restarted, for RedisBloomFilter and RedisExpiringBloomFilter,
// under each persistence mode docs/REDIS.md documents: append-only file with fsync always
// (a process kill loses nothing acknowledged: the data was written to the OS before the
// reply) or every second (the same, except that while a slow background fsync runs Redis
// may postpone that write by up to 2 s and reply anyway: only adds acknowledged in the
// last 2 s before the kill may be lost, and the test asserts exactly that), no persistence (the filter is gone: the old handle says CORRUPT,
// a new create makes a new filter), and RDB snapshots alone (adds after the last
// snapshot are lost without any sign: the documented reason not to rely on RDB alone).
import { connect } from './lib/clients.mjs';
import { addRecorded, askAbout, KINDS } from './lib/faults.mjs';
import { startRedis } from './lib/redis-server.mjs';
import { describeIfRedis, expectFilterError, keysOf, run } from './lib/suite.mjs';

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** What `handle` says about `acked` once Redis answers again (UNAVAILABLE while it restarts). */
async function askWhenBack(handle, acked) {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const said = await askAbout(handle, acked);
    if (said.refused !== 'UNAVAILABLE' || Date.now() > deadline) return said;
    await sleep(50);
  }
}

/** A server with `persistence`, a fail-fast client (the old process) and a cleanup that always runs. */
async function withServer(persistence, body) {
  const server = await startRedis({ persistence });
  const clients = [];
  const open = async (name) => {
    const connection = await connect(name, server, { failFast: true });
    clients.push(connection);
    return connection.client;
  };
  try {
    await body(server, open);
  } finally {
    for (const connection of clients) await connection.close();
    await server.stop();
  }
}

describeIfRedis('Redis killed (SIGKILL) and restarted', () => {
  for (const kind of KINDS) {
    const options = { ...kind.options, timeoutMs: 1000 };

    for (const persistence of ['aof-always', 'aof-everysec']) {
      // Redis's bound on a postponed AOF write (flushAppendOnlyFile: 2 s), plus scheduling slack.
      const mayLoseMs = persistence === 'aof-always' ? 0 : 2500;
      const claim = mayLoseMs === 0 ? 'every acknowledged add' : `every add acknowledged over ${mayLoseMs} ms before the kill`;
      test(`${kind.name}, ${persistence}: killed mid-run, ${claim} is found by the old handle and a new create`, async () => {
        await withServer(persistence, async (server, open) => {
          const filter = await kind.Class.create(await open('ioredis'), 'restart', options);
          const acked = [];
          const ackTimes = []; // ackTimes[i]: when acked[i] was acknowledged
          let running = true;
          let refused = 0;
          const adding = (async () => {
            for (let batch = 0; running; batch++) {
              if ((await addRecorded(filter, keysOf(`b${batch}:`, 100), acked)) !== null) refused++;
              while (ackTimes.length < acked.length) ackTimes.push(Date.now());
              await sleep(2);
            }
          })();
          // Long enough that the keys the claim covers are most of them, not none.
          const started = Date.now();
          while (acked.length < 1500 || Date.now() - started < 2 * mayLoseMs) await sleep(5);
          const killedAt = Date.now();
          await server.kill('SIGKILL'); // adds are in flight
          await sleep(200);
          running = false;
          await adding;
          await server.start();
          expect(refused).toBeGreaterThan(0); // the kill landed while adding
          const covered = acked.filter((_, i) => ackTimes[i] < killedAt - mayLoseMs);
          expect(covered.length).toBeGreaterThanOrEqual(1000);
          expect(await askWhenBack(filter, covered)).toEqual({ missing: 0 });
          if (mayLoseMs > 0) {
            const tail = acked.slice(covered.length);
            const said = await askAbout(filter, tail);
            console.log(`${kind.name}, ${persistence}: of the ${tail.length} adds acknowledged in the last ${mayLoseMs} ms before the kill, ${said.missing} were lost`);
          }
          const fresh = await kind.Class.create(await open('node-redis'), 'restart', options);
          expect(await askAbout(fresh, covered)).toEqual({ missing: 0 });
        });
      });
    }

    test(`${kind.name}, no persistence: the filter is gone; the old handle says CORRUPT, a new create makes a new filter`, async () => {
      await withServer('none', async (server, open) => {
        const filter = await kind.Class.create(await open('ioredis'), 'restart', options);
        const acked = [];
        await addRecorded(filter, keysOf('a', 1000), acked);
        await server.kill('SIGKILL');
        await server.start();
        const said = await askWhenBack(filter, acked);
        expect(said.refused).toBe('CORRUPT');
        expect(said.message).toMatch(/parameters hash .* is missing/);
        const other = await open('node-redis');
        await expectFilterError(kind.Class.open(other, 'restart'), 'INVALID_ARGUMENT', /holds no filter/);
        // Documented: nothing is left to tell that a filter existed.
        const fresh = await kind.Class.create(other, 'restart', options);
        expect((await fresh.hasMany(acked)).filter(Boolean).length).toBeLessThan(acked.length * 0.05);
        await expectFilterError(filter.hasMany(acked), 'CORRUPT', /another filter/);
      });
    });

    test(`${kind.name}, RDB only: adds after the last snapshot are lost without a sign (why docs/REDIS.md asks for AOF)`, async () => {
      await withServer('rdb', async (server, open) => {
        const client = await open('ioredis');
        const filter = await kind.Class.create(client, 'restart', options);
        const saved = [];
        const after = [];
        await addRecorded(filter, keysOf('saved', 1000), saved);
        await run(client, ['SAVE']);
        await addRecorded(filter, keysOf('after', 1000), after);
        await server.kill('SIGKILL');
        await server.start();
        expect(await askWhenBack(filter, saved)).toEqual({ missing: 0 });
        const lost = await askWhenBack(filter, after);
        expect(lost.missing).toBeGreaterThan(after.length * 0.9); // answered false: a false negative
      });
    });
  }
});
