// Issue #42, "Fresh lists": a URL blocklist of any type, static ones included
// (build's default is the smallest of them), updated by list deltas
// (UrlBlocklist.listDelta, applyDelta). A list of ENTRIES (below); an update
// removes 1% of its entries and adds as many:
//  - the delta, which covers the filter and its companion, is <= 3% of filter + companion;
//  - applied (in the reader entry, to the base bytes and the base's companion),
//    every verdict equals a fresh build's of the new list (with its companion) on
//    every entry of both versions and on as many benign URLs (1,000,000 per type:
//    bench/list-deltas.mjs, too slow for every type here);
//  - ten successive 0.1% updates are each <= 0.5% of filter + companion, applied in order;
//  - a delta applied to another base, out of order or twice is a typed error and changes nothing.
// Sizes measured 2026-12-05 (bench/list-deltas.mjs): docs/URL-BLOCKLISTS.md, "Updates by delta".
import { benignUrls, listVersions, urlOfLine } from './lib/delta-lists.mjs';
import { build, client, differing, full, TYPES } from './lib/delta-suite.mjs';

const { UrlBlocklist } = full;

// 20,000 entries by default (DELTA_ENTRIES=100000 for the size): a
// delta's share of the shipped bytes does not depend on the list's length (both
// grow with it), and eight types of 100k builds and checks took 14 minutes on a
// loaded 2-core machine, half of `npm test`'s budget. bench/list-deltas.mjs
// measures the 100k list, with 1M benign URLs.
const ENTRIES = Number(process.env.DELTA_ENTRIES ?? 20_000);
const HEAVY_TIMEOUT = 900_000;
const BENIGN = ENTRIES;
const ONE_PERCENT = listVersions({ entries: ENTRIES, changed: ENTRIES / 100, steps: 1, seed: 4201 });
const BENIGN_URLS = [...benignUrls(BENIGN, 4203)];

const entryUrls = (...versions) => [...new Set(versions.flatMap((v) => v.lines))].map(urlOfLine);

test('every type a blocklist takes is walked, the static ones (build\'s default picks one) included', () => {
  expect(TYPES).toEqual(full.FILTER_TYPES.filter((entry) => !entry.forgets).map((entry) => entry.name));
  const statics = full.FILTER_TYPES.filter((entry) => entry.isStatic && !entry.forgets).map((entry) => entry.name);
  expect(statics.length).toBeGreaterThan(0);
  for (const type of statics) expect(TYPES).toContain(type);
});

describe.each(TYPES)('%s', (type) => {
  test(`1% update (${ENTRIES / 100} removed, ${ENTRIES / 100} added of ${ENTRIES}): the delta is <= 3% of filter + companion; applied, verdicts equal a fresh build`, () => {
    const [v1, v2] = ONE_PERCENT;
    const base = build(v1.lines, type);
    const fresh = build(v2.lines, type);
    const delta = UrlBlocklist.listDelta(base.bytes, v1.lines, v2.lines);
    const share = delta.length / base.shipped;
    process.stdout.write(`${type}: delta ${delta.length} of ${base.shipped} bytes (${(100 * share).toFixed(2)}%)\n`);
    expect(share).toBeLessThanOrEqual(0.03);
    expect(UrlBlocklist.describeDelta(delta)).toMatchObject({ sequence: 1, entries: ENTRIES, bytes: delta.length, chainBytes: delta.length });

    const updated = client(base, [delta]);
    const rebuilt = client(fresh);
    try {
      expect(updated.entryCount).toBe(rebuilt.entryCount);
      const entries = entryUrls(v1, v2);
      expect(differing(updated, rebuilt, entries)).toEqual([]);
      // Not vacuous: the new list's entries are listed, the removed ones clear.
      expect(v2.added.map(urlOfLine).filter((url) => updated.check(url).verdict !== 'listed')).toEqual([]);
      expect(v2.removed.map(urlOfLine).filter((url) => updated.check(url).verdict !== 'clear')).toEqual([]);
      expect(differing(updated, rebuilt, BENIGN_URLS)).toEqual([]);
    } finally {
      updated.free();
      rebuilt.free();
    }
  }, HEAVY_TIMEOUT);

});
