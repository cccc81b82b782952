// The issue's floor for confirmed verdicts (#28): with the exact companion, 0 of
// 1,000,000 benign URLs are reported `listed`, through the real `check` path.
//
// The list is URLhaus (web-demo/data), built at 20% per URL so that the filter
// says "maybe" for many of the URLs (14,863: the rate is per URL at the
// list's deepest entries, 8 labels and 6 directories, 72 lookups; these URLs
// make 3 to 30, so fewer are reported than 20%): each of those must be
// ruled out by the companion (`clear`, confirmedBy 'exact-set'), which a
// companion that confirmed anything would fail at once. A wrong `listed` needs
// a 64-bit hash collision between one of a URL's expressions and one of the
// list's ~6,000: about 30 x 6,000 / 2^64 per URL, 1e-11 over the whole run.
// URLs are random labels under common TLDs (fixed seed: the same URLs on every
// run); one is benign when none of its expressions is in the list (checked
// against the list's text, not the code under test).
import { readFileSync } from 'node:fs';
import { init, parseList, UrlBlocklist } from 'cuckoo-bloom-wasm';
import { prng } from '../helpers/keys.mjs';

const URLHAUS = readFileSync(new URL('../../web-demo/data/urlhaus-filter-online.txt', import.meta.url), 'utf8');
const LISTED = new Set(parseList(URLHAUS).entries);
const URLS = 1_000_000;
const CHUNKS = 4;
const TLDS = ['com', 'net', 'org', 'de', 'ru', 'co.uk', 'co.jp', 'com.br', 'io', 'info'];

let list;
const totals = { listed: 0, listedBenign: 0, possible: 0, clear: 0, ruledOut: 0 };
beforeAll(async () => {
  await init();
  const built = UrlBlocklist.build(URLHAUS, { falsePositiveRate: 0.2 });
  list = UrlBlocklist.deserialize(built.serialize());
  list.attachConfirmation(built.confirmation());
  built.free();
});
afterAll(() => list?.free());

describe.each(Array.from({ length: CHUNKS }, (_, chunk) => [chunk]))('benign URLs, chunk %i', (chunk) => {
  test(`${URLS / CHUNKS} random URLs: none listed, every maybe of the filter ruled out`, () => {
    const random = prng(0x8e9190 + chunk);
    const label = () => Math.floor(random() * 2 ** 32).toString(36);
    for (let i = 0; i < URLS / CHUNKS; i++) {
      const depth = i % 4;
      let host = `${label()}.${TLDS[i % TLDS.length]}`;
      for (let d = 0; d < depth; d++) host = `${label()}.${host}`;
      const path = Array.from({ length: (i >> 2) % 4 }, label).join('/');
      const result = list.check(`http://${host}/${path}${i % 3 === 0 ? `?id=${label()}` : ''}`);
      totals[result.verdict]++;
      if (result.verdict === 'clear' && result.confirmedBy === 'exact-set') totals.ruledOut++;
      if (result.verdict === 'listed' && !result.expressions.some((expression) => LISTED.has(expression))) totals.listedBenign++;
    }
    expect(totals.possible).toBe(0); // a companion is attached: never "possible"
    expect(totals.listedBenign).toBe(0);
  });
});

test('over all 1,000,000: 0 benign URLs listed; the filter said maybe often, the companion cleared each', () => {
  expect(totals.listed + totals.clear).toBe(URLS);
  expect(totals.listedBenign).toBe(0);
  // Random labels never hit URLhaus's hosts: every URL is benign, and none is listed.
  expect(totals.listed).toBe(0);
  // Measured: 14,863 maybes (1,896 when built at 2%): the companion was asked, and said no, each time.
  expect(totals.ruledOut).toBeGreaterThan(10_000);
  process.stdout.write(`benign URLs: ${JSON.stringify(totals)}\n`);
});
