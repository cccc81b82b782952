// The filter types' names, for the base class (filter-base.ts) to type `type` with
// without importing the classes that extend it. The registry (registry.ts), which
// does import them, declares each type here by declaration merging (`declare
// module`), so the list of types is written in the registry alone and core/ never
// imports up.

/**
 * Every filter type's name, mapped to its class. Empty here: registry.ts declares
 * the entries, one per type.
 */
export interface FilterClasses {}

/** The name of a filter type, as the byte format and the registry spell it (`FILTER_TYPES` lists them). */
export type FilterTypeName = keyof FilterClasses;
