// canonicalizeUrl gives the same answer in Chromium as in Node: the built
// browser bundle (dist/browser.js) runs in headless Chromium on the shared
// vectors (tests/url/fixtures/sb-vectors.json: the published Safe Browsing
// table and the cases where URL parsers differ) and on seeded random inputs,
// and every answer is compared with Node's, one by one. (Chromium's own URL
// parser accepted `not a url` as `http://not%2520a%2520url/` where Node threw.)
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { canonicalizeUrl } from 'cuckoo-bloom-wasm';
import { prng } from '../helpers/keys.mjs';
import { serveToChromium } from './lib/file-server.mjs';
import { ROOT } from './lib/demo-site.mjs';

const VECTORS = JSON.parse(readFileSync(join(ROOT, 'tests', 'url', 'fixtures', 'sb-vectors.json'), 'utf8'));
const DIST = join(ROOT, 'dist');

// Pieces where runtimes' URL parsers are known to differ (spaces and controls
// in hosts, backslashes, escapes, IPv4 forms, IDNA), joined at random.
const PIECES = [
  'http://', 'https://', 'HTTP:', 'ftp://', 'ws:', '//', '/', '\\', '.', '..', '%', '%2', '%25', '%2e', '%2f', '%3F',
  '%23', '%20', '%00', '%ff', '%c3%bc', '?', '#', '@', ':', ':80', ':8080', '[', ']', '[::1]', '0x', '0x7f', '1', '255',
  '256', '4294967295', '012', 'a', 'B', 'xn--', 'evil', 'com', '-', '_', ' ', '\t', '\x00', '\x01', '\x7f', '\u00e9',
  '\u00fc', '\u00df', '\u200b', '\u3002', '\uff0e', '\uff11', '\u{1f600}', '"', '<', '>', '^', '|', '{', '`', '!', '$',
];

function randomInputs(count, seed) {
  const random = prng(seed);
  const inputs = [];
  for (let i = 0; i < count; i++) {
    let input = random() < 0.5 ? 'http://' : '';
    const pieces = 1 + Math.floor(random() * 10);
    for (let k = 0; k < pieces; k++) input += PIECES[Math.floor(random() * PIECES.length)];
    inputs.push(input);
  }
  return inputs;
}

/** The answer as data both sides can compare: the canonical URL, or the error's code. */
function answerInNode(input) {
  try {
    return { url: canonicalizeUrl(input) };
  } catch (error) {
    return { error: error.code ?? error.name };
  }
}

let served;
let browser;
let origin;
beforeAll(async () => {
  // dist/ served as-is: the page imports the browser bundle users get.
  served = await serveToChromium((url) =>
    url.pathname === '/'
      ? { body: '<!doctype html><title>parity</title>', headers: { 'Content-Type': 'text/html' } }
      : { file: join(DIST, url.pathname.replace(/^\/+/, '').replace(/\.\./g, '')) },
  );
  ({ browser, origin } = served);
}, 60_000);
afterAll(() => served?.close());

async function answersInChromium(inputs) {
  const page = await browser.newPage();
  try {
    await page.goto(`${origin}/`);
    return await page.evaluate(async (list) => {
      const { canonicalizeUrl } = await import('/browser.js');
      return list.map((input) => {
        try {
          return { url: canonicalizeUrl(input) };
        } catch (error) {
          return { error: error.code ?? error.name };
        }
      });
    }, inputs);
  } finally {
    await page.close();
  }
}

// Strings cross into the page as JSON, which cannot carry a lone surrogate.
const hasLoneSurrogate = (text) => /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(text);

test('the published Safe Browsing vectors and the parity cases: Chromium answers as Node, and as the fixture says', async () => {
  const rows = [...VECTORS.safeBrowsing.map((r) => ({ input: r.input, expected: r.ours ?? r.safeBrowsing })), ...VECTORS.parity.map((r) => ({ input: r.input, expected: r.ours }))].filter(
    (r) => !hasLoneSurrogate(r.input),
  );
  const chromium = await answersInChromium(rows.map((r) => r.input));
  const mismatches = [];
  rows.forEach((row, i) => {
    const node = answerInNode(row.input);
    const expected = row.expected === 'error' ? { error: 'INVALID_ARGUMENT' } : { url: row.expected };
    if (JSON.stringify(chromium[i]) !== JSON.stringify(node) || JSON.stringify(node) !== JSON.stringify(expected)) {
      mismatches.push({ input: row.input, expected, node, chromium: chromium[i] });
    }
  });
  const published = VECTORS.safeBrowsing.filter((r) => chromium[rows.findIndex((row) => row.input === r.input)]?.url === r.safeBrowsing).length;
  console.log(`Safe Browsing vectors equal to the published result in Chromium: ${published}/${VECTORS.safeBrowsing.length}; rows compared: ${rows.length}`);
  expect(mismatches).toEqual([]);
}, 60_000);

test('5,000 seeded random inputs: every answer in Chromium equals Node\'s', async () => {
  const inputs = randomInputs(5000, 0x5eed).filter((input) => !hasLoneSurrogate(input));
  const chromium = await answersInChromium(inputs);
  const node = inputs.map(answerInNode);
  const mismatches = inputs.flatMap((input, i) => (JSON.stringify(chromium[i]) === JSON.stringify(node[i]) ? [] : [{ input, node: node[i], chromium: chromium[i] }]));
  // Not a generator that only makes errors: both kinds of answer occur.
  expect(node.filter((answer) => answer.url !== undefined).length).toBeGreaterThan(500);
  expect(node.filter((answer) => answer.error !== undefined).length).toBeGreaterThan(500);
  expect(mismatches.slice(0, 20)).toEqual([]);
}, 60_000);
