// Bytes a "maybe" costs with the companion split by hash prefix (#42,
// docs/URL-BLOCKLISTS.md "Confirming in parts") beside the whole companion,
// and what the split costs in all (parts + index over the whole):
//
//   node bench/companion-parts.mjs [--sizes 10000,100000] [--urls 1000]
//
// For each list size N (entries `site-<i>.example/x<i % 97>/`, one expression
// each) and URLhaus: the whole companion's bytes, the parts (count, largest,
// mean), the index, the split over the whole; then, from nothing loaded,
// `--urls` listed URLs and as many benign URLs the filter says "maybe" for
// (fixed seed), each confirmed by `await list.confirm(url)` on a freshly
// attached index: bytes fetched per confirmation (median, p99, max) and as a
// share of the whole companion (what a "maybe" fetched before). Every verdict
// is checked against the whole companion's (else exit 1).
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { init, splitConfirmation, UrlBlocklist } from '../dist/index.js';
import { rng } from './keys.mjs';

const { values } = parseArgs({
  options: { sizes: { type: 'string', default: '10000,100000' }, urls: { type: 'string', default: '1000' } },
});
const SIZES = values.sizes.split(',').map(Number);
const URLS = Number(values.urls);

await init();
const urlhaus = readFileSync(new URL('../web-demo/data/urlhaus-filter-online.txt', import.meta.url), 'utf8');

const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];

async function measure(name, text, listedUrls) {
  const built = UrlBlocklist.build(text, { falsePositiveRate: 0.05 });
  const whole = built.confirmation();
  built.attachConfirmation(whole);
  const { index, parts } = splitConfirmation(whole);
  const sizes = parts.map((part) => part.length);
  const total = index.length + sizes.reduce((a, b) => a + b, 0);
  const list = UrlBlocklist.deserialize(built.serialize());
  const random = rng(0xc0ff);
  const label = () => Math.floor(random() * 2 ** 32).toString(36);
  const maybes = [];
  for (let i = 0; maybes.length < URLS && i < URLS * 1000; i++) {
    const url = `https://${label()}.${label()}.test/${label()}/`;
    if (list.check(url).verdict === 'possible') maybes.push(url);
  }
  const fetchedFor = async (urls) => {
    const bytes = [];
    for (const url of urls) {
      let served = 0;
      list.attachConfirmationParts(index, async (part) => {
        served += parts[part].length;
        return parts[part];
      });
      const got = await list.confirm(url);
      const expected = built.check(url);
      if (got.verdict !== expected.verdict || got.match !== expected.match) {
        console.error(`bench: ${name}: ${url} is ${got.verdict} with parts, ${expected.verdict} with the whole companion`);
        process.exit(1);
      }
      bytes.push(served);
    }
    return bytes.sort((a, b) => a - b);
  };
  const listed = await fetchedFor(listedUrls);
  const cleared = await fetchedFor(maybes);
  list.free();
  built.free();
  const row = (what, sorted) =>
    `| ${name} | ${what} (${sorted.length}) | ${quantile(sorted, 0.5)} | ${quantile(sorted, 0.99)} | ${sorted[sorted.length - 1]} | ` +
    `${(quantile(sorted, 0.5) / whole.length).toFixed(4)} |`;
  return {
    split: `| ${name} | ${whole.length} | ${parts.length} | ${Math.max(...sizes)} | ${Math.round(sizes.reduce((a, b) => a + b, 0) / parts.length)} | ${index.length} | ${(total / whole.length).toFixed(4)} |`,
    fetched: [row('listed', listed), row('false positive', cleared)],
  };
}

const results = [];
for (const size of SIZES) {
  const entries = Array.from({ length: size }, (_, i) => `http://site-${i.toString(36)}.example/x${i % 97}/`);
  const pick = rng(size);
  const listed = Array.from({ length: Math.min(URLS, size) }, () => entries[Math.floor(pick() * size)]);
  results.push(await measure(`N = ${size.toLocaleString('en-US')}`, entries.join('\n'), listed));
}
const hosts = urlhaus.split('\n').filter((line) => /^[0-9a-z]/i.test(line)).slice(0, URLS).map((line) => `http://${line.trim()}/`);
results.push(await measure('URLhaus', urlhaus, hosts));

console.log('| list | whole companion (bytes) | parts | largest part | mean part | index | split / whole |');
console.log('| --- | --- | --- | --- | --- | --- | --- |');
for (const result of results) console.log(result.split);
console.log('\n| list | URLs confirmed from nothing loaded | bytes fetched, median | p99 | max | median / whole companion |');
console.log('| --- | --- | --- | --- | --- | --- |');
for (const result of results) for (const line of result.fetched) console.log(line);
