// A blocklist built as binary fuse is 4-wise unless told otherwise: measured smaller
// than 3-wise at every list size (url-blocklist.ts, `arity`). With no type, fuse is one
// of the static types build chooses from (blocklist-smallest-type.test.mjs), 4-wise there too.
import { init, UrlBlocklist, FilterError } from 'cuckoo-bloom-wasm';

beforeAll(() => init());

const hosts = Array.from({ length: 5_000 }, (_, i) => `host-${i}.example`);
const list = hosts.join('\n');

test('build defaults to 4-wise for the fuse type: smaller than 3-wise, every entry still matched', () => {
  const byDefault = UrlBlocklist.build(list, { type: 'binary-fuse' });
  const fourWise = UrlBlocklist.build(list, { type: 'binary-fuse', arity: 4 });
  const threeWise = UrlBlocklist.build(list, { type: 'binary-fuse', arity: 3 });
  // An arity with no type: only fuse takes one, so the choice is fuse, 4-wise as asked.
  const noType = UrlBlocklist.build(list, { arity: 4 });
  expect(noType.type).toBe('binary-fuse');
  expect(Buffer.from(noType.serialize()).equals(Buffer.from(fourWise.serialize()))).toBe(true);
  noType.free();
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
