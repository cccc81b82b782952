// The four shared filter classes: the option names and checks of the normal
// entry's classes of the same types (options.ts, cuckoo/cuckoo.ts), created in
// this thread's shared memory (init()) or attached from a handle.
import { FilterError } from '../errors.js';
import type { KeyBatch } from '../keys/key-batch.js';
import { describeValue, type Key } from '../keys/keys.js';
import { checkOptions, DEFAULT_FALSE_POSITIVE_RATE, type FilterOptions, requireInteger } from '../options.js';
import { SharedFilter } from './shared-filter.js';
import type { SharedFilterHandle, SharedFilterType } from './shared-handle.js';
import { createPlace, FilterPlace, placeOf } from './shared-place.js';
import { currentRuntime } from './shared-runtime.js';

/** Options of {@link SharedCuckooFilter}: those of the normal `CuckooFilter` but `semiSorted` (always packed slots). */
export interface SharedCuckooFilterOptions extends FilterOptions {
  /** Slots per bucket: 2, 4 (default) or 8. */
  bucketSize?: 2 | 4 | 8 | undefined;
  /** Fingerprint width, 4..32 bits. Default: derived from falsePositiveRate. */
  fingerprintBits?: number | undefined;
  /** Evictions tried before an insert fails with `FULL`. Default 500. */
  maxKicks?: number | undefined;
  /**
   * Only `false` (or absent): the concurrent cuckoo filter keeps packed slots
   * (https://github.com/cuckoo-bloom-wasm/cuckoo-bloom-wasm/blob/main/docs/CONCURRENCY.md).
   */
  semiSorted?: false | undefined;
}

function wordFilterPlace(type: SharedFilterType, className: string, options: unknown): FilterPlace {
  if (options instanceof FilterPlace) return options;
  const checked = checkOptions<FilterOptions>(options, className);
  return createPlace(currentRuntime(className), type, className, {
    capacity: checked.capacity,
    rate: checked.falsePositiveRate ?? DEFAULT_FALSE_POSITIVE_RATE,
    seed: checked.seed ?? 0,
  });
}

/**
 * A Bloom filter in shared memory: any number of threads add and query at
 * once (an atomic OR per probe). Its bytes are a `BloomFilter`'s.
 *
 * ```ts
 * await init({ maximumMemory: 64 * 2 ** 20 });
 * const seen = new SharedBloomFilter({ capacity: 1_000_000, falsePositiveRate: 0.01 });
 * worker.postMessage(seen.handle()); // the worker: attach(handle).add('k')
 * ```
 */
export class SharedBloomFilter extends SharedFilter {
  /**
   * @throws FilterError `INVALID_ARGUMENT` (bad options, naming the option),
   *   `OUT_OF_MEMORY` (the shared memory is too small: see init's `maximumMemory`),
   *   `NOT_INITIALIZED` before `init()` resolved on this thread, `LOCKED` (the
   *   memory's allocator is held by a thread that was terminated inside it:
   *   https://github.com/cuckoo-bloom-wasm/cuckoo-bloom-wasm/blob/main/docs/CONCURRENCY.md).
   */
  constructor(options: FilterOptions) {
    super(wordFilterPlace('bloom', 'SharedBloomFilter', options));
  }
}

/** A blocked Bloom filter in shared memory (one cache line per key). Its bytes are a `BlockedBloomFilter`'s. */
export class SharedBlockedBloomFilter extends SharedFilter {
  /** @throws FilterError `INVALID_ARGUMENT`, `OUT_OF_MEMORY`, `NOT_INITIALIZED`, `LOCKED` (as {@link SharedBloomFilter}). */
  constructor(options: FilterOptions) {
    super(wordFilterPlace('blocked-bloom', 'SharedBlockedBloomFilter', options));
  }
}

/**
 * A counting Bloom filter in shared memory: 4-bit saturating counters changed by
 * compare-and-swap, so keys can be removed. Its bytes are a `CountingBloomFilter`'s.
 */
export class SharedCountingBloomFilter extends SharedFilter {
  /** @throws FilterError `INVALID_ARGUMENT`, `OUT_OF_MEMORY`, `NOT_INITIALIZED`, `LOCKED` (as {@link SharedBloomFilter}). */
  constructor(options: FilterOptions) {
    super(wordFilterPlace('counting-bloom', 'SharedCountingBloomFilter', options));
  }

  /**
   * Removes a key that was added: true, or false when it was not found. Only
   * remove what you added, and not the same key from two threads at once.
   * @throws FilterError `INVALID_ARGUMENT`, `FREED`.
   */
  remove(key: Key): boolean {
    return this.removeKey(key);
  }

  /**
   * `remove` of every key, in batches of up to 16,384 keys (and 65,472 UTF-16 units) per call into wasm: per key,
   * whether it was removed. Same caution as {@link SharedCountingBloomFilter.remove}.
   * @throws FilterError `INVALID_ARGUMENT` (naming the key's index), `FREED`.
   */
  removeMany(keys: Iterable<Key> | KeyBatch): boolean[] {
    return this.removeKeys(keys);
  }
}

/**
 * A cuckoo filter (packed slots) in shared memory: striped locks for adds and
 * removes, optimistic lookups. Its bytes are a `CuckooFilter`'s.
 */
export class SharedCuckooFilter extends SharedFilter {
  /** @throws FilterError `INVALID_ARGUMENT`, `OUT_OF_MEMORY`, `NOT_INITIALIZED`, `LOCKED` (as {@link SharedBloomFilter}). */
  constructor(options: SharedCuckooFilterOptions) {
    super(cuckooPlace(options));
  }

  /**
   * Removes one copy of a key that was added: true, or false when it was not
   * found. Same caution as {@link SharedCountingBloomFilter.remove}.
   * @throws FilterError `INVALID_ARGUMENT`, `FREED`, `LOCKED` (as for `has`).
   */
  remove(key: Key): boolean {
    return this.removeKey(key);
  }

  /**
   * `remove` of every key, in batches of up to 16,384 keys (and 65,472 UTF-16 units) per call into wasm: per key,
   * whether it was removed. Same caution as {@link SharedCountingBloomFilter.remove}.
   * @throws FilterError `INVALID_ARGUMENT` (naming the key's index), `FREED`,
   *   `LOCKED` (with `index`: the keys before it were done).
   */
  removeMany(keys: Iterable<Key> | KeyBatch): boolean[] {
    return this.removeKeys(keys);
  }
}

function cuckooPlace(options: unknown): FilterPlace {
  if (options instanceof FilterPlace) return options;
  const name = 'SharedCuckooFilter';
  const checked = checkOptions<SharedCuckooFilterOptions>(options, name, ['bucketSize', 'fingerprintBits', 'maxKicks', 'semiSorted']);
  const { bucketSize, fingerprintBits, maxKicks, semiSorted } = checked;
  if (semiSorted !== undefined && semiSorted !== false) {
    throw new FilterError(
      'INVALID_ARGUMENT',
      `${name}: semiSorted must be false or absent (the shared cuckoo filter keeps packed slots), got ${describeValue(semiSorted)}`,
    );
  }
  if (bucketSize !== undefined && bucketSize !== 2 && bucketSize !== 4 && bucketSize !== 8) {
    throw new FilterError('INVALID_ARGUMENT', `${name}: bucketSize must be 2, 4 or 8, got ${describeValue(bucketSize)}`);
  }
  if (fingerprintBits !== undefined) requireInteger(fingerprintBits, 'fingerprintBits', name, 4, 32);
  if (maxKicks !== undefined) requireInteger(maxKicks, 'maxKicks', name, 0, 1 << 20);
  const rate = checked.falsePositiveRate ?? (fingerprintBits === undefined ? DEFAULT_FALSE_POSITIVE_RATE : 0);
  return createPlace(currentRuntime(name), 'cuckoo', name, {
    capacity: checked.capacity,
    rate,
    seed: checked.seed ?? 0,
    bucketSize: bucketSize ?? 4,
    fingerprintBits: fingerprintBits ?? 0,
    maxKicks: maxKicks ?? 500,
  });
}

/** The filter class of each type, as attach() returns them. */
export type SharedFilterOf<T extends SharedFilterType> = {
  /** A handle of type 'bloom' attaches a SharedBloomFilter. */
  bloom: SharedBloomFilter;
  /** A handle of type 'blocked-bloom' attaches a SharedBlockedBloomFilter. */
  'blocked-bloom': SharedBlockedBloomFilter;
  /** A handle of type 'counting-bloom' attaches a SharedCountingBloomFilter. */
  'counting-bloom': SharedCountingBloomFilter;
  /** A handle of type 'cuckoo' attaches a SharedCuckooFilter. */
  cuckoo: SharedCuckooFilter;
}[T];

const CLASSES = {
  bloom: SharedBloomFilter,
  'blocked-bloom': SharedBlockedBloomFilter,
  'counting-bloom': SharedCountingBloomFilter,
  cuckoo: SharedCuckooFilter,
} as const;

/**
 * The filter a handle names, on this thread, over the same shared memory (no
 * copy). Synchronous; needs no `init()`: the handle brings the compiled module
 * and the memory, and the first attach on a thread instantiates the module
 * there (its own stack and first scratch region in the shared memory, 64 KiB
 * each, kept while the thread lives).
 *
 * @throws FilterError `INVALID_ARGUMENT` (not a handle, or its fields are wrong,
 *   naming the field), `FREED` (the filter was freed, on any thread), `LOAD_FAILED`,
 *   `LOCKED` (another thread stopped while attaching, or inside the memory's allocator).
 */
export function attach<T extends SharedFilterType>(handle: SharedFilterHandle & { readonly type: T }): SharedFilterOf<T>;
export function attach(handle: SharedFilterHandle): SharedFilter;
export function attach(handle: SharedFilterHandle): SharedFilter {
  const place = placeOf(handle);
  const Class = CLASSES[place.type] as unknown as (new (place: FilterPlace) => SharedFilter) | undefined;
  // The module lists the types (placeOf checked the name against it); one it
  // lists that has no class here is still no type of this entry.
  if (Class === undefined) throw new FilterError('INVALID_ARGUMENT', `attach: unknown filter type ${describeValue(place.type)}`);
  return new Class(place);
}
