import type { CoreFilterOptions } from '../runtime/core-module.js';
import { FilterError } from '../errors.js';
import { type FilterClassInfo, Filter } from '../core/filter-base.js';
import { buildStaticFilter, checkStaticOptions, StaticFilter } from '../core/static-filter.js';
import { coreFilterType } from '../runtime/core-types.js';
import { describeValue, type Key } from '../keys/keys.js';
import { requireInteger } from '../options.js';

/**
 * Options of {@link BinaryFuseFilter.from} (a binary fuse filter is built from all its keys
 * at once): its rate or fingerprint width, arity and seed.
 */
export interface BinaryFuseFilterOptions {
  /**
   * Target false-positive rate in [2^-32, 1). The filter stores
   * f = ceil(log2(1 / rate)) bits per fingerprint (at least 4) and its rate
   * is 2^-f. Default 0.01 (f = 7) unless fingerprintBits is given.
   */
  falsePositiveRate?: number | undefined;
  /** Fingerprint width, 4..32 bits (rate 2^-f). Default: derived from falsePositiveRate. */
  fingerprintBits?: number | undefined;
  /**
   * Slots per key: 3 (default; faster to build and query) or 4 (about 4%
   * smaller: ~1.08 f bits per key instead of ~1.13 f at millions of keys).
   */
  arity?: 3 | 4 | undefined;
  /** Hash seed, a non-negative safe integer. Default 0. */
  seed?: number | undefined;
  /**
   * Not taken: a binary fuse filter is sized by its keys, so a capacity given
   * is an INVALID_ARGUMENT error. (Declared, as optional, only so that `from`
   * keeps the shape of `Filter.from`.)
   */
  capacity?: number | undefined;
}

const DEFAULT_RATE = 0.01;

const INFO: FilterClassInfo<'binary-fuse'> = { typeName: 'binary-fuse', className: 'BinaryFuseFilter' };

/**
 * Binary fuse filter (Graf & Lemire 2022): a static filter, built once from
 * a set of keys and then read-only. The smallest filter on the wire for a
 * fixed list: about 1.13 f bits per key (3-wise; 1.08 f 4-wise) for a rate
 * of 2^-f, against ~1.44 log2(1/ε) for a Bloom filter, queried in its byte
 * format as it is. Duplicate keys are stored once. It has no add or remove:
 * to change the set, build a new filter.
 *
 * ```ts
 * const fuse = BinaryFuseFilter.from(urls, { falsePositiveRate: 0.001 });
 * fuse.has(urls[0]); // true
 * ```
 */
export class BinaryFuseFilter extends StaticFilter<'binary-fuse'> {
  protected static override readonly info: FilterClassInfo<'binary-fuse'> = INFO;

  /**
   * The filter of `keys` (an array or any iterable; duplicates are stored once).
   * @throws FilterError `INVALID_ARGUMENT` (bad options or key), `OUT_OF_MEMORY`,
   *   `FULL` (the construction did not succeed in 100 attempts: not expected for distinct keys), `NOT_INITIALIZED`.
   */
  static override from<T extends Filter>(keys: Iterable<Key>, options?: BinaryFuseFilterOptions): T;
  static override from(keys: Iterable<Key>, options: BinaryFuseFilterOptions = {}): BinaryFuseFilter {
    return new BinaryFuseFilter(buildStaticFilter(INFO, checkFuseOptions(options), keys) as never);
  }

  /** Bits per fingerprint, f: the false-positive rate is 2^-f. */
  declare readonly fingerprintBits: number;
  /** Slots per key: 3 or 4. */
  get arity(): 3 | 4 {
    return this.parameters.arity as 3 | 4;
  }
  /** Fingerprint slots in the table (about 1.13 or 1.08 per key). */
  declare readonly slotCount: number;

  static {
    this.defineSizingGetters('fingerprintBits', 'slotCount');
  }
}

/** Checks the options of `from` and gives the core's form of them. */
function checkFuseOptions(options: unknown): CoreFilterOptions {
  // Sized by its keys: the rate and seed, and the options its C++ class declares.
  const optionNames = ['falsePositiveRate', ...coreFilterType('binary-fuse').options, 'seed'];
  const { falsePositiveRate, fingerprintBits, arity, seed } = checkStaticOptions<BinaryFuseFilterOptions>(INFO, options, optionNames);
  if (fingerprintBits !== undefined) requireInteger(fingerprintBits, 'fingerprintBits', 'BinaryFuseFilter', 4, 32);
  if (arity !== undefined && arity !== 3 && arity !== 4) {
    throw new FilterError('INVALID_ARGUMENT', `BinaryFuseFilter: arity must be 3 or 4, got ${typeof arity === 'number' ? arity : describeValue(arity)}`);
  }
  // The core needs a rate or the bits; with bits alone, it records 2^-f.
  const core: CoreFilterOptions = {
    capacity: 0,
    falsePositiveRate: falsePositiveRate ?? (fingerprintBits === undefined ? DEFAULT_RATE : 0),
    seed: seed ?? 0,
  };
  if (fingerprintBits !== undefined) core.fingerprintBits = fingerprintBits;
  if (arity !== undefined) core.arity = arity;
  return core;
}
