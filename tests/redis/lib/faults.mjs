// What the Redis fault suites share: both filter classes described alike, adds
// that record which keys were acknowledged, and the one invariant every fault
// test asserts: no acknowledged add is ever answered false, by any handle. A
// handle may instead refuse to answer, with a FilterError CORRUPT or UNAVAILABLE.
import { createHash } from 'node:crypto';
import { RedisBloomFilter, RedisExpiringBloomFilter } from 'cuckoo-bloom-wasm/redis';
import { FilterError } from '../../../dist/index.import.cjs';
import { run } from './suite.mjs';

/** Both classes, small tables of 1 KiB shards (several shards), created and opened the same way. */
export const KINDS = [
  { name: 'RedisBloomFilter', Class: RedisBloomFilter, options: { capacity: 4000, shardBytes: 1024 } },
  { name: 'RedisExpiringBloomFilter', Class: RedisExpiringBloomFilter, options: { windowMs: 3_600_000, capacity: 4000, shardBytes: 1024 } },
];

export const ALLOWED_REFUSALS = ['CORRUPT', 'UNAVAILABLE'];

/** True for a refusal the invariant allows (a FilterError CORRUPT or UNAVAILABLE); anything else is rethrown. */
export function isAllowedRefusal(error) {
  if (error instanceof FilterError && ALLOWED_REFUSALS.includes(error.code)) return true;
  throw error;
}

/**
 * addMany(keys) on `filter`; the keys go into `acked` only when the add resolved.
 * Returns null when it resolved, else the FilterError (CORRUPT or UNAVAILABLE only).
 */
export async function addRecorded(filter, keys, acked) {
  try {
    await filter.addMany(keys);
    acked.push(...keys);
    return null;
  } catch (error) {
    isAllowedRefusal(error);
    return error;
  }
}

/**
 * What `handle` says about the acknowledged keys: { missing: n } when it answered
 * (n answers false), or { refused: code, message }. Other errors are rethrown.
 */
export async function askAbout(handle, acked) {
  try {
    const answers = await handle.hasMany(acked);
    return { missing: answers.filter((answer) => !answer).length };
  } catch (error) {
    isAllowedRefusal(error);
    return { refused: error.code, message: error.message };
  }
}

/** The invariant: each handle either answers true for every acknowledged key, or refuses. */
export async function expectNoFalseNegatives(handles, acked) {
  expect(acked.length).toBeGreaterThan(0);
  const said = [];
  for (const handle of handles) said.push(await askAbout(handle, acked));
  for (const answer of said) if ('missing' in answer) expect(answer).toEqual({ missing: 0 });
  return said;
}

/** The hash tag of a filter's other keys (js/src/redis/layout.ts: the key, or a digest of a key holding braces). */
export function tagOf(key) {
  return /[{}]/.test(key) ? `h${createHash('sha1').update(key).digest('hex').slice(0, 16)}` : key;
}

/** The names of every Redis key under this package's naming for `key` (the hash, shards, counters, …). */
export async function keysOfFilter(client, key) {
  const names = (await run(client, ['KEYS', '*'])).map(String);
  const tag = tagOf(key);
  return names.filter((name) => name === key || name.startsWith(`{${tag}}:`) || name.startsWith(`{${tag}:`));
}

/** `create` in a new process, as a new client stands for one. */
export async function createElsewhere(kind, client, key) {
  return kind.Class.create(client, key, kind.options);
}
