// Attack on issue 43's offline promise across a new build of the site. A returning visitor's
// page registers sw.js after its first verdict; when sw.js changed (any rebuild: its VERSION is
// a hash of the files), navigator.serviceWorker.ready still resolves with the OLD active worker,
// so the page's `keep` message (the companion's offline copy, the index, the files it fetched)
// goes to the old worker, which stores them in the old cache; the new worker then activates
// and deletes that cache. The new cache holds only the checker's files: offline, every listed
// URL is `possible`, although this visit confirmed one.
// (A site rebuilt from the same files in a temporary folder; only sw.js's VERSION changes.)
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { byId, openPage, PHONE } from '../e2e/lib/browser.mjs';
import { ROOT, useDemoSite } from '../e2e/lib/demo-site.mjs';
import { pageVerdicts, reloadOffline } from '../e2e/lib/offline.mjs';
import { startServer } from '../../web-demo/serve.mjs';

const site = useDemoSite({ build: process.env.DEMO_SKIP_BUILD !== '1' });
let root;
let server;
beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'cbw-demo-update-'));
  cpSync(join(ROOT, 'web-demo', 'dist'), root, { recursive: true });
  server = await startServer({ port: 0, root });
});
afterAll(async () => {
  await server?.close();
  if (root) rmSync(root, { recursive: true, force: true });
});

/** A new build of the site: sw.js with another VERSION (its precompressed copies dropped, so serve.mjs sends the new bytes). */
function rebuildWorker() {
  const file = join(root, 'sw.js');
  for (const ext of ['.br', '.gz']) rmSync(file + ext, { force: true });
  writeFileSync(file, readFileSync(file, 'utf8').replace(/const VERSION = "[0-9a-f]+"/, 'const VERSION = "0123456789abcdef"'));
}

const copyKept = (page, url) => page.evaluate(async (target) => (await caches.match(target)) !== undefined, url);

describe('offline after a revisit to a new build that confirmed a listed URL', () => {
  test('every listed example is still `listed` offline (the copy is kept by the worker that stays)', async () => {
    const { context, page, close } = await openPage(site.browser, server.url, { viewport: PHONE });
    try {
      const manifest = await page.evaluate(() => JSON.parse(document.getElementById('manifest').textContent));
      const listed = manifest.examples.filter((example) => example.entry !== null);
      const copyUrl = new URL(manifest.confirmation.offlineCopy, server.url).href;
      // The first visit, on the old build: confirmed, the copy kept.
      await page.click(byId('example-0'));
      await page.locator(`${byId('check-verdict')}[data-verdict="listed"]`).waitFor();
      await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 15_000 });
      for (const deadline = Date.now() + 20_000; !(await copyKept(page, copyUrl)) && Date.now() < deadline; ) await page.waitForTimeout(200);
      expect(await copyKept(page, copyUrl)).toBe(true);

      // The site is rebuilt; the visitor comes back online and confirms a listed URL again.
      rebuildWorker();
      await page.reload();
      await page.waitForSelector('body[data-ready="true"]', { timeout: 15_000 });
      await page.click(byId('example-0'));
      await page.locator(`${byId('check-verdict')}[data-verdict="listed"]`).waitFor();
      await page.waitForFunction(() => navigator.serviceWorker.controller?.scriptURL !== undefined, null, { timeout: 15_000 });
      // Ample time for the new worker to install, activate and for any keep to finish.
      await page.waitForTimeout(6000);

      await reloadOffline(context, page);
      await expect(pageVerdicts(page, listed.map((example) => example.url))).resolves.toEqual(listed.map(() => 'listed'));
    } finally {
      await context.setOffline(false);
      await close();
    }
  }, 120_000);
});
