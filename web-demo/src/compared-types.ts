// The filter types the demo compares: every type of the library's registry (FILTER_TYPES),
// in its order, so a new type joins the comparison without an edit here. Which one checks
// URLs is chosen by build.mjs (compared-types.json) and named in the manifest (`preloaded`,
// with each type's file), so the page reads it there, not here.
import { type BlocklistFilterType, FILTER_TYPES } from 'cuckoo-bloom-wasm';

export interface ComparedType {
  type: BlocklistFilterType;
  label: string;
  /** What one lookup reads: a property of the structure, not a timing. */
  lookupTouches: string;
}

export const COMPARED_TYPES: ComparedType[] = FILTER_TYPES.map((entry) => ({
  type: entry.name,
  label: entry.label,
  lookupTouches: entry.lookup,
}));

export function labelOf(type: BlocklistFilterType): string {
  return COMPARED_TYPES.find((entry) => entry.type === type)?.label ?? type;
}
