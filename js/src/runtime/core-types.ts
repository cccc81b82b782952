/**
 * The filter types as the loaded core reports them (registeredFilterTypes()
 * in cpp/src/registry/any_filter.cpp, through filterTypes() in
 * bindings/embind.cpp): each type's capabilities, the options it takes
 * beyond capacity, falsePositiveRate and seed, and the facts its C++ class
 * declares (cpp/include/cuckoo_bloom/core/type_facts.h: how it grows, which
 * growing type stands in for it, where its estimate comes from, its default
 * capacity and its options' limits), detected or declared in its C++ class. TypeScript reads them from here rather than copying them.
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
    types = new Map(module.filterTypes().map((type) => [type.name, frozen(type)]));
    byModule.set(module, types);
  }
  return types;
}

/** A type as the core reports it, frozen through (its lists and records too). */
function frozen(type: CoreFilterType): CoreFilterType {
  const limits = Object.fromEntries(Object.entries(type.optionLimits).map(([name, limit]) => [name, Object.freeze({ ...limit })]));
  return Object.freeze({
    ...type,
    options: Object.freeze([...type.options]),
    estimateSource: Object.freeze({ ...type.estimateSource }),
    optionLimits: Object.freeze(limits),
  });
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
