// A filter's shards put back to older copies on one server (RESTORE of an earlier DUMP,
// COPY … REPLACE from an earlier copy), for RedisBloomFilter and RedisExpiringBloomFilter,
// in every slot layout, through node-redis and ioredis: the adds made after the copy are
// not in it, so every handle (the old one, a new process's open and create) must refuse
// with CORRUPT instead of answering false for them. And a filter written before the
// write counters existed (its shards exactly the table, no mirror) still opens and answers,
// and is protected from its first write on.
import Redis from 'ioredis';
import { CLIENT_NAMES, connect } from './lib/clients.mjs';
import { ackThenPutBackOlderShards, COPY_METHODS, shardNames, takeCopies } from './lib/copies.mjs';
import { addRecorded, expectNoFalseNegatives, KINDS, tagOf } from './lib/faults.mjs';
import { describeIfRedis, keysOf, privateRedis } from './lib/suite.mjs';

const LAYOUTS = [
  { label: 'same slot', suffix: '', extra: {} },
  { label: 'spread slots', suffix: '', extra: { slots: 'spread' }, only: 'RedisBloomFilter' },
  { label: 'key with braces', suffix: '{x}', extra: {} },
];

const STALE = /put back to an older copy/;

/** Byte length of the table part of shard `name` (the last shard of a table may be shorter). */
function tableBytesOf(filter, kind, name) {
  const index = Number(/:(\d+)\}?$/.exec(name)[1]);
  const total = 'byteLength' in filter ? filter.byteLength : filter.generationBytes;
  return Math.min(kind.options.shardBytes, total - index * kind.options.shardBytes);
}

/**
 * Rewrites a filter as a release before the write counters left it: each shard string
 * exactly its table (no counter after it; an expiry kept), and no mirrored counts (the
 * parameters hash's '{…' fields, the ':writes' hashes).
 */
async function asWrittenBefore(io, key, filter, kind) {
  for (const name of await shardNames(io, key, filter)) {
    const table = await io.callBuffer('GETRANGE', name, '0', String(tableBytesOf(filter, kind, name) - 1));
    await io.call('SET', name, table, 'KEEPTTL');
  }
  const fields = (await io.call('HKEYS', key)).map(String).filter((field) => field.startsWith('{'));
  if (fields.length > 0) await io.call('HDEL', key, ...fields);
  const mirrors = (await io.call('KEYS', `{${tagOf(key)}*:writes`)).map(String);
  if (mirrors.length > 0) await io.call('DEL', ...mirrors);
}

describeIfRedis.each(CLIENT_NAMES)('a shard put back to an older copy, with %s', (clientName) => {
  const redis = privateRedis({ clientName });
  let other; // a second connection: "another process"
  let io; // the operator's connection, which makes and puts back the copies
  beforeAll(async () => {
    other = await connect(clientName, redis.server);
    io = new Redis(redis.server.port, '127.0.0.1');
  });
  afterAll(async () => {
    await other?.close();
    io?.disconnect();
  });

  for (const kind of KINDS) {
    for (const layout of LAYOUTS.filter((entry) => !entry.only || entry.only === kind.name)) {
      const options = { ...kind.options, ...layout.extra };
      for (const method of COPY_METHODS) {
        test(`${kind.name}, ${layout.label}, ${method}: every handle refuses (CORRUPT); no add after the copy is answered false`, async () => {
          const key = `restored:${kind.name}:${layout.label}:${method}${layout.suffix}`;
          const filter = await kind.Class.create(redis.client, key, options);
          const acked = await ackThenPutBackOlderShards(filter, io, key, method);

          const opened = await kind.Class.open(other.client, key);
          const created = await kind.Class.create(other.client, key, options);
          const said = await expectNoFalseNegatives([filter, opened, created], acked);
          expect(said.map((answer) => answer.refused)).toEqual(['CORRUPT', 'CORRUPT', 'CORRUPT']);
          for (const answer of said) expect(answer.message).toMatch(STALE);
          // Adds refuse too: nothing is added into the older copy as if it were the table.
          const refusal = await addRecorded(opened, keysOf('c', 100), acked);
          expect(refusal?.code).toBe('CORRUPT');
          expect(refusal.message).toMatch(STALE);
          await filter.destroy();
        });
      }

      test(`${kind.name}, ${layout.label}: a filter written before the write counters opens and answers; a copy from before its first counted write is refused`, async () => {
        const key = `before-counters:${kind.name}:${layout.label}${layout.suffix}`;
        const filter = await kind.Class.create(redis.client, key, options);
        const acked = [];
        expect(await addRecorded(filter, keysOf('a', 300), acked)).toBeNull();
        await asWrittenBefore(io, key, filter, kind);
        const names = await shardNames(io, key, filter);
        for (const name of names) expect(Number(await io.call('STRLEN', name))).toBe(tableBytesOf(filter, kind, name));

        // Such a filter opens and answers, by old and new handles, and takes adds.
        const opened = await kind.Class.open(other.client, key);
        expect(await expectNoFalseNegatives([filter, opened], acked)).toEqual([{ missing: 0 }, { missing: 0 }]);
        const putBack = await takeCopies(io, names, 'RESTORE');
        expect(await addRecorded(opened, keysOf('b', 300), acked)).toBeNull();
        expect(await expectNoFalseNegatives([filter, opened], acked)).toEqual([{ missing: 0 }, { missing: 0 }]);

        // Its shards put back to their copies without a counter: refused from now on.
        await putBack();
        const said = await expectNoFalseNegatives([filter, opened, await kind.Class.open(other.client, key)], acked);
        expect(said.map((answer) => answer.refused)).toEqual(['CORRUPT', 'CORRUPT', 'CORRUPT']);
        for (const answer of said) expect(answer.message).toMatch(STALE);
        await filter.destroy();
      });
    }
  }

  test('RedisBloomFilter: a shard of an earlier release too large to take its counter stays uncounted and answers; the others are counted and protected', async () => {
    const key = 'cannot-grow';
    const kind = { ...KINDS[0], options: { capacity: 1_000_000, shardBytes: 1024 * 1024 } };
    const filter = await kind.Class.create(redis.client, key, kind.options);
    expect(filter.shardCount).toBe(2); // 1 MiB, then the rest of the ~1.2 MB table
    await asWrittenBefore(io, key, filter, kind);
    const names = await shardNames(io, key, filter);
    // Redis refuses strings longer than proto-max-bulk-len: shard 0 (exactly 1 MiB) cannot grow by its 8 bytes.
    await io.call('CONFIG', 'SET', 'proto-max-bulk-len', '1mb');
    try {
      const putBack = await takeCopies(io, [names[1]], 'RESTORE');
      const acked = [];
      expect(await addRecorded(filter, keysOf('a', 2000), acked)).toBeNull();
      expect(Number(await io.call('STRLEN', names[0]))).toBe(1024 * 1024);
      expect(await io.call('HGET', key, names[0])).toBeNull();
      expect(Number(await io.call('HGET', key, names[1]))).toBe(1);
      expect(await expectNoFalseNegatives([filter, await kind.Class.open(other.client, key)], acked)).toEqual([{ missing: 0 }, { missing: 0 }]);
      await putBack();
      const said = await expectNoFalseNegatives([filter], acked);
      expect(said[0].refused).toBe('CORRUPT');
      expect(said[0].message).toMatch(STALE);
    } finally {
      await io.call('CONFIG', 'SET', 'proto-max-bulk-len', '512mb');
    }
    await filter.destroy();
  });
});
