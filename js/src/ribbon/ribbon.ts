import type { CoreFilterOptions } from '../runtime/core-module.js';
import { type FilterClassInfo, Filter } from '../core/filter-base.js';
import { buildStaticFilter, checkStaticOptions, StaticFilter } from '../core/static-filter.js';
import type { Key } from '../keys/keys.js';

/**
 * Options of {@link RibbonFilter.from} (a Ribbon filter is built from all its keys at once):
 * its rate and seed.
 */
export interface RibbonFilterOptions {
  /**
   * Target false-positive rate in [2^-32, 1). Any rate, not only a power of two: the
   * filter mixes r- and (r+1)-bit columns so its rate is at or just under this, in
   * 1.04-1.06 log2(1 / rate) bits per key at rates of 1% and below (up to 1.11x at rates
   * over 10%: the mix moves the rate, not its logarithm, linearly). Default 0.01.
   */
  falsePositiveRate?: number | undefined;
  /** Hash seed, a non-negative safe integer. Default 0. */
  seed?: number | undefined;
  /**
   * Not taken: a Ribbon filter is sized by its keys, so a capacity given is an
   * INVALID_ARGUMENT error. (Declared, as optional, only so that `from` keeps the
   * shape of `Filter.from`.)
   */
  capacity?: number | undefined;
}

const DEFAULT_RATE = 0.01;
const OPTION_NAMES = ['falsePositiveRate', 'seed'];

const INFO: FilterClassInfo<'ribbon'> = { typeName: 'ribbon', className: 'RibbonFilter' };

/**
 * Ribbon filter (Dillinger & Walzer 2021; standard Ribbon with 128-bit rows, as
 * RocksDB's): a static filter, built once from a set of keys and then read-only. Its
 * size follows the rate to a fraction of a bit: 1.04-1.06 log2(1/ε) bits per key at
 * ε ≤ 1% (7.0 at 1%, 10.4 at 0.1%; up to 1.11x at rates over 10%), where a binary fuse
 * filter rounds up to a whole fingerprint bit. A lookup reads 3 neighbouring words per
 * column (r columns for a rate of about 2^-r: up to 96 words at 32); build
 * is a Gaussian elimination on the fly. Duplicate keys are stored once. No add or
 * remove: to change the set, build a new filter.
 *
 * ```ts
 * const ribbon = RibbonFilter.from(urls, { falsePositiveRate: 0.001 });
 * ribbon.has(urls[0]); // true
 * ```
 */
export class RibbonFilter extends StaticFilter<'ribbon'> {
  protected static override readonly info: FilterClassInfo<'ribbon'> = INFO;

  /**
   * The filter of `keys` (an array or any iterable; duplicates are stored once).
   * @throws FilterError `INVALID_ARGUMENT` (bad options or key), `OUT_OF_MEMORY`,
   *   `FULL` (the construction did not succeed in 64 attempts: not expected), `NOT_INITIALIZED`.
   */
  static override from<T extends Filter>(keys: Iterable<Key>, options?: RibbonFilterOptions): T;
  static override from(keys: Iterable<Key>, options: RibbonFilterOptions = {}): RibbonFilter {
    return new RibbonFilter(buildStaticFilter(INFO, checkRibbonOptions(options), keys) as never);
  }

  /** Columns (bits per slot) of the first blocks; the blocks from `upperStartBlock` on hold one more. */
  declare readonly lowerColumns: number;
  /** The first block of `lowerColumns + 1` columns (`blockCount` when every block has `lowerColumns`). */
  declare readonly upperStartBlock: number;
  /** Slots of the solution: 64 per block (about 1.04 per key at large sizes). */
  declare readonly slotCount: number;
  /** Blocks of 64 slots. */
  get blockCount(): number {
    return this.slotCount / 64;
  }

  static {
    this.defineSizingGetters('lowerColumns', 'upperStartBlock', 'slotCount');
  }
}

/** Checks the options of `from` and gives the core's form of them. */
function checkRibbonOptions(options: unknown): CoreFilterOptions {
  const { falsePositiveRate, seed } = checkStaticOptions<RibbonFilterOptions>(INFO, options, OPTION_NAMES);
  return { capacity: 0, falsePositiveRate: falsePositiveRate ?? DEFAULT_RATE, seed: seed ?? 0 };
}
