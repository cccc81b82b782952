// Attack on issue 43's offline promise when the list is rebuilt. The offline copy
// (data/urlhaus.filter.confirm.parts.all) keeps its name from build to build and is served
// `no-cache`; the worker's `keep` takes it with `cache: 'force-cache'`, which returns the HTTP
// cache's copy however stale, without revalidating. A visitor whose HTTP cache holds the
// previous build's copy (same length, other content: a list refresh) gets that copy kept by
// the new build's worker: offline, every listed URL stays `possible` until the HTTP cache
// entry goes, although the visit confirmed a listed URL against the current list.
// (A temporary copy of the site: the first build's copy is the current one with one byte of
// each part changed; the new build restores it and changes sw.js's VERSION.)
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { byId, openPage, PHONE } from '../e2e/lib/browser.mjs';
import { ROOT, useDemoSite } from '../e2e/lib/demo-site.mjs';
import { startServer } from '../../web-demo/serve.mjs';

const site = useDemoSite({ build: process.env.DEMO_SKIP_BUILD !== '1' });
let root;
let server;
let manifest;
let current;
beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'cbw-demo-stale-'));
  cpSync(join(ROOT, 'web-demo', 'dist'), root, { recursive: true });
  manifest = JSON.parse(readFileSync(join(root, 'data', 'manifest.json'), 'utf8'));
  const file = join(root, manifest.confirmation.offlineCopy);
  for (const ext of ['.br', '.gz']) rmSync(file + ext, { force: true });
  current = readFileSync(file);
  // The previous build's copy: same parts' lengths, other bytes.
  const older = Buffer.from(current);
  let start = 0;
  for (const length of manifest.confirmation.partBytes) {
    older[start + Math.floor(length / 2)] ^= 0x5a;
    start += length;
  }
  writeFileSync(file, older);
  server = await startServer({ port: 0, root });
});
afterAll(async () => {
  await server?.close();
  if (root) rmSync(root, { recursive: true, force: true });
});

function newBuild() {
  writeFileSync(join(root, manifest.confirmation.offlineCopy), current);
  const file = join(root, 'sw.js');
  for (const ext of ['.br', '.gz']) rmSync(file + ext, { force: true });
  writeFileSync(file, readFileSync(file, 'utf8').replace(/const VERSION = "[0-9a-f]+"/, 'const VERSION = "0123456789abcdef"'));
}

async function confirmListed(page) {
  await page.waitForSelector('body[data-ready="true"]', { timeout: 15_000 });
  await page.click(byId('example-0'));
  await page.locator(`${byId('check-verdict')}[data-verdict="listed"]`).waitFor();
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 15_000 });
  await page.waitForTimeout(5000);
}

describe('the offline copy after the list was rebuilt', () => {
  test('a visit to the new build that confirmed a listed URL keeps the new copy, not the HTTP cache’s stale one: offline, every listed example is `listed`', async () => {
    const { context, page, close } = await openPage(site.browser, server.url, { viewport: PHONE });
    try {
      const listed = manifest.examples.filter((example) => example.entry !== null);
      await confirmListed(page); // the old build: its copy is fetched and kept
      newBuild();
      await page.reload();
      await confirmListed(page); // the new worker installs and takes over
      await page.reload();
      await confirmListed(page); // under the new worker: the copy is kept again
      const kept = await page.evaluate(async (url) => (await caches.match(url))?.arrayBuffer().then((bytes) => bytes.byteLength), new URL(manifest.confirmation.offlineCopy, server.url).href);
      expect(kept).toBe(current.length);
      await context.setOffline(true);
      await page.reload();
      await page.waitForSelector('body[data-ready="true"]', { timeout: 15_000 });
      const verdicts = await page.evaluate(async (urls) => (await window.demo.verdicts(urls)).map((result) => result.verdict), listed.map((example) => example.url));
      expect(verdicts).toEqual(listed.map(() => 'listed'));
    } finally {
      await context.setOffline(false);
      await close();
    }
  }, 120_000);
});
