import { FilterError } from '../errors.js';
import type { FilterClassInfo } from '../core/filter-base.js';
import { describeValue } from '../keys/keys.js';
import { requireInteger, requireWithinLimit } from '../options.js';
import { coreFilterType } from '../runtime/core-types.js';

/** Options every growing filter takes. */
export interface GrowthOptions {
  /** Keys the first link is sized for: a positive integer. Default 1000 (the type's `defaultCapacity`). (`capacity` is accepted as a synonym.) */
  initialCapacity?: number | undefined;
  /** Synonym of `initialCapacity` (what `Filter.from`, `UrlBlocklist` and the CLI pass). Give one, not both. */
  capacity?: number | undefined;
  /** The compound false-positive target, in (0, 1): the whole chain stays under it however far it grows. Default 0.01. */
  falsePositiveRate?: number | undefined;
  /** Each link holds `growth` times the keys of the one before: a number in [1, 1024]. Default 2. */
  growth?: number | undefined;
  /** Each link's rate budget is `tightening` times the one before: a number in (0, 1). */
  tightening?: number | undefined;
  /** Hash seed, a non-negative safe integer (one seed for every link). Default 0. */
  seed?: number | undefined;
}

/**
 * The options as the base class and the core take them: the initial capacity
 * travels as `capacity`. Unknown keys are kept, so the base names them. The
 * default first size and the ranges of growth and tightening are the ones
 * the type's C++ class declares (the registry's `defaultCapacity` and
 * `optionLimits`), for every type that grows, in place or by chaining.
 * @throws FilterError `INVALID_ARGUMENT` for contradictory or impossible values.
 */
export function growthOptionsForCore(options: unknown, info: FilterClassInfo): Record<string, unknown> {
  const { className } = info;
  const type = coreFilterType(info.typeName);
  const defaultCapacity = type.defaultCapacity;
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    if (options === undefined) return { capacity: defaultCapacity };
    throw new FilterError(
      'INVALID_ARGUMENT',
      `${className} needs an options object such as { initialCapacity: 1000, falsePositiveRate: 0.01 }, got ${describeValue(options)}`,
    );
  }
  const { initialCapacity, capacity, growth, tightening, ...rest } = options as GrowthOptions & Record<string, unknown>;
  if (initialCapacity !== undefined && capacity !== undefined && initialCapacity !== capacity) {
    throw new FilterError(
      'INVALID_ARGUMENT',
      `${className}: initialCapacity (${String(initialCapacity)}) and capacity (${String(capacity)}) are the same option; give one`,
    );
  }
  const first = initialCapacity ?? capacity ?? defaultCapacity;
  requireInteger(first, initialCapacity !== undefined ? 'initialCapacity' : 'capacity', className, 1, 2 ** 40);
  const limits = type.optionLimits;
  if (growth !== undefined && limits.growth !== undefined) {
    requireWithinLimit(growth, 'growth', className, limits.growth, 'each link holds growth times the keys of the one before');
  }
  if (tightening !== undefined && limits.tightening !== undefined) {
    requireWithinLimit(tightening, 'tightening', className, limits.tightening, "below 1, the links' rates add up to at most the target");
  }
  const core: Record<string, unknown> = { ...rest, capacity: first };
  if (growth !== undefined) core.growth = growth;
  if (tightening !== undefined) core.tightening = tightening;
  return core;
}
