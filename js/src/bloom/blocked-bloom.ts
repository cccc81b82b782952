import { BloomFamilyFilter } from './bloom-family.js';
import { type FilterClassInfo, readAs, type SerializedBytes } from '../core/filter-base.js';
import type { FilterOptions } from '../options.js';

/** Options of {@link BlockedBloomFilter}: the {@link FilterOptions} every filter takes, nothing more. */
export type BlockedBloomFilterOptions = FilterOptions;

const INFO: FilterClassInfo = { typeName: 'blocked-bloom', className: 'BlockedBloomFilter' };

/**
 * Split-block Bloom filter: each key touches one 64-byte block (one cache
 * line), so a lookup costs one memory access. Sized so the measured rate
 * stays at or under the target, which takes more bits per key than the
 * classic filter (10.3 at 1%, 16.0 at 0.1%). No false negatives, no removal.
 */
export class BlockedBloomFilter extends BloomFamilyFilter {
  /** @throws FilterError `INVALID_ARGUMENT` for bad options; `OUT_OF_MEMORY`; `NOT_INITIALIZED`. */
  constructor(options: BlockedBloomFilterOptions) {
    super(INFO, options);
  }

  /** @throws FilterError `CORRUPT`, `UNSUPPORTED_VERSION`, `WRONG_TYPE`, `INVALID_ARGUMENT`. */
  static deserialize(bytes: SerializedBytes): BlockedBloomFilter {
    return readAs(bytes, INFO, (existing) => new BlockedBloomFilter(existing as never));
  }

  get type(): 'blocked-bloom' {
    return 'blocked-bloom';
  }

  /** Union with a filter built with the same options. @throws FilterError `INVALID_ARGUMENT` otherwise. */
  union(other: BlockedBloomFilter): this {
    return this.unionWith(other);
  }

  /** Number of 512-bit blocks. */
  get blockCount(): number {
    return this.sizing('blockCount');
  }
}
