import type { CoreHandle, CoreModule } from './core-module.js';
import { coreError, CORE_OK, FilterError } from './errors.js';
import { adoptHandle, Filter } from './filter-base.js';
import { getRuntime } from './init.js';
import type { Key } from './keys.js';
import { checkOptions, DEFAULT_FALSE_POSITIVE_RATE, type FilterOptions } from './options.js';

export interface BloomFamilyHandle extends CoreHandle {
  add(key: number, length: number): void;
  positions(key: number, length: number): number[];
}

/**
 * What the three Bloom filters share: `add` never fails, every key maps to a
 * set of positions, and they are all built from the same options.
 */
export abstract class BloomFamilyFilter<H extends BloomFamilyHandle> extends Filter<H> {
  /** The fast-path export for add: (handle address, key pointer, key length). */
  protected abstract fastAdd(address: number, key: number, length: number): void;

  /** Adds a key. @throws FilterError `INVALID_ARGUMENT` for a bad key; `FREED`. */
  add(key: Key): this {
    const address = this.address;
    const length = this.arena.encode(key);
    this.fastAdd(address, this.arena.pointer, length);
    return this;
  }

  /** The bit (or counter) indexes `key` maps to, in probe order: for inspection and visualisation. */
  positions(key: Key): number[] {
    const handle = this.handle;
    const length = this.arena.encode(key);
    return handle.positions(this.arena.pointer, length);
  }

  /** Shared body of `union`: same class, then the core checks equal sizing and seed. */
  protected unionWith(other: unknown, merge: (self: H, other: H) => number): this {
    if (!(other instanceof BloomFamilyFilter) || other.type !== this.type) {
      throw new FilterError('INVALID_ARGUMENT', `union needs another ${this.type} filter`);
    }
    const status = merge(this.handle, (other as BloomFamilyFilter<H>).handle);
    if (status !== CORE_OK) {
      throw coreError(status, `union needs ${this.type} filters built with the same capacity, falsePositiveRate and seed`);
    }
    return this;
  }
}

/** Validates the shared options and creates a handle with `create`. */
export function createFromOptions<H extends CoreHandle>(
  options: FilterOptions,
  filterName: string,
  create: (module: CoreModule, capacity: number, falsePositiveRate: number, seed: number) => H,
): H {
  const { module } = getRuntime();
  const { capacity, falsePositiveRate = DEFAULT_FALSE_POSITIVE_RATE, seed = 0 } = checkOptions(options, filterName);
  return adoptHandle(create(module, capacity, falsePositiveRate, seed));
}
