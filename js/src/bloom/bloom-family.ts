import { coreError, statusName } from '../errors.js';
import { Filter, unionMismatch } from '../core/filter-base.js';
import type { Key } from '../keys/keys.js';

/**
 * What the three Bloom filters share: `add` never fails, and every key maps
 * to a set of positions (bits or counters).
 */
export abstract class BloomFamilyFilter extends Filter {
  /** Adds a key. @throws FilterError `INVALID_ARGUMENT` for a bad key; `FREED`. */
  add(key: Key): this {
    const status = this.addKey(key);
    if (status !== 'OK') throw coreError(status, `${this.type} filter: add failed (${status})`);
    return this;
  }

  /** The bit (or counter) indexes `key` maps to, in probe order: for inspection and visualisation. */
  positions(key: Key): number[] {
    const handle = this.handle;
    const length = this.arena.encode(key);
    return handle.positions(this.arena.pointer, length);
  }

  /** Shared body of `union`: same class, then the core checks equal sizing and seed. */
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
