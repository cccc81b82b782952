import { coreError, FilterError, statusName } from '../errors.js';
import { ExistingHandle, type FilterClassInfo, Filter, type HasManyOptions, type SerializedBytes } from '../core/filter-base.js';
import type { KeyBatch } from '../keys/key-batch.js';
import { describeValue, type Key } from '../keys/keys.js';
import { requireWithinLimit } from '../options.js';
import { coreFilterType } from '../runtime/core-types.js';

/** A clock: returns the current time as a finite number, in the units of `window`. */
export type Clock = () => number;

/** Options of `ExpiringBloomFilter`. */
export interface ExpiringBloomFilterOptions {
  /**
   * Keys added within any one generation (`window / (generations - 1)` time
   * units) that each generation is sized for: a positive integer.
   */
  capacity: number;
  /** The target rate of a query over all generations together, in (0, 1). Default 0.01. */
  falsePositiveRate?: number | undefined;
  /** Time units (of `clock`) a key is remembered for at least: a finite number > 0. Default 3,600,000 (one hour of `Date.now`). */
  window?: number | undefined;
  /** Filters in rotation, an integer in [2, 64]. More generations forget closer to `window` (at most `window / (generations - 1)` late) for more memory. Default 4. */
  generations?: number | undefined;
  /** Reads the time before every add and query. Default `Date.now`. */
  clock?: Clock | undefined;
  /** Hash seed, a non-negative safe integer. Default 0. */
  seed?: number | undefined;
}


/**
 * "Was this key seen in the last `window` time units?" — a filter that
 * forgets. `generations` Bloom filters rotate as the clock moves: a key added
 * is found for at least `window` units and forgotten after at most
 * `window + window / (generations - 1)` units (adding it again refreshes it).
 * No removal; no false negatives inside the window.
 *
 * The filter reads `clock` (default `Date.now`) before every add and query,
 * and `advance(now)` moves it explicitly. A clock that steps back changes
 * nothing (the filter never rotates backwards, so it never forgets early).
 *
 * `count` is the adds held by the live generations (a key added in two
 * generations counts in both); `capacity`, the keys each generation is sized for.
 *
 * ```ts
 * const recent = new ExpiringBloomFilter({ capacity: 10_000, window: 60_000 }); // last minute
 * if (!recent.has(requestId)) recent.add(requestId);
 * ```
 */
export class ExpiringBloomFilter extends Filter<'expiring-bloom'> {
  protected static override readonly info: FilterClassInfo<'expiring-bloom'> = { typeName: 'expiring-bloom', className: 'ExpiringBloomFilter' };

  #clock: Clock;

  /** @throws FilterError `INVALID_ARGUMENT` for bad options (window <= 0, generations outside [2, 64], clock not a function or not returning a finite number); `OUT_OF_MEMORY`; `NOT_INITIALIZED`. */
  constructor(options: ExpiringBloomFilterOptions) {
    const existing = (options as unknown) instanceof ExistingHandle;
    const clock = existing ? Date.now : clockOption(options);
    super(existing ? options : expiryOptionsForCore(options, clock, ExpiringBloomFilter.info));
    this.#clock = clock;
  }

  /**
   * Reads bytes produced by `serialize()`; the clock state (the newest
   * generation's start) is in them, so with the same clock the copy answers
   * exactly as the original would. `options.clock` defaults to `Date.now`.
   * @throws FilterError `CORRUPT`, `UNSUPPORTED_VERSION`, `WRONG_TYPE`, `INVALID_ARGUMENT`.
   */
  static override deserialize<F extends Filter>(
    this: new (existing: never) => F,
    bytes: SerializedBytes,
    options?: { clock?: Clock | undefined },
  ): F {
    const clock = clockOption(options ?? {});
    // Called on this class (or a subclass), so the filter read is one of ours; called
    // detached (`[bytes].map(ExpiringBloomFilter.deserialize)`), `this` is undefined and
    // the class is this one.
    const Class = typeof this === 'function' ? this : (ExpiringBloomFilter as unknown as new (existing: never) => F);
    const filter = super.deserialize.call(Class, bytes) as F & ExpiringBloomFilter;
    filter.#clock = clock;
    return filter;
  }

  /**
   * Moves the filter's time to `now` (in the clock's units): generations that
   * ended more than `window` ago are dropped. Returns how many were dropped.
   * A `now` before the newest generation's start changes nothing.
   * @throws FilterError `INVALID_ARGUMENT` when `now` is not a finite number; `FREED`.
   */
  advance(now: number): number {
    if (typeof now !== 'number' || !Number.isFinite(now)) {
      throw new FilterError('INVALID_ARGUMENT', `ExpiringBloomFilter: the time must be a finite number, got ${typeof now === 'number' ? now : describeValue(now)}`);
    }
    const dropped = this.module._cbw_advance(this.address, now);
    if (dropped < 0) throw coreError(statusName(this.module, -dropped), `ExpiringBloomFilter: cannot advance to ${now}`);
    return dropped;
  }

  /** The clock this filter reads. */
  get clock(): Clock {
    return this.#clock;
  }

  #tick(): void {
    this.advance(this.#readClock());
  }

  #readClock(): number {
    const now = this.#clock();
    if (typeof now !== 'number' || !Number.isFinite(now)) {
      throw new FilterError('INVALID_ARGUMENT', `ExpiringBloomFilter: the clock must return a finite number, got ${typeof now === 'number' ? now : describeValue(now)}`);
    }
    return now;
  }

  /** True when the key was added within the window (or is a false positive). Reads the clock first. */
  override has(key: Key): boolean {
    this.#tick();
    return super.has(key);
  }

  /** Adds (or refreshes) a key in the newest generation; reads the clock first. @throws FilterError `INVALID_ARGUMENT`; `FULL` only for a filter read from bytes that already count 2^64 − 1 keys (nothing changed); `FREED`. */
  add(key: Key): this {
    this.#tick();
    const status = this.addKey(key);
    if (status !== 'OK') throw coreError(status, `expiring-bloom filter: add failed (${status})`);
    return this;
  }

  override addIfNew(key: Key): boolean {
    this.#tick();
    return super.addIfNew(key);
  }

  override hasMany(keys: Iterable<Key> | KeyBatch): boolean[];
  override hasMany(keys: Iterable<Key> | KeyBatch, options: { as: 'Uint8Array' }): Uint8Array;
  override hasMany(keys: Iterable<Key> | KeyBatch, options: { as: 'boolean[]' }): boolean[];
  override hasMany(keys: Iterable<Key> | KeyBatch, options?: HasManyOptions): boolean[] | Uint8Array {
    this.#tick();
    return super.hasMany(keys, options as { as: 'Uint8Array' });
  }

  override addMany(keys: Iterable<Key> | KeyBatch): void {
    this.#tick();
    super.addMany(keys);
  }

  /** An independent copy with the same clock. */
  override clone(): this {
    const copy = super.clone();
    (copy as ExpiringBloomFilter).#clock = this.#clock;
    return copy;
  }

  /** Time units a key is remembered for at least. */
  declare readonly window: number;
  /** Filters in rotation. */
  declare readonly generations: number;
  /** `window / (generations - 1)`: a key is forgotten at most this long after the window. */
  declare readonly generationLength: number;

  static {
    this.defineSizingGetters('window', 'generations', 'generationLength');
  }

  /** When the newest generation started (clock units). */
  get generationStart(): number {
    return this.parameters.generationStart!;
  }
}

function clockOption(options: unknown): Clock {
  const clock = options !== null && typeof options === 'object' ? (options as { clock?: unknown }).clock : undefined;
  if (clock === undefined) return Date.now;
  if (typeof clock !== 'function') {
    throw new FilterError('INVALID_ARGUMENT', `ExpiringBloomFilter: clock must be a function returning the time, got ${describeValue(clock)}`);
  }
  return clock as Clock;
}

/** The options as the base class and the core take them; the clock's reading now becomes `startTime`. */
function expiryOptionsForCore(options: unknown, clock: Clock, info: FilterClassInfo): unknown {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) return options; // the base names the error
  const { clock: _clock, window, generations, ...rest } = options as ExpiringBloomFilterOptions & Record<string, unknown>;
  if ('startTime' in rest) {
    throw new FilterError('INVALID_ARGUMENT', 'ExpiringBloomFilter: unknown option \'startTime\' (the start is read from clock)');
  }
  // The ranges and defaults are the C++ class's (kOptionLimits), read from the registry.
  const limits = coreFilterType(info.typeName).optionLimits;
  const { className } = info;
  if (window !== undefined) requireWithinLimit(window, 'window', className, limits.window!, 'time units a key is remembered for at least');
  if (generations !== undefined) requireWithinLimit(generations, 'generations', className, limits.generations!);
  const startTime = clock();
  if (typeof startTime !== 'number' || !Number.isFinite(startTime)) {
    throw new FilterError('INVALID_ARGUMENT', `ExpiringBloomFilter: the clock must return a finite number, got ${typeof startTime === 'number' ? startTime : describeValue(startTime)}`);
  }
  return { ...rest, window: window ?? limits.window!.default!, generations: generations ?? limits.generations!.default!, startTime };
}
