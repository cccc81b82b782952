// The filter types the demo compares, typed. The list itself lives in compared-types.json
// so that build.mjs (plain Node, no TypeScript) builds exactly the files the page shows;
// when the library exports its registry of types, this module is the one to switch to it.
import type { BlocklistFilterType } from 'cuckoo-bloom-wasm';
import compared from './compared-types.json';

export interface ComparedType {
  type: BlocklistFilterType;
  label: string;
  /** File name under data/, as build.mjs writes it. */
  file: string;
  /** What one lookup reads: a property of the structure, not a timing. */
  lookupTouches: string;
}

export const COMPARED_TYPES = compared.types as ComparedType[];
export const PRELOADED_TYPE = compared.preloaded as BlocklistFilterType;

export function labelOf(type: BlocklistFilterType): string {
  return COMPARED_TYPES.find((entry) => entry.type === type)?.label ?? type;
}
