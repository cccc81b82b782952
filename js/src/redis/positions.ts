import type { CoreModule } from '../runtime/core-module.js';
import { FilterError } from '../index.js';
import type { Key, KeyArena } from '../keys/keys.js';

/** The plain C exports of bindings/redis_positions.cpp. */
interface RedisCoreExports {
  _cbw_redis_block_count(capacity: number, falsePositiveRate: number): number;
  _cbw_redis_hash(seed: number, blockCount: number, data: number, offsets: number, count: number, out: number): void;
  _cbw_redis_plan(shardBlocks: number, gapBlocks: number, hashed: number, count: number, out: number): number;
  _cbw_redis_head(
    seed: number,
    capacity: number,
    falsePositiveRate: number,
    itemCount: number,
    blockCount: number,
    out: number,
  ): number;
  _cbw_redis_digest_new(): number;
  _cbw_redis_digest_update(state: number, bytes: number, length: number): number;
  _cbw_redis_digest_final(state: number, out: number): void;
  _cbw_redis_digest_free(state: number): void;
}

export type RedisCore = CoreModule & RedisCoreExports;

/** Bytes per key record: its block's offset in its range (u32), then its 8 bits (see lua/has.lua). */
const RECORD_BYTES = 12;
/** Bytes per hashed key (HashedKey in redis_positions.cpp). */
const HASHED_BYTES = 16;
/** Bytes of plan output per key: group row (24), order (4), replyAt (4), record (12), range text (<= 44). */
const PLAN_BYTES_PER_KEY = 24 + 4 + 4 + RECORD_BYTES + 44;
/**
 * Blocks between two keys' blocks up to which one GETRANGE reads both. A
 * script's GETRANGE costs about what copying 1 KiB more costs (measured on
 * Redis 7.0: ~1.2 µs a call, ~1.8 ns a byte), so a gap of up to 8 blocks
 * (512 bytes) is cheaper read than skipped; on a small table a batch is read
 * in a few ranges.
 */
const GAP_BLOCKS = 8;

/** The keys of one script call that fall in one shard. */
export interface PlannedGroup {
  shard: number;
  /** Plan positions [first, first + count) are this group's keys. */
  first: number;
  count: number;
  /** The ranges to read (see cbw_redis_plan): a script argument. */
  ranges: Uint8Array;
  /** The keys' records, in plan order: a script argument (add). */
  records: Uint8Array;
  /** Bytes the has script returns for this group: its ranges end to end. */
  replyBytes: number;
}

/** One script call's keys, in plan order (by block), and where to find each answer. */
export interface CallPlan {
  groups: PlannedGroup[];
  /** Batch index (into the caller's keys) of the key at each plan position. */
  order: Uint32Array;
  /** Offset of each key's block in its group's part of a has reply. */
  replyAt: Uint32Array;
  /** Every key's record (the groups' `records` are views of it). */
  records: Uint8Array;
}

/**
 * Hashes keys with the filter's seed and plans their script call, in wasm.
 * The keys are encoded in the package's key arena (shared with the local
 * filters: planning is synchronous, so no other call uses it meanwhile); the
 * plan goes to a scratch region of its own, grown as needed and reused, and
 * is copied out before anything else can run.
 */
export class CallPlanner {
  readonly #core: RedisCore;
  readonly #arena: KeyArena;
  #pointer = 0;
  #capacity = 0;

  constructor(core: RedisCore, arena: KeyArena) {
    this.#core = core;
    this.#arena = arena;
  }

  #reserve(bytes: number): void {
    if (bytes <= this.#capacity) return;
    const capacity = Math.max(bytes, this.#capacity * 2, 64 * 1024);
    const pointer = this.#core._malloc(capacity);
    if (pointer === 0) throw new FilterError('OUT_OF_MEMORY', `cannot reserve ${capacity} bytes of wasm memory to plan a batch`);
    if (this.#pointer !== 0) this.#core._free(this.#pointer);
    this.#pointer = pointer;
    this.#capacity = capacity;
  }

  /**
   * Plans one call over `keys` (already checked to be keys; at most
   * KEYS_PER_SCRIPT of them).
   */
  plan(keys: readonly Key[], seed: number, blockCount: number, shardBlocks: number): CallPlan {
    const count = keys.length;
    const hashedAt = 0;
    const planAt = count * HASHED_BYTES;
    this.#reserve(planAt + count * PLAN_BYTES_PER_KEY);
    const base = this.#pointer;
    for (let start = 0; start < count; ) {
      const batch = this.#arena.encodeBatch(keys, start);
      this.#core._cbw_redis_hash(seed, blockCount, batch.data, batch.offsets, batch.count, base + hashedAt + start * HASHED_BYTES);
      start = batch.end;
    }
    const groupCount = this.#core._cbw_redis_plan(shardBlocks, GAP_BLOCKS, base + hashedAt, count, base + planAt);
    if (groupCount === 0) throw new FilterError('INVALID_ARGUMENT', `cannot plan a call of ${count} keys`);
    // Encoding may have grown wasm memory: read the heap only now.
    const heap = this.#core.HEAPU8;
    const orderAt = base + planAt + count * 24;
    const replyAtAt = orderAt + count * 4;
    const recordsAt = replyAtAt + count * 4;
    const textsAt = recordsAt + count * RECORD_BYTES;
    const rows = new Uint32Array(heap.buffer, base + planAt, groupCount * 6);
    const records = Buffer.from(heap.subarray(recordsAt, textsAt));
    const groups: PlannedGroup[] = [];
    for (let g = 0; g < groupCount; g++) {
      const row = (field: number) => rows[g * 6 + field] as number;
      const [first, keyCount, textAt] = [row(1), row(2), row(3)];
      groups.push({
        shard: row(0),
        first,
        count: keyCount,
        ranges: Buffer.from(heap.subarray(textsAt + textAt, textsAt + textAt + row(4))),
        records: records.subarray(first * RECORD_BYTES, (first + keyCount) * RECORD_BYTES),
        replyBytes: row(5),
      });
    }
    return {
      groups,
      order: new Uint32Array(heap.buffer.slice(orderAt, orderAt + count * 4)),
      replyAt: new Uint32Array(heap.buffer.slice(replyAtAt, replyAtAt + count * 4)),
      records,
    };
  }
}

/**
 * Answers of a has script: for each key of `group` (plan order), whether all
 * 8 of its bits are set in its block, read from `reply` at `replyBase` (the
 * group's part). Bit p of word w is bit p % 8 of block byte 8w + floor(p / 8)
 * (https://github.com/cuckoo-bloom-wasm/cuckoo-bloom-wasm/blob/main/docs/FORMAT.md: words are little-endian).
 */
export function readAnswers(plan: CallPlan, group: PlannedGroup, reply: Uint8Array, replyBase: number, answers: boolean[], offset: number): void {
  const { order, replyAt, records } = plan;
  const end = group.first + group.count;
  for (let n = group.first; n < end; n++) {
    const block = replyBase + (replyAt[n] as number);
    const bits = n * RECORD_BYTES + 4;
    let all = true;
    for (let word = 0; word < 8 && all; word++) {
      const bit = records[bits + word] as number;
      all = ((reply[block + word * 8 + (bit >> 3)] as number) & (1 << (bit & 7))) !== 0;
    }
    answers[offset + (order[n] as number)] = all;
  }
}
