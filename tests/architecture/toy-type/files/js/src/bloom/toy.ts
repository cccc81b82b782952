import { MergeableBloomFilter } from './bloom-family.js';
import type { FilterClassInfo } from '../core/filter-base.js';
import type { FilterOptions } from '../options.js';

/** Options of {@link ToyFilter}: the {@link FilterOptions} every filter takes, and its own. */
export interface ToyFilterOptions extends FilterOptions {
  /** The table's bits per key over 1 / falsePositiveRate, in [1, 16]. Default 1. */
  sizeFactor?: number | undefined;
}

/** A one-hash Bloom filter: the toy type of tests/architecture/toy-type.test.mjs. */
export class ToyFilter extends MergeableBloomFilter<'toy', ToyFilterOptions> {
  protected static override readonly info: FilterClassInfo<'toy'> = { typeName: 'toy', className: 'ToyFilter' };
}
