import { BloomFamilyFilter } from './bloom-family.js';
import { type FilterClassInfo, readAs, type SerializedBytes } from '../core/filter-base.js';
import type { FilterOptions } from '../options.js';

/** Options of {@link ToyFilter}: the {@link FilterOptions} every filter takes, and its own. */
export interface ToyFilterOptions extends FilterOptions {
  /** The table's bits per key over 1 / falsePositiveRate, in [1, 16]. Default 1. */
  sizeFactor?: number | undefined;
}

const INFO: FilterClassInfo = { typeName: 'toy', className: 'ToyFilter' };

/** A one-hash Bloom filter: the toy type of tests/architecture/toy-type.test.mjs. */
export class ToyFilter extends BloomFamilyFilter {
  /** @throws FilterError `INVALID_ARGUMENT` for bad options; `NOT_INITIALIZED` before `init()`. */
  constructor(options: ToyFilterOptions) {
    super(INFO, options);
  }

  /** Reads bytes produced by `serialize()`. @throws FilterError `CORRUPT`, `WRONG_TYPE`. */
  static deserialize(bytes: SerializedBytes): ToyFilter {
    return readAs(bytes, INFO, (existing) => new ToyFilter(existing as never));
  }

  get type(): 'toy' {
    return 'toy';
  }

  /** Makes this filter the union of itself and `other`. @throws FilterError `INVALID_ARGUMENT` unless alike. */
  union(other: ToyFilter): this {
    return this.unionWith(other);
  }
}
