import type { BloomHandle } from './core-module.js';
import { coreError, CORE_OK, FilterError } from './errors.js';
import { adoptHandle, Filter, takePendingHandle, withBytesInWasm, wrapHandle } from './filter-base.js';
import { getRuntime } from './init.js';
import type { Key } from './keys.js';
import { checkOptions, DEFAULT_FALSE_POSITIVE_RATE, type FilterOptions } from './options.js';

export type BloomFilterOptions = FilterOptions;

/**
 * Classic Bloom filter: no false negatives, no removal; about 9.6 bits per key
 * at 1% and 14.4 at 0.1% (m = -n ln ε / (ln 2)², k = (m/n) ln 2).
 *
 * ```ts
 * await init();
 * const seen = new BloomFilter({ capacity: 1_000_000, falsePositiveRate: 0.001 });
 * seen.add('https://example.com/a');
 * seen.has('https://example.com/a'); // true
 * ```
 */
export class BloomFilter extends Filter<BloomHandle> {
  /**
   * @throws FilterError `INVALID_ARGUMENT` for bad options (capacity not a
   *   positive integer, rate outside (0, 1), unknown option, too large);
   *   `NOT_INITIALIZED` before `init()` resolved.
   */
  constructor(options: BloomFilterOptions) {
    super(takePendingHandle<BloomHandle>() ?? createBloom(options));
  }

  /**
   * Reads bytes produced by `serialize()` (here or by the C++ library).
   * @throws FilterError `CORRUPT`, `UNSUPPORTED_VERSION`, `WRONG_TYPE` (bytes of another filter type), `INVALID_ARGUMENT` (not a Uint8Array).
   */
  static deserialize(bytes: Uint8Array): BloomFilter {
    const handle = withBytesInWasm(bytes, (pointer, length) =>
      adoptHandle(getRuntime().module.deserializeBloom(pointer, length)),
    );
    return wrapHandle(() => new BloomFilter(undefined as unknown as BloomFilterOptions), handle);
  }

  get type(): 'bloom' {
    return 'bloom';
  }

  /** Adds a key. @throws FilterError `INVALID_ARGUMENT` for a bad key; `FREED`. */
  add(key: Key): this {
    const address = this.address;
    const length = this.arena.encode(key);
    this.module._cbw_bloom_add(address, this.arena.pointer, length);
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
    return this.module._cbw_bloom_has(address, this.arena.pointer, length) !== 0;
  }

  /**
   * Makes this filter the union of itself and `other`: afterwards it finds
   * the keys of both. @throws FilterError `INVALID_ARGUMENT` unless both have
   * the same size, hash count and seed (build them with the same options).
   */
  union(other: BloomFilter): this {
    if (!(other instanceof BloomFilter)) {
      throw new FilterError('INVALID_ARGUMENT', 'union needs another BloomFilter');
    }
    const status = this.handle.unionWith(other.handle);
    if (status !== CORE_OK) {
      throw coreError(status, 'union needs Bloom filters built with the same capacity, falsePositiveRate and seed');
    }
    return this;
  }

  /** Size of the bit array (m). */
  get bitCount(): number {
    return this.handle.bitCount();
  }
  /** Probes per key (k). */
  get hashCount(): number {
    return this.handle.hashCount();
  }
  /** Bits set to 1. */
  get setBitCount(): number {
    return this.handle.setBitCount();
  }
  /** A copy of the bit array: bit i is `(bits[i >> 3] >> (i & 7)) & 1`. */
  bits(): Uint8Array {
    return this.handle.words().slice();
  }
}

function createBloom(options: BloomFilterOptions): BloomHandle {
  const { module } = getRuntime();
  const { capacity, falsePositiveRate = DEFAULT_FALSE_POSITIVE_RATE, seed = 0 } = checkOptions(
    options,
    'BloomFilter',
  );
  return adoptHandle(module.createBloom(capacity, falsePositiveRate, seed));
}
