import type { BlockedBloomHandle } from './core-module.js';
import { coreError, CORE_OK, FilterError } from './errors.js';
import { adoptHandle, Filter, takePendingHandle, withBytesInWasm, wrapHandle } from './filter-base.js';
import { getRuntime } from './init.js';
import type { Key } from './keys.js';
import { checkOptions, DEFAULT_FALSE_POSITIVE_RATE, type FilterOptions } from './options.js';

export type BlockedBloomFilterOptions = FilterOptions;

/**
 * Split-block Bloom filter: each key touches one 64-byte block (one cache
 * line), so a lookup costs one memory access. Sized so the measured rate
 * stays at or under the target, which takes more bits per key than the
 * classic filter (see docs/FILTERS.md). No false negatives, no removal.
 */
export class BlockedBloomFilter extends Filter<BlockedBloomHandle> {
  /** @throws FilterError `INVALID_ARGUMENT` for bad options; `NOT_INITIALIZED`. */
  constructor(options: BlockedBloomFilterOptions) {
    super(takePendingHandle<BlockedBloomHandle>() ?? createBlockedBloom(options));
  }

  /** @throws FilterError `CORRUPT`, `UNSUPPORTED_VERSION`, `WRONG_TYPE`, `INVALID_ARGUMENT`. */
  static deserialize(bytes: Uint8Array): BlockedBloomFilter {
    const handle = withBytesInWasm(bytes, (pointer, length) =>
      adoptHandle(getRuntime().module.deserializeBlockedBloom(pointer, length)),
    );
    return wrapHandle(() => new BlockedBloomFilter(undefined as unknown as BlockedBloomFilterOptions), handle);
  }

  get type(): 'blocked-bloom' {
    return 'blocked-bloom';
  }

  /** Adds a key. @throws FilterError `INVALID_ARGUMENT` for a bad key; `FREED`. */
  add(key: Key): this {
    const address = this.address;
    const length = this.arena.encode(key);
    this.module._cbw_blocked_bloom_add(address, this.arena.pointer, length);
    return this;
  }

  /** The bit indexes `key` maps to, in probe order (for inspection and visualisation). */
  positions(key: Key): number[] {
    const handle = this.handle;
    const length = this.arena.encode(key);
    return handle.positions(this.arena.pointer, length);
  }

  /** {@inheritDoc Filter.has} */
  has(key: Key): boolean {
    const address = this.address;
    const length = this.arena.encode(key);
    return this.module._cbw_blocked_bloom_has(address, this.arena.pointer, length) !== 0;
  }

  /** Union with a filter built with the same options. @throws FilterError `INVALID_ARGUMENT` otherwise. */
  union(other: BlockedBloomFilter): this {
    if (!(other instanceof BlockedBloomFilter)) {
      throw new FilterError('INVALID_ARGUMENT', 'union needs another BlockedBloomFilter');
    }
    const status = this.handle.unionWith(other.handle);
    if (status !== CORE_OK) {
      throw coreError(status, 'union needs blocked Bloom filters built with the same capacity, falsePositiveRate and seed');
    }
    return this;
  }

  /** Number of 512-bit blocks. */
  get blockCount(): number {
    return this.handle.blockCount();
  }
}

function createBlockedBloom(options: BlockedBloomFilterOptions): BlockedBloomHandle {
  const { module } = getRuntime();
  const { capacity, falsePositiveRate = DEFAULT_FALSE_POSITIVE_RATE, seed = 0 } = checkOptions(
    options,
    'BlockedBloomFilter',
  );
  return adoptHandle(module.createBlockedBloom(capacity, falsePositiveRate, seed));
}
