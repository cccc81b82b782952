// Time per URL of UrlBlocklist#check: the one-pass path (parse once, the
// expressions checked in one wasm crossing, js/src/url/check-url.ts) beside
// the path before it, kept here only to measure against: canonicalizeUrl and
// the expressions each parse the URL, and the filter is asked once per
// expression (a crossing each) until the first hit.
//
//   node bench/url-check.mjs [--urls 100000] [--repeats 7] [--type bloom]
//
// ~100k URLs, half URLhaus-like (listed hosts and URLs with other paths and
// queries), half benign (random hosts and paths, a fixed seed). One process;
// the two paths take turns, repeat by repeat (which goes first alternates), so
// drift and warm-up hit both alike. Prints each repeat's ns per URL and the
// median ratio. Both paths must agree on every URL (else exit 1).
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { canonicalizeUrl, init, parseList, UrlBlocklist, urlExpressions } from '../dist/index.js';
import { rng } from './keys.mjs';

const { values } = parseArgs({
  options: { urls: { type: 'string', default: '100000' }, repeats: { type: 'string', default: '7' }, type: { type: 'string', default: 'bloom' } },
});
const URL_COUNT = Number(values.urls);
const REPEATS = Number(values.repeats);

await init();
const root = new URL('../', import.meta.url);
const listText = readFileSync(new URL('web-demo/data/urlhaus-filter-online.txt', root), 'utf8');
// Entries within Safe Browsing's depths, and one at exactly 5 labels and 3
// directories: the list is checked to (5, 3), as urlExpressions forms them,
// so both paths look up the same expressions.
const entries = parseList(listText).entries.filter((entry) => {
  const slash = entry.indexOf('/');
  const labels = entry.slice(0, slash).split('.').length;
  const path = entry.slice(slash);
  const dirs = path.endsWith('/') ? path.split('/').length - 2 : 0;
  return labels <= 5 && dirs <= 3;
});
entries.push('a.b.c.d.example/x/y/z/');
const list = UrlBlocklist.build(entries, { type: values.type, format: 'plain', falsePositiveRate: 0.01 });
if (list.expressionDepth.hostLabels !== 5 || list.expressionDepth.pathDepth !== 3) throw new Error('the bench list is not at depth (5, 3)');

const random = rng(20281);
const word = () => Math.floor(random() * 2 ** 32).toString(36);
const tlds = ['com', 'net', 'org', 'de', 'co.uk', 'co.jp', 'io'];
const urls = [];
for (let i = 0; urls.length < URL_COUNT; i++) {
  let url;
  if (i % 2 === 0) {
    const entry = entries[Math.floor(random() * entries.length)];
    const host = entry.slice(0, entry.indexOf('/'));
    url = random() < 0.5 ? `http://${entry}` : `https://${/^[0-9.]+$/.test(host) ? '' : 'www.'}${host}/${word()}/${word()}.php?id=${i}`;
  } else {
    url = `https://${word()}.${word()}.${tlds[i % tlds.length]}/${word()}/${word()}/p.html?q=${i}`;
  }
  try {
    canonicalizeUrl(url);
    urls.push(url);
  } catch {
    // an entry that is no URL's (rare): skipped
  }
}

/** The path before: two parses and a crossing per expression. */
function checkBefore(url) {
  const canonical = canonicalizeUrl(url);
  const expressions = urlExpressions(url);
  const filter = list.filter;
  for (const expression of expressions) if (filter.has(expression)) return { canonical, match: expression };
  return { canonical, match: null };
}
const checkNow = (url) => list.check(url);

// Same answers first (and a warm-up of both).
let disagree = 0;
let hits = 0;
for (const url of urls) {
  const before = checkBefore(url);
  const now = checkNow(url);
  if (before.match !== now.match || before.canonical !== now.canonical) disagree++;
  if (now.match !== null) hits++;
}
if (disagree > 0) {
  console.error(`url-check: the two paths disagree on ${disagree} URL(s)`);
  process.exit(1);
}

function timePerUrl(check) {
  let sink = 0;
  const start = process.hrtime.bigint();
  for (const url of urls) if (check(url).match !== null) sink++;
  const ns = Number(process.hrtime.bigint() - start);
  if (sink !== hits) throw new Error('a path changed its answers');
  return ns / urls.length;
}

const rows = [];
for (let r = 0; r < REPEATS; r++) {
  const order = r % 2 === 0 ? ['before', 'now'] : ['now', 'before'];
  const row = {};
  for (const name of order) row[name] = timePerUrl(name === 'now' ? checkNow : checkBefore);
  rows.push(row);
  console.log(`repeat ${r + 1}: before ${row.before.toFixed(0)} ns/URL, one pass ${row.now.toFixed(0)} ns/URL (ratio ${(row.before / row.now).toFixed(2)})`);
}
const median = (values) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)];
const before = median(rows.map((row) => row.before));
const now = median(rows.map((row) => row.now));
const ratio = median(rows.map((row) => row.before / row.now));
console.log(
  `url-check (${values.type}, ${list.entryCount} entries, ${urls.length} URLs, ${hits} with a match, ${list.lookupsPerUrl} lookups per URL at most): ` +
    `before ${before.toFixed(0)} ns/URL, one pass ${now.toFixed(0)} ns/URL: ${ratio.toFixed(2)}x (median of ${REPEATS} interleaved repeats)`,
);
list.free();
