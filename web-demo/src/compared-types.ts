// The filter types the demo compares: every type of the library's registry (FILTER_TYPES),
// in its order, so a new type joins the comparison without an edit here. Which one checks
// URLs lives in compared-types.json, read by build.mjs too.
import { type BlocklistFilterType, FILTER_TYPES } from 'cuckoo-bloom-wasm';
import compared from './compared-types.json';

export interface ComparedType {
  type: BlocklistFilterType;
  label: string;
  /** File name under data/, as build.mjs writes it. */
  file: string;
  /** What one lookup reads: a property of the structure, not a timing. */
  lookupTouches: string;
}

export const PRELOADED_TYPE = compared.preloaded as BlocklistFilterType;

/** build.mjs writes the preloaded filter as urlhaus.filter and the others as urlhaus.<type>.filter. */
export function comparedFileName(type: string, preloaded: string): string {
  return type === preloaded ? 'urlhaus.filter' : `urlhaus.${type}.filter`;
}

export const COMPARED_TYPES: ComparedType[] = FILTER_TYPES.map((entry) => ({
  type: entry.name,
  label: entry.label,
  file: comparedFileName(entry.name, PRELOADED_TYPE),
  lookupTouches: entry.lookup,
}));

export function labelOf(type: BlocklistFilterType): string {
  return COMPARED_TYPES.find((entry) => entry.type === type)?.label ?? type;
}
