import { coreError, statusName } from '../errors.js';
import { Filter, type FilterTypeName, unionMismatch } from '../core/filter-base.js';
import type { Key } from '../keys/keys.js';

/**
 * What the three Bloom filters share: `add` never fails, and every key maps
 * to a set of positions (bits or counters).
 */
export abstract class BloomFamilyFilter<Name extends FilterTypeName = FilterTypeName, Options = unknown> extends Filter<Name, Options> {
  /** Adds a key. @throws FilterError `INVALID_ARGUMENT` for a bad key; `FREED`. */
  add(key: Key): this {
    const status = this.addKey(key);
    if (status !== 'OK') throw coreError(status, `${this.type} filter: add failed (${status})`);
    return this;
  }

  /** The bit (or counter) indexes `key` maps to, in probe order: for inspection and visualisation. */
  positions(key: Key): number[] {
    const address = this.address;
    const length = this.arena.encode(key);
    return this.module.inspectPositions(address, this.arena.pointer, length);
  }

  /** The body of `union`: same class, then the core checks equal sizing and seed. */
  protected unionWith(other: unknown): this {
    if (!(other instanceof BloomFamilyFilter) || other.type !== this.type) throw unionMismatch(this.type, other);
    const handle = this.handle;
    const status = handle.unionWith((other as BloomFamilyFilter).handle);
    if (status !== 0) {
      throw coreError(
        statusName(this.module, status),
        `union needs ${this.type} filters built with the same capacity, falsePositiveRate and seed: ${handle.lastMessage()}`,
      );
    }
    return this;
  }
}

/**
 * A Bloom family filter whose type has union (the classic and blocked
 * filters): `union` takes only a filter of the same class (`this`), so
 * `bloom.union(blocked)` does not compile.
 */
export abstract class MergeableBloomFilter<Name extends FilterTypeName = FilterTypeName, Options = unknown> extends BloomFamilyFilter<
  Name,
  Options
> {
  /**
   * Makes this filter the union of itself and `other`: afterwards it finds
   * the keys of both. @throws FilterError `INVALID_ARGUMENT` unless both have
   * the same sizing and seed (build them with the same options).
   */
  union(other: this): this {
    return this.unionWith(other);
  }
}
