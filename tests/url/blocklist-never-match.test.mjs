// Hot expressions never hit (#28): a blocklist built with `neverMatch` stores,
// in its own bytes (type 16 scheme 3), the hashes of the never-match
// expressions its filter reports; a check that hits one of them is a miss.
// Built from a real list (URLhaus, web-demo/data) in four types, with the
// whole Public Suffix List and 10,000 generated hosts as never-match: none of
// their expressions is flagged, no listed entry is missed, a never-match entry
// that is listed is still found. The same build without the exception set
// flags 55-83 of them (checked below: the test can fail).
import { readFileSync } from 'node:fs';
import { domainToASCII } from 'node:url';
import { parseList, UrlBlocklist, init } from 'cuckoo-bloom-wasm';
import { prng } from '../helpers/keys.mjs';

const ROOT = new URL('../../', import.meta.url);
const URLHAUS = readFileSync(new URL('web-demo/data/urlhaus-filter-online.txt', ROOT), 'utf8');
const LISTED = parseList(URLHAUS).entries;
const LISTED_SET = new Set(LISTED);
const GOLDEN = readFileSync(new URL('tests/golden/url-blocklist-exceptions.cbf', ROOT));

/** Every public suffix of the PSL (psl's data file), as the CLI reads it (cli/build-command/build-public-suffix.ts). */
function publicSuffixes() {
  const text = readFileSync(new URL('node_modules/psl/data/rules.js', ROOT), 'utf8');
  const rules = JSON.parse(text.slice(text.indexOf('['), text.lastIndexOf(']') + 1));
  const out = new Set();
  for (const rule of rules) {
    if (rule.startsWith('!')) continue;
    const suffix = domainToASCII(rule.startsWith('*.') ? rule.slice(2) : rule);
    if (suffix !== '') out.add(suffix);
  }
  return [...out];
}

/** 10,000 hosts of 2 to 4 labels that the list does not hold (a fixed seed). */
function generatedHosts(count, seed) {
  const random = prng(seed);
  const label = () => Math.floor(random() * 2 ** 32).toString(36);
  const tlds = ['com', 'net', 'org', 'de', 'co.uk', 'co.jp', 'io', 'fr'];
  return Array.from({ length: count }, (_, i) => {
    const labels = 1 + (i % 3);
    return [...Array.from({ length: labels }, label), tlds[i % tlds.length]].join('.');
  });
}

const SUFFIXES = publicSuffixes();
const HOSTS = generatedHosts(10_000, 28);
// Listed entries given as never-match too: the list wins.
const LISTED_HOSTS = LISTED.filter((entry) => entry.endsWith('/') && entry.indexOf('/') === entry.length - 1).slice(0, 3);
const NEVER_MATCH = [...SUFFIXES, ...HOSTS, ...LISTED_HOSTS.map((entry) => entry.slice(0, -1))];
// A high per-URL rate (20%) so that, unguarded, the filter flags many of them.
const RATE = 0.2;
const TYPES = ['bloom', 'blocked-bloom', 'cuckoo', 'binary-fuse'];

beforeAll(() => init());

/** The never-match hosts a list flags (match not null), and those it flags through an unlisted expression. */
function flagged(list, hosts) {
  const out = [];
  for (const host of hosts) {
    const match = list.match(`http://${host}/`);
    if (match !== null && !LISTED_SET.has(match)) out.push(`${host} -> ${match}`);
  }
  return out;
}

test('the fixtures are what the test needs', () => {
  expect(SUFFIXES.length).toBeGreaterThan(9000);
  expect(SUFFIXES).toEqual(expect.arrayContaining(['co.jp', 'now.sh', 'gob.cl', 'github.io', 'xn--55qx5d.cn']));
  expect(new Set(HOSTS).size).toBe(HOSTS.length);
  expect(LISTED_HOSTS).toHaveLength(3);
});

describe.each(TYPES)('%s', (type) => {
  let list;
  beforeAll(() => {
    list = UrlBlocklist.build(URLHAUS, { type, falsePositiveRate: RATE, neverMatch: NEVER_MATCH });
  });
  afterAll(() => list.free());

  test('no public suffix and no never-match host is flagged; the report says what it cost', () => {
    expect(flagged(list, SUFFIXES)).toEqual([]);
    expect(flagged(list, HOSTS)).toEqual([]);
    // Under a suffix: never flagged through the suffix's own expression.
    for (const [host, suffix] of [['www.google.co.jp', 'co.jp/'], ['www.yahoo.co.jp', 'co.jp/'], ['x.now.sh', 'now.sh/']]) {
      const { expressions, match } = list.check(`https://${host}/`);
      expect(expressions).toContain(suffix);
      expect(match).not.toBe(suffix);
    }
    const report = list.report.neverMatch;
    expect(report.entries).toBe(NEVER_MATCH.length);
    expect(report.exceptions).toBe(list.exceptionCount);
    expect(report.exceptions).toBeGreaterThan(30);
    expect(report.exceptionBytes).toBe(list.exceptionBytes);
    // Rice-coded 64-bit hashes: about log2(2^64 / n) + 2 bits each, plus the 64-byte header and 24 parameters.
    expect(report.exceptionBytes).toBeLessThan(88 + report.exceptions * 8);
  });

  test('no listed entry is missed, and a listed never-match entry is still found', () => {
    for (const entry of LISTED) expect(list.match(`http://${entry}`)).not.toBeNull();
    for (const entry of LISTED_HOSTS) {
      expect(list.match(`http://${entry}`)).toBe(entry);
      expect(list.report.neverMatch.listed).toContainEqual({ entry: entry.slice(0, -1), expression: entry });
    }
  });

  test('the exceptions travel in the bytes: read back (full package), same answers and the same bytes', () => {
    const bytes = list.serialize();
    expect(bytes[56]).toBe(3); // expression scheme 3: old readers refuse it (UNSUPPORTED_VERSION)
    const read = UrlBlocklist.deserialize(bytes);
    try {
      expect(read.exceptionCount).toBe(list.exceptionCount);
      expect(flagged(read, SUFFIXES)).toEqual([]);
      expect(flagged(read, HOSTS.slice(0, 2000))).toEqual([]);
      for (const entry of LISTED) expect(read.match(`http://${entry}`)).not.toBeNull();
      expect(Buffer.from(read.serialize()).equals(Buffer.from(bytes))).toBe(true);
    } finally {
      read.free();
    }
  });

  test('without the exception set the same filter flags never-match hosts (what the set prevents)', () => {
    const bare = UrlBlocklist.build(URLHAUS, { type, falsePositiveRate: RATE });
    try {
      expect(bare.exceptionCount).toBe(0);
      expect(bare.serialize()[56]).toBe(2);
      // Measured 55 (cuckoo) to 83 (bloom) of the 19,771 with these seeds.
      const unguarded = flagged(bare, SUFFIXES).length + flagged(bare, HOSTS).length;
      expect(unguarded).toBeGreaterThan(30);
    } finally {
      bare.free();
    }
  });
});

test('an entry added later that is an exception leaves the set: listed wins, never a false negative', () => {
  const list = UrlBlocklist.build(URLHAUS, { type: 'bloom', falsePositiveRate: RATE, neverMatch: HOSTS });
  try {
    const excepted = HOSTS.find((host) => list.filter.has(`${host}/`) && !LISTED_SET.has(`${host}/`));
    expect(excepted).toBeDefined();
    expect(list.match(`http://${excepted}/`)).toBeNull();
    const before = list.exceptionCount;
    list.addLine(excepted);
    expect(list.exceptionCount).toBe(before - 1);
    expect(list.match(`http://${excepted}/`)).toBe(`${excepted}/`);
    const read = UrlBlocklist.deserialize(list.serialize());
    expect(read.match(`http://${excepted}/`)).toBe(`${excepted}/`);
    read.free();
  } finally {
    list.free();
  }
});

// addLine lifts a never-match exception (listed wins); removeLine of that
// line puts it back, so the no-longer-listed expression is not a hit again
// (adversarial report: it matched again without the companion).
test.each(['cuckoo', 'counting', 'scalable-cuckoo'])('%s: removeLine of a line that lifted an exception restores it', (type) => {
  const list = UrlBlocklist.build(URLHAUS, { type, falsePositiveRate: RATE, neverMatch: HOSTS });
  try {
    const excepted = HOSTS.find((host) => list.filter.has(`${host}/`) && !LISTED_SET.has(`${host}/`));
    expect(excepted).toBeDefined();
    const before = list.exceptionCount;
    list.addLine(excepted);
    expect(list.exceptionCount).toBe(before - 1);
    list.removeLine(excepted);
    expect(list.exceptionCount).toBe(before);
    expect(list.hasConfirmation).toBe(false);
    expect(list.match(`http://${excepted}/`)).toBeNull();
    const read = UrlBlocklist.deserialize(list.serialize());
    expect(read.match(`http://${excepted}/`)).toBeNull();
    read.free();
  } finally {
    list.free();
  }
});

test('the golden file (tests/golden/url-blocklist-exceptions.cbf, scheme 3) reads and writes back the same bytes', () => {
  const list = UrlBlocklist.deserialize(GOLDEN);
  try {
    expect(list.exceptionCount).toBe(2);
    expect(list.match('http://www.evil.example/x')).toBe('evil.example/');
    expect(list.match('http://bad.example/dl/x.exe')).toBe('bad.example/dl/x.exe');
    expect(Buffer.from(list.serialize()).equals(GOLDEN)).toBe(true);
  } finally {
    list.free();
  }
});

test('bad never-match input is a FilterError naming the entry; create and lists read from bytes refuse it', () => {
  const refused = (code, message) => expect.objectContaining({ name: 'FilterError', code, message: expect.stringMatching(message) });
  expect(() => UrlBlocklist.build('evil.example', { type: 'bloom', neverMatch: ['good.example', 'not a host'] })).toThrow(
    refused('INVALID_ARGUMENT', /neverMatch entry 2 \("not a host"\) is not a host or URL/),
  );
  expect(() => UrlBlocklist.build('evil.example', { neverMatch: 'co.jp' })).toThrow(refused('INVALID_ARGUMENT', /iterable of hosts/));
  expect(() => UrlBlocklist.create({ capacity: 10, neverMatch: [] })).toThrow(refused('INVALID_ARGUMENT', /guardNeverMatch/));
  const read = UrlBlocklist.deserialize(GOLDEN);
  expect(() => read.guardNeverMatch(['co.jp'])).toThrow(refused('UNSUPPORTED', /does not know its expressions/));
  read.free();
});
