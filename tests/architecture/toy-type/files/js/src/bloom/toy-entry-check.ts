// Type-checked with the scratch's js/src: the package entry exports the toy's
// class and options type (step 5 of the checklist), and its options type takes
// its own option.
import { type FilterTypeName, ToyFilter, type ToyFilterOptions } from '../index.js';

const options: ToyFilterOptions = { capacity: 100, falsePositiveRate: 0.01, sizeFactor: 2 };
const name: FilterTypeName = 'toy';

/** A toy filter made from the entry's exports. */
export function makeToy(): ToyFilter {
  const filter = new ToyFilter(options);
  if (filter.type !== name) throw new Error('not a toy');
  return filter;
}
