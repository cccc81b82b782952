// The package's own classes and wasm instance come through its main entry (an
// external of the built redis bundle: .ci/build-package.mjs), never a copy.
import { BlockedBloomFilter, FilterError, internalRuntime as getRuntime } from '../index.js';
import { describeValue, type Key, type OwnedBytes } from '../keys/keys.js';
import { requireInteger } from '../options.js';
import { adaptClient, type RedisArgument, type RedisCommandRunner, type RedisClient } from './clients.js';
import {
  BYTES_PER_BLOCK,
  counterKey,
  layoutFields,
  MAX_SHARD_BYTES,
  mirrorKey,
  newFilterId,
  parseLayout,
  type RedisFilterLayout,
  shardBytesOf,
  shardCountOf,
  shardKey,
  type SlotLayout,
  stagingKey,
  WRITE_COUNTER_BYTES,
} from './layout.js';
import type { CallPlan, PlannedGroup, RedisCore } from './positions.js';
import {
  checkKey,
  checkTimeout,
  readStoredParameters,
  loadCore,
  missingShard,
  plannerFor,
  runBounded,
  toBuffer,
} from './commands.js';
import { awaitReplicas, checkDurability, type DurabilityOptions, withDurability } from './durability.js';
import { readAnswerText, RedisKeyedFilter } from './script-calls.js';
import { checkTableOptions, knownOptions } from './create-options.js';
import { BlobAssembler } from './snapshot.js';
import { checkAllowEviction, checkEviction } from './eviction.js';
import { createOrFind, destroyFilter, hashSharesSlot } from './identity.js';
import { ADD_SCRIPT, COMMIT_LOAD_SCRIPT, HAS_SCRIPT, type Script, VERIFY_SCRIPT } from './scripts.js';

/** How a filter talks to Redis (create and open both take these). */
export interface RedisConnectionOptions {
  /**
   * Milliseconds to wait for Redis before an operation fails with
   * `UNAVAILABLE` (default 10,000; 0 waits as long as the client does).
   */
  timeoutMs?: number | undefined;
  /**
   * Each add resolves only once `replicas` replicas acknowledged it (`WAIT`),
   * else rejects `UNAVAILABLE` after `timeoutMs`. Default: none (replication is
   * asynchronous). See https://github.com/cuckoo-bloom-wasm/cuckoo-bloom-wasm/blob/main/docs/REDIS-CLUSTER.md for what it guarantees.
   */
  durability?: DurabilityOptions | undefined;
  /**
   * `true` lets `create` and `open` proceed on a Redis that may evict the
   * filter's keys (a `maxmemory` with an `allkeys-*` policy; for the expiring
   * filter also `volatile-*`), or whose policy cannot be read (`INFO` refused).
   * Default false: they reject `UNSUPPORTED` naming the policy, since a filter
   * whose every key was evicted is made again empty by the next `create`
   * (false negatives). See https://github.com/cuckoo-bloom-wasm/cuckoo-bloom-wasm/blob/main/docs/REDIS.md, "What Redis can lose".
   */
  allowEviction?: boolean | undefined;
}

/** Options of {@link RedisBloomFilter.create}: the table's sizing and layout, and how to talk to Redis. */
export interface RedisBloomFilterOptions extends RedisConnectionOptions {
  /** Keys the filter is sized for: a positive integer. */
  capacity: number;
  /** Target false-positive rate, in (0, 1). Default 0.01. */
  falsePositiveRate?: number | undefined;
  /** Hash seed, a non-negative safe integer. Default 0. A local filter with the same options sets the same bits. */
  seed?: number | undefined;
  /** Bytes of the table per Redis string, a multiple of 64 up to 512 MiB − 64 (each string also holds an 8-byte write counter). Default 64 MiB. */
  shardBytes?: number | undefined;
  /**
   * Cluster hash slots: 'single' (default) keeps every shard in one slot, so
   * each batch is one atomic script call; 'spread' gives each shard its own
   * slot, so a large filter spreads over a cluster's nodes (atomic per shard).
   */
  slots?: SlotLayout | undefined;
}

/** Options of copying a whole table out of or into Redis (`snapshot`, `load`). */
export interface RedisTransferOptions {
  /** Bytes per command when copying the table out of or into Redis (default 4 MiB). */
  chunkBytes?: number | undefined;
}

const CREATE_OPTIONS = ['capacity', 'falsePositiveRate', 'seed', 'shardBytes', 'slots', 'timeoutMs', 'durability', 'allowEviction'];
const DEFAULT_CHUNK_BYTES = 4 * 1024 * 1024;
/** Commands in flight at once while copying a table (bounds memory held for replies). */
const TRANSFER_CONCURRENCY = 4;

/**
 * A blocked Bloom filter whose table lives in Redis, shared by every process
 * that opens it: positions are computed here by the same core as the local
 * `BlockedBloomFilter` (same seed and size → same bits), the bits are read and
 * set by Lua scripts in Redis, one round trip per batch.
 *
 * Consistency: every batch sent to one script call is atomic (in the 'single'
 * slot layout, a whole batch of up to 4,096 keys). An add that resolved is
 * seen by every later `has` from any process. A call that fails rejects with
 * a FilterError and reports nothing: after `UNAVAILABLE`, retry the batch
 * (adds are idempotent). No false negatives, across processes and across a
 * Redis restart with persistence on (see https://github.com/cuckoo-bloom-wasm/cuckoo-bloom-wasm/blob/main/docs/REDIS.md for the settings): when
 * the filter's keys were lost (its parameters hash or a shard deleted,
 * evicted, flushed), a shard was put back to an older copy (its write
 * counter is behind its mirror's: layout.ts), or the key now holds another
 * filter, every call rejects with `CORRUPT` and answers nothing; after
 * `destroy()`, with `FREED`. `create` and `open` refuse a Redis that may
 * evict the filter's keys unless `allowEviction: true` (eviction.ts).
 */
export class RedisBloomFilter extends RedisKeyedFilter {
  readonly #layout: RedisFilterLayout;
  readonly #shardKeys: string[];

  private constructor(redis: RedisCommandRunner, key: string, layout: RedisFilterLayout, timeoutMs: number, core: RedisCore) {
    super({ redis, key, timeoutMs, planner: plannerFor(core), sameSlot: hashSharesSlot(key, layout.slots) });
    this.#layout = layout;
    this.#shardKeys = Array.from({ length: shardCountOf(layout) }, (_, i) => shardKey(key, layout, i));
  }

  /**
   * Creates the filter under `key`, or opens it if it already exists with the
   * same capacity, rate and seed (so every instance of a service may call
   * create at start-up; the first one creates it). The whole table is
   * allocated in Redis now.
   *
   * A create that fails leaves no key behind. When `key` holds no filter but
   * keys of one remain (its parameters hash was deleted or evicted), create
   * refuses rather than make a new, empty filter over them. Refuses too when
   * Redis may evict keys (`maxmemory` with an `allkeys-*` policy, read with
   * `INFO memory`), unless `allowEviction: true`.
   *
   * @throws FilterError `INVALID_ARGUMENT` for bad options, or when `key` holds
   *   a filter with other parameters (named in the message); `CORRUPT` when it
   *   holds something else, or when "parameters lost, shards remain" (the
   *   message names the keys); `UNSUPPORTED` when Redis may evict the filter's
   *   keys (the message names the policy) or its policy cannot be read, without
   *   `allowEviction: true`; `UNAVAILABLE` when Redis fails.
   */
  static async create(client: RedisClient, key: string, options: RedisBloomFilterOptions): Promise<RedisBloomFilter> {
    const redis = withDurability(adaptClient(client), checkDurability(options?.durability, 'RedisBloomFilter.create'));
    checkKey(key);
    const checked = checkCreateOptions(options);
    const core = await loadCore();
    const blockCount = core._cbw_redis_block_count(checked.capacity, checked.falsePositiveRate);
    if (blockCount === 0) {
      throw new FilterError(
        'INVALID_ARGUMENT',
        `RedisBloomFilter: a filter for ${checked.capacity} keys at ${checked.falsePositiveRate} would be too large`,
      );
    }
    const layout: RedisFilterLayout = {
      capacity: checked.capacity,
      falsePositiveRate: checked.falsePositiveRate,
      seed: checked.seed,
      blockCount,
      shardBlocks: checked.shardBytes / BYTES_PER_BLOCK,
      slots: checked.slots,
      id: newFilterId(),
    };
    const filter = new RedisBloomFilter(redis, key, layout, checked.timeoutMs, core);
    const send = filter.sender();
    await checkEviction(redis, key, {
      expiring: false,
      allowEviction: checked.allowEviction,
      where: 'RedisBloomFilter.create',
      timeoutMs: checked.timeoutMs,
    });
    // The shards (under a fresh id nobody else uses) and the parameters hash
    // are made together, or the filter already there is returned: identity.ts.
    // Each shard string: its table, then its write counter (zero).
    const shards = filter.#shardKeys.map((name, index) => ({ name, what: String(shardBytesOf(layout, index) + WRITE_COUNTER_BYTES) }));
    const existing = await createOrFind(send, {
      hash: key,
      fields: layoutFields(layout),
      sameSlot: filter.connection.sameSlot,
      groups: filter.#slotGroups(shards.map((_, index) => index)).map((indexes) => indexes.map((i) => shards[i] as { name: string; what: string })),
    });
    // With durability, create resolves only once the parameters hash (the filter's
    // identity: without it every handle answers CORRUPT) reached the replicas too; a
    // retried create that finds the filter waits for this connection's writes again.
    await awaitReplicas(redis, key, checked.timeoutMs);
    if (existing === null) return filter;
    const stored = parseLayout(existing, key);
    const mismatches = differences(stored, checked);
    if (mismatches.length > 0) {
      throw new FilterError(
        'INVALID_ARGUMENT',
        `Redis key '${key}' holds a filter with other parameters (${mismatches.join('; ')}): ` +
          'open it with RedisBloomFilter.open(), or use another key',
      );
    }
    return new RedisBloomFilter(redis, key, stored, checked.timeoutMs, core);
  }

  /**
   * Opens the filter stored under `key`, with the parameters stored beside it.
   * Refuses, as `create` does, when Redis may evict the filter's keys, unless
   * `allowEviction: true`.
   * @throws FilterError `INVALID_ARGUMENT` when there is none; `CORRUPT` when the
   *   key holds something else; `UNSUPPORTED` as `create`; `UNAVAILABLE` when Redis fails.
   */
  static async open(client: RedisClient, key: string, options: RedisConnectionOptions = {}): Promise<RedisBloomFilter> {
    const durability = checkDurability(options?.durability, 'RedisBloomFilter.open');
    const allowEviction = checkAllowEviction(options?.allowEviction, 'RedisBloomFilter.open');
    const { redis, timeoutMs, core, reply } = await readStoredParameters(client, key, options?.timeoutMs, 'RedisBloomFilter', {
      expiring: false,
      allowEviction,
    });
    return new RedisBloomFilter(withDurability(redis, durability), key, parseLayout(reply, key), timeoutMs, core);
  }

  /**
   * Creates a filter under `key` from a snapshot's bytes (a blocked Bloom
   * blob, e.g. from `snapshot()` or `BlockedBloomFilter.serialize()`).
   * @throws FilterError as `create`, plus `CORRUPT` / `WRONG_TYPE` for bad bytes.
   */
  static async fromSnapshot(
    client: RedisClient,
    key: string,
    bytes: Uint8Array,
    options: Omit<RedisBloomFilterOptions, 'capacity' | 'falsePositiveRate' | 'seed'> & RedisTransferOptions = {},
  ): Promise<RedisBloomFilter> {
    await loadCore();
    const { capacity, falsePositiveRate, seed } = readSnapshot(bytes);
    const { chunkBytes, ...rest } = options;
    const filter = await RedisBloomFilter.create(client, key, { ...rest, capacity, falsePositiveRate, seed });
    await filter.load(bytes, { chunkBytes });
    return filter;
  }

  /** Keys the filter is sized for. */
  get capacity(): number {
    return this.#layout.capacity;
  }
  /** Target false-positive rate at `capacity` keys. */
  get falsePositiveRate(): number {
    return this.#layout.falsePositiveRate;
  }
  /** Hash seed: a local BlockedBloomFilter with the same capacity, rate and seed sets the same bits. */
  get seed(): number {
    return this.#layout.seed;
  }
  /** 64-byte blocks in the table (each key sets bits in one). */
  get blockCount(): number {
    return this.#layout.blockCount;
  }
  /** Bytes of the table (all shards). */
  get byteLength(): number {
    return this.#layout.blockCount * BYTES_PER_BLOCK;
  }
  /** Bytes per Redis string (shard); the last shard may be shorter. */
  get shardBytes(): number {
    return this.#layout.shardBlocks * BYTES_PER_BLOCK;
  }
  /** Redis strings holding the table. */
  get shardCount(): number {
    return this.#shardKeys.length;
  }
  /** How the shards lie in cluster hash slots: 'single' or 'spread' (see {@link SlotLayout}). */
  get slots(): SlotLayout {
    return this.#layout.slots;
  }

  protected override describe(): string {
    return (
      `key: ${JSON.stringify(this.key)}, capacity: ${this.capacity}, falsePositiveRate: ${this.falsePositiveRate}, ` +
      `byteLength: ${this.byteLength}, shards: ${this.shardCount}, slots: '${this.slots}'`
    );
  }

  /**
   * Adds keys; for each, whether it was new. One round trip; atomic per script
   * call (see KEYS_PER_SCRIPT and `slots`). If it rejects, some keys may have
   * been added: retry the batch (adding a key twice changes nothing).
   */
  async addMany(keys: Iterable<Key>): Promise<boolean[]> {
    return this.run(keys, ADD_SCRIPT);
  }

  /** For each key, `has(key)`. One round trip; each script call answers from one state of the table. */
  async hasMany(keys: Iterable<Key>): Promise<boolean[]> {
    return this.run(keys, HAS_SCRIPT);
  }

  /** Keys counted as new by `add` (an estimate, as the local filter's `count`). */
  async count(): Promise<number> {
    this.checkLive();
    const replies = await Promise.all(
      this.#shardKeys.map((shard) => this.command(['GET', counterKey(shard)], 'count')),
    );
    await this.checkIdentity();
    return replies.reduce<number>((sum, reply) => sum + (reply === null || reply === undefined ? 0 : Number(reply)), 0);
  }

  /**
   * The filter as bytes in this package's format (a blocked Bloom blob):
   * `deserialize(bytes)` reads it in Node or a browser and answers exactly
   * as this filter does. Read in chunks straight into the returned bytes
   * (checksummed as they arrive, through a small wasm scratch region: the
   * table is held once, in the result); it holds every key whose add
   * resolved before the call (keys added meanwhile may or may not be in it).
   * @throws FilterError `CORRUPT` when a shard or the parameters hash is
   *   missing (or names another filter); `FREED` after destroy(); `UNAVAILABLE`; `OUT_OF_MEMORY`.
   */
  async snapshot(options: RedisTransferOptions = {}): Promise<OwnedBytes> {
    this.checkLive();
    const chunkBytes = checkChunkBytes(options?.chunkBytes);
    // The count first: every key it counts has its bits in the table read after.
    const itemCount = await this.count();
    const { seed, capacity, falsePositiveRate, blockCount, shardBlocks } = this.#layout;
    const blob = new BlobAssembler(getRuntime().module as RedisCore, { seed, capacity, falsePositiveRate, itemCount, blockCount });
    try {
      const reads: Array<() => Promise<void>> = [];
      this.#shardKeys.forEach((shard, index) => {
        const length = shardBytesOf(this.#layout, index);
        const shardStart = index * shardBlocks * BYTES_PER_BLOCK;
        for (let offset = 0; offset < length; offset += chunkBytes) {
          const end = Math.min(length, offset + chunkBytes);
          reads.push(async () => {
            const reply = await this.command(['GETRANGE', shard, String(offset), String(end - 1)], 'snapshot', undefined, true);
            if (!(reply instanceof Uint8Array) || reply.length !== end - offset) throw missingShard(shard, this.key);
            blob.put(shardStart + offset, reply);
          });
        }
      });
      await runBounded(reads, TRANSFER_CONCURRENCY);
      // Read from the shards the hash still named afterwards (identity.ts),
      // none of them older than its mirror (a copy put back is never read as the table).
      await this.#verify();
      return blob.finish();
    } finally {
      blob.dispose();
    }
  }

  /**
   * Replaces the filter's contents with a snapshot's (same capacity, rate and
   * seed). The bytes are written to staging keys in chunks, then swapped in by
   * one script ('single' slots: in one step, so readers see the old table or
   * the new one; 'spread': shard by shard).
   * @throws FilterError `INVALID_ARGUMENT` for a snapshot of other parameters;
   *   `CORRUPT` / `WRONG_TYPE` for bad bytes; `UNAVAILABLE`.
   */
  async load(bytes: Uint8Array, options: RedisTransferOptions = {}): Promise<void> {
    this.checkLive();
    const chunkBytes = checkChunkBytes(options?.chunkBytes);
    const snapshot = readSnapshot(bytes);
    const mismatches = differences(this.#layout, snapshot);
    if (snapshot.blockCount !== this.#layout.blockCount) mismatches.push(`blockCount ${this.#layout.blockCount} here, ${snapshot.blockCount} in the snapshot`);
    if (mismatches.length > 0) {
      throw new FilterError('INVALID_ARGUMENT', `load needs a snapshot of a filter with the same parameters (${mismatches.join('; ')})`);
    }
    // The payload follows the 56-byte header and the 8-byte parameter block (https://github.com/cuckoo-bloom-wasm/cuckoo-bloom-wasm/blob/main/docs/FORMAT.md).
    const payload = bytes.subarray(64, 64 + this.byteLength);
    // Never stage into a filter that is gone (its staging keys would be left behind).
    await this.checkIdentity();
    // Staging keys start empty (a failed earlier load may have left one), then fill in chunks.
    await runBounded(
      this.#shardKeys.map((shard) => () => this.command(['UNLINK', stagingKey(shard)], 'load')),
      TRANSFER_CONCURRENCY,
    );
    const writes: Array<() => Promise<unknown>> = [];
    this.#shardKeys.forEach((shard, index) => {
      const staging = stagingKey(shard);
      const length = shardBytesOf(this.#layout, index);
      const shardStart = index * this.#layout.shardBlocks * BYTES_PER_BLOCK;
      for (let offset = 0; offset < length; offset += chunkBytes) {
        const chunk = payload.subarray(shardStart + offset, shardStart + Math.min(length, offset + chunkBytes));
        writes.push(() => this.command(['SETRANGE', staging, String(offset), toBuffer(chunk)], 'load'));
      }
    });
    await runBounded(writes, TRANSFER_CONCURRENCY);
    const groups = this.#slotGroups(this.#shardKeys.map((_, index) => index));
    await Promise.all(
      groups.map((indexes) => {
        const shards = indexes.map((i) => this.#shardKeys[i] as string);
        const counts = indexes.map((i) => (i === 0 ? String(snapshot.itemCount) : '0'));
        return this.command(
          [
            'EVALSHA', COMMIT_LOAD_SCRIPT.sha, String(shards.length * 3 + 1 + this.#guardKeys().length),
            ...shards, ...shards.map(stagingKey), ...shards.map(counterKey), this.#mirrorOf(indexes[0] ?? 0),
            ...this.#guardKeys(),
            String(shards.length), ...indexes.map((i) => String(shardBytesOf(this.#layout, i))), ...counts,
            this.#guardId(),
          ],
          'load',
          COMMIT_LOAD_SCRIPT,
        );
      }),
    );
    if (!this.connection.sameSlot) await this.checkIdentity();
  }

  /**
   * Removes the filter and every key of it: the parameters hash, each shard,
   * its counter and staging key; atomically per cluster slot (one script for
   * the whole filter in the 'single' layout of a key without braces; else the
   * hash first, so no one opens it again, then each slot's keys). Afterwards
   * this handle's calls fail with `FREED`, other handles' with `CORRUPT`
   * (their filter's parameters are gone, or the key holds a newer filter).
   * @throws FilterError `CORRUPT` when the key holds another filter by now
   *   (created after this one was lost): nothing is removed; `UNAVAILABLE`.
   */
  async destroy(): Promise<void> {
    this.checkLive();
    const keysOf = (index: number) => {
      const shard = this.#shardKeys[index] as string;
      return [shard, counterKey(shard), stagingKey(shard)];
    };
    // The write counters' mirror is the hash itself in the same slot, else a key of each slot group.
    const mirrors = (indexes: number[]) => (this.connection.sameSlot ? [] : [this.#mirrorOf(indexes[0] ?? 0)]);
    const groups = this.connection.sameSlot || this.#layout.slots === 'single'
      ? [[...this.#shardKeys.flatMap((_, index) => keysOf(index)), ...mirrors([0])]]
      : this.#shardKeys.map((_, index) => [...keysOf(index), ...mirrors([index])]);
    await destroyFilter(this.sender(), this.key, this.#layout.id, this.connection.sameSlot, groups, null);
    this.markDestroyed();
  }

  // ---- internals

  protected get filterId(): string {
    return this.#layout.id;
  }

  /** The parameters hash as a script's last key, when the scripts check it themselves (lua/parts/identity-guard.lua). */
  #guardKeys(): string[] {
    return this.connection.sameSlot ? [this.key] : [];
  }

  /** The script's last argument: the filter id it checks, or '' when a second command does. */
  #guardId(): string {
    return this.connection.sameSlot ? this.#layout.id : '';
  }

  /** One call's keys (answers[offset + i] is keys[i]'s): one script call, or one per shard ('spread'). */
  protected async runCall(script: Script, keys: readonly Key[], offset: number, answers: boolean[]): Promise<void> {
    const { seed, blockCount, shardBlocks } = this.#layout;
    const plan = this.connection.planner.plan(keys, seed, blockCount, shardBlocks);
    const calls = this.#layout.slots === 'single' ? [plan.groups] : plan.groups.map((group) => [group]);
    await Promise.all(calls.map((groups) => this.#runScript(script, plan, groups, answers, offset)));
  }

  async #runScript(script: Script, plan: CallPlan, groups: PlannedGroup[], answers: boolean[], offset: number): Promise<void> {
    const shards = groups.map((group) => this.#shardKeys[group.shard] as string);
    const lengths = groups.map((group) => String(shardBytesOf(this.#layout, group.shard)));
    const m = String(groups.length);
    // The add script also counts new keys, in each shard's counter.
    const counters = script === ADD_SCRIPT ? shards.map(counterKey) : [];
    const mirror = this.#mirrorOf(groups[0]?.shard ?? 0);
    const guard = this.#guardKeys();
    const args: RedisArgument[] = [
      'EVALSHA', script.sha, String(shards.length + counters.length + 1 + guard.length), ...shards, ...counters, mirror, ...guard,
      m, ...groups.map((group) => group.ranges), ...groups.map((group) => group.records), ...lengths, this.#guardId(),
    ];
    const reply = await this.command(args, script.name, script);
    if (script === ADD_SCRIPT) await awaitReplicas(this.connection.redis, shards[0] as string, this.connection.timeoutMs);
    readAnswerText(reply, plan, groups, answers, offset);
  }

  /** The hash mirroring the write counters of shard `index` (and of every shard in its slot): layout.ts. */
  #mirrorOf(index: number): string {
    return mirrorKey(this.key, this.#layout, index, this.connection.sameSlot);
  }

  /**
   * CORRUPT unless every shard is whole and as new as its mirror says, and
   * (in the scripts' slot, else by a second command) the hash names this
   * filter: snapshot() runs it after its reads (lua/verify.lua says why).
   */
  async #verify(): Promise<void> {
    await runBounded(
      this.#slotGroups(this.#shardKeys.map((_, index) => index)).map((indexes) => () =>
        this.command(
          [
            'EVALSHA', VERIFY_SCRIPT.sha, String(indexes.length + 1 + this.#guardKeys().length),
            ...indexes.map((i) => this.#shardKeys[i] as string), this.#mirrorOf(indexes[0] ?? 0), ...this.#guardKeys(),
            String(indexes.length), ...indexes.map((i) => String(shardBytesOf(this.#layout, i))), this.#guardId(),
          ],
          'snapshot',
          VERIFY_SCRIPT,
        ),
      ),
      TRANSFER_CONCURRENCY,
    );
    if (!this.connection.sameSlot) await this.checkIdentity();
  }

  /** Shard indexes grouped by the script calls that may touch them together. */
  #slotGroups(indexes: number[]): number[][] {
    return this.#layout.slots === 'single' ? [indexes] : indexes.map((index) => [index]);
  }
}

interface SnapshotInfo {
  capacity: number;
  falsePositiveRate: number;
  seed: number;
  blockCount: number;
  itemCount: number;
}

/** Validates a blocked Bloom blob with the core (checksum, every field) and reads its parameters. */
function readSnapshot(bytes: unknown): SnapshotInfo {
  if (!(bytes instanceof Uint8Array)) {
    throw new FilterError('INVALID_ARGUMENT', `a snapshot must be a Uint8Array, got ${describeValue(bytes)}`);
  }
  const filter = BlockedBloomFilter.deserialize(bytes);
  try {
    return {
      capacity: filter.capacity,
      falsePositiveRate: filter.falsePositiveRate,
      seed: filter.seed,
      blockCount: filter.blockCount,
      itemCount: filter.count,
    };
  } finally {
    filter.free();
  }
}

interface CheckedOptions {
  capacity: number;
  falsePositiveRate: number;
  seed: number;
  shardBytes: number;
  slots: SlotLayout;
  timeoutMs: number;
  allowEviction: boolean;
  /** Which of shardBytes and slots the caller set (only those are compared with a stored filter). */
  explicit: { shardBytes: boolean; slots: boolean };
}

function checkChunkBytes(value: unknown): number {
  if (value === undefined) return DEFAULT_CHUNK_BYTES;
  requireInteger(value, 'chunkBytes', 'RedisBloomFilter', 64, MAX_SHARD_BYTES);
  return value;
}

function checkCreateOptions(options: unknown): CheckedOptions {
  const name = 'RedisBloomFilter.create';
  const given = knownOptions<RedisBloomFilterOptions>(options, name, CREATE_OPTIONS, '{ capacity: 1000000 }');
  const table = checkTableOptions(given, name);
  const slots = given.slots ?? 'single';
  if (slots !== 'single' && slots !== 'spread') {
    throw new FilterError('INVALID_ARGUMENT', `${name}: slots must be 'single' or 'spread', got ${describeValue(slots)}`);
  }
  return {
    ...table,
    slots,
    timeoutMs: checkTimeout(given.timeoutMs, 'create'),
    allowEviction: checkAllowEviction(given.allowEviction, name),
    explicit: { shardBytes: given.shardBytes !== undefined, slots: given.slots !== undefined },
  };
}

/** What differs between a stored filter and the parameters asked for, in words. */
function differences(
  stored: RedisFilterLayout,
  wanted: Pick<CheckedOptions, 'capacity' | 'falsePositiveRate' | 'seed'> & Partial<CheckedOptions>,
): string[] {
  const out: string[] = [];
  const compare = (name: string, have: unknown, want: unknown) => {
    if (have !== want) out.push(`${name} ${String(have)} stored, ${String(want)} asked`);
  };
  compare('capacity', stored.capacity, wanted.capacity);
  compare('falsePositiveRate', stored.falsePositiveRate, wanted.falsePositiveRate);
  compare('seed', stored.seed, wanted.seed);
  if (wanted.explicit?.shardBytes) compare('shardBytes', stored.shardBlocks * BYTES_PER_BLOCK, wanted.shardBytes);
  if (wanted.explicit?.slots) compare('slots', stored.slots, wanted.slots);
  return out;
}
