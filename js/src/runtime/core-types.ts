/**
 * The filter types as the loaded core reports them (registeredFilterTypes()
 * in cpp/src/registry/any_filter.cpp, through filterTypes() in
 * bindings/embind.cpp): each type's capabilities and the options it takes
 * beyond capacity, falsePositiveRate and seed, detected or declared in its
 * C++ class. TypeScript reads them from here rather than copying them.
 */
import type { CoreFilterType, CoreModule } from './core-module.js';
import { FilterError } from '../errors.js';
import { getRuntime } from './init.js';

const byModule = new WeakMap<CoreModule, ReadonlyMap<string, CoreFilterType>>();

/**
 * Every type of the core, by name; read once per loaded module.
 * @throws FilterError `NOT_INITIALIZED` before `init()` resolved.
 */
export function coreFilterTypes(): ReadonlyMap<string, CoreFilterType> {
  const { module } = getRuntime();
  let types = byModule.get(module);
  if (types === undefined) {
    types = new Map(module.filterTypes().map((type) => [type.name, Object.freeze({ ...type, options: Object.freeze([...type.options]) })]));
    byModule.set(module, types);
  }
  return types;
}

/**
 * One type of the core, by its name.
 * @throws FilterError `NOT_INITIALIZED` before `init()`; `INVALID_ARGUMENT` for a name the core does not list.
 */
export function coreFilterType(name: string): CoreFilterType {
  const type = coreFilterTypes().get(name);
  if (type === undefined) {
    throw new FilterError('INVALID_ARGUMENT', `the core has no filter type '${name}' (it has ${[...coreFilterTypes().keys()].join(', ')})`);
  }
  return type;
}
