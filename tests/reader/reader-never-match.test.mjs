// `cuckoo-bloom-wasm/reader` honours a blocklist's exception set (type 16
// scheme 3, bindings/reader.cpp cbw_reader_first_hit): for the same bytes it
// gives the full package's answers, so a never-match host or a public suffix
// is not a hit in a page either, and no listed entry is missed.
import { readFileSync } from 'node:fs';
import * as full from 'cuckoo-bloom-wasm';
import { prng } from '../helpers/keys.mjs';

const ROOT = new URL('../../', import.meta.url);
const reader = await import(new URL('dist/reader.import.cjs', ROOT).href);
const URLHAUS = readFileSync(new URL('web-demo/data/urlhaus-filter-online.txt', ROOT), 'utf8');
const LISTED = full.parseList(URLHAUS).entries;

const random = prng(2029);
const label = () => Math.floor(random() * 2 ** 32).toString(36);
const HOSTS = Array.from({ length: 5000 }, (_, i) => `${label()}.${['com', 'net', 'co.jp', 'now.sh'][i % 4]}`);
const SUFFIXES = ['co.jp', 'now.sh', 'gob.cl', 'net.uy', 'github.io', 'com', 'jp'];

let list;
let bytes;
beforeAll(async () => {
  await full.init();
  await reader.init();
  list = full.UrlBlocklist.build(URLHAUS, { type: 'bloom', falsePositiveRate: 0.2, neverMatch: [...SUFFIXES, ...HOSTS] });
  bytes = list.serialize();
});
afterAll(() => list.free());

test('the reader reads the exceptions and answers as the full package, on every never-match host and listed entry', () => {
  const read = reader.UrlBlocklistReader.deserialize(bytes);
  try {
    expect(list.exceptionCount).toBeGreaterThan(10);
    expect(read.exceptionCount).toBe(list.exceptionCount);
    expect(read.exceptionBytes).toBe(list.exceptionBytes);
    for (const host of [...SUFFIXES, ...HOSTS]) {
      const url = `http://${host}/`;
      expect(read.check(url)).toEqual(list.check(url));
      expect(read.match(url)).toBeNull();
    }
    for (const entry of LISTED) expect(read.match(`http://${entry}`)).not.toBeNull();
  } finally {
    read.free();
  }
});

test('with the companion attached, a reported expression the companion does not hold goes on to the next', () => {
  // A URL whose first reported expression is a false positive and a later one is listed:
  // the check must not stop at the first. Found among listed hosts with a random subdomain and path.
  const companion = list.confirmation();
  const read = reader.UrlBlocklistReader.deserialize(bytes);
  try {
    read.attachConfirmation(companion);
    list.attachConfirmation(companion);
    let continued = 0;
    // Listed whole hosts (names, not IP addresses: those take no subdomain).
    const hosts = LISTED.filter((entry) => /^[^/]*[a-z][^/.]*\/$/.test(entry));
    for (let i = 0; i < 4000 && continued < 3; i++) {
      const url = `http://${label()}.${hosts[i % hosts.length]}${label()}/${label()}.html`;
      const result = read.check(url);
      expect(result).toEqual(list.check(url));
      expect(result.verdict).toBe('listed');
      // The filter reported an expression before the listed one: the check went on past it.
      const at = result.expressions.indexOf(result.match);
      if (result.expressions.slice(0, at).some((expression) => list.filter.has(expression))) continued++;
    }
    expect(continued).toBeGreaterThan(0);
  } finally {
    read.free();
  }
});
