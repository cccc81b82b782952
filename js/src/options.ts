import { FilterError } from './errors.js';
import { describeValue } from './keys/keys.js';
import type { OptionLimit } from './runtime/core-module.js';

/** Options every filter takes. */
export interface FilterOptions {
  /** Keys the filter is sized for: a positive integer. */
  capacity: number;
  /** Target false-positive rate, in (0, 1). Default 0.01. */
  falsePositiveRate?: number | undefined;
  /** Hash seed, a non-negative safe integer. Default 0. Filters to be unioned must share it. */
  seed?: number | undefined;
}

export const DEFAULT_FALSE_POSITIVE_RATE = 0.01;
const MAX_CAPACITY = 2 ** 40;

/**
 * Rejects anything that is not a plain options object with known keys and
 * valid values, naming the offending option. A typo such as `fpr` is an
 * error, never a silent default.
 */
export function checkOptions<T extends FilterOptions>(
  options: unknown,
  filterName: string,
  extraKeys: readonly string[] = [],
): T {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new FilterError(
      'INVALID_ARGUMENT',
      `${filterName} needs an options object such as { capacity: 100000, falsePositiveRate: 0.01 }, got ${describeValue(options)}`,
    );
  }
  const known = ['capacity', 'falsePositiveRate', 'seed', ...extraKeys];
  for (const key of Object.keys(options)) {
    if (!known.includes(key)) {
      throw new FilterError(
        'INVALID_ARGUMENT',
        `${filterName}: unknown option '${key}' (known options: ${known.join(', ')})`,
      );
    }
  }
  const { capacity, falsePositiveRate, seed } = options as FilterOptions;
  requireInteger(capacity, 'capacity', filterName, 1, MAX_CAPACITY);
  if (falsePositiveRate !== undefined) {
    if (typeof falsePositiveRate !== 'number' || !(falsePositiveRate > 0 && falsePositiveRate < 1)) {
      throw new FilterError(
        'INVALID_ARGUMENT',
        `${filterName}: falsePositiveRate must be a number in (0, 1), got ${typeof falsePositiveRate === 'number' ? falsePositiveRate : describeValue(falsePositiveRate)}`,
      );
    }
  }
  if (seed !== undefined) requireInteger(seed, 'seed', filterName, 0, Number.MAX_SAFE_INTEGER);
  return options as T;
}

export function requireInteger(
  value: unknown,
  name: string,
  filterName: string,
  min: number,
  max: number,
): asserts value is number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw new FilterError(
      'INVALID_ARGUMENT',
      `${filterName}: ${name} must be an integer in [${min}, ${max}], got ${typeof value === 'number' ? value : describeValue(value)}`,
    );
  }
}

/** "a number in [1, 1024]", "an integer > 0". */
function describeLimit(limit: OptionLimit): string {
  const kind = limit.integer ? 'an integer' : 'a number';
  if (limit.max === Infinity) return `${kind} ${limit.minInclusive ? '>=' : '>'} ${limit.min}`;
  if (limit.min === -Infinity) return `${kind} ${limit.maxInclusive ? '<=' : '<'} ${limit.max}`;
  return `${kind} in ${limit.minInclusive ? '[' : '('}${limit.min}, ${limit.max}${limit.maxInclusive ? ']' : ')'}`;
}

/** Checks an option against its C++ class's declared range (optionLimits). @throws FilterError `INVALID_ARGUMENT`. */
export function requireWithinLimit(value: unknown, name: string, filterName: string, limit: OptionLimit, why = ''): asserts value is number {
  const inside =
    typeof value === 'number' &&
    // NaN fails both comparisons.
    (limit.minInclusive ? value >= limit.min : value > limit.min) &&
    (limit.maxInclusive ? value <= limit.max : value < limit.max) &&
    (!limit.integer || Number.isInteger(value));
  if (!inside) {
    throw new FilterError(
      'INVALID_ARGUMENT',
      `${filterName}: ${name} must be ${describeLimit(limit)}${why === '' ? '' : ` (${why})`}, got ${typeof value === 'number' ? value : describeValue(value)}`,
    );
  }
}
