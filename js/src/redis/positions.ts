import type { CoreModule } from '../core-module.js';
import { FilterError } from '../index.js';
import { invalidKey, type Key } from '../keys.js';

/** The plain C exports of bindings/redis_positions.cpp. */
export interface RedisCoreExports {
  _cbw_redis_block_count(capacity: number, falsePositiveRate: number): number;
  _cbw_redis_positions(
    seed: number,
    blockCount: number,
    shardBlocks: number,
    data: number,
    offsets: number,
    count: number,
    outShards: number,
    outRecords: number,
  ): void;
  _cbw_redis_blob(
    seed: number,
    capacity: number,
    falsePositiveRate: number,
    itemCount: number,
    blockCount: number,
    payload: number,
  ): number;
  _cbw_redis_blob_release(): void;
}

export type RedisCore = CoreModule & RedisCoreExports;

/** Bytes per key record (see scripts.ts). */
export const RECORD_BYTES = 12;

/** The keys of one batch that fall in one shard, as a script argument. */
export interface ShardGroup {
  shard: number;
  /** The records of these keys, in batch order. */
  records: Buffer;
  /** Index in the batch of each record's key. */
  keyIndexes: number[];
}

const encoder = new TextEncoder();

/**
 * Hashes a batch of keys with the filter's seed, in wasm, into per-shard
 * record buffers. Its own scratch region (not the key arena of local filters),
 * grown as needed and reused: one allocation per batch size, not per call.
 */
export class PositionEncoder {
  readonly #core: RedisCore;
  #pointer = 0;
  #capacity = 0;

  constructor(core: RedisCore) {
    this.#core = core;
  }

  #reserve(bytes: number): void {
    if (bytes <= this.#capacity) return;
    const capacity = Math.max(bytes, this.#capacity * 2, 64 * 1024);
    const pointer = this.#core._malloc(capacity);
    if (pointer === 0) throw new FilterError('OUT_OF_MEMORY', `cannot reserve ${capacity} bytes of wasm memory for keys`);
    if (this.#pointer !== 0) this.#core._free(this.#pointer);
    this.#pointer = pointer;
    this.#capacity = capacity;
  }

  /**
   * Groups keys[start, end) by shard. Keys are validated first: a batch with
   * one bad key is rejected whole (INVALID_ARGUMENT), before Redis sees it.
   */
  encode(
    keys: readonly Key[],
    start: number,
    end: number,
    seed: number,
    blockCount: number,
    shardBlocks: number,
  ): ShardGroup[] {
    const count = end - start;
    let units = 0;
    for (let i = start; i < end; i++) {
      const key = keys[i];
      if (typeof key === 'string' || key instanceof Uint8Array) units += key.length;
      else throw invalidKey(key);
    }
    // Layout: offsets (count + 1 u32), shards (count u32), records (12 per key), key bytes (UTF-8: <= 3 per unit).
    const offsetsAt = 0;
    const shardsAt = (count + 1) * 4;
    const recordsAt = shardsAt + count * 4;
    const dataAt = recordsAt + count * RECORD_BYTES;
    this.#reserve(dataAt + units * 3);
    const base = this.#pointer;
    const heap = this.#core.HEAPU8;
    const offsets = new Uint32Array(heap.buffer, base + offsetsAt, count + 1);
    const data = heap.subarray(base + dataAt, base + this.#capacity);
    let offset = 0;
    for (let i = 0; i < count; i++) {
      offsets[i] = offset;
      const key = keys[start + i] as Key;
      if (typeof key === 'string') {
        // ASCII keys (the common case) are copied unit by unit; encodeInto costs more per call.
        let j = 0;
        const length = key.length;
        for (; j < length; j++) {
          const unit = key.charCodeAt(j);
          if (unit > 0x7f) break;
          data[offset + j] = unit;
        }
        offset += j === length ? length : encoder.encodeInto(key, data.subarray(offset)).written;
      } else {
        data.set(key, offset);
        offset += key.length;
      }
    }
    offsets[count] = offset;
    this.#core._cbw_redis_positions(
      seed,
      blockCount,
      shardBlocks,
      base + dataAt,
      base + offsetsAt,
      count,
      base + shardsAt,
      base + recordsAt,
    );
    const shards = new Uint32Array(this.#core.HEAPU8.buffer, base + shardsAt, count);
    const records = this.#core.HEAPU8.subarray(base + recordsAt, base + recordsAt + count * RECORD_BYTES);
    return groupByShard(shards, records, start);
  }
}

function groupByShard(shards: Uint32Array, records: Uint8Array, start: number): ShardGroup[] {
  const count = shards.length;
  const first = shards[0] ?? 0;
  let single = true;
  for (let i = 1; i < count && single; i++) single = shards[i] === first;
  if (single) {
    const keyIndexes = new Array<number>(count);
    for (let i = 0; i < count; i++) keyIndexes[i] = start + i;
    return [{ shard: first, records: Buffer.from(records), keyIndexes }];
  }
  const byShard = new Map<number, number[]>();
  for (let i = 0; i < count; i++) {
    const shard = shards[i] as number;
    let members = byShard.get(shard);
    if (members === undefined) byShard.set(shard, (members = []));
    members.push(i);
  }
  const groups: ShardGroup[] = [];
  for (const [shard, members] of byShard) {
    const buffer = Buffer.allocUnsafe(members.length * RECORD_BYTES);
    members.forEach((i, n) => buffer.set(records.subarray(i * RECORD_BYTES, (i + 1) * RECORD_BYTES), n * RECORD_BYTES));
    groups.push({ shard, records: buffer, keyIndexes: members.map((i) => start + i) });
  }
  return groups;
}
