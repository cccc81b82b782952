import { createHash, randomBytes } from 'node:crypto';
import { FilterError } from '../index.js';

/**
 * How one filter is laid out in Redis, named once: the parameters hash stored
 * under the filter's own key, and the names of its shard strings.
 *
 *   <key>                      hash: the fields of RedisFilterLayout (below)
 *   shard i (slots 'single')   {<key>}:<id>:<i>        string of shardBlocks × 64 bytes,
 *   shard i (slots 'spread')   {<key>:<id>:<i>}        then its write counter (8 bytes)
 *                                                      (the last shard may be shorter)
 *   its item counter           <shard name>:count      integer
 *   write counters' mirror     (see mirrorKey)         hash: shard name → writes
 *
 * Shard i holds blocks [i shardBlocks, (i + 1) shardBlocks) of the table, each
 * 64 bytes exactly as https://github.com/cuckoo-bloom-wasm/cuckoo-bloom-wasm/blob/main/docs/FORMAT.md lays out a blocked Bloom payload, so the
 * shards end to end are the payload of a snapshot.
 *
 * The write counter after a shard's table counts the script calls that
 * changed that shard (little-endian; 8 zero bytes are 0), and the mirror
 * holds the same number under the shard's name. A shard put back to an older
 * copy (RESTORE, COPY … REPLACE) brings its older counter with it, while the
 * mirror, another key, does not: the scripts compare the two before every
 * read and write and refuse on a difference (lua/parts/write-counters.lua). A
 * shard of the table's length exactly, without the counter, is one written
 * by a release before the counters (counter 0; its first write appends it).
 *
 * The hash tag (the part in braces) decides the cluster slot. 'single' puts
 * every shard in one slot, so one script sees a whole batch (atomic per batch);
 * 'spread' gives every shard its own slot, so a filter spreads over a
 * cluster's nodes (atomic per shard within a batch).
 *
 * `id` is random per filter, and every script checks that the hash still
 * carries the handle's id (lua/parts/identity-guard.lua): a client still
 * holding a filter that was destroyed and created again under the same key,
 * or whose hash was lost, gets an error, never the new filter's bits nor an
 * answer from shards no new handle reads.
 */
export interface RedisFilterLayout {
  capacity: number;
  falsePositiveRate: number;
  seed: number;
  blockCount: number;
  shardBlocks: number;
  slots: SlotLayout;
  id: string;
}

/**
 * Where a filter's shards lie in a Redis Cluster: `'single'` keeps them all in one hash slot
 * (each batch is one atomic script call); `'spread'` gives each its own slot, so a large
 * filter spreads over the nodes (atomic per shard). See https://github.com/cuckoo-bloom-wasm/cuckoo-bloom-wasm/blob/main/docs/REDIS-CLUSTER.md.
 */
export type SlotLayout = 'single' | 'spread';

/** The value of the hash's `format` field: bump when this layout changes. */
const LAYOUT_FORMAT = 'cuckoo-bloom-wasm/redis blocked-bloom 1';
export const BYTES_PER_BLOCK = 64;
/** Redis's default limit for one string (proto-max-bulk-len) is 512 MiB. */
export const MAX_SHARD_BYTES = 512 * 1024 * 1024;
/** Bytes of the write counter after a shard's table (lua/parts/write-counters.lua). */
export const WRITE_COUNTER_BYTES = 8;
/**
 * The largest `shardBytes` create takes: a whole number of blocks whose
 * string, with its write counter, stays within Redis's 512 MiB.
 */
export const MAX_NEW_SHARD_BYTES = MAX_SHARD_BYTES - BYTES_PER_BLOCK;
/**
 * Default shard size. Smaller than Redis's limit because one string is one unit
 * for replication, migration between cluster nodes and DEL (UNLINK frees it in
 * the background); 64 MiB holds 2^29 bits, ~50M keys at 1%.
 */
export const DEFAULT_SHARD_BYTES = 64 * 1024 * 1024;

export function shardCountOf(layout: RedisFilterLayout): number {
  return Math.ceil(layout.blockCount / layout.shardBlocks);
}

/** Byte length of shard `index` (every shard is full but maybe the last). */
export function shardBytesOf(layout: RedisFilterLayout, index: number): number {
  const blocks = Math.min(layout.shardBlocks, layout.blockCount - index * layout.shardBlocks);
  return blocks * BYTES_PER_BLOCK;
}

export function newFilterId(): string {
  return randomBytes(6).toString('hex');
}

/** The text in a shard name's hash tag for `key`: the key itself, or a digest if it holds braces. */
export function tagText(key: string): string {
  return /[{}]/.test(key) ? `h${createHash('sha1').update(key).digest('hex').slice(0, 16)}` : key;
}

export function shardKey(key: string, layout: RedisFilterLayout, index: number): string {
  const tag = tagText(key);
  return layout.slots === 'single' ? `{${tag}}:${layout.id}:${index}` : `{${tag}:${layout.id}:${index}}`;
}

/**
 * The hash mirroring the write counters of the shards of one script call:
 * the parameters hash itself when it shares their cluster slot (`sameSlot`:
 * 'single' slots, a key without braces), else a hash of its own in their
 * slot (one for 'single' slots, one per shard for 'spread'). Made by the
 * first write; a missing field (or hash) reads as 0 writes.
 */
export function mirrorKey(key: string, layout: RedisFilterLayout, index: number, sameSlot: boolean): string {
  if (sameSlot) return key;
  const tag = tagText(key);
  return layout.slots === 'single' ? `{${tag}}:${layout.id}:writes` : `{${tag}:${layout.id}:${index}}:writes`;
}

export function counterKey(shard: string): string {
  return `${shard}:count`;
}

export function stagingKey(shard: string): string {
  return `${shard}:loading`;
}

/** The hash's fields, as HSET takes them (numbers written so that they read back exactly). */
export function layoutFields(layout: RedisFilterLayout, format = LAYOUT_FORMAT): string[] {
  return [
    'format', format,
    'type', 'blocked-bloom',
    'capacity', String(layout.capacity),
    'falsePositiveRate', String(layout.falsePositiveRate),
    'seed', String(layout.seed),
    'blockCount', String(layout.blockCount),
    'shardBlocks', String(layout.shardBlocks),
    'slots', layout.slots,
    'id', layout.id,
  ];
}

/** An HGETALL reply (a flat array or an object, by client) as a map. */
export function readFields(reply: unknown): Map<string, string> {
  const fields = new Map<string, string>();
  if (Array.isArray(reply)) {
    for (let i = 0; i + 1 < reply.length; i += 2) fields.set(String(reply[i]), String(reply[i + 1]));
  } else if (typeof reply === 'object' && reply !== null) {
    for (const [name, value] of Object.entries(reply)) fields.set(name, String(value));
  }
  return fields;
}

export function layoutError(key: string, what: string): FilterError {
  return new FilterError('CORRUPT', `Redis key '${key}' is not a filter of this package's layout: ${what}`);
}

/** A stored integer field in [min, max]; CORRUPT otherwise. */
export function integerField(fields: Map<string, string>, key: string, name: string, min: number, max: number): number {
  const text = fields.get(name) ?? '';
  const value = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(value) || value < min || value > max) {
    throw layoutError(key, `${name} is ${JSON.stringify(text)}`);
  }
  return value;
}

/** Reads an HGETALL reply back; CORRUPT when anything is off (or the format is not `format`). */
export function parseLayout(reply: unknown, key: string, format = LAYOUT_FORMAT): RedisFilterLayout {
  const fields = readFields(reply);
  if (fields.get('format') !== format) {
    throw layoutError(key, `format is ${JSON.stringify(fields.get('format') ?? null)}, expected ${JSON.stringify(format)}`);
  }
  const falsePositiveRate = Number(fields.get('falsePositiveRate'));
  if (!(falsePositiveRate > 0 && falsePositiveRate < 1)) throw layoutError(key, 'falsePositiveRate is not in (0, 1)');
  const slots = fields.get('slots');
  if (slots !== 'single' && slots !== 'spread') throw layoutError(key, `slots is ${JSON.stringify(slots ?? null)}`);
  const id = fields.get('id') ?? '';
  if (!/^[0-9a-f]{1,64}$/.test(id)) throw layoutError(key, `id is ${JSON.stringify(id)}`);
  return {
    capacity: integerField(fields, key, 'capacity', 1, 2 ** 40),
    falsePositiveRate,
    seed: integerField(fields, key, 'seed', 0, Number.MAX_SAFE_INTEGER),
    blockCount: integerField(fields, key, 'blockCount', 1, 2 ** 46),
    shardBlocks: integerField(fields, key, 'shardBlocks', 1, MAX_SHARD_BYTES / BYTES_PER_BLOCK),
    slots,
    id,
  };
}
