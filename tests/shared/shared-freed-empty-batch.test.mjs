// Found by an outside attack (shared/ADVERSARY.md) on the shared batch calls (issue #47) with no keys. SharedFilter.free()'s doc:
// "from then on any call through any handle to it, on any thread, throws FilterError
// FREED", as the main entry's filters do for hasMany([]). The shared hasMany([]),
// hasMany([], { as: 'Uint8Array' }), addMany([]) and removeMany([]) never reach the
// module (no batch to send), so after free() they answer [] / an empty Uint8Array /
// nothing: a caller's "is this filter still live" batch gets an answer from a freed one.
import { BloomFilter, init } from 'cuckoo-bloom-wasm';
import { codeOf } from '../helpers/filter-errors.mjs';

const shared = await import(new URL('../../dist/shared.import.cjs', import.meta.url).href);

beforeAll(async () => {
  await init();
  await shared.init({ maximumMemory: 64 * 2 ** 20 });
});


test('the main entry: hasMany([]) of a freed filter is FREED (the behaviour the shared entry documents too)', () => {
  const filter = new BloomFilter({ capacity: 10 });
  filter.free();
  expect(codeOf(() => filter.hasMany([]))).toBe('FREED');
});

test.each([
  ['SharedBloomFilter', false],
  ['SharedCountingBloomFilter', true],
  ['SharedCuckooFilter', true],
])('%s: every batch call with no keys is FREED after free(), on this handle and another', (className, removes) => {
  const filter = new shared[className]({ capacity: 10 });
  const other = shared.attach(filter.handle());
  filter.free();
  for (const holder of [filter, other]) {
    expect(codeOf(() => holder.has('k'))).toBe('FREED');
    expect(codeOf(() => holder.hasMany([]))).toBe('FREED');
    expect(codeOf(() => holder.hasMany([], { as: 'Uint8Array' }))).toBe('FREED');
    expect(codeOf(() => holder.addMany([]))).toBe('FREED');
    if (removes) expect(codeOf(() => holder.removeMany([]))).toBe('FREED');
  }
});
