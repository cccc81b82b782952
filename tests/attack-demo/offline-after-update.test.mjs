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
import { closeOnline, pageVerdicts, reloadOffline, waitForWorkerOfBuild, workerVersion } from '../e2e/lib/offline.mjs';
import { startServer } from '../../web-demo/serve.mjs';

const site = useDemoSite({ build: process.env.DEMO_SKIP_BUILD !== '1' });
/** The rebuilt site's worker version. */
const NEW_VERSION = '0123456789abcdef';
let root;
let server;
let firstVersion;
beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'cbw-demo-update-'));
  cpSync(join(ROOT, 'web-demo', 'dist'), root, { recursive: true });
  firstVersion = workerVersion(readFileSync(join(root, 'sw.js'), 'utf8'));
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
  writeFileSync(file, readFileSync(file, 'utf8').replace(/const VERSION = "[0-9a-f]+"/, `const VERSION = "${NEW_VERSION}"`));
}


describe('offline after a revisit to a new build that confirmed a listed URL', () => {
  test('every listed example is still `listed` offline (the copy is kept by the worker that stays)', async () => {
    const { context, page, close } = await openPage(site.browser, server.url, { viewport: PHONE });
    try {
      const manifest = await page.evaluate(() => JSON.parse(document.getElementById('manifest').textContent));
      const listed = manifest.examples.filter((example) => example.entry !== null);
      // The first visit, on the old build: confirmed, the copy kept.
      await page.click(byId('example-0'));
      await page.locator(`${byId('check-verdict')}[data-verdict="listed"]`).waitFor();
      await waitForWorkerOfBuild(page, firstVersion, manifest.confirmation.offlineCopy);

      // The site is rebuilt; the visitor comes back online and confirms a listed URL again.
      rebuildWorker();
      await page.reload();
      await page.waitForSelector('body[data-ready="true"]', { timeout: 15_000 });
      await page.click(byId('example-0'));
      await page.locator(`${byId('check-verdict')}[data-verdict="listed"]`).waitFor();
      // The new worker installed, took over and deleted the old cache; the copy is in its own.
      await waitForWorkerOfBuild(page, NEW_VERSION, manifest.confirmation.offlineCopy);

      await reloadOffline(context, page);
      await expect(pageVerdicts(page, listed.map((example) => example.url))).resolves.toEqual(listed.map(() => 'listed'));
    } finally {
      await closeOnline(context, close);
    }
  }, 120_000);
});
