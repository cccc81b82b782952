/**
 * What every static filter type (built once from its keys, then read-only: binary fuse,
 * Ribbon; the registry's `isStatic`) does alike: refuse `new` and every change with the same
 * words (the StaticFilter base class), check the options of `from` alike, and build its
 * table from the keys' hashes in one core call.
 */
import type { CoreFilterOptions } from '../runtime/core-module.js';
import { FilterError } from '../errors.js';
import { getRuntime } from '../runtime/init.js';
import { describeValue, type Key, keyArray, MAX_ARENA_BYTES } from '../keys/keys.js';
import { requireInteger } from '../options.js';
import { adoptHandle, ExistingHandle, Filter, type FilterClassInfo } from './filter-base.js';
import type { FilterTypeName } from './filter-type-name.js';

/** The UNSUPPORTED error of a change to a static filter (`operation`: 'add keys', 'remove keys'). */
export function staticFilterError(info: FilterClassInfo, operation: string): FilterError {
  return new FilterError(
    'UNSUPPORTED',
    `a ${info.typeName} filter is static: it cannot ${operation}; build a new one from the whole key set with ${info.className}.from(keys)`,
  );
}

/** Refuses `new` of a static type: only its `from` (which passes an ExistingHandle) constructs one. */
export function refuseStaticConstruction(existing: unknown, info: FilterClassInfo): void {
  if (!(existing instanceof ExistingHandle)) {
    throw new FilterError(
      'UNSUPPORTED',
      `a ${info.typeName} filter is static: build it from its keys with ${info.className}.from(keys, options), not new ${info.className}()`,
    );
  }
}

/**
 * The table of a static type built from `keys` (checked options in `core`): every key's
 * hash (16 bytes) into wasm memory, a batch at a time, then one build.
 * @returns the handle, wrapped for the class's constructor.
 */
export function buildStaticFilter(info: FilterClassInfo, core: CoreFilterOptions, keys: Iterable<Key>): ExistingHandle {
  const list = keyArray(keys);
  const { module, arena } = getRuntime();
  const hashBytes = Math.max(1, list.length) * 16;
  const hashes = hashBytes <= MAX_ARENA_BYTES ? module._malloc(hashBytes) : 0;
  if (hashes === 0) {
    throw new FilterError('OUT_OF_MEMORY', `out of memory: cannot hold the hashes of ${list.length} keys`);
  }
  try {
    for (let start = 0; start < list.length; ) {
      const batch = arena.encodeBatch(list, start);
      module._cbw_hash_many(core.seed, batch.data, batch.offsets, batch.count, hashes + start * 16);
      start = batch.end;
    }
    return new ExistingHandle(adoptHandle(module.buildFilter(info.typeName, core, hashes, list.length)));
  } finally {
    module._free(hashes);
  }
}

/**
 * The options every static type's `from` takes, checked alike: an options object
 * naming only `optionNames` (a `capacity` only when undefined: the type is sized by
 * its keys), a rate in (0, 1) and a seed that is a non-negative safe integer. The
 * type checks the options of its own after.
 */
export function checkStaticOptions<Options extends { falsePositiveRate?: number | undefined; seed?: number | undefined }>(
  info: FilterClassInfo,
  options: unknown,
  optionNames: readonly string[],
): Options {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new FilterError(
      'INVALID_ARGUMENT',
      `${info.className}.from needs an options object such as { falsePositiveRate: 0.001 }, got ${describeValue(options)}`,
    );
  }
  for (const key of Object.keys(options)) {
    if (key === 'capacity' && (options as { capacity?: unknown }).capacity === undefined) continue;
    if (!optionNames.includes(key)) {
      const hint = key === 'capacity' ? ` (a ${info.typeName} filter is sized by its keys)` : '';
      throw new FilterError(
        'INVALID_ARGUMENT',
        `${info.className}: unknown option '${key}'${hint} (known options: ${optionNames.join(', ')})`,
      );
    }
  }
  const { falsePositiveRate, seed } = options as Options;
  if (falsePositiveRate !== undefined && (typeof falsePositiveRate !== 'number' || !(falsePositiveRate > 0 && falsePositiveRate < 1))) {
    throw new FilterError(
      'INVALID_ARGUMENT',
      `${info.className}: falsePositiveRate must be a number in (0, 1), got ${typeof falsePositiveRate === 'number' ? falsePositiveRate : describeValue(falsePositiveRate)}`,
    );
  }
  if (seed !== undefined) requireInteger(seed, 'seed', info.className, 0, Number.MAX_SAFE_INTEGER);
  return options as Options;
}

/**
 * The base of the static filter types: built from all their keys at once by `from`,
 * then read-only. `new` and every change throw `UNSUPPORTED` with the same words.
 * Not exported from the package: the types' own pages list what they inherit from it.
 */
export abstract class StaticFilter<Name extends FilterTypeName = FilterTypeName> extends Filter<Name> {
  /**
   * Filters of a static type are built from their keys: use the class's `from(keys, options)`.
   * @throws FilterError `UNSUPPORTED` when called with options.
   */
  constructor(existing: never) {
    refuseStaticConstruction(existing, new.target.info);
    super(existing);
  }

  /** @throws FilterError `UNSUPPORTED`: the filter is static (build a new one with `from`). */
  add(_key: Key): never {
    throw this.#changeError('add keys');
  }
  /** @throws FilterError `UNSUPPORTED`: the filter is static (build a new one with `from`). */
  override addMany(_keys: Iterable<Key>): never {
    throw this.#changeError('add keys');
  }
  /** @throws FilterError `UNSUPPORTED`: the filter is static (build a new one with `from`). */
  override addIfNew(_key: Key): never {
    throw this.#changeError('add keys');
  }
  /** @throws FilterError `UNSUPPORTED`: the filter is static (build a new one with `from`). */
  remove(_key: Key): never {
    throw this.#changeError('remove keys');
  }

  #changeError(operation: string): FilterError {
    return staticFilterError((this.constructor as typeof StaticFilter).info, operation);
  }
}
