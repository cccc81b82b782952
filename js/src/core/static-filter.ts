/**
 * What every static filter type (built once from its keys, then read-only: binary fuse,
 * Ribbon; the registry's `isStatic`) does alike: refuse `new` and every change with the same
 * words, and build its table from the keys' hashes in one core call.
 */
import type { CoreFilterOptions } from '../runtime/core-module.js';
import { FilterError } from '../errors.js';
import { getRuntime } from '../runtime/init.js';
import { type Key, keyArray, MAX_ARENA_BYTES } from '../keys/keys.js';
import { adoptHandle, ExistingHandle, type FilterClassInfo } from './filter-base.js';

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
