// Serves a folder on 127.0.0.1 and opens pages in Debian's headless Chromium
// (playwright-core; no browser download), recording everything that went wrong.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import { chromium } from 'playwright-core';
import { MIME_TYPES } from '../../../web-demo/serve.mjs';

const CHROMIUM = '/usr/bin/chromium';

/** A static server for `root`; 404 for anything missing (a bundle that lost core.wasm shows up). */
export async function serve(root) {
  const server = createServer((request, response) => {
    const path = normalize(decodeURIComponent(new URL(request.url, 'http://x').pathname));
    let file = join(root, path);
    if (existsSync(file) && statSync(file).isDirectory()) file = join(file, 'index.html');
    if (!file.startsWith(root) || !existsSync(file)) {
      response.writeHead(404).end('not found');
      return;
    }
    response.writeHead(200, { 'content-type': MIME_TYPES[extname(file)] ?? 'application/octet-stream' });
    response.end(readFileSync(file));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    // Chromium keeps connections alive, and close() alone waits for them to end.
    close: () =>
      new Promise((resolve) => {
        server.close(resolve);
        server.closeAllConnections();
      }),
  };
}

/**
 * What a browser suite's beforeAll starts: a new folder `out` (the builds go
 * in it, one folder each), a server for it and Chromium. close(), for its
 * afterAll, stops Chromium and then the server, the server even when
 * Chromium fails to close; a failed launch closes the server itself.
 */
export async function serveAndLaunch(out) {
  mkdirSync(out);
  const server = await serve(out);
  let browser;
  try {
    browser = await launch();
  } catch (error) {
    await server.close();
    throw error;
  }
  return {
    out,
    server,
    browser,
    async close() {
      try {
        await browser.close();
      } finally {
        await server.close();
      }
    },
  };
}

/** The index.html Vite builds from, at `root`, loading the module `src` (no favicon request). */
export function writeModulePage(root, src) {
  writeFileSync(
    join(root, 'index.html'),
    '<!doctype html><html><head><link rel="icon" href="data:,"></head><body>' +
      `<script type="module" src="${src}"></script></body></html>`,
  );
}

export async function launch() {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`${CHROMIUM} is missing: these tests need Debian's Chromium (apt-get install -y chromium)`);
  }
  const userDataDir = mkdtempSync(join(tmpdir(), 'cbw-consumers-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
  return {
    /** Opens `url`, waits for the app's data-result or data-error; returns { result, error, problems }. */
    async open(url) {
      const page = await context.newPage();
      const problems = [];
      page.on('console', (message) => {
        if (message.type() === 'error' || message.type() === 'warning') problems.push(`console ${message.type()}: ${message.text()}`);
      });
      page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
      page.on('response', (response) => {
        if (response.status() >= 400) problems.push(`HTTP ${response.status()}: ${response.url()}`);
      });
      await page.goto(url);
      try {
        await page.waitForSelector('body[data-result], body[data-error]', { state: 'attached', timeout: 20_000 });
      } catch {
        problems.push('timed out: the app reported nothing');
      }
      const [result, error] = await page.evaluate(() => [document.body.dataset.result, document.body.dataset.error]);
      await page.close();
      return { result: result === undefined ? undefined : JSON.parse(result), error, problems };
    },
    async close() {
      await context.close();
      rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}
