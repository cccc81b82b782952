// A blocklist checks URLs as deep as its own entries reach: a listed host
// matches all its subdomains and a listed directory every file under it,
// however many labels or levels, and a list of shallow entries is checked
// with fewer lookups than Safe Browsing's fixed 5 hosts × 6 paths.
import { readFileSync } from 'node:fs';
import { init, parseListLine, UrlBlocklist, urlExpressions } from 'cuckoo-bloom-wasm';
import { prng, randomInt } from '../helpers/keys.mjs';

beforeAll(() => init());

const URLHAUS = new URL('../../web-demo/data/urlhaus-filter-online.txt', import.meta.url);

test('a host of 6+ labels matches its subdomains; a directory 5 deep matches files under it', () => {
  const list = UrlBlocklist.build(
    ['msoftdatastore.z22.web.core.windows.net', '||dl.example/a/b/c/d/e/^', 'plain.example/exact/file.exe'].join('\n'),
  );
  expect(list.expressionDepth).toEqual({ hostLabels: 6, pathDepth: 5 });
  expect(list.match('https://www.msoftdatastore.z22.web.core.windows.net/x')).toBe('msoftdatastore.z22.web.core.windows.net/');
  expect(list.match('http://dl.example/a/b/c/d/e/x.exe')).toBe('dl.example/a/b/c/d/e/');
  expect(list.match('http://cdn.dl.example/a/b/c/d/e/f/g/h.bin?x=1')).toBe('dl.example/a/b/c/d/e/');
  expect(list.match('http://plain.example/exact/file.exe')).toBe('plain.example/exact/file.exe');
  // Not listed: a sibling directory, a parent, another file, a different host.
  for (const url of ['http://dl.example/a/b/c/d/x.exe', 'http://dl.example/a/b/c/d/f/x', 'http://plain.example/exact/other.exe', 'http://windows.net/']) {
    expect(list.check(url).match).toBeNull();
  }
  list.free();
});

test('the depth travels in the bytes, and shallow lists check fewer expressions', () => {
  const list = UrlBlocklist.build('evil.example\nbad.example/dl/', { type: 'bloom', capacity: 100 });
  expect(list.expressionDepth).toEqual({ hostLabels: 2, pathDepth: 1 });
  const url = 'http://a.b.c.d.evil.example/dl/x/y/z/file.exe?q=1';
  const checked = list.check(url).expressions;
  // Exact host and the 2-label suffix × exact path with and without query, "/", "/dl/".
  expect(checked).toEqual([
    'a.b.c.d.evil.example/dl/x/y/z/file.exe?q=1',
    'a.b.c.d.evil.example/dl/x/y/z/file.exe',
    'a.b.c.d.evil.example/',
    'a.b.c.d.evil.example/dl/',
    'evil.example/dl/x/y/z/file.exe?q=1',
    'evil.example/dl/x/y/z/file.exe',
    'evil.example/',
    'evil.example/dl/',
  ]);
  expect(checked.length).toBeLessThan(urlExpressions(url).length);
  const read = UrlBlocklist.deserialize(list.serialize());
  expect(read.expressionDepth).toEqual({ hostLabels: 2, pathDepth: 1 });
  expect(read.check(url)).toEqual(list.check(url));
  // Lines added later deepen the check.
  list.addLine('||x.y.z.deep.example/1/2/3/4/5/6/^');
  expect(list.expressionDepth).toEqual({ hostLabels: 5, pathDepth: 6 });
  expect(list.match('http://w.x.y.z.deep.example/1/2/3/4/5/6/7/f')).toBe('x.y.z.deep.example/1/2/3/4/5/6/');
  for (const filter of [list, read]) filter.free();
});

test('URLhaus: every entry matches from a subdomain and from deeper paths; unlisted URLs match at most at the per-expression rate × lookups', () => {
  const text = readFileSync(URLHAUS, 'utf8');
  const rate = 0.001;
  const list = UrlBlocklist.build(text, { falsePositiveRate: rate });
  const entries = [];
  for (const line of text.split(/\r?\n/)) {
    const parsed = parseListLine(line);
    if (parsed.kind === 'entry') entries.push(...parsed.expressions);
  }
  expect(entries.length).toBeGreaterThan(1000);
  let misses = 0;
  let checkedUrls = 0;
  for (const entry of entries) {
    const slash = entry.indexOf('/');
    const host = entry.slice(0, slash);
    const path = entry.slice(slash);
    const isIp = /^\d+\.\d+\.\d+\.\d+$/.test(host) || host.startsWith('[');
    const hosts = isIp ? [host] : [host, `sub.${host}`, `a.b.c.${host}`];
    const paths = path.endsWith('/') && !path.includes('?') ? [path, `${path}x/y/z/payload.exe`, `${path}deeper/`] : [path];
    for (const h of hosts) {
      for (const p of paths) {
        checkedUrls++;
        if (list.match(`http://${h}${p}`) === null) misses++;
      }
    }
  }
  expect(checkedUrls).toBeGreaterThan(entries.length);
  expect(misses).toBe(0);

  // Unlisted URLs: the expected number of matches is at most Σ rate × lookups
  // (union bound); allow 4 standard deviations of a Poisson count above it.
  const random = prng(20261123);
  let lookups = 0;
  let flagged = 0;
  const trials = 20000;
  for (let i = 0; i < trials; i++) {
    const labels = 2 + randomInt(random, 5);
    const host = Array.from({ length: labels }, () => `u${randomInt(random, 1e9).toString(36)}`).join('.');
    const depth = randomInt(random, 6);
    const path = `/${Array.from({ length: depth }, () => `d${randomInt(random, 1e6)}`).join('/')}${depth ? '/' : ''}f${i}.html`;
    const check = list.check(`https://${host}${path}?q=${i}`);
    lookups += check.expressions.length;
    if (check.match !== null) flagged++;
  }
  const bound = rate * lookups;
  expect(flagged).toBeLessThanOrEqual(bound + 4 * Math.sqrt(bound) + 1);
  list.free();
}, 120000);
