// Issue #45: with no type named, `UrlBlocklist.build` builds the list in the smallest
// static type that fits, so shipped lists shrink. The candidates are read from the
// registry's facts (static, keeps its keys), as the library reads them: a new static
// type joins the choice here too. A named type is always the one used.
import { readFileSync } from 'node:fs';
import { DEFAULT_FILTER_TYPES, FILTER_TYPES, parseList, UrlBlocklist, init } from 'cuckoo-bloom-wasm';
import { prng } from '../helpers/keys.mjs';
import { codeOf } from '../helpers/filter-errors.mjs';

const ROOT = new URL('../../', import.meta.url);
const URLHAUS = readFileSync(new URL('web-demo/data/urlhaus-filter-online.txt', ROOT), 'utf8');

beforeAll(() => init());

const staticTypes = () => FILTER_TYPES.filter((entry) => entry.isStatic && !entry.forgets);


/** `count` distinct hosts and URLs, some with paths (deeper expressions), from a fixed seed. */
function syntheticList(count, seed) {
  const random = prng(seed);
  const lines = new Set();
  while (lines.size < count) {
    const host = `h${Math.floor(random() * 2 ** 32).toString(36)}.example`;
    lines.add(random() < 0.4 ? `${host}/login/${Math.floor(random() * 1000)}/verify.php` : host);
  }
  return [...lines];
}

const LISTS = [
  ['URLhaus (web-demo/data) at the default 0.001 per URL', () => URLHAUS, undefined],
  ['13,752 entries at a phishing list’s 0.0007 per URL', () => syntheticList(13_752, 45), 0.0007],
  ['1,000 entries at 0.01 per URL', () => syntheticList(1_000, 7), 0.01],
  ['20 entries at 0.001 per URL', () => syntheticList(20, 3), undefined],
];

describe.each(LISTS)('%s', (_name, makeList, falsePositiveRate) => {
  const rate = falsePositiveRate === undefined ? {} : { falsePositiveRate };

  test('the default build is at most the size of each static type built explicitly, and answers every entry', () => {
    const list = makeList();
    const candidates = staticTypes();
    // A choice needs more than one static type: if the registry had one, this test would pin nothing.
    expect(candidates.length).toBeGreaterThan(1);
    const chosen = UrlBlocklist.build(list, rate);
    const bytes = chosen.serialize();
    const sizes = {};
    for (const entry of candidates) {
      const named = UrlBlocklist.build(list, { ...rate, type: entry.name });
      expect(named.type).toBe(entry.name);
      sizes[entry.name] = named.serialize().length;
      expect(bytes.length).toBeLessThanOrEqual(sizes[entry.name]);
      // The chosen type built by name is the same bytes: the choice adds nothing and is deterministic.
      if (entry.name === chosen.type) expect(named.serialize()).toEqual(bytes);
      named.free();
    }
    expect(bytes.length).toBe(Math.min(...Object.values(sizes)));
    expect(candidates.map((entry) => entry.name)).toContain(chosen.type);
    // The choice is said, with each candidate's filter bytes (the envelope around them is the same for all).
    const choice = chosen.report.typeChoice;
    expect(choice.chosen).toBe(chosen.type);
    expect(choice.candidates.map((c) => c.type)).toEqual(candidates.map((entry) => entry.name));
    const envelope = bytes.length - choice.candidates.find((c) => c.type === chosen.type).bytes;
    for (const candidate of choice.candidates) expect(candidate.bytes + envelope).toBe(sizes[candidate.type]);
    // 0 false negatives: every expression of the list, and every listed line as a URL.
    const { entries } = parseList(typeof list === 'string' ? list : list.join('\n'));
    expect(entries.length).toBe(chosen.entryCount);
    const missed = entries.filter((expression) => !chosen.filter.has(expression));
    expect(missed).toEqual([]);
    const unmatched = entries.filter((expression) => chosen.match(`http://${expression}`) === null);
    expect(unmatched).toEqual([]);
    // Read back, the bytes give the same type and the same answers.
    const read = UrlBlocklist.deserialize(bytes);
    expect(read.type).toBe(chosen.type);
    expect(entries.filter((expression) => !read.filter.has(expression))).toEqual([]);
    read.free();
    chosen.free();
  });
});

test('the same list and options choose the same type and bytes every time', () => {
  const first = UrlBlocklist.build(URLHAUS);
  const second = UrlBlocklist.build(URLHAUS, { type: DEFAULT_FILTER_TYPES.list });
  expect(second.type).toBe(first.type);
  expect(second.serialize()).toEqual(first.serialize());
  expect(second.report.typeChoice).toEqual(first.report.typeChoice);
  first.free();
  second.free();
});

test('a named type is used as named, even when another static type is smaller', () => {
  const list = syntheticList(2_000, 11);
  const chosen = UrlBlocklist.build(list);
  for (const entry of staticTypes().filter((type) => type.name !== chosen.type)) {
    const named = UrlBlocklist.build(list, { type: entry.name });
    expect(named.type).toBe(entry.name);
    expect(named.report.typeChoice).toBeUndefined();
    named.free();
  }
  chosen.free();
});

test('an option only some static types take narrows the choice to them; one none takes is refused', () => {
  const list = syntheticList(500, 5);
  const takers = staticTypes().filter((entry) => entry.extraOptions.includes('fingerprintBits'));
  expect(takers.length).toBeGreaterThan(0);
  const narrowed = UrlBlocklist.build(list, { fingerprintBits: 12 });
  expect(takers.map((entry) => entry.name)).toContain(narrowed.type);
  expect(narrowed.report.typeChoice.candidates.map((c) => c.type)).toEqual(takers.map((entry) => entry.name));
  narrowed.free();
  // bucketSize is a cuckoo option: no static type takes it, and nothing is dropped to make one fit.
  expect(staticTypes().some((entry) => entry.extraOptions.includes('bucketSize'))).toBe(false);
  expect(codeOf(() => UrlBlocklist.build(list, { bucketSize: 4 }))).toBe('INVALID_ARGUMENT');
  expect(() => UrlBlocklist.build(list, { bucketSize: 4 })).toThrow(/no static filter type takes 'bucketSize'.*'cuckoo'/);
});

test('the default is sized by its entries (no capacity), and create cannot take it', () => {
  expect(codeOf(() => UrlBlocklist.build(['bad.example'], { capacity: 10 }))).toBe('INVALID_ARGUMENT');
  expect(() => UrlBlocklist.build(['bad.example'], { capacity: 10 })).toThrow(/sized by its entries/);
  expect(codeOf(() => UrlBlocklist.create({ capacity: 10, type: DEFAULT_FILTER_TYPES.list }))).toBe('UNSUPPORTED');
});

test('an empty list builds in the smallest static type too', () => {
  const empty = UrlBlocklist.build('');
  expect(staticTypes().map((entry) => entry.name)).toContain(empty.type);
  expect(empty.entryCount).toBe(0);
  expect(empty.match('https://example.org/')).toBeNull();
  empty.free();
});
