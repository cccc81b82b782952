// `cuckoo-bloom-wasm/shared` in Chromium (issue #31): the built dist/shared.js and
// core.shared.wasm served on 127.0.0.1 with the COOP/COEP headers the README names;
// 4 Web Workers attach one shared filter of each type, add disjoint quarters of 100k
// keys at once, and every worker and the page find all of them (hasMany's boolean[] and its
// { as: 'Uint8Array' } bytes; the page's keys take the staging copy). Without the headers the
// page is not cross-origin isolated and init() rejects with LOAD_FAILED.
import { join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serveToChromium } from '../e2e/lib/file-server.mjs';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const SERVED = ['dist/', 'tests/shared/browser/'];
const ISOLATION = { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' };

let served;
let origin;
let browser;
beforeAll(async () => {
  served = await serveToChromium((url) => {
    const path = normalize(decodeURIComponent(url.pathname)).replace(/^\/+/, '');
    if (!SERVED.some((prefix) => path.startsWith(prefix))) return null;
    // ?isolated=0 on the page: no COOP/COEP (the page then has no SharedArrayBuffer).
    const isolated = !(path.endsWith('.html') && url.searchParams.get('isolated') === '0');
    return { file: join(REPO, path), headers: isolated ? ISOLATION : {} };
  });
  ({ origin, browser } = served);
}, 60_000);
afterAll(() => served?.close());

async function resultOf(query) {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${origin}/tests/shared/browser/page.html${query}`);
    // attached, not visible: the page's body is empty.
    await page.waitForSelector('body[data-result], body[data-error]', { state: 'attached', timeout: 90_000 });
    const error = await page.getAttribute('body', 'data-error');
    if (error !== null) throw new Error(`the page failed: ${error}`);
    expect(errors).toEqual([]);
    return JSON.parse(await page.getAttribute('body', 'data-result'));
  } finally {
    await context.close();
  }
}

test('4 Web Workers on one shared filter of each type: no false negative in any worker or on the page', async () => {
  const N = 100_000;
  const result = await resultOf(`?n=${N}`);
  expect(result.crossOriginIsolated).toBe(true);
  expect(Object.keys(result.types)).toEqual(['bloom', 'blocked-bloom', 'counting-bloom', 'cuckoo']);
  for (const { missing, missingAsBytes, missingOnPage, missingOnPageAsBytes, count } of Object.values(result.types)) {
    expect(missing).toEqual([0, 0, 0, 0]);
    expect(missingAsBytes).toEqual([0, 0, 0, 0]);
    expect(missingOnPage).toBe(0);
    expect(missingOnPageAsBytes).toBe(0);
    expect(count).toBe(N);
  }
}, 120_000);

test('a page served without COOP/COEP is not cross-origin isolated: init() rejects with LOAD_FAILED naming the headers', async () => {
  const result = await resultOf('?isolated=0&n=1000');
  expect(result.crossOriginIsolated).toBe(false);
  expect(result.initError.code).toBe('LOAD_FAILED');
  expect(result.initError.message).toMatch(/Cross-Origin-Opener-Policy: same-origin, Cross-Origin-Embedder-Policy: require-corp/);
}, 60_000);
