import { FilterError } from '../index.js';
import { describeValue, type Key } from '../keys/keys.js';
import { requireInteger } from '../options.js';
import { adaptClient, type RedisArgument, type RedisCommandRunner, type RedisClient } from './clients.js';
import {
  checkKey,
  checkTimeout,
  readStoredParameters,
  loadCore,
  plannerFor,
} from './commands.js';
import { EXPIRING_ADD_SCRIPT, EXPIRING_HAS_SCRIPT, type Script } from './scripts.js';
import {
  BYTES_PER_BLOCK,
  integerField,
  layoutError,
  layoutFields,
  mirrorKey,
  newFilterId,
  parseLayout,
  readFields,
  type RedisFilterLayout,
  shardBytesOf,
  shardKey,
} from './layout.js';
import { type CallPlan, type CallPlanner, type PlannedGroup, readAnswers } from './positions.js';
import { checkTableOptions, knownOptions } from './create-options.js';
import { awaitReplicas, checkDurability, withDurability } from './durability.js';
import { readAnswerText, RedisKeyedFilter } from './script-calls.js';
import type { RedisConnectionOptions } from './redis-bloom.js';
import { checkAllowEviction, checkEviction } from './eviction.js';
import { createOrFind, destroyFilter, hashSharesSlot } from './identity.js';

/** Options of {@link RedisExpiringBloomFilter.create}: the window, generations and sizing, and how to talk to Redis. */
export interface RedisExpiringBloomFilterOptions extends RedisConnectionOptions {
  /** Milliseconds a key is remembered for, at least: `has` finds it for this long after its latest `add`. */
  windowMs: number;
  /**
   * Generations (K, 2..64, default 3). Keys are forgotten between `windowMs`
   * and `windowMs × K / (K − 1)` after their latest add; Redis holds K tables.
   */
  generations?: number | undefined;
  /** The most keys added within any one window: every generation is sized for this many. */
  capacity: number;
  /** Target false-positive rate of `has` over all K generations, in (0, 1). Default 0.01. */
  falsePositiveRate?: number | undefined;
  /** Hash seed, a non-negative safe integer. Default 0. */
  seed?: number | undefined;
  /** Bytes of one generation's table per Redis string, a multiple of 64 up to 512 MiB − 64 (each string also holds an 8-byte write counter). Default 64 MiB. */
  shardBytes?: number | undefined;
}

/** The hash's `format` field for an expiring filter. */
const EXPIRING_LAYOUT_FORMAT = 'cuckoo-bloom-wasm/redis expiring-blocked-bloom 1';
const CREATE_OPTIONS = ['windowMs', 'generations', 'capacity', 'falsePositiveRate', 'seed', 'shardBytes', 'timeoutMs', 'durability', 'allowEviction'];
const DEFAULT_GENERATIONS = 3;
/** One generation must last at least a millisecond (TIME's resolution as the scripts read it). */
const MAX_WINDOW_MS = 2 ** 40;

interface ExpiringLayout {
  /** Each generation's table: capacity, per-generation rate, seed, blocks, shards ('single' slot). */
  table: RedisFilterLayout;
  /** The rate asked for, over all generations. */
  falsePositiveRate: number;
  windowMs: number;
  generations: number;
}

/**
 * "Seen in the last N milliseconds", shared by every process: a blocked
 * Bloom filter in K generations on Redis. Adds go to the newest generation;
 * `has` looks in all K; Redis expires each generation's strings itself when
 * it stops being looked at. The generation is derived from Redis's clock
 * inside each script, so every process agrees on it with no coordination,
 * and a rotation is just the clock passing a generation boundary.
 *
 * Guarantee: a key whose add resolved is found by every `has` for at least
 * `windowMs` afterwards (from Redis's clock), and is gone (but for false
 * positives) at most `windowMs + windowMs / (K − 1)` afterwards. Each
 * generation is a table sized for `capacity` keys at `falsePositiveRate / K`,
 * so `has` over K of them stays within `falsePositiveRate`.
 *
 * Consistency and failures as RedisBloomFilter: atomic per script call, a
 * failed call reports nothing (`UNAVAILABLE`: retry), a generation that
 * should hold data but is gone (evicted, lost in a restart without
 * persistence) is `CORRUPT`, never an empty answer. Use a `noeviction`
 * maxmemory policy: the generations carry TTLs, so `volatile-*` policies
 * would evict them first.
 */
export class RedisExpiringBloomFilter extends RedisKeyedFilter {
  readonly #layout: ExpiringLayout;
  /** The sorted set recording created generation shards (see lua/parts/expiring-generations.lua). */
  readonly #written: string;
  /** The hash mirroring each generation shard's write counter: the parameters hash in its slot, else a key of its own (layout.ts). */
  readonly #mirror: string;
  /** Generation shard names start with this (then `g<generation>:<shard>`). */
  readonly #prefix: string;

  private constructor(redis: RedisCommandRunner, key: string, layout: ExpiringLayout, timeoutMs: number, planner: CallPlanner) {
    super({ redis, key, timeoutMs, planner, sameSlot: hashSharesSlot(key, 'single') });
    this.#layout = layout;
    // shardKey(…, 'single', i) is `{tag}:<id>:<i>`: the same slot for the prefix's names.
    const sample = shardKey(key, layout.table, 0);
    this.#prefix = sample.slice(0, sample.length - 1);
    this.#written = `${this.#prefix}written`;
    this.#mirror = mirrorKey(key, layout.table, 0, this.connection.sameSlot);
  }

  /**
   * Creates the filter under `key`, or opens it if it exists with the same
   * window, generations, capacity, rate and seed (every process may call it).
   * Generations take memory in Redis only once keys are added to them. As
   * RedisBloomFilter.create: a failed create leaves no key behind; "parameters
   * lost, shards remain" is refused; so is a Redis that may evict keys
   * (maxmemory with an `allkeys-*` or `volatile-*` policy), unless
   * `allowEviction: true`.
   * @throws FilterError `INVALID_ARGUMENT` for bad options or other stored
   *   parameters; `CORRUPT` when the key holds something else, or keys of a
   *   filter remain without parameters; `UNSUPPORTED` when Redis may evict its
   *   keys (the message names the policy) or its policy cannot be read, without
   *   `allowEviction: true`; `UNAVAILABLE`.
   */
  static async create(client: RedisClient, key: string, options: RedisExpiringBloomFilterOptions): Promise<RedisExpiringBloomFilter> {
    const redis = withDurability(adaptClient(client), checkDurability(options?.durability, 'RedisExpiringBloomFilter.create'));
    checkKey(key);
    const checked = checkOptions(options);
    const core = await loadCore();
    const blockCount = core._cbw_redis_block_count(checked.capacity, checked.falsePositiveRate / checked.generations);
    if (blockCount === 0) {
      throw new FilterError('INVALID_ARGUMENT', `RedisExpiringBloomFilter: a generation for ${checked.capacity} keys would be too large`);
    }
    const layout: ExpiringLayout = {
      table: {
        capacity: checked.capacity,
        falsePositiveRate: checked.falsePositiveRate / checked.generations,
        seed: checked.seed,
        blockCount,
        shardBlocks: checked.shardBytes / BYTES_PER_BLOCK,
        slots: 'single',
        id: newFilterId(),
      },
      falsePositiveRate: checked.falsePositiveRate,
      windowMs: checked.windowMs,
      generations: checked.generations,
    };
    const filter = new RedisExpiringBloomFilter(redis, key, layout, checked.timeoutMs, plannerFor(core));
    const send = filter.sender();
    await checkEviction(redis, key, {
      expiring: true,
      allowEviction: checked.allowEviction,
      where: 'RedisExpiringBloomFilter.create',
      timeoutMs: checked.timeoutMs,
    });
    // The record of generations (under a fresh id) and the parameters hash are made together: identity.ts.
    const fields = [
      ...layoutFields(layout.table, EXPIRING_LAYOUT_FORMAT),
      'windowMs', String(layout.windowMs),
      'generations', String(layout.generations),
      'windowFalsePositiveRate', String(layout.falsePositiveRate),
    ];
    const existing = await createOrFind(send, {
      hash: key,
      fields,
      sameSlot: filter.connection.sameSlot,
      groups: [[{ name: filter.#written, what: 'z' }]],
    });
    // With durability, create resolves only once the parameters hash (the filter's
    // identity: without it every handle answers CORRUPT) reached the replicas too; a
    // retried create that finds the filter waits for this connection's writes again.
    await awaitReplicas(redis, key, checked.timeoutMs);
    if (existing === null) return filter;
    const stored = parseExpiringLayout(existing, key);
    const mismatches: string[] = [];
    const compare = (name: string, have: unknown, want: unknown) => {
      if (have !== want) mismatches.push(`${name} ${String(have)} stored, ${String(want)} asked`);
    };
    compare('windowMs', stored.windowMs, checked.windowMs);
    compare('generations', stored.generations, checked.generations);
    compare('capacity', stored.table.capacity, checked.capacity);
    compare('falsePositiveRate', stored.falsePositiveRate, checked.falsePositiveRate);
    compare('seed', stored.table.seed, checked.seed);
    if (options.shardBytes !== undefined) compare('shardBytes', stored.table.shardBlocks * BYTES_PER_BLOCK, checked.shardBytes);
    if (mismatches.length > 0) {
      throw new FilterError(
        'INVALID_ARGUMENT',
        `Redis key '${key}' holds an expiring filter with other parameters (${mismatches.join('; ')}): ` +
          'open it with RedisExpiringBloomFilter.open(), or use another key',
      );
    }
    return new RedisExpiringBloomFilter(redis, key, stored, checked.timeoutMs, plannerFor(core));
  }

  /**
   * Opens the expiring filter stored under `key`; refuses, as `create` does, a
   * Redis that may evict its keys unless `allowEviction: true`.
   * @throws FilterError `INVALID_ARGUMENT` when there is none; `CORRUPT` when the key holds
   *   something else; `UNSUPPORTED` as `create`; `UNAVAILABLE`.
   */
  static async open(client: RedisClient, key: string, options: RedisConnectionOptions = {}): Promise<RedisExpiringBloomFilter> {
    const durability = checkDurability(options?.durability, 'RedisExpiringBloomFilter.open');
    const allowEviction = checkAllowEviction(options?.allowEviction, 'RedisExpiringBloomFilter.open');
    const { redis, timeoutMs, core, reply } = await readStoredParameters(client, key, options?.timeoutMs, 'RedisExpiringBloomFilter', {
      expiring: true,
      allowEviction,
    });
    return new RedisExpiringBloomFilter(withDurability(redis, durability), key, parseExpiringLayout(reply, key), timeoutMs, plannerFor(core));
  }

  /** Milliseconds a key is remembered for, at least, after its latest add. */
  get windowMs(): number {
    return this.#layout.windowMs;
  }
  /** Generations (K): Redis holds up to K tables; keys are forgotten by windowMs × K / (K − 1). */
  get generations(): number {
    return this.#layout.generations;
  }
  /** Milliseconds per generation: windowMs / (generations − 1). */
  get generationMs(): number {
    return this.#layout.windowMs / (this.#layout.generations - 1);
  }
  /** Keys each generation is sized for: the most keys added within one window. */
  get capacity(): number {
    return this.#layout.table.capacity;
  }
  /** Target false-positive rate of `has` over all generations. */
  get falsePositiveRate(): number {
    return this.#layout.falsePositiveRate;
  }
  /** Hash seed of every generation's table. */
  get seed(): number {
    return this.#layout.table.seed;
  }
  /** Bytes of one generation's table (Redis holds up to `generations` of them). */
  get generationBytes(): number {
    return this.#layout.table.blockCount * BYTES_PER_BLOCK;
  }

  protected override describe(): string {
    return (
      `key: ${JSON.stringify(this.key)}, windowMs: ${this.windowMs}, generations: ${this.generations}, capacity: ${this.capacity}, ` +
      `falsePositiveRate: ${this.falsePositiveRate}, generationBytes: ${this.generationBytes}`
    );
  }

  /**
   * Adds each key to the newest generation; for each, true when no live generation
   * held it (not seen within the window). One round trip, atomic per script call
   * (KEYS_PER_SCRIPT keys).
   */
  async addMany(keys: Iterable<Key>): Promise<boolean[]> {
    return this.run(keys, EXPIRING_ADD_SCRIPT);
  }

  /**
   * For each key, true when it may have been added within the window (see the class
   * comment), false when certainly not. One round trip; each script call answers from
   * one state of every generation.
   */
  async hasMany(keys: Iterable<Key>): Promise<boolean[]> {
    return this.run(keys, EXPIRING_HAS_SCRIPT);
  }

  /**
   * Removes the filter and every key of it: the parameters hash, the record
   * of generations and every generation it records; in one script when the
   * key holds no braces (one cluster slot), else the hash first, then the
   * rest in one script. Afterwards this handle's calls fail with `FREED`,
   * other handles' with `CORRUPT`.
   * @throws FilterError `CORRUPT` when the key holds another filter by now: nothing is removed; `UNAVAILABLE`.
   */
  async destroy(): Promise<void> {
    this.checkLive();
    const group = this.connection.sameSlot ? [this.#written] : [this.#written, this.#mirror];
    await destroyFilter(this.sender(), this.key, this.#layout.table.id, this.connection.sameSlot, [group], {
      group: 0,
      index: 1,
      prefix: this.#prefix,
    });
    this.markDestroyed();
  }

  // ---- internals

  protected get filterId(): string {
    return this.#layout.table.id;
  }

  protected async runCall(script: Script, keys: readonly Key[], offset: number, answers: boolean[]): Promise<void> {
    const { seed, blockCount, shardBlocks } = this.#layout.table;
    const plan = this.connection.planner.plan(keys, seed, blockCount, shardBlocks);
    const { groups } = plan;
    // Each shard's table length (its string holds an 8-byte write counter more: lua/parts/write-counters.lua).
    const lengths = groups.map((group) => String(shardBytesOf(this.#layout.table, group.shard)));
    const guard = this.connection.sameSlot ? [this.key] : [];
    const id = this.connection.sameSlot ? this.#layout.table.id : '';
    const head: RedisArgument[] = [
      'EVALSHA', script.sha, String(2 + guard.length), this.#written, this.#mirror, ...guard,
      this.#prefix, String(this.#layout.windowMs), String(this.#layout.generations), String(groups.length),
      ...groups.map((group) => String(group.shard)), ...groups.map((group) => group.ranges),
    ];
    if (script === EXPIRING_HAS_SCRIPT) {
      const reply = await this.command([...head, ...lengths, id], script.name, script, true);
      this.#readHasReply(plan, reply, answers, offset);
      return;
    }
    const reply = await this.command([...head, ...groups.map((group) => group.records), ...lengths, id], script.name, script);
    await awaitReplicas(this.connection.redis, this.#written, this.connection.timeoutMs);
    readAnswerText(reply, plan, groups, answers, offset);
  }

  /** A key is present when any generation's block holds all its bits (answers start false). */
  #readHasReply(plan: CallPlan, reply: unknown, answers: boolean[], offset: number): void {
    const { groups } = plan;
    const parts = this.#layout.generations * groups.length;
    if (!Array.isArray(reply) || reply.length !== parts) {
      throw new FilterError('UNAVAILABLE', `Redis answered ${describeValue(reply)} where ${parts} parts were expected`);
    }
    const scratch = new Array<boolean>(0);
    reply.forEach((part: unknown, index: number) => {
      const group = groups[index % groups.length] as PlannedGroup;
      if (!(part instanceof Uint8Array) || (part.length !== 0 && part.length !== group.replyBytes)) {
        throw new FilterError('UNAVAILABLE', `Redis answered ${describeValue(part)} where ${group.replyBytes} bytes were expected`);
      }
      if (part.length === 0) return; // that generation holds nothing in this shard
      scratch.length = 0;
      readAnswers(plan, group, part, 0, scratch, 0);
      for (let n = group.first; n < group.first + group.count; n++) {
        const index = plan.order[n] as number;
        if (scratch[index] === true) answers[offset + index] = true;
      }
    });
  }
}

function parseExpiringLayout(reply: unknown, key: string): ExpiringLayout {
  const table = parseLayout(reply, key, EXPIRING_LAYOUT_FORMAT);
  const fields = readFields(reply);
  if (table.slots !== 'single') throw layoutError(key, `slots is ${table.slots}, expected single`);
  const falsePositiveRate = Number(fields.get('windowFalsePositiveRate'));
  if (!(falsePositiveRate > 0 && falsePositiveRate < 1)) throw layoutError(key, 'windowFalsePositiveRate is not in (0, 1)');
  return {
    table,
    falsePositiveRate,
    windowMs: integerField(fields, key, 'windowMs', 1, MAX_WINDOW_MS),
    generations: integerField(fields, key, 'generations', 2, 64),
  };
}

interface CheckedOptions {
  windowMs: number;
  generations: number;
  capacity: number;
  falsePositiveRate: number;
  seed: number;
  shardBytes: number;
  timeoutMs: number;
  allowEviction: boolean;
}

function checkOptions(options: unknown): CheckedOptions {
  const name = 'RedisExpiringBloomFilter.create';
  const given = knownOptions<RedisExpiringBloomFilterOptions>(options, name, CREATE_OPTIONS, '{ windowMs: 60000, capacity: 1000000 }');
  const generations = given.generations ?? DEFAULT_GENERATIONS;
  requireInteger(generations, 'generations', name, 2, 64);
  // A generation lasts windowMs / (K - 1) ms: at least 1 ms.
  requireInteger(given.windowMs, 'windowMs', name, generations - 1, MAX_WINDOW_MS);
  return {
    windowMs: given.windowMs,
    generations,
    ...checkTableOptions(given, name),
    timeoutMs: checkTimeout(given.timeoutMs, 'create'),
    allowEviction: checkAllowEviction(given.allowEviction, name),
  };
}

