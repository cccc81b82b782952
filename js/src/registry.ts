/**
 * The one table of filter types on the TypeScript side. Everything that lists
 * types — `deserialize`, `UrlBlocklist`'s `type` option, the CLI's `--type`
 * and `info`, the demo's comparison, the benchmarks — reads it; an unknown
 * name is an INVALID_ARGUMENT error everywhere, never a fallback to a default.
 *
 * The C++ registry (cpp/include/cuckoo_bloom/registry/filter_types.h) is the source of
 * the type names and ids: filters are created and read by name through it.
 * What a type can do and which options it takes are the core's too
 * (registeredFilterTypes(): detected or declared in each C++ class), read once
 * `init()` ran; tests/core/registry.test.mjs checks that every entry here
 * round-trips through the core under its own name and does what it reports.
 */
import { BloomFilter } from './bloom/bloom.js';
import { BlockedBloomFilter } from './bloom/blocked-bloom.js';
import { CountingBloomFilter } from './bloom/counting-bloom.js';
import { CuckooFilter } from './cuckoo/cuckoo.js';
import { BinaryFuseFilter } from './fuse/binary-fuse.js';
import { ExpandableFilter } from './expandable/expandable.js';
import { ScalableBloomFilter } from './chains/scalable-bloom.js';
import { ScalableCuckooFilter } from './chains/scalable-cuckoo.js';
import { ExpiringBloomFilter } from './chains/expiring-bloom.js';
import { RibbonFilter } from './ribbon/ribbon.js';
import { SplitBlockBloomFilter } from './parquet/split-block-bloom.js';
import { FilterError } from './errors.js';
import type { EstimateSource, FilterGrowth, OptionLimit } from './runtime/core-module.js';
import { coreFilterType } from './runtime/core-types.js';
import type { Key } from './keys/keys.js';
import type { FilterClasses, FilterTypeName } from './core/filter-type-name.js';

export type { EstimateSource, FilterGrowth, OptionLimit } from './runtime/core-module.js';

/** Any filter of this package. */
export type AnyFilter =
  | SplitBlockBloomFilter
  | RibbonFilter
  | BloomFilter
  | BlockedBloomFilter
  | CountingBloomFilter
  | CuckooFilter
  | BinaryFuseFilter
  | ExpandableFilter
  | ScalableBloomFilter
  | ScalableCuckooFilter
  | ExpiringBloomFilter;

// Each type's name and class, for core/filter-type-name.ts (the base class names a
// type without importing the classes): a new type adds its line here.
declare module './core/filter-type-name.js' {
  interface FilterClasses {
    'split-block-bloom': SplitBlockBloomFilter;
    ribbon: RibbonFilter;
    bloom: BloomFilter;
    'blocked-bloom': BlockedBloomFilter;
    'counting-bloom': CountingBloomFilter;
    cuckoo: CuckooFilter;
    'binary-fuse': BinaryFuseFilter;
    expandable: ExpandableFilter;
    'scalable-bloom': ScalableBloomFilter;
    'scalable-cuckoo': ScalableCuckooFilter;
    'expiring-bloom': ExpiringBloomFilter;
  }
}

export type { FilterTypeName } from './core/filter-type-name.js';

/**
 * The short names the CLI's `--type` and every `type` option also take: the
 * one list both read, so a name the CLI accepts type-checks in TypeScript.
 */
export const FILTER_TYPE_ALIASES = {
  /** {@link BlockedBloomFilter} */
  blocked: 'blocked-bloom',
  /** {@link CountingBloomFilter} */
  counting: 'counting-bloom',
  /** {@link BinaryFuseFilter} */
  fuse: 'binary-fuse',
  /** {@link ScalableBloomFilter} */
  scalable: 'scalable-bloom',
  /** {@link ExpiringBloomFilter} */
  expiring: 'expiring-bloom',
} as const satisfies Record<string, FilterTypeName>;

/** A short name of a filter type (`'fuse'` for `'binary-fuse'`). */
export type FilterTypeAlias = keyof typeof FILTER_TYPE_ALIASES;

/** Any name a `type` option takes: a type's name or one of its aliases. */
export type FilterTypeOrAlias = FilterTypeName | FilterTypeAlias;

/** One filter type in {@link FILTER_TYPES}: its names, what it can do, and how to make one. */
export interface FilterTypeEntry {
  /** The name in the byte format, `info` output and `type` options. */
  readonly name: FilterTypeName;
  /** Short names the CLI's `--type` also takes. */
  readonly aliases: readonly string[];
  /** How people call it ("Blocked Bloom"). */
  readonly label: string;
  /** One line on when to choose it. */
  readonly summary: string;
  /** What one lookup reads: a property of the structure, not a timing. */
  readonly lookup: string;
  /**
   * Keys can be removed (`remove`, `removeMany`). Like every capability and
   * `extraOptions`, read from the loaded core.
   * @throws FilterError `NOT_INITIALIZED` when read before `init()` resolved.
   */
  readonly supportsRemove: boolean;
  /** Two filters of this type with the same sizing and seed can be merged (`union`). @throws FilterError `NOT_INITIALIZED` before `init()`. */
  readonly supportsUnion: boolean;
  /**
   * Built once from the whole key set, then read-only (binary fuse): `create`
   * throws UNSUPPORTED, `from` builds it, and it has no add or remove.
   * @throws FilterError `NOT_INITIALIZED` before `init()`.
   */
  readonly isStatic: boolean;
  /**
   * Drops keys by itself as time passes (expiring Bloom: generations rotated
   * by a clock): a key added once is answered "absent" later without any
   * remove. Such a type cannot hold a list that must never miss an entry (a
   * URL blocklist refuses it).
   * @throws FilterError `NOT_INITIALIZED` before `init()`.
   */
  readonly forgets: boolean;
  /**
   * Options beyond capacity, falsePositiveRate and seed, as this package
   * spells them (a static type takes no capacity).
   * @throws FilterError `NOT_INITIALIZED` before `init()`.
   */
  readonly extraOptions: readonly string[];
  /** How it grows past its size (declared, like the facts below, by its C++ class). @throws FilterError `NOT_INITIALIZED` before `init()`. */
  readonly growth: FilterGrowth;
  /** The growing type made instead when the key count is unknown (itself when it grows), or null. @throws FilterError `NOT_INITIALIZED` before `init()`. */
  readonly growingStandIn: FilterTypeName | null;
  /** What `estimatedFalsePositiveRate` reads. @throws FilterError `NOT_INITIALIZED` before `init()`. */
  readonly estimateSource: EstimateSource;
  /** Keys it is sized for when no capacity is given; null: a capacity is required. @throws FilterError `NOT_INITIALIZED` before `init()`. */
  readonly defaultCapacity: number | null;
  /** The range and default of its own options that declare one, by option name. @throws FilterError `NOT_INITIALIZED` before `init()`. */
  readonly optionLimits: Readonly<Record<string, OptionLimit>>;
  /** An empty filter to add keys to. @throws FilterError `UNSUPPORTED` for a static type. */
  create(options: Record<string, unknown>): AnyFilter;
  /** A filter holding `keys`, for every type (a dynamic type is sized for them unless `capacity` is given). */
  from(keys: Iterable<Key>, options: Record<string, unknown>): AnyFilter;
  /**
   * Reads a filter of this type from its serialized bytes.
   * @throws FilterError `CORRUPT`, `UNSUPPORTED_VERSION`, `WRONG_TYPE` (bytes of another type), `INVALID_ARGUMENT`.
   */
  deserialize(bytes: Uint8Array | ArrayBuffer): AnyFilter;
}

/** What the registry calls on a filter class: its constructor and its two static makers. */
interface FilterClass {
  new (options: never): AnyFilter;
  from(keys: Iterable<Key>, options: never): AnyFilter;
  deserialize(bytes: Uint8Array | ArrayBuffer): AnyFilter;
}

/** What an entry says about its type; what it can do and takes is the core's. */
type TypeDescription<Name extends FilterTypeName> = Pick<FilterTypeEntry, 'label' | 'summary' | 'lookup'> & { readonly name: Name };

/**
 * The options whose spelling in this package differs from the core's
 * (cpp/include/cuckoo_bloom/core/filter_options.h), listed once: a core
 * option not listed here is spelled alike on both sides.
 */
const PACKAGE_SPELLINGS: Readonly<Record<string, readonly string[]>> = {
  // ExpiringBloomFilter takes a `clock` function; the core keeps its reading at creation, `startTime`.
  startTime: ['clock'],
  // A growing filter (one taking `growth`) sizes its first link by `capacity`,
  // which it also takes as `initialCapacity` (scalable-options.ts translates it).
  growth: ['initialCapacity', 'growth'],
  // The expandable filter's growth hint; it takes its first size as `initialCapacity` too.
  expectedCapacity: ['initialCapacity', 'expectedCapacity'],
};

/** A core type's options as this package's classes take them. */
function packageOptions(coreOptions: readonly string[]): readonly string[] {
  return Object.freeze(coreOptions.flatMap((option) => PACKAGE_SPELLINGS[option] ?? [option]));
}

function aliasesOf(name: FilterTypeName): string[] {
  return Object.entries(FILTER_TYPE_ALIASES)
    .filter(([, target]) => target === name)
    .map(([alias]) => alias);
}

/**
 * The entry of the type `filterClass` implements. Its three makers are always
 * the class's constructor, `from` and `deserialize`, so they are written once
 * here rather than in every entry.
 */
function entry<Name extends FilterTypeName>(
  filterClass: FilterClass,
  description: TypeDescription<Name>,
): FilterTypeEntry & { readonly name: Name } {
  const core = () => coreFilterType(description.name);
  const made: Pick<FilterTypeEntry, 'aliases' | 'label' | 'summary' | 'lookup' | 'create' | 'from' | 'deserialize'> & { readonly name: Name } = {
    name: description.name,
    aliases: aliasesOf(description.name),
    label: description.label,
    summary: description.summary,
    lookup: description.lookup,
    create: (options) => new filterClass(options as never),
    from: (keys, options) => filterClass.from(keys, options as never),
    deserialize: (bytes) => filterClass.deserialize(bytes),
  };
  // The core's facts, each read when asked (NOT_INITIALIZED before init()), under the core's name.
  for (const fact of CORE_FACTS) {
    Object.defineProperty(made, fact, { enumerable: true, get: () => core()[fact] });
  }
  Object.defineProperties(made, {
    extraOptions: { enumerable: true, get: () => packageOptions(core().options) },
    defaultCapacity: { enumerable: true, get: () => core().defaultCapacity || null },
  });
  return made as FilterTypeEntry & { readonly name: Name };
}

/** The facts an entry passes on from the core as they are. */
const CORE_FACTS = ['supportsRemove', 'supportsUnion', 'isStatic', 'forgets', 'growth', 'growingStandIn', 'estimateSource', 'optionLimits'] as const;

/** The entries, each typed with its own name (so the check below sees which names have one). */
const ENTRIES = [
  entry(BloomFilter, {
    name: 'bloom',
    label: 'Bloom',
    summary: 'the classic: fewest bits per key among the dynamic filters, union of equal filters',
    lookup: 'k bits anywhere in the array (one memory access each)',
  }),
  entry(BlockedBloomFilter, {
    name: 'blocked-bloom',
    label: 'Blocked Bloom',
    summary: 'fastest lookups (one cache line per key) for a few more bits per key',
    lookup: '1 block of 512 bits (one cache line)',
  }),
  entry(CountingBloomFilter, {
    name: 'counting-bloom',
    label: 'Counting Bloom',
    summary: 'removal that never refuses an insert, at 4x the memory of Bloom',
    lookup: 'k 4-bit counters anywhere in the array (one memory access each)',
  }),
  entry(CuckooFilter, {
    name: 'cuckoo',
    label: 'Cuckoo',
    summary: 'removal, in fewer bits per key than Bloom below about 3%; may refuse an insert (FULL) when nearly full',
    lookup: '2 buckets (two cache lines at most)',
  }),
  // create: the constructor throws UNSUPPORTED for options (build it with
  // `from`); a handle read from bytes (deserialize) is wrapped.
  entry(BinaryFuseFilter, {
    name: 'binary-fuse',
    label: 'Binary fuse',
    summary: 'static: built once from a fixed list, ~1.13 f bits per key for a rate of 2^-f (4-wise ~1.08 f), the fastest static build; no add or remove',
    lookup: '3 (or 4) fingerprints in 3 (or 4) neighbouring segments',
  }),
  entry(RibbonFilter, {
    name: 'ribbon',
    label: 'Ribbon',
    summary: 'static: built once from a fixed list, the fewest bits per key: 1.04-1.06x the information bound at rates of 1% and below (any rate: fractional bits per key; up to 1.11x at rates over 10%); no add or remove',
    lookup: '1 parity per fingerprint bit over 128 slots (3 neighbouring words per bit)',
  }),
  entry(ScalableBloomFilter, {
    name: 'scalable-bloom',
    label: 'Scalable Bloom',
    summary: 'grows with its keys (no capacity to guess) and stays under its rate, for 2-3x the bytes of a Bloom filter of the final size',
    lookup: 'k bits in each link, newest first (about log2(n / initialCapacity) links)',
  }),
  entry(ScalableCuckooFilter, {
    name: 'scalable-cuckoo',
    label: 'Scalable Cuckoo',
    summary: 'grows with its keys, with removal; 2-2.5x the bytes of a cuckoo filter of the final size',
    lookup: '2 buckets in each link, newest first',
  }),
  entry(ExpiringBloomFilter, {
    name: 'expiring-bloom',
    label: 'Expiring Bloom',
    summary: '"seen in the last N units": generations of Bloom filters rotated by a clock forget old keys; no removal',
    lookup: 'k bits in each of the generations (about 2 reads each for an absent key)',
  }),
  entry(ExpandableFilter, {
    name: 'expandable',
    label: 'Expandable',
    summary: 'grows one table in place (no chain), with removal; sized by a growth hint to stay near static size and under its rate',
    lookup: '1 run of 1 quotient-filter table (one probe, however far it grew)',
  }),
  entry(SplitBlockBloomFilter, {
    name: 'split-block-bloom',
    label: 'Split-block Bloom (Parquet)',
    summary: "Parquet's own Bloom filter, bit for bit: reads and builds the filters DuckDB, Spark and arrow-rs write per column chunk",
    lookup: '1 block of 256 bits (8 words of 32 bits)',
  }),
];

// Every class of AnyFilter has an entry: a type name without one is a compile
// error here naming it ("Type 'true' is not assignable to type '<name>'").
type NameWithoutEntry = Exclude<FilterTypeName, (typeof ENTRIES)[number]['name']>;
const everyTypeHasAnEntry: [NameWithoutEntry] extends [never] ? true : NameWithoutEntry = true;
void everyTypeHasAnEntry;
// Every class of AnyFilter is declared under its own name in FilterClasses, and
// every declared class is in AnyFilter: a mismatch is a compile error here naming it.
type ClassUnderAnotherName = { [Name in FilterTypeName]: FilterClasses[Name]['type'] extends Name ? never : Name }[FilterTypeName];
type TypeNotInAnyFilter = Exclude<FilterTypeName, AnyFilter['type']>;
const everyClassUnderItsName: [ClassUnderAnotherName | TypeNotInAnyFilter] extends [never] ? true : ClassUnderAnotherName | TypeNotInAnyFilter = true;
void everyClassUnderItsName;

/**
 * Not a type but a choice, for a whole list known at once: the list is built in
 * every static type that fits (`isStatic`, read from the core) and the one with
 * the fewest serialized bytes is kept (`UrlBlocklist.build`, `build --urls`).
 */
export const SMALLEST_STATIC_TYPE = 'smallest';

/**
 * What is chosen when no type is given: `keys`, the type for keys added one by
 * one (`UrlBlocklist.create`, the CLI's `build`); `list`, for a whole URL list
 * known at once (`UrlBlocklist.build`, `build --urls`): not one type but the
 * smallest static type for that list (`'smallest'`), so a shipped list is as
 * small as the registry's types make it. Named once here; the CLI and
 * `UrlBlocklist` read them.
 */
export const DEFAULT_FILTER_TYPES = {
  /** For keys added one by one. */
  keys: 'bloom',
  /** For a whole URL list known at once: the smallest static type for it. */
  list: 'smallest',
} as const satisfies { keys: FilterTypeName; list: FilterTypeName | typeof SMALLEST_STATIC_TYPE };

/**
 * Every filter type, in the order the docs, the CLI's help and `info` list them.
 * Look one up by name or alias with {@link filterType} or {@link findFilterType}.
 */
export const FILTER_TYPES: readonly FilterTypeEntry[] = [...ENTRIES];

/**
 * Adds a key to any filter; false when the filter had no room for it (only a
 * type that can refuse an insert, i.e. one with `tryAdd`, ever says so).
 */
export function tryAddKey(filter: AnyFilter, key: Key): boolean {
  if ('tryAdd' in filter) return filter.tryAdd(key);
  filter.add(key); // a static filter's add throws UNSUPPORTED
  return true;
}

/** Every name and alias a user may write, e.g. for an error message. */
export function filterTypeNames(withAliases = false): string[] {
  return FILTER_TYPES.flatMap((entry) => (withAliases ? [entry.name, ...entry.aliases] : [entry.name]));
}

/** The entry a name (or alias) denotes, or null. */
export function findFilterType(name: unknown): FilterTypeEntry | null {
  if (typeof name !== 'string') return null;
  return FILTER_TYPES.find((entry) => entry.name === name || entry.aliases.includes(name)) ?? null;
}

/** The entry a name (or alias) denotes. @throws FilterError `INVALID_ARGUMENT` naming the known types. */
export function filterType(name: unknown, context = 'type'): FilterTypeEntry {
  const entry = findFilterType(name);
  if (entry === null) {
    throw new FilterError(
      'INVALID_ARGUMENT',
      `${context} must be one of ${filterTypeNames().join(', ')}, got ${typeof name === 'string' ? `'${name}'` : String(name)}`,
    );
  }
  return entry;
}
