import { BloomFamilyFilter, createFromOptions } from './bloom-family.js';
import type { CountingBloomHandle } from './core-module.js';
import { CORE_OK } from './errors.js';
import { deserializeInto, takePendingHandle } from './filter-base.js';
import type { Key } from './keys.js';
import type { FilterOptions } from './options.js';

export type CountingBloomFilterOptions = FilterOptions;

/**
 * Counting Bloom filter: 4-bit counters instead of bits (4x the memory of
 * the classic filter), so keys can be removed. A counter that reached 15
 * stays there, so removing added keys never causes a false negative.
 * Removing a key that was never added can (it takes other keys' counts):
 * remove only what you added.
 */
export class CountingBloomFilter extends BloomFamilyFilter<CountingBloomHandle> {
  /** @throws FilterError `INVALID_ARGUMENT` for bad options; `NOT_INITIALIZED`. */
  constructor(options: CountingBloomFilterOptions) {
    super(
      takePendingHandle<CountingBloomHandle>() ??
        createFromOptions(options, 'CountingBloomFilter', (module, capacity, rate, seed) =>
          module.createCountingBloom(capacity, rate, seed),
        ),
    );
  }

  /** @throws FilterError `CORRUPT`, `UNSUPPORTED_VERSION`, `WRONG_TYPE`, `INVALID_ARGUMENT`. */
  static deserialize(bytes: Uint8Array): CountingBloomFilter {
    return deserializeInto(
      bytes,
      (module, pointer, length) => module.deserializeCountingBloom(pointer, length),
      () => new CountingBloomFilter(undefined as unknown as CountingBloomFilterOptions),
    );
  }

  get type(): 'counting-bloom' {
    return 'counting-bloom';
  }

  protected fastAdd(address: number, key: number, length: number): void {
    this.module._cbw_counting_bloom_add(address, key, length);
  }
  protected fastHas(address: number, key: number, length: number): number {
    return this.module._cbw_counting_bloom_has(address, key, length);
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
