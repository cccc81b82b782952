// `cuckoo-bloom-wasm/shared` in Chromium (issue #31): the built dist/shared.js and
// core.shared.wasm served on 127.0.0.1 with the COOP/COEP headers the README names;
// 4 Web Workers attach one shared filter of each type, add disjoint quarters of 100k
// keys at once, and every worker and the page find all of them. Without the headers
// the page is not cross-origin isolated and init() rejects with LOAD_FAILED.
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchBrowser } from '../e2e/lib/browser.mjs';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const SERVED = ['dist/', 'tests/shared/browser/'];
const TYPES = { '.html': 'text/html', '.mjs': 'text/javascript', '.js': 'text/javascript', '.wasm': 'application/wasm' };
const ISOLATION = { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' };

let server;
let origin;
let browser;
beforeAll(async () => {
  server = createServer(async (request, response) => {
    const url = new URL(request.url, 'http://127.0.0.1');
    const path = normalize(decodeURIComponent(url.pathname)).replace(/^\/+/, '');
    if (!SERVED.some((prefix) => path.startsWith(prefix))) return response.writeHead(404).end();
    try {
      const body = await readFile(join(REPO, path));
      const headers = { 'Content-Type': TYPES[extname(path)] ?? 'application/octet-stream' };
      // ?isolated=0 on the page: no COOP/COEP (the page then has no SharedArrayBuffer).
      if (!(path.endsWith('.html') && url.searchParams.get('isolated') === '0')) Object.assign(headers, ISOLATION);
      response.writeHead(200, headers).end(body);
    } catch {
      response.writeHead(404).end();
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${server.address().port}`;
  browser = await launchBrowser();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve()));
});

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
  for (const { missing, missingOnPage, count } of Object.values(result.types)) {
    expect(missing).toEqual([0, 0, 0, 0]);
    expect(missingOnPage).toBe(0);
    expect(count).toBe(N);
  }
}, 120_000);

test('a page served without COOP/COEP is not cross-origin isolated: init() rejects with LOAD_FAILED naming the headers', async () => {
  const result = await resultOf('?isolated=0&n=1000');
  expect(result.crossOriginIsolated).toBe(false);
  expect(result.initError.code).toBe('LOAD_FAILED');
  expect(result.initError.message).toMatch(/Cross-Origin-Opener-Policy: same-origin, Cross-Origin-Embedder-Policy: require-corp/);
}, 60_000);
