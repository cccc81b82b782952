/**
 * The one table of filter types on the TypeScript side. Everything that lists
 * types — `deserialize`, `UrlBlocklist`'s `type` option, the CLI's `--type`
 * and `info`, the demo's comparison, the benchmarks — reads it; an unknown
 * name is an INVALID_ARGUMENT error everywhere, never a fallback to a default.
 *
 * The C++ registry (cpp/include/cuckoo_bloom/filter_types.h) is the source of
 * the type names and ids: filters are created and read by name through it,
 * and tests/registry.test.mjs checks that every entry here round-trips through
 * the core under its own name with the capabilities it claims.
 */
import { BinaryFuseFilter } from './binary-fuse.js';
import { BlockedBloomFilter } from './blocked-bloom.js';
import { BloomFilter } from './bloom.js';
import { CountingBloomFilter } from './counting-bloom.js';
import { CuckooFilter } from './cuckoo.js';
import { FilterError } from './errors.js';
import { ExpiringBloomFilter } from './expiring-bloom.js';
import { ScalableBloomFilter } from './scalable-bloom.js';
import { ScalableCuckooFilter } from './scalable-cuckoo.js';
import type { Key } from './keys.js';

/** Any filter of this package. */
export type AnyFilter =
  | BloomFilter
  | BlockedBloomFilter
  | CountingBloomFilter
  | CuckooFilter
  | BinaryFuseFilter
  | ScalableBloomFilter
  | ScalableCuckooFilter
  | ExpiringBloomFilter;

/** The name of a filter type, as the byte format and the registry spell it. */
export type FilterTypeName = AnyFilter['type'];

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
  readonly supportsRemove: boolean;
  readonly supportsUnion: boolean;
  /**
   * Built once from the whole key set, then read-only (binary fuse): `create`
   * throws UNSUPPORTED, `from` builds it, and it has no add or remove.
   */
  readonly isStatic: boolean;
  /** Options beyond capacity, falsePositiveRate and seed (a static type takes no capacity). */
  readonly extraOptions: readonly string[];
  /** An empty filter to add keys to. @throws FilterError `UNSUPPORTED` for a static type. */
  create(options: Record<string, unknown>): AnyFilter;
  /** A filter holding `keys`, for every type (a dynamic type is sized for them unless `capacity` is given). */
  from(keys: Iterable<Key>, options: Record<string, unknown>): AnyFilter;
  deserialize(bytes: Uint8Array | ArrayBuffer): AnyFilter;
}

export const FILTER_TYPES: readonly FilterTypeEntry[] = [
  {
    name: 'bloom',
    aliases: [],
    label: 'Bloom',
    summary: 'the classic: fewest bits per key among the dynamic filters, union of equal filters',
    lookup: 'k bits anywhere in the array (one memory access each)',
    supportsRemove: false,
    supportsUnion: true,
    extraOptions: [],
    isStatic: false,
    create: (options) => new BloomFilter(options as never),
    from: (keys, options) => BloomFilter.from(keys, options as never),
    deserialize: (bytes) => BloomFilter.deserialize(bytes),
  },
  {
    name: 'blocked-bloom',
    aliases: ['blocked'],
    label: 'Blocked Bloom',
    summary: 'fastest lookups (one cache line per key) for a few more bits per key',
    lookup: '1 block of 512 bits (one cache line)',
    supportsRemove: false,
    supportsUnion: true,
    extraOptions: [],
    isStatic: false,
    create: (options) => new BlockedBloomFilter(options as never),
    from: (keys, options) => BlockedBloomFilter.from(keys, options as never),
    deserialize: (bytes) => BlockedBloomFilter.deserialize(bytes),
  },
  {
    name: 'counting-bloom',
    aliases: ['counting'],
    label: 'Counting Bloom',
    summary: 'removal that never refuses an insert, at 4x the memory of Bloom',
    lookup: 'k 4-bit counters anywhere in the array (one memory access each)',
    supportsRemove: true,
    supportsUnion: false,
    extraOptions: [],
    isStatic: false,
    create: (options) => new CountingBloomFilter(options as never),
    from: (keys, options) => CountingBloomFilter.from(keys, options as never),
    deserialize: (bytes) => CountingBloomFilter.deserialize(bytes),
  },
  {
    name: 'cuckoo',
    aliases: [],
    label: 'Cuckoo',
    summary: 'removal, in fewer bits per key than Bloom below about 3%; may refuse an insert (FULL) when nearly full',
    lookup: '2 buckets (two cache lines at most)',
    supportsRemove: true,
    supportsUnion: false,
    extraOptions: ['bucketSize', 'fingerprintBits', 'maxKicks', 'semiSorted'],
    isStatic: false,
    create: (options) => new CuckooFilter(options as never),
    from: (keys, options) => CuckooFilter.from(keys, options as never),
    deserialize: (bytes) => CuckooFilter.deserialize(bytes),
  },
  {
    name: 'binary-fuse',
    aliases: ['fuse'],
    label: 'Binary fuse',
    summary: 'static: built once from a fixed list, the fewest bits per key (~1.13 f for a rate of 2^-f); no add or remove',
    lookup: '3 (or 4) fingerprints in 3 (or 4) neighbouring segments',
    supportsRemove: false,
    supportsUnion: false,
    isStatic: true,
    extraOptions: ['fingerprintBits', 'arity'],
    // Options: the constructor throws UNSUPPORTED (build it with `from`); a
    // handle read from bytes (deserialize) is wrapped.
    create: (options) => new BinaryFuseFilter(options as never),
    from: (keys, options) => BinaryFuseFilter.from(keys, options as never),
    deserialize: (bytes) => BinaryFuseFilter.deserialize(bytes),
  },
  {
    name: 'scalable-bloom',
    aliases: ['scalable'],
    label: 'Scalable Bloom',
    summary: 'grows with its keys (no capacity to guess) and stays under its rate, for 2-3x the bytes of a Bloom filter of the final size',
    lookup: 'k bits in each link, newest first (about log2(n / initialCapacity) links)',
    supportsRemove: false,
    supportsUnion: true,
    extraOptions: ['initialCapacity', 'growth', 'tightening'],
    isStatic: false,
    create: (options) => new ScalableBloomFilter(options as never),
    from: (keys, options) => ScalableBloomFilter.from(keys, options as never),
    deserialize: (bytes) => ScalableBloomFilter.deserialize(bytes),
  },
  {
    name: 'scalable-cuckoo',
    aliases: [],
    label: 'Scalable Cuckoo',
    summary: 'grows with its keys, with removal; 2-2.5x the bytes of a cuckoo filter of the final size',
    lookup: '2 buckets in each link, newest first',
    supportsRemove: true,
    supportsUnion: false,
    extraOptions: ['initialCapacity', 'growth', 'tightening', 'bucketSize'],
    isStatic: false,
    create: (options) => new ScalableCuckooFilter(options as never),
    from: (keys, options) => ScalableCuckooFilter.from(keys, options as never),
    deserialize: (bytes) => ScalableCuckooFilter.deserialize(bytes),
  },
  {
    name: 'expiring-bloom',
    aliases: ['expiring'],
    label: 'Expiring Bloom',
    summary: '"seen in the last N units": generations of Bloom filters rotated by a clock forget old keys; no removal',
    lookup: 'k bits in each of the generations (about 2 reads each for an absent key)',
    supportsRemove: false,
    supportsUnion: false,
    extraOptions: ['window', 'generations', 'clock'],
    isStatic: false,
    create: (options) => new ExpiringBloomFilter(options as never),
    from: (keys, options) => ExpiringBloomFilter.from(keys, options as never),
    deserialize: (bytes) => ExpiringBloomFilter.deserialize(bytes),
  },
];

/**
 * Adds a key to any filter; false when the filter had no room for it (only a
 * type that can refuse an insert, i.e. one with `tryAdd`, ever says so).
 */
export function tryAddKey(filter: AnyFilter, key: Key): boolean {
  if ('tryAdd' in filter) return filter.tryAdd(key);
  if (filter instanceof BinaryFuseFilter) return filter.add(key); // throws UNSUPPORTED: a static filter
  filter.add(key);
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
