// Putting a filter's shards back to older copies, as an operator or a failover can:
// RESTORE of a DUMP taken earlier, or COPY … REPLACE from a copy made earlier. Works on
// one server and on a cluster alike, through an ioredis client or Redis.Cluster (which
// routes each command by its key; every copy is named in its shard's slot).
import { expect } from '@jest/globals';
import { addRecorded, tagOf } from './faults.mjs';
import { keysOf } from './suite.mjs';

export const COPY_METHODS = ['RESTORE', 'COPY … REPLACE'];

/**
 * The names of a filter's shard strings, from what Redis holds: a RedisBloomFilter's
 * shards (js/src/redis/layout.ts), or an expiring filter's generation shards recorded in
 * its record of generations (js/src/redis/lua/parts/expiring-generations.lua).
 */
export async function shardNames(io, key, filter) {
  const id = String(await io.call('HGET', key, 'id'));
  const tag = tagOf(key);
  if ('shardCount' in filter) {
    return Array.from({ length: filter.shardCount }, (_, i) => (filter.slots === 'single' ? `{${tag}}:${id}:${i}` : `{${tag}:${id}:${i}}`));
  }
  const members = (await io.call('ZRANGE', `{${tag}}:${id}:written`, '0', '-1')).map(String).filter((member) => member !== 'created');
  return members.map((member) => `{${tag}}:${id}:g${member}`);
}

/**
 * Takes a copy of each named key now (DUMP, or COPY to `<name>:backup`, in the same
 * slot); returns a function that puts every one of them back (RESTORE … REPLACE, or
 * COPY … REPLACE) and removes the backups.
 */
export async function takeCopies(io, names, method) {
  if (method === 'RESTORE') {
    const dumps = await Promise.all(names.map((name) => io.callBuffer('DUMP', name)));
    return async () => {
      for (const [i, name] of names.entries()) await io.call('RESTORE', name, '0', dumps[i], 'REPLACE');
    };
  }
  for (const name of names) await io.call('COPY', name, `${name}:backup`);
  return async () => {
    for (const name of names) {
      await io.call('COPY', `${name}:backup`, name, 'REPLACE');
      await io.call('DEL', `${name}:backup`);
    }
  };
}

/**
 * The scenario of issue #40: 300 adds acknowledged, a copy of every shard taken (by
 * `method`), 300 more adds acknowledged, then the older copies put back. Returns the
 * acknowledged keys (all 600), which no handle may ever answer false.
 */
export async function ackThenPutBackOlderShards(filter, io, key, method) {
  const acked = [];
  expect(await addRecorded(filter, keysOf('a', 300), acked)).toBeNull();
  const names = await shardNames(io, key, filter);
  expect(names.length).toBeGreaterThan(1);
  const putBack = await takeCopies(io, names, method);
  expect(await addRecorded(filter, keysOf('b', 300), acked)).toBeNull();
  await putBack();
  return acked;
}
