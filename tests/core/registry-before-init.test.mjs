// FILTER_TYPES before init(): its names and descriptions are the package's,
// but what a type can do and which options it takes are read from the loaded
// core, so reading them first is a NOT_INITIALIZED FilterError saying so.
import { FILTER_TYPES, filterType } from 'cuckoo-bloom-wasm';
import { expectCode } from '../helpers/filter-errors.mjs';

test('names and descriptions are there before init(); capabilities and options say NOT_INITIALIZED', () => {
  expect(filterType('fuse').name).toBe('binary-fuse');
  for (const entry of FILTER_TYPES) {
    expect(entry.label.length).toBeGreaterThan(0);
    for (const read of [
      () => entry.supportsRemove, () => entry.supportsUnion, () => entry.isStatic, () => entry.forgets, () => entry.extraOptions,
    ]) {
      expectCode(read, 'NOT_INITIALIZED');
    }
  }
});
