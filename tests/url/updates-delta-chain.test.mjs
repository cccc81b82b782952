// Issue #42, "Fresh lists": chains of list deltas (the 1% update of every type:
// updates-delta.test.mjs). On a list of ENTRIES (below), for every type a blocklist
// takes (binary fuse included):
//  - ten successive 0.1% updates (0.1% removed, as many added) are each <= 0.5% of
//    filter + companion; applied in order (the reader entry), every verdict equals
//    a fresh build's of the last version on every line a delta touched, one in ten
//    of the rest, and 20,000 benign URLs (all 28 minutes on a loaded machine when
//    every entry was checked: the 1% suite checks every entry);
//  - a delta applied to another base, out of order, twice or damaged is a typed
//    error and changes nothing (both entries);
//  - listDelta refuses an old list that is not its version's; a list with deltas
//    refuses to change its base filter.
import { benignUrls, listVersions, urlOfLine } from './lib/delta-lists.mjs';
import { build, client, differing, full, reader, TYPES } from './lib/delta-suite.mjs';

const { UrlBlocklist } = full;

// 20,000 by default, as updates-delta.test.mjs (DELTA_ENTRIES=100000 for the size).
const ENTRIES = Number(process.env.DELTA_ENTRIES ?? 20_000);
// Builds and checks per type: minutes on a loaded 2-core machine at 100k.
const HEAVY_TIMEOUT = 900_000;
const BENIGN = 20_000;
const TENTHS = listVersions({ entries: ENTRIES, changed: ENTRIES / 1000, steps: 10, seed: 4202 });
const BENIGN_URLS = [...benignUrls(BENIGN, 4205)];

// The static types: build's default is the smallest of them for the list.
const STATIC_TYPES = full.FILTER_TYPES.filter((entry) => entry.isStatic && !entry.forgets).map((entry) => entry.name);

test('every type a blocklist takes is walked, the static ones (build\'s default picks one) included', () => {
  expect(TYPES).toEqual(full.FILTER_TYPES.filter((entry) => !entry.forgets).map((entry) => entry.name));
  expect(STATIC_TYPES.length).toBeGreaterThan(0);
  for (const type of STATIC_TYPES) expect(TYPES).toContain(type);
});

// A delta's bytes do not depend on the type (exact sets of the companion's
// hashes), and every type's verdicts after a delta are walked by the 1% suite
// and the never-clear property: the ten-step chain runs on each static type (build's
// default is the smallest of them) and on a type changed in place (DELTA_ALL_TYPES=1 for all).
const CHAIN_TYPES = process.env.DELTA_ALL_TYPES === '1' ? TYPES : [...STATIC_TYPES, 'cuckoo'];

describe.each(CHAIN_TYPES)('%s', (type) => {
  test('ten successive 0.1% updates: each delta <= 0.5% of filter + companion; applied in order, verdicts equal a fresh build of the last', () => {
    const base = build(TENTHS[0].lines, type);
    const deltas = [];
    for (let step = 1; step < TENTHS.length; step++) {
      deltas.push(UrlBlocklist.listDelta(deltas.at(-1) ?? base.bytes, TENTHS[step - 1].lines, TENTHS[step].lines, { format: 'plain' }));
    }
    const shares = deltas.map((delta) => delta.length / base.shipped);
    expect(shares.filter((share) => share > 0.005)).toEqual([]);
    expect(deltas.map((delta) => UrlBlocklist.describeDelta(delta).sequence)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    const last = TENTHS.at(-1);
    const updated = client(base, deltas);
    const rebuilt = client(build(last.lines, type));
    try {
      expect(updated.deltaCount).toBe(10);
      // Every line any delta touched, one in ten of the rest (every entry is walked by the 1% suite), and the benign URLs.
      const changed = TENTHS.slice(1).flatMap((version) => [...version.removed, ...version.added]);
      const sample = [...changed, ...TENTHS[0].lines.filter((_, i) => i % 10 === 0)].map(urlOfLine);
      expect(differing(updated, rebuilt, [...sample, ...BENIGN_URLS])).toEqual([]);
      const current = new Set(last.lines);
      expect(sample.filter((url, i) => i < changed.length && current.has(changed[i]) && updated.check(url).verdict !== 'listed')).toEqual([]);
    } finally {
      updated.free();
      rebuilt.free();
    }
  }, HEAVY_TIMEOUT);
});

describe('a delta of another version is a typed error and changes nothing', () => {
  const small = listVersions({ entries: 2_000, changed: 50, steps: 2, seed: 4204 });
  let base;
  let other;
  let deltas;
  beforeAll(() => {
    base = build(small[0].lines, 'binary-fuse');
    other = build(small[0].lines, 'bloom'); // the same list, other bytes: another base
    deltas = [UrlBlocklist.listDelta(base.bytes, small[0].lines, small[1].lines)];
    deltas.push(UrlBlocklist.listDelta(deltas[0], small[1].lines, small[2].lines));
  });
  const probe = () => [...small[0].lines, ...small[1].lines, ...small[2].lines].map(urlOfLine);

  /** Applies `delta` to `list`, expecting `code` with `words` in the message, and nothing changed. */
  function refused(list, delta, code, words) {
    const before = { identity: list.versionIdentity, deltas: list.deltaCount, entries: list.entryCount, depth: list.expressionDepth };
    const verdicts = probe().map((url) => list.check(url).verdict);
    let thrown;
    try {
      list.applyDelta(delta);
    } catch (error) {
      thrown = error;
    }
    // Each entry has its own FilterError class: the name and code are what callers test.
    expect(thrown?.name).toBe('FilterError');
    expect(thrown.code).toBe(code);
    expect(thrown.message).toMatch(words);
    expect({ identity: list.versionIdentity, deltas: list.deltaCount, entries: list.entryCount, depth: list.expressionDepth }).toEqual(before);
    expect(probe().map((url) => list.check(url).verdict)).toEqual(verdicts);
  }

  for (const [name, open] of [
    ['UrlBlocklistReader', (bytes) => reader.UrlBlocklistReader.deserialize(bytes)],
    ['UrlBlocklist', (bytes) => UrlBlocklist.deserialize(bytes)],
  ]) {
    test(`${name}: another base, out of order, twice, damaged`, () => {
      const wrong = open(other.bytes);
      const list = open(base.bytes);
      try {
        refused(wrong, deltas[0], 'INVALID_ARGUMENT', /another base/);
        refused(list, deltas[1], 'INVALID_ARGUMENT', /out of order/);
        list.applyDelta(deltas[0]);
        refused(list, deltas[0], 'INVALID_ARGUMENT', /applied already/);
        const damaged = deltas[1].slice();
        damaged[60] ^= 1;
        refused(list, damaged, 'CORRUPT', /checksum/);
        refused(list, deltas[1].slice(0, 30), 'CORRUPT', /not a list delta/);
        list.applyDelta(deltas[1]);
        expect(list.deltaCount).toBe(2);
        expect(list.versionIdentity).toBe(UrlBlocklist.describeDelta(deltas[1]).identity);
      } finally {
        wrong.free();
        list.free();
      }
    });
  }

  test('listDelta refuses an old list that is not the version it names', () => {
    expect(() => UrlBlocklist.listDelta(base.bytes, small[1].lines, small[2].lines)).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT', message: expect.stringMatching(/does not hold|distinct expressions/) }),
    );
    // After a delta only the count can be checked (a delta does not know its expressions).
    expect(() => UrlBlocklist.listDelta(deltas[1], small[2].lines.slice(1), small[1].lines)).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
  });

  test('a list with deltas applied refuses to change its base filter (UNSUPPORTED)', () => {
    const list = UrlBlocklist.build(small[0].lines, { type: 'cuckoo' });
    try {
      list.applyDelta(UrlBlocklist.listDelta(list.serialize(), small[0].lines, small[1].lines));
      expect(() => list.addLine('new.example')).toThrow(expect.objectContaining({ code: 'UNSUPPORTED' }));
      expect(() => list.removeLine(small[0].lines[0])).toThrow(expect.objectContaining({ code: 'UNSUPPORTED' }));
    } finally {
      list.free();
    }
  });
});
