import type { CountingBloomHandle } from './core-module.js';
import { CORE_OK } from './errors.js';
import { adoptHandle, Filter, takePendingHandle, withBytesInWasm, wrapHandle } from './filter-base.js';
import { getRuntime } from './init.js';
import type { Key } from './keys.js';
import { checkOptions, DEFAULT_FALSE_POSITIVE_RATE, type FilterOptions } from './options.js';

export type CountingBloomFilterOptions = FilterOptions;

/**
 * Counting Bloom filter: 4-bit counters instead of bits (4x the memory of
 * the classic filter), so keys can be removed. A counter that reached 15
 * stays there, so removing added keys never causes a false negative.
 * Removing a key that was never added can (it takes other keys' counts):
 * remove only what you added.
 */
export class CountingBloomFilter extends Filter<CountingBloomHandle> {
  /** @throws FilterError `INVALID_ARGUMENT` for bad options; `NOT_INITIALIZED`. */
  constructor(options: CountingBloomFilterOptions) {
    super(takePendingHandle<CountingBloomHandle>() ?? createCountingBloom(options));
  }

  /** @throws FilterError `CORRUPT`, `UNSUPPORTED_VERSION`, `WRONG_TYPE`, `INVALID_ARGUMENT`. */
  static deserialize(bytes: Uint8Array): CountingBloomFilter {
    const handle = withBytesInWasm(bytes, (pointer, length) =>
      adoptHandle(getRuntime().module.deserializeCountingBloom(pointer, length)),
    );
    return wrapHandle(() => new CountingBloomFilter(undefined as unknown as CountingBloomFilterOptions), handle);
  }

  get type(): 'counting-bloom' {
    return 'counting-bloom';
  }

  /** Adds a key (again: adding twice needs two removes). @throws FilterError `INVALID_ARGUMENT`; `FREED`. */
  add(key: Key): this {
    const address = this.address;
    const length = this.arena.encode(key);
    this.module._cbw_counting_bloom_add(address, this.arena.pointer, length);
    return this;
  }

  /** The counter indexes `key` maps to, in probe order (for inspection and visualisation). */
  positions(key: Key): number[] {
    const handle = this.handle;
    const length = this.arena.encode(key);
    return handle.positions(this.arena.pointer, length);
  }

  /** {@inheritDoc Filter.has} */
  has(key: Key): boolean {
    const address = this.address;
    const length = this.arena.encode(key);
    return this.module._cbw_counting_bloom_has(address, this.arena.pointer, length) !== 0;
  }

  /** Removes one occurrence; false (and no change) when the key is not present. */
  remove(key: Key): boolean {
    const handle = this.handle;
    const length = this.arena.encode(key);
    return handle.remove(this.arena.pointer, length) === CORE_OK;
  }

  /** Number of counters (m). */
  get counterCount(): number {
    return this.handle.counterCount();
  }
  /** Probes per key (k). */
  get hashCount(): number {
    return this.handle.hashCount();
  }
  /** The value (0..15) of counter `index`. */
  counterAt(index: number): number {
    return this.handle.counterAt(index);
  }
}

function createCountingBloom(options: CountingBloomFilterOptions): CountingBloomHandle {
  const { module } = getRuntime();
  const { capacity, falsePositiveRate = DEFAULT_FALSE_POSITIVE_RATE, seed = 0 } = checkOptions(
    options,
    'CountingBloomFilter',
  );
  return adoptHandle(module.createCountingBloom(capacity, falsePositiveRate, seed));
}
