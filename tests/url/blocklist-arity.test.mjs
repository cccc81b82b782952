// A shipped blocklist is built as a 4-wise binary fuse filter unless told otherwise:
// measured smaller than 3-wise at every list size (url-blocklist.ts, `arity`).
import { init, UrlBlocklist, FilterError } from 'cuckoo-bloom-wasm';

beforeAll(() => init());

const hosts = Array.from({ length: 5_000 }, (_, i) => `host-${i}.example`);
const list = hosts.join('\n');

test('build defaults to 4-wise for the fuse type: smaller than 3-wise, every entry still matched', () => {
  const byDefault = UrlBlocklist.build(list);
  const fourWise = UrlBlocklist.build(list, { arity: 4 });
  const threeWise = UrlBlocklist.build(list, { arity: 3 });
  try {
    expect(Buffer.from(byDefault.serialize()).equals(Buffer.from(fourWise.serialize()))).toBe(true);
    expect(byDefault.byteLength).toBeLessThan(threeWise.byteLength);
    for (const blocklist of [byDefault, threeWise]) {
      const missed = hosts.filter((host) => blocklist.match(`https://www.${host}/login`) === null);
      expect(missed).toEqual([]);
    }
  } finally {
    for (const blocklist of [byDefault, fourWise, threeWise]) blocklist.free();
  }
});

test('arity is refused by a type that does not take it, and out of range', () => {
  expect(() => UrlBlocklist.build(list, { type: 'bloom', arity: 4 })).toThrow(FilterError);
  expect(() => UrlBlocklist.build(list, { arity: 5 })).toThrow(/arity/);
});
