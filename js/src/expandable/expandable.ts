import { coreError, FilterError } from '../errors.js';
import { ExistingHandle, type FilterClassInfo, Filter } from '../core/filter-base.js';
import type { KeyBatch } from '../keys/key-batch.js';
import type { Key } from '../keys/keys.js';
import { growthOptionsForCore } from '../chains/scalable-options.js';

/** Options of {@link ExpandableFilter}: the growing filters' names, plus the growth hint. */
export interface ExpandableFilterOptions {
  /** Keys the first table is sized for: a positive integer. Default 1000. (`capacity` is accepted as a synonym.) */
  initialCapacity?: number | undefined;
  /** Synonym of `initialCapacity` (what `Filter.from`, `UrlBlocklist` and the CLI pass). Give one, not both. */
  capacity?: number | undefined;
  /** The false-positive target, in (0, 1). Default 0.01. Held through every doubling, with the hint or without. */
  falsePositiveRate?: number | undefined;
  /**
   * The growth hint: the count of keys you expect to reach (at least the initial capacity). The table's
   * slots are chosen so that count lands near full load after the last doubling, and each entry gets the
   * fingerprint bits it still needs there, so at that count the filter is about a static filter's size.
   * Without it the rate still holds (newer entries get longer fingerprints: one bit more every 8-20
   * doublings), at about 3-4 more bits per slot
   * (https://github.com/cuckoo-bloom-wasm/cuckoo-bloom-wasm/blob/main/docs/EXPANDABLE.md).
   * The filter still grows past it, a bit wider a doubling, with the rate held.
   */
  expectedCapacity?: number | undefined;
  /** Hash seed, a non-negative safe integer. Default 0. */
  seed?: number | undefined;
}

/**
 * A filter that grows without a chain: one quotient-filter table that grows
 * in place, its slots by an eighth at a time and its addresses by doubling
 * (InfiniFilter's expansion: at each doubling every entry gives one
 * fingerprint bit to its address, and newer entries get longer fingerprints
 * so the rate holds at any growth; Aleph's duplication once a fingerprint
 * runs out), so it stays within 0.756–0.85 entries a slot and a lookup
 * stays one probe of one table however far it grows. Supports removal of keys
 * you added. `count` is the keys stored (a key added twice counts twice).
 *
 * ```ts
 * const seen = new ExpandableFilter({ initialCapacity: 1000, expectedCapacity: 1_000_000, falsePositiveRate: 0.001 });
 * seen.add('a'); seen.has('a'); // true
 * seen.remove('a');             // true
 * ```
 */
export class ExpandableFilter extends Filter<'expandable'> {
  protected static override readonly info: FilterClassInfo<'expandable'> = { typeName: 'expandable', className: 'ExpandableFilter' };

  /** @throws FilterError `INVALID_ARGUMENT` for bad or contradictory options; `OUT_OF_MEMORY`; `NOT_INITIALIZED`. */
  constructor(options?: ExpandableFilterOptions) {
    // initialCapacity travels to the core as capacity, as for the growing chains.
    super(options instanceof ExistingHandle ? options : growthOptionsForCore(options, ExpandableFilter.info));
  }

  /**
   * Adds a key; a full table grows by a step (its slots an eighth of its addresses more; every eighth step doubles the addresses).
   * @throws FilterError `FULL` (the table cannot grow further: its hashes have no more address bits, or the
   *   size limit) or `OUT_OF_MEMORY`: nothing changed, every key added before is still found. `INVALID_ARGUMENT`; `FREED`.
   */
  add(key: Key): this {
    const status = this.addKey(key);
    if (status !== 'OK') {
      throw coreError(status, `expandable filter cannot grow further (${status}): the key was not added; every key added before is still found`);
    }
    return this;
  }

  /**
   * Removes one copy of a key you added; false (and no change) when nothing in its slot matches.
   * Only remove keys you added: removing a key never added can delete another key's entry.
   */
  remove(key: Key): boolean {
    return this.removeKey(key);
  }

  /** Removes each key once; returns how many were found and removed. Same caution as `remove`. */
  removeMany(keys: Iterable<Key> | KeyBatch): number {
    return this.removeKeys(keys);
  }

  protected override onBatchFull(index: number): never {
    throw new FilterError('FULL', `expandable filter cannot grow further: stored keys 0..${index - 1}; key ${index} and later were not added`, { index });
  }

  /** Doublings of the address space so far (quotients: baseSlots × 2^level). */
  get level(): number {
    return this.parameters.level!;
  }
  /** Growth steps since the last doubling (0–7): the table's slots grow by an eighth of its quotients a step, and the quotients double at the eighth. */
  get growthSteps(): number {
    return this.parameters.growthSteps!;
  }
  /** Addresses a key can have now: baseSlots × 2^level. */
  get quotientCount(): number {
    return this.parameters.quotientCount!;
  }
  /** Slots of the table now: quotientCount plus growthSteps eighths of it. */
  get slotCount(): number {
    return this.parameters.slotCount!;
  }
  /** The longest fingerprint a slot holds (slots are 2 bits wider); each entry loses a bit per doubling. */
  get fingerprintBits(): number {
    return this.parameters.fingerprintBits!;
  }
  /** Fingerprint bits a new entry gets at this level (the schedule's: more than older entries have left). */
  get newEntryBits(): number {
    return this.parameters.newEntryBits!;
  }
  /** The growth hint the filter was sized for (0: none). */
  declare readonly expectedCapacity: number;

  static {
    this.defineSizingGetters('expectedCapacity');
  }

  /** Entries over slots (the table grows by a step past 0.85). */
  get loadFactor(): number {
    return this.parameters.loadFactor!;
  }
}
