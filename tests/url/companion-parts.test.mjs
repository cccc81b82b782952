// The exact companion split by hash prefix (#42, docs/URL-BLOCKLISTS.md "Confirming
// in parts"): on a 100,000-entry list a "maybe" is confirmed by fetching one part
// of at most 4 KB, for a listed URL and for a benign false positive alike; the
// verdicts with parts equal the verdicts with the whole companion on every entry
// and on 100,000 benign URLs (fixed seed), in the full package and the reader;
// a damaged, swapped or other list's part is a typed FilterError and changes no
// verdict to clear; a part not loaded yet makes the sync check say possible, never clear.
import * as full from 'cuckoo-bloom-wasm';
import { prng } from '../helpers/keys.mjs';
import { confirmedList, reader } from '../helpers/confirmed-list.mjs';

const ENTRIES = 100_000;
const BENIGN = 100_000;
const PART_LIMIT = 4096;

const entryUrl = (i) => `http://site-${i.toString(36)}.example/x${i % 97}/`;
const LIST_TEXT = Array.from({ length: ENTRIES }, (_, i) => entryUrl(i)).join('\n');

function benignUrls(count, seed) {
  const random = prng(seed);
  const label = () => Math.floor(random() * 2 ** 32).toString(36);
  return Array.from({ length: count }, (_, i) => `https://${label()}.${label()}.test/${label()}/${i}`);
}

let built; // the full package's list, with the whole companion attached
let bytes; // its bytes
let companion; // the whole companion
let split; // { index, parts }
beforeAll(async () => {
  // 5% per URL: many benign URLs get a "maybe" the companion must rule out.
  ({ list: built, bytes, companion } = await confirmedList(LIST_TEXT, 0.05));
  split = full.splitConfirmation(companion);
}, 120_000);
afterAll(() => built?.free());

/** A fetchPart over `split` that counts the bytes it returns; `serve` may swap or alter them. */
function server(serve = (part) => split.parts[part]) {
  const served = { bytes: 0, calls: 0 };
  const fetchPart = async (part, name) => {
    expect(name).toBe(full.confirmationPartName(part));
    const out = serve(part);
    served.bytes += out.length;
    served.calls++;
    return out;
  };
  return { served, fetchPart };
}

const opened = {
  full: () => full.UrlBlocklist.deserialize(bytes),
  reader: () => reader.UrlBlocklistReader.deserialize(bytes),
};

test('the split: parts of at most 4 KB, together within 5% of the whole companion, covering every expression once', () => {
  const total = split.index.length + split.parts.reduce((sum, part) => sum + part.length, 0);
  expect(Math.max(...split.parts.map((part) => part.length))).toBeLessThanOrEqual(PART_LIMIT);
  expect(total / companion.length).toBeLessThan(1.05);
  expect(split.parts.length).toBeGreaterThan(100);
  const facts = full.UrlBlocklist.describeConfirmation(companion);
  const counted = split.parts.reduce((sum, part) => sum + full.UrlBlocklist.describeConfirmation(part).expressions, 0);
  expect(counted).toBe(facts.expressions);
  expect(counted).toBe(ENTRIES); // one expression an entry (host and path)
});

describe.each(['full', 'reader'])('%s', (kind) => {
  test('a maybe for a listed URL and for a benign false positive: one part, at most 4 KB', async () => {
    const bare = opened[kind]();
    const list = opened[kind]();
    try {
      const falsePositive = benignUrls(20_000, 0xfa15e).find((url) => bare.check(url).verdict === 'possible');
      expect(falsePositive).toBeDefined();
      for (const [url, verdict] of [
        [entryUrl(12_345), 'listed'],
        [falsePositive, 'clear'],
      ]) {
        const { served, fetchPart } = server();
        list.attachConfirmationParts(split.index, fetchPart);
        expect(list.check(url).verdict).toBe('possible'); // nothing loaded: never clear
        const got = await list.confirm(url);
        expect(got).toEqual(built.check(url));
        expect(got.verdict).toBe(verdict);
        expect(served.calls).toBe(1);
        expect(served.bytes).toBeLessThanOrEqual(PART_LIMIT);
        expect(list.confirmationParts).toEqual({ partCount: split.parts.length, partsLoaded: 1, bytesFetched: served.bytes });
        expect(list.check(url)).toEqual(got); // kept: the sync check now concludes
      }
      // Over 500 listed URLs and 500 false positives, each from nothing loaded: bytes per confirmation.
      const maybes = benignUrls(40_000, 0xb0b).filter((url) => bare.check(url).verdict === 'possible').slice(0, 500);
      const listed = Array.from({ length: 500 }, (_, i) => entryUrl(i * 199));
      const fetched = [];
      for (const url of [...listed, ...maybes]) {
        const { served, fetchPart } = server();
        list.attachConfirmationParts(split.index, fetchPart);
        await list.confirm(url);
        fetched.push(served.bytes);
      }
      expect(maybes.length).toBe(500);
      expect(fetched.filter((count) => count > PART_LIMIT).length).toBeLessThanOrEqual(fetched.length / 100);
    } finally {
      bare.free();
      list.free();
    }
  }, 120_000);

  test('verdicts with parts equal the verdicts with the whole companion: every entry, 100,000 benign URLs', async () => {
    const list = opened[kind]();
    const whole = opened[kind]();
    try {
      whole.attachConfirmation(companion);
      const { fetchPart } = server();
      list.attachConfirmationParts(split.index, fetchPart);
      const differ = [];
      let listedEntries = 0;
      for (let i = 0; i < ENTRIES; i++) {
        const url = entryUrl(i);
        const got = await list.confirm(url);
        if (got.verdict === 'listed') listedEntries++;
        if (got.verdict !== whole.check(url).verdict || got.match !== whole.check(url).match) differ.push(url);
      }
      let ruledOut = 0;
      for (const url of benignUrls(BENIGN, 0x5eed)) {
        const got = await list.confirm(url);
        const expected = whole.check(url);
        if (got.verdict !== expected.verdict || got.match !== expected.match || got.confirmedBy !== expected.confirmedBy) differ.push(url);
        if (got.verdict === 'clear' && got.confirmedBy === 'exact-set') ruledOut++;
      }
      expect(differ).toEqual([]);
      expect(listedEntries).toBe(ENTRIES);
      expect(ruledOut).toBeGreaterThan(100); // the rate makes maybes: the parts ruled them out
    } finally {
      list.free();
      whole.free();
    }
  }, 300_000);

  test('a damaged, swapped or other list\'s part is a typed error, kept nowhere, and no verdict turns clear', async () => {
    const other = full.UrlBlocklist.build(LIST_TEXT.replace('site-0.', 'site-zero.'), { falsePositiveRate: 0.05 });
    const otherSplit = full.splitConfirmation(other.confirmation());
    other.free();
    const list = opened[kind]();
    const url = entryUrl(777);
    try {
      const flipped = (part) => {
        const copy = split.parts[part].slice();
        copy[copy.length >> 1] ^= 0x04;
        return copy;
      };
      const cases = [
        ['damaged', flipped, 'CORRUPT'],
        ['swapped', (part) => split.parts[(part + 1) % split.parts.length], 'CORRUPT'],
        ['other list', (part) => otherSplit.parts[Math.min(part, otherSplit.parts.length - 1)], 'CORRUPT'],
        ['truncated', (part) => split.parts[part].subarray(0, 100), 'CORRUPT'],
        ['whole companion', () => companion, 'CORRUPT'],
        ['not bytes', () => 'nope', 'INVALID_ARGUMENT'],
      ];
      for (const [what, serve, code] of cases) {
        const { fetchPart } = server(serve);
        list.attachConfirmationParts(split.index, fetchPart);
        const error = await list.confirm(url).then(
          () => null,
          (thrown) => thrown,
        );
        expect([what, error?.name, error?.code]).toEqual([what, 'FilterError', code]);
        expect(list.confirmationParts.partsLoaded).toBe(0);
        expect(list.check(url).verdict).toBe('possible');
      }
      // A damaged index, or a part given as the index, is refused outright.
      const damagedIndex = split.index.slice();
      damagedIndex[damagedIndex.length >> 1] ^= 0x01;
      expect(() => list.attachConfirmationParts(damagedIndex, server().fetchPart)).toThrow(expect.objectContaining({ code: 'CORRUPT' }));
      expect(() => list.attachConfirmationParts(split.parts[0], server().fetchPart)).toThrow(expect.objectContaining({ code: 'WRONG_TYPE' }));
      // The other list's index is refused outright.
      expect(() => list.attachConfirmationParts(otherSplit.index, server().fetchPart)).toThrow(
        expect.objectContaining({ code: 'INVALID_ARGUMENT' }),
      );
      // A fetch that fails reaches the caller as is, and a later confirm fetches again.
      let fail = true;
      list.attachConfirmationParts(split.index, async (part) => {
        if (fail) throw new Error('offline');
        return split.parts[part];
      });
      await expect(list.confirm(url)).rejects.toThrow('offline');
      fail = false;
      expect((await list.confirm(url)).verdict).toBe('listed');
    } finally {
      list.free();
    }
  }, 120_000);

  test('with no part loaded, the sync check never says clear for a listed entry', () => {
    const list = opened[kind]();
    try {
      list.attachConfirmationParts(split.index, server().fetchPart);
      const verdicts = new Map();
      for (let i = 0; i < ENTRIES; i++) {
        const verdict = list.check(entryUrl(i)).verdict;
        verdicts.set(verdict, (verdicts.get(verdict) ?? 0) + 1);
      }
      expect(Object.fromEntries(verdicts)).toEqual({ possible: ENTRIES });
      expect(list.confirmationParts.partsLoaded).toBe(0);
    } finally {
      list.free();
    }
  }, 120_000);
});
