// "A listed entry is never clear" (issue #40's oracle, tests/url/lib/verdict-oracle.mjs)
// on the update path of issue #42: a base built with any type a blocklist
// takes, at any of the oracle's rates, then a random chain of list deltas
// (UrlBlocklist.listDelta) applied in order, in both entries. Every entry of
// the last version is `listed` or `possible`, never `clear`, with the base's
// companion attached and without it. And "clear is certain": with the
// companion, an entry of the pool that the last version does not hold (and
// that no listed expression covers: each line here lists one host or URL of
// its own host) is `clear`, even where the base's filter and companion still
// hold it. The expressions of each line are known by construction
// (delta-lists.mjs), not from the parser under test.
import fc from 'fast-check';
import * as full from '../../dist/index.js';
import { blocklistTypes, clearEntries, RATES } from './lib/verdict-oracle.mjs';
import { expressionOf, listVersions } from './lib/delta-lists.mjs';

const { UrlBlocklist, init } = full;
const reader = await import(new URL('../../dist/reader.import.cjs', import.meta.url).href);
await init();
await reader.init();
const TYPES = blocklistTypes(full);
const POOL = listVersions({ entries: 240, changed: 1, steps: 0, seed: 4206 })[0].lines;
const urlOf = (expression) => `http://${expression}`;

const subset = fc.uniqueArray(fc.nat({ max: POOL.length - 1 }), { minLength: 1, maxLength: POOL.length }).map((indexes) => indexes.map((i) => POOL[i]));

test('after any chain of deltas: no listed entry is clear (with the companion or without), and a dropped entry is clear with it', () => {
  fc.assert(
    fc.property(
      fc.constantFrom(...TYPES),
      fc.constantFrom(...RATES),
      subset,
      fc.array(subset, { minLength: 1, maxLength: 5 }),
      fc.boolean(),
      (type, rate, first, later, asChanges) => {
        const base = UrlBlocklist.build(first, { type, falsePositiveRate: rate });
        const bytes = base.serialize();
        const companion = base.confirmation();
        base.free();
        const deltas = [];
        let previous = first;
        for (const next of later) {
          // Either the next version's list, or the lines it removes and adds.
          const before = new Set(previous);
          const changes = asChanges ? { remove: previous.filter((l) => !next.includes(l)), add: next.filter((l) => !before.has(l)) } : next;
          deltas.push(UrlBlocklist.listDelta(deltas.at(-1) ?? bytes, previous, changes));
          previous = next;
        }
        const listed = previous.map(expressionOf);
        const dropped = POOL.filter((line) => !previous.includes(line)).map(expressionOf);
        for (const open of [(b) => UrlBlocklist.deserialize(b), (b) => reader.UrlBlocklistReader.deserialize(b)]) {
          const bare = open(bytes);
          const confirmed = open(bytes);
          try {
            confirmed.attachConfirmation(companion);
            for (const delta of deltas) {
              bare.applyDelta(delta);
              confirmed.applyDelta(delta);
            }
            expect(clearEntries((url) => bare.check(url), listed)).toEqual([]);
            expect(clearEntries((url) => confirmed.check(url), listed)).toEqual([]);
            expect(dropped.filter((expression) => confirmed.check(urlOf(expression)).verdict !== 'clear')).toEqual([]);
            expect(confirmed.entryCount).toBe(listed.length);
          } finally {
            bare.free();
            confirmed.free();
          }
        }
      },
    ),
    { seed: 0x4242, numRuns: 60 },
  );
});
