import { FilterError } from '../index.js';
import { describeValue } from '../keys/keys.js';
import { DEFAULT_FALSE_POSITIVE_RATE, requireInteger } from '../options.js';
import { BYTES_PER_BLOCK, DEFAULT_SHARD_BYTES, MAX_NEW_SHARD_BYTES } from './layout.js';

// The options every Redis-backed filter's create() checks the same way: an
// options object naming only known options, and the table's capacity, rate,
// seed and shard size (each filter checks its own options around these).

/** What every table option is once checked, defaults applied. */
interface CheckedTableOptions {
  capacity: number;
  falsePositiveRate: number;
  seed: number;
  shardBytes: number;
}

/**
 * `options` as an object holding only `known` options.
 * @throws FilterError `INVALID_ARGUMENT` naming `where` (e.g. 'RedisBloomFilter.create'), with `example` for a non-object.
 */
export function knownOptions<T>(options: unknown, where: string, known: readonly string[], example: string): T {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new FilterError('INVALID_ARGUMENT', `${where} needs an options object such as ${example}, got ${describeValue(options)}`);
  }
  for (const option of Object.keys(options)) {
    if (!known.includes(option)) {
      throw new FilterError('INVALID_ARGUMENT', `${where}: unknown option '${option}' (known options: ${known.join(', ')})`);
    }
  }
  return options as T;
}

/**
 * capacity (required), falsePositiveRate, seed and shardBytes (a whole number of blocks), in that order.
 * @throws FilterError `INVALID_ARGUMENT` naming `where` and the first bad option.
 */
export function checkTableOptions(given: Partial<Record<keyof CheckedTableOptions, unknown>>, where: string): CheckedTableOptions {
  requireInteger(given.capacity, 'capacity', where, 1, 2 ** 40);
  const falsePositiveRate = given.falsePositiveRate ?? DEFAULT_FALSE_POSITIVE_RATE;
  if (typeof falsePositiveRate !== 'number' || !(falsePositiveRate > 0 && falsePositiveRate < 1)) {
    throw new FilterError('INVALID_ARGUMENT', `${where}: falsePositiveRate must be a number in (0, 1), got ${describeValue(falsePositiveRate)}`);
  }
  const seed = given.seed ?? 0;
  requireInteger(seed, 'seed', where, 0, Number.MAX_SAFE_INTEGER);
  const shardBytes = given.shardBytes ?? DEFAULT_SHARD_BYTES;
  requireInteger(shardBytes, 'shardBytes', where, BYTES_PER_BLOCK, MAX_NEW_SHARD_BYTES);
  if (shardBytes % BYTES_PER_BLOCK !== 0) {
    throw new FilterError('INVALID_ARGUMENT', `${where}: shardBytes must be a multiple of ${BYTES_PER_BLOCK} (one block), got ${shardBytes}`);
  }
  return { capacity: given.capacity as number, falsePositiveRate, seed, shardBytes };
}
