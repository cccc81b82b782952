/**
 * The filter a whole list is built in when no type is named (`UrlBlocklist.build`,
 * the CLI's `build --urls`): the smallest, in serialized bytes, of the static types
 * that fit. Which types are static is the registry's per-type fact (`isStatic`,
 * read from the core), never a list of names, so a new static type joins the choice.
 */
import { FilterError } from '../errors.js';
import { type AnyFilter, FILTER_TYPES, type FilterTypeEntry, type FilterTypeName } from '../registry.js';

/** One candidate built for the choice, and its serialized bytes. */
export interface TypeCandidate {
  /** The static type the list was built in. */
  type: FilterTypeName;
  /** The bytes its filter serialized to (the blocklist's envelope, the same for every type, not counted). */
  bytes: number;
}

/** How the default type of a list build was chosen: every candidate built, and the one kept. */
export interface TypeChoice {
  /** The type kept: the fewest serialized bytes (the first in registry order on a tie). */
  chosen: FilterTypeName;
  /** Each static type that fit, in registry order, with the bytes its filter serialized to. */
  candidates: TypeCandidate[];
}

/**
 * The static types that can hold a list built with `givenOptions` (the
 * type-specific options the caller set, such as `fingerprintBits`): static
 * (built whole from its keys, so no capacity to guess), keeping its keys, and
 * taking every option given (an option is never dropped to make a type fit).
 * @throws FilterError `INVALID_ARGUMENT` when no static type takes them all.
 */
export function staticCandidates(givenOptions: readonly string[]): FilterTypeEntry[] {
  const fitting = FILTER_TYPES.filter(
    (entry) => entry.isStatic && !entry.forgets && givenOptions.every((option) => entry.extraOptions.includes(option)),
  );
  if (fitting.length === 0) {
    const takers = FILTER_TYPES.filter((entry) => !entry.forgets && givenOptions.every((option) => entry.extraOptions.includes(option)));
    throw new FilterError(
      'INVALID_ARGUMENT',
      `UrlBlocklist: no static filter type takes ${givenOptions.map((option) => `'${option}'`).join(' and ')}, so the smallest static type cannot be chosen: ` +
        (takers.length > 0 ? `name a type that takes it (${takers.map((entry) => `'${entry.name}'`).join(', ')}) or drop it` : 'drop it'),
    );
  }
  return fitting;
}

/**
 * Builds the list in every candidate and keeps the one whose serialized bytes
 * are fewest; the others are freed. The registry does not tell a type's exact
 * size before it is built (a Ribbon filter's columns and a fuse filter's
 * segments are both decided by the build), so each is built: the cost is one
 * build per candidate (today binary fuse and Ribbon: about the time of both
 * builds, and both filters in memory for a moment), paid once where a list
 * is made, for bytes saved on every download. Deterministic: the same keys
 * and options build the same filters, and a tie keeps the first in registry order.
 */
export function buildSmallest(
  candidates: readonly FilterTypeEntry[],
  build: (entry: FilterTypeEntry) => AnyFilter,
): { filter: AnyFilter; choice: TypeChoice } {
  let best: { filter: AnyFilter; bytes: number } | null = null;
  const built: TypeCandidate[] = [];
  try {
    for (const entry of candidates) {
      const filter = build(entry);
      const bytes = filter.serialize().length;
      built.push({ type: entry.name, bytes });
      if (best === null || bytes < best.bytes) {
        best?.filter.free();
        best = { filter, bytes };
      } else {
        filter.free();
      }
    }
  } catch (error) {
    best?.filter.free();
    throw error;
  }
  if (best === null) throw new FilterError('INVALID_ARGUMENT', 'UrlBlocklist: no static filter type to build the list in');
  return { filter: best.filter, choice: { chosen: best.filter.type, candidates: built } };
}
