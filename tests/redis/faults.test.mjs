// Redis faults on one server, for RedisBloomFilter and RedisExpiringBloomFilter alike:
// the parameters hash deleted, shards deleted, FLUSHALL, SCRIPT FLUSH, a create over
// another Redis type, destroy(). Every test asserts the invariant of lib/faults.mjs: no
// acknowledged add is ever answered false, by the old handle or by a new process's
// create/open (a second client stands for the new process); refusals are CORRUPT or
// UNAVAILABLE errors.
import { CLIENT_NAMES, connect } from './lib/clients.mjs';
import { addRecorded, createElsewhere, expectNoFalseNegatives, KINDS, keysOfFilter } from './lib/faults.mjs';
import { describeIfRedis, expectFilterError, keysOf, privateRedis, run } from './lib/suite.mjs';

// Layouts whose parameters hash shares the shards' cluster slot (checked inside each
// script) and layouts where it does not (checked by a second command after it).
const LAYOUTS = [
  { label: 'same slot', suffix: '', extra: {} },
  { label: 'spread slots', suffix: '', extra: { slots: 'spread' }, only: 'RedisBloomFilter' },
  { label: 'key with braces', suffix: '{x}', extra: {} },
];

describeIfRedis.each(CLIENT_NAMES)('Redis faults with %s', (clientName) => {
  const redis = privateRedis({ clientName });
  let other; // a second connection: "another process"
  beforeAll(async () => {
    other = await connect(clientName, redis.server);
  });
  afterAll(async () => {
    await other?.close();
  });

  for (const kind of KINDS) {
    for (const layout of LAYOUTS.filter((entry) => !entry.only || entry.only === kind.name)) {
      const kindOf = { ...kind, options: { ...kind.options, ...layout.extra } };

      test(`${kind.name}, ${layout.label}: parameters hash deleted → old handle and create refuse (CORRUPT), no false answer`, async () => {
        const key = `params-lost:${kind.name}:${layout.label}${layout.suffix}`;
        const filter = await createElsewhere(kindOf, redis.client, key);
        const acked = [];
        expect(await addRecorded(filter, keysOf('a', 500), acked)).toBeNull();
        await run(redis.client, ['DEL', key]);

        // The old handle no longer adds "successfully" into shards nobody will read.
        const refusal = await addRecorded(filter, keysOf('b', 500), acked);
        expect(refusal?.code).toBe('CORRUPT');
        expect(refusal.message).toMatch(/parameters/);
        // A new process's create refuses to make an empty filter over the remaining shards.
        await expectFilterError(createElsewhere(kindOf, other.client, key), 'CORRUPT', /parameters lost, shards remain/);
        await expectFilterError(kind.Class.open(other.client, key), 'INVALID_ARGUMENT', /holds no filter/);
        const said = await expectNoFalseNegatives([filter], acked);
        expect(said[0].refused).toBe('CORRUPT');
        // Nothing was written by the refusals: the old shards are all that is left.
        const left = await keysOfFilter(redis.client, key);
        expect(left.length).toBeGreaterThan(0);
        expect(left).not.toContain(key);
      });
    }

    test(`${kind.name}: creates racing on one key all open one filter and leave no other keys (every layout)`, async () => {
      for (const layout of LAYOUTS.filter((entry) => !entry.only || entry.only === kind.name)) {
        const key = `race:${kind.name}:${layout.label}${layout.suffix}`;
        const options = { ...kind.options, ...layout.extra };
        const handles = await Promise.all(
          Array.from({ length: 6 }, (_, i) => kind.Class.create((i % 2 === 0 ? redis : other).client, key, options)),
        );
        await handles[0].addMany(keysOf('r', 300));
        for (const handle of handles) expect((await handle.hasMany(keysOf('r', 300))).every(Boolean)).toBe(true);
        // One filter id among all the keys: the losers removed what they had made.
        const ids = new Set((await keysOfFilter(redis.client, key)).filter((name) => name !== key).map((name) => /:([0-9a-f]{12})[:}]/.exec(name)?.[1]));
        expect(ids.size).toBe(1);
        // No key of the filter keeps the expiry of a pending create (generations have their own).
        for (const name of (await keysOfFilter(redis.client, key)).filter((n) => !/:g\d+:\d+$/.test(n))) {
          expect(Number(await run(redis.client, ['PTTL', name]))).toBe(-1);
        }
        await handles[1].destroy();
        expect(await keysOfFilter(redis.client, key)).toEqual([]);
      }
    });

    test(`${kind.name}: deleted and created again → the old handle refuses (another filter), the new one answers`, async () => {
      const key = `recreated:${kind.name}`;
      const old = await createElsewhere(kind, redis.client, key);
      const acked = [];
      await addRecorded(old, keysOf('a', 300), acked);
      await old.destroy();
      const fresh = await createElsewhere(kind, other.client, key);
      const ackedFresh = [];
      await addRecorded(fresh, keysOf('f', 300), ackedFresh);
      await expectFilterError(old.hasMany(ackedFresh), 'FREED');
      const stale = await kind.Class.open(redis.client, key);
      await fresh.destroy();
      await createElsewhere(kind, redis.client, key);
      await expectFilterError(stale.hasMany(ackedFresh), 'CORRUPT', /another filter/);
      await expectFilterError(stale.addMany(['z']), 'CORRUPT', /another filter/);
      // A stale handle's destroy never removes the newer filter.
      await expectFilterError(stale.destroy(), 'CORRUPT', /another filter/);
      expect((await keysOfFilter(redis.client, key)).length).toBeGreaterThan(1);
    });

    test(`${kind.name}: shards deleted → every handle refuses, create opens and refuses too`, async () => {
      const key = `shards-lost:${kind.name}`;
      const filter = await createElsewhere(kind, redis.client, key);
      const acked = [];
      await addRecorded(filter, keysOf('a', 1000), acked);
      const shards = (await keysOfFilter(redis.client, key)).filter((name) => name !== key && /:\d+$/.test(name) && !name.endsWith(':count'));
      expect(shards.length).toBeGreaterThan(1);
      await run(redis.client, ['DEL', shards[0]]);
      const refusal = await addRecorded(filter, keysOf('a', 1000), acked);
      expect(refusal?.code).toBe('CORRUPT');
      const again = await createElsewhere(kind, other.client, key);
      const said = await expectNoFalseNegatives([filter, again, await kind.Class.open(other.client, key)], acked);
      expect(said.map((answer) => answer.refused)).toEqual(['CORRUPT', 'CORRUPT', 'CORRUPT']);
      // No add re-creates the missing shard as zeros.
      expect(await run(redis.client, ['EXISTS', shards[0]])).toBe(0);
    });

    test(`${kind.name}: FLUSHALL → the old handle refuses; a new create makes a new, empty filter (nothing is left to know)`, async () => {
      const key = `flushed:${kind.name}`;
      const filter = await createElsewhere(kind, redis.client, key);
      const acked = [];
      await addRecorded(filter, keysOf('a', 500), acked);
      await run(redis.client, ['FLUSHALL']);
      await expectFilterError(filter.addMany(['x']), 'CORRUPT', /parameters/);
      const said = await expectNoFalseNegatives([filter], acked);
      expect(said[0].refused).toBe('CORRUPT');
      await expectFilterError(kind.Class.open(other.client, key), 'INVALID_ARGUMENT', /holds no filter/);
      // Documented: with every key gone, create cannot tell; it makes a new filter.
      const fresh = await createElsewhere(kind, other.client, key);
      expect(await fresh.hasMany(['a1', 'a2'])).toEqual([false, false]);
      await expectFilterError(filter.hasMany(acked), 'CORRUPT', /another filter/);
      await fresh.destroy();
    });

    test(`${kind.name}: SCRIPT FLUSH is survived transparently (scripts reloaded, answers true)`, async () => {
      const key = `script-flush:${kind.name}`;
      const filter = await createElsewhere(kind, redis.client, key);
      const acked = [];
      await addRecorded(filter, keysOf('a', 500), acked);
      await run(redis.client, ['SCRIPT', 'FLUSH']);
      expect(await addRecorded(filter, keysOf('b', 500), acked)).toBeNull();
      await run(redis.client, ['SCRIPT', 'FLUSH']);
      const opened = await kind.Class.open(other.client, key);
      const said = await expectNoFalseNegatives([filter, opened], acked);
      expect(said).toEqual([{ missing: 0 }, { missing: 0 }]);
      await filter.destroy();
    });

    test(`${kind.name}: a create over another Redis type fails (CORRUPT) and leaves no key behind`, async () => {
      for (const [key, options] of [
        ['taken', kind.options],
        ['taken{tag}', kind.options],
        ...(kind.name === 'RedisBloomFilter' ? [['taken-spread', { ...kind.options, slots: 'spread' }]] : []),
      ]) {
        await run(redis.client, ['FLUSHALL']);
        await run(redis.client, ['SET', key, 'not a filter']);
        await expectFilterError(kind.Class.create(redis.client, key, options), 'CORRUPT', /holds a string/);
        expect((await run(redis.client, ['KEYS', '*'])).map(String)).toEqual([key]);
      }
    });

    test(`${kind.name}: a create whose commit fails leaves no key; one that dies before its commit leaves only expiring keys`, async () => {
      const SCRIPT_CREATE = /^EVAL(SHA)?$/;
      // A runner over the test's client that meddles with create's commit (the script writing the hash).
      const meddling = (before) => ({
        send: async (args) => {
          const isCommit = SCRIPT_CREATE.test(String(args[0])) && args.includes('format');
          if (isCommit) await before(args);
          return run(redis.client, args.map(String));
        },
        sendForBytes: (args) => run(redis.client, args),
      });
      for (const layout of LAYOUTS.filter((entry) => !entry.only || entry.only === kind.name)) {
        const key = `commit-fails:${kind.name}:${layout.label}${layout.suffix}`;
        const options = { ...kind.options, ...layout.extra };
        await run(redis.client, ['FLUSHALL']);
        // The key turns into another type just before the commit.
        const turned = meddling(() => run(redis.client, ['SET', key, 'taken meanwhile']));
        await expectFilterError(kind.Class.create(turned, key, options), 'CORRUPT', /holds a string/);
        expect((await run(redis.client, ['KEYS', '*'])).map(String)).toEqual([key]);
        // The process dies just before the commit: nothing more is sent.
        await run(redis.client, ['FLUSHALL']);
        const dies = meddling(() => {
          throw new Error('connection lost');
        });
        dies.send = ((send) => async (args) => {
          if (String(args[0]) === 'UNLINK') throw new Error('connection lost');
          return send(args);
        })(dies.send);
        await expectFilterError(kind.Class.create(dies, key, options), 'UNAVAILABLE', /connection lost/);
        const left = (await run(redis.client, ['KEYS', '*'])).map(String);
        expect(left.length).toBeGreaterThan(0);
        for (const name of left) expect(Number(await run(redis.client, ['PTTL', name]))).toBeGreaterThan(0);
        // A later create is not stopped by them (pending keys are not a lost filter's remains).
        const filter = await kind.Class.create(redis.client, key, options);
        const acked = [];
        await addRecorded(filter, keysOf('k', 300), acked);
        await expectNoFalseNegatives([filter, await kind.Class.open(other.client, key)], acked);
        await filter.destroy();
      }
    });

    test(`${kind.name}: after its parameters are lost, every call of the old handle refuses`, async () => {
      const key = `every-call:${kind.name}`;
      const filter = await createElsewhere(kind, redis.client, key);
      await filter.addMany(keysOf('a', 100));
      await run(redis.client, ['DEL', key]);
      const calls = [() => filter.add('x'), () => filter.has('a1'), () => filter.addMany(['x', 'y']), () => filter.hasMany(['a1', 'a2'])];
      if (kind.name === 'RedisBloomFilter') {
        const bytes = await (await kind.Class.create(other.client, `${key}:source`, kind.options)).snapshot();
        calls.push(() => filter.count(), () => filter.snapshot(), () => filter.load(bytes));
      }
      for (const call of calls) await expectFilterError(call(), 'CORRUPT', /parameters hash .* is missing/);
    });

    test(`${kind.name}: destroy() removes every key of the filter; the handle is then FREED, others CORRUPT`, async () => {
      const key = `destroyed:${kind.name}`;
      const filter = await createElsewhere(kind, redis.client, key);
      const opened = await kind.Class.open(other.client, key);
      await filter.addMany(keysOf('a', 1000));
      expect((await keysOfFilter(redis.client, key)).length).toBeGreaterThan(3);
      await filter.destroy();
      expect(await keysOfFilter(redis.client, key)).toEqual([]);
      await expectFilterError(filter.hasMany(['a1']), 'FREED', /destroyed/);
      await expectFilterError(filter.addMany(['a1']), 'FREED', /destroyed/);
      await expectFilterError(filter.destroy(), 'FREED', /destroyed/);
      await expectFilterError(opened.hasMany(['a1']), 'CORRUPT', /parameters/);
      await expectFilterError(opened.addMany(['a1']), 'CORRUPT', /parameters/);
      expect(await keysOfFilter(redis.client, key)).toEqual([]);
    });
  }
});
