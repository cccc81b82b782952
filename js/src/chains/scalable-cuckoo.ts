import { coreError, FilterError, statusName } from '../errors.js';
import { ExistingHandle, type FilterClassInfo } from '../core/filter-base.js';
import { GrowingFilter } from './growing-filter.js';
import type { Key } from '../keys/keys.js';
import { growthOptionsForCore, type GrowthOptions } from './scalable-options.js';

/** Options of `ScalableCuckooFilter`; `tightening` defaults to 0.85. */
export interface ScalableCuckooFilterOptions extends GrowthOptions {
  /** Slots per bucket of every link: 2, 4 (default, semi-sorted) or 8. */
  bucketSize?: 2 | 4 | 8 | undefined;
}

/**
 * A cuckoo filter that grows: when the newest link refuses an insert (its
 * table is restored exactly, nothing is lost), a link `growth` times larger
 * is made, with longer fingerprints so the chain stays under
 * `falsePositiveRate`. Supports removal. `count` is the fingerprints stored
 * (a key added twice counts twice); `capacity`, the sum of its links'
 * capacities (each link holds a little more before it refuses an insert).
 *
 * ```ts
 * const live = new ScalableCuckooFilter({ initialCapacity: 1000, falsePositiveRate: 0.001 });
 * live.add('session-1');
 * live.remove('session-1'); // true
 * ```
 */
export class ScalableCuckooFilter extends GrowingFilter<'scalable-cuckoo'> {
  protected static override readonly info: FilterClassInfo<'scalable-cuckoo'> = { typeName: 'scalable-cuckoo', className: 'ScalableCuckooFilter' };

  /** @throws FilterError `INVALID_ARGUMENT` for bad or contradictory options; `OUT_OF_MEMORY`; `NOT_INITIALIZED`. */
  constructor(options?: ScalableCuckooFilterOptions) {
    if (!((options as unknown) instanceof ExistingHandle)) checkBucketSize(options);
    super(options instanceof ExistingHandle ? options : growthOptionsForCore(options, ScalableCuckooFilter.info));
  }

  /**
   * Removes one copy of a key you added. True when a copy was removed; false
   * when nothing was: no link matches the key, or (rarely: with probability
   * at most the false-positive rate for a key added once, always for a key
   * added twice across a growth) it matches in several links, where deleting
   * the wrong copy would delete another key's only copy. The key is then kept
   * and `has` still reports it: a false positive, never a false negative.
   */
  remove(key: Key): boolean {
    const address = this.address;
    const length = this.arena.encode(key);
    const status = this.module._cbw_remove(address, this.arena.pointer, length);
    if (status === 0) return true;
    const name = statusName(this.module, status);
    if (name === 'NOT_FOUND' || name === 'UNSUPPORTED') return false;
    throw coreError(name, `scalable-cuckoo filter: remove failed (${name})`);
  }

  /** Slots per bucket of every link: 2, 4 or 8. */
  declare readonly bucketSize: number;

  static {
    this.defineSizingGetters('bucketSize');
  }
}

function checkBucketSize(options: unknown): void {
  if (typeof options !== 'object' || options === null) return;
  const { bucketSize } = options as ScalableCuckooFilterOptions;
  if (bucketSize !== undefined && bucketSize !== 2 && bucketSize !== 4 && bucketSize !== 8) {
    throw new FilterError('INVALID_ARGUMENT', `ScalableCuckooFilter: bucketSize must be 2, 4 or 8, got ${String(bucketSize)}`);
  }
}
