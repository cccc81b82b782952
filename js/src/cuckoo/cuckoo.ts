import { coreError, FilterError, statusName } from '../errors.js';
import { ExistingHandle, type FilterClassInfo, Filter } from '../core/filter-base.js';
import type { KeyBatch } from '../keys/key-batch.js';
import { describeValue, type Key } from '../keys/keys.js';
import { DEFAULT_FALSE_POSITIVE_RATE, type FilterOptions, requireInteger } from '../options.js';

/** Options of {@link CuckooFilter}: the {@link FilterOptions} every filter takes, and the table's shape. */
export interface CuckooFilterOptions extends FilterOptions {
  /** Slots per bucket: 2, 4 (default) or 8. Larger buckets fill further but need longer fingerprints. */
  bucketSize?: 2 | 4 | 8 | undefined;
  /**
   * Fingerprint width, 4..32 bits. Default: derived from falsePositiveRate (ε ≈ 2b / 2^f).
   * Given with a falsePositiveRate, it must be at least ⌈log2(2b / ε)⌉ (else `INVALID_ARGUMENT`:
   * the filter could not give that rate); a rate needing more than 32 bits is `INVALID_ARGUMENT` too.
   */
  fingerprintBits?: number | undefined;
  /** Evictions tried before an insert fails with `FULL`. Default 500. */
  maxKicks?: number | undefined;
  /**
   * Semi-sorted buckets (bucketSize 4 only): one bit less per slot (about 9.5
   * bits/key at 1%) for lookups a little slower (the table part measured
   * 1.3-1.45x) and inserts about 3x. Default false.
   */
  semiSorted?: boolean | undefined;
}

/** One step of a cuckoo eviction walk: `fingerprint` was written to `slot` of `bucket`. */
export interface CuckooKick {
  /** The bucket written, in [0, bucketCount). */
  bucket: number;
  /** The slot within that bucket, in [0, bucketSize). */
  slot: number;
  /** The fingerprint written there (never 0: 0 marks an empty slot). */
  fingerprint: number;
}

/** The walk of an add that found room directly. */
const NO_KICKS = new Uint32Array(0);

/**
 * Cuckoo filter (Fan et al. 2014): supports removal, and beats Bloom filters
 * on space below about 3% false positives. An insert can fail when the table
 * is nearly full: it then throws `FULL` and its table is exactly as before
 * (no stored key is ever lost).
 *
 * ```ts
 * const cf = new CuckooFilter({ capacity: 100_000, falsePositiveRate: 0.001 });
 * cf.add('a'); cf.has('a'); // true
 * cf.remove('a');           // true
 * ```
 */
export class CuckooFilter extends Filter<'cuckoo'> {
  protected static override readonly info: FilterClassInfo<'cuckoo'> = {
    typeName: 'cuckoo',
    className: 'CuckooFilter',
    // With explicit fingerprintBits and no rate, the rate follows from the bits (the core works it out).
    defaultRate: (options) => (options.fingerprintBits === undefined ? DEFAULT_FALSE_POSITIVE_RATE : 0),
  };

  /** @throws FilterError `INVALID_ARGUMENT` for bad options; `OUT_OF_MEMORY`; `NOT_INITIALIZED`. */
  constructor(options: CuckooFilterOptions) {
    if (!((options as unknown) instanceof ExistingHandle)) checkCuckooOptions(options);
    super(options);
  }

  /**
   * Adds a key (a key added twice is stored twice, up to 2 × bucketSize times).
   * @throws FilterError `FULL` when it cannot be stored: the filter's
   *   table is unchanged and every key stored before is still found. `INVALID_ARGUMENT`; `FREED`.
   */
  add(key: Key): this {
    if (!this.tryAdd(key)) {
      throw new FilterError(
        'FULL',
        `cuckoo filter is full (${this.count} of ${this.slotCount} slots, load ${this.loadFactor.toFixed(3)}): ` +
          'the key was not stored; every key stored before is still there',
      );
    }
    return this;
  }

  /** Like `add`, but returns false instead of throwing when the filter is full. */
  tryAdd(key: Key): boolean {
    // The inspector's add (bindings/inspect.cpp): the core's add, with its
    // eviction walk recorded for lastKickPath(); the filter itself keeps none.
    const address = this.address;
    const length = this.arena.encode(key);
    const module = this.module;
    const result = module._cbw_cuckoo_add_recording(address, this.arena.pointer, length);
    const steps = result >>> 8;
    if (steps === 0) {
      this.#kicks = NO_KICKS;
    } else {
      const first = module._cbw_recorded_kicks() >>> 2;
      this.#kicks = module.HEAPU32.slice(first, first + 4 * steps);
    }
    const status = result & 0xff;
    if (status === 0) return true;
    const name = statusName(module, status);
    if (name === 'FULL') return false;
    throw coreError(name, `cuckoo add failed (${name})`);
  }

  /** Removes every key (the sizing and seed stay); lastKickPath() is empty again. */
  override clear(): void {
    super.clear();
    this.#kicks = NO_KICKS;
  }

  /**
   * Removes one matching fingerprint; false (and no change) when none matches.
   * Only remove keys you added: removing a key that was never added can
   * delete the fingerprint of another key that shares it.
   */
  remove(key: Key): boolean {
    return this.removeKey(key);
  }

  /**
   * Removes each key once (an array, any iterable, or a KeyBatch); returns
   * how many were found and removed. Same caution as `remove`.
   */
  removeMany(keys: Iterable<Key> | KeyBatch): number {
    return this.removeKeys(keys);
  }

  protected override onBatchFull(index: number, total: number): never {
    throw new FilterError(
      'FULL',
      `cuckoo filter is full: stored keys 0..${index - 1} of ${total}; key ${index} and later were not added ` +
        '(every key stored before is still there)',
      { index },
    );
  }

  /** Buckets in the table (a power of two). */
  declare readonly bucketCount: number;
  /** Slots per bucket: 2, 4 or 8. */
  declare readonly bucketSize: number;
  /** Bits per stored fingerprint, 4..32. */
  declare readonly fingerprintBits: number;
  /** Evictions an add tries before it fails with `FULL`. */
  declare readonly maxKicks: number;

  static {
    this.defineSizingGetters('bucketCount', 'bucketSize', 'fingerprintBits', 'maxKicks');
  }

  /** Slots in the table: bucketCount × bucketSize, the most fingerprints it can hold. */
  get slotCount(): number {
    return this.bucketCount * this.bucketSize;
  }
  /** Stored fingerprints / slots. */
  get loadFactor(): number {
    return this.parameters.loadFactor!;
  }
  /** True when the buckets are semi-sorted (one bit less per slot). */
  get semiSorted(): boolean {
    return this.sizing('semiSorted') === 1;
  }

  /**
   * The fingerprint in `slot` of `bucket` (0 = empty). For inspection and visualisation.
   * @throws FilterError `INVALID_ARGUMENT` for a bucket or slot out of range; `FREED`.
   */
  slot(bucket: number, slot: number): number {
    const bucketCount = this.sizing('bucketCount');
    const bucketSize = this.sizing('bucketSize');
    requireInteger(bucket, 'bucket', 'CuckooFilter.slot', 0, bucketCount! - 1);
    requireInteger(slot, 'slot', 'CuckooFilter.slot', 0, bucketSize! - 1);
    return this.module.inspectSlotAt(this.address, bucket, slot);
  }

  /**
   * The two candidate buckets and the fingerprint of a key, without changing anything.
   * @throws FilterError `INVALID_ARGUMENT` for a key that is neither string nor Uint8Array; `FREED`.
   */
  locate(key: Key): {
    /** The key's two candidate buckets: its fingerprint is stored in one of them, if at all. */
    buckets: [number, number];
    /** The key's fingerprint (never 0). */
    fingerprint: number;
  } {
    const address = this.address;
    const length = this.arena.encode(key);
    const [bucket1, bucket2, fingerprint] = this.module.inspectLocate(address, this.arena.pointer, length);
    return { buckets: [bucket1, bucket2], fingerprint };
  }

  /**
   * The eviction walk of the last `add` or `tryAdd`: each fingerprint written
   * and where; the last step is the free slot that ended it. Empty when the
   * key found room directly (and before any add, and after `clear`); after a
   * failed add, the walk that was tried and undone. The batch and dedupe adds
   * (`addMany`, `addIfNew`) take the core's add, which records no walk.
   * @throws FilterError `FREED`.
   */
  lastKickPath(): CuckooKick[] {
    void this.address; // FREED after free()
    const kicks: CuckooKick[] = [];
    const words = this.#kicks;
    for (let i = 0; i + 3 < words.length; i += 4) {
      // A step is 4 uint32 (CuckooKick in C++): bucket low, bucket high, slot, fingerprint.
      kicks.push({ bucket: words[i]! + words[i + 1]! * 2 ** 32, slot: words[i + 2]!, fingerprint: words[i + 3]! });
    }
    return kicks;
  }

  /** The last recorded walk, as the core wrote it (see lastKickPath). */
  #kicks: Uint32Array = NO_KICKS;
}

/** The cuckoo-specific option values (the shared ones are checked by the base). */
function checkCuckooOptions(options: unknown): void {
  if (typeof options !== 'object' || options === null) return; // the base names the problem
  const { bucketSize, fingerprintBits, maxKicks, semiSorted } = options as CuckooFilterOptions;
  if (semiSorted !== undefined && typeof semiSorted !== 'boolean') {
    throw new FilterError('INVALID_ARGUMENT', `CuckooFilter: semiSorted must be true or false, got ${describeValue(semiSorted)}`);
  }
  if (semiSorted === true && bucketSize !== undefined && bucketSize !== 4) {
    throw new FilterError('INVALID_ARGUMENT', `CuckooFilter: semiSorted buckets need bucketSize 4, got ${String(bucketSize)}`);
  }
  if (bucketSize !== undefined && bucketSize !== 2 && bucketSize !== 4 && bucketSize !== 8) {
    throw new FilterError('INVALID_ARGUMENT', `CuckooFilter: bucketSize must be 2, 4 or 8, got ${String(bucketSize)}`);
  }
  if (fingerprintBits !== undefined) requireInteger(fingerprintBits, 'fingerprintBits', 'CuckooFilter', 4, 32);
  if (maxKicks !== undefined) requireInteger(maxKicks, 'maxKicks', 'CuckooFilter', 0, 1 << 20);
}
