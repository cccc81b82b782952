// Attack on issue 43's offline promise when the list is rebuilt. The attack found the offline
// copy kept its name from build to build (data/urlhaus.filter.confirm.parts.all), and the
// worker's `keep` takes it with `cache: 'force-cache'`, which returns the HTTP cache's copy
// however stale: a visitor whose HTTP cache held the previous build's copy (same length, other
// content: a list refresh) got that copy kept by the new build's worker, and offline every
// listed URL stayed `possible`. The copy is now named by its content, as build.mjs writes it.
// Here a temporary copy of the site plays both builds: the old one serves a copy with one
// byte of each part changed under its own name (index.html's manifest, data/manifest.json and
// sw.js name it, with another worker version); the new one is the site as built.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { byId, openPage, PHONE } from '../e2e/lib/browser.mjs';
import { ROOT, useDemoSite } from '../e2e/lib/demo-site.mjs';
import { closeOnline, pageVerdicts, reloadOffline, waitForWorkerOfBuild, within, workerVersion } from '../e2e/lib/offline.mjs';
import { startServer } from '../../web-demo/serve.mjs';

const site = useDemoSite({ build: process.env.DEMO_SKIP_BUILD !== '1' });
/** The files that name the offline copy (served plain here: their precompressed copies are removed). */
const NAMING = ['index.html', 'sw.js', 'data/manifest.json'];
/** The previous build's worker version and offline copy's name. */
const OLD_VERSION = '0123456789abcdef';
let olderName;
let root;
let server;
let manifest;
const built = new Map();
beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'cbw-demo-stale-'));
  cpSync(join(ROOT, 'web-demo', 'dist'), root, { recursive: true });
  manifest = JSON.parse(readFileSync(join(root, 'data', 'manifest.json'), 'utf8'));
  const current = readFileSync(join(root, manifest.confirmation.offlineCopy));
  // The previous build's copy: same parts' lengths, other bytes, its own name.
  const older = Buffer.from(current);
  let start = 0;
  for (const length of manifest.confirmation.partBytes) {
    older[start + Math.floor(length / 2)] ^= 0x5a;
    start += length;
  }
  olderName = manifest.confirmation.offlineCopy.replace(/\.[0-9a-f]+\.all$/, '.0123456789ab.all');
  expect(olderName).not.toBe(manifest.confirmation.offlineCopy);
  writeFileSync(join(root, olderName), older);
  for (const file of NAMING) {
    for (const ext of ['.br', '.gz']) rmSync(join(root, file + ext), { force: true });
    const text = readFileSync(join(root, file), 'utf8');
    built.set(file, text);
    let old = text.split(manifest.confirmation.offlineCopy).join(olderName);
    if (file === 'sw.js') old = old.replace(/const VERSION = "[0-9a-f]+"/, `const VERSION = "${OLD_VERSION}"`);
    writeFileSync(join(root, file), old);
  }
  server = await startServer({ port: 0, root });
});
afterAll(async () => {
  await server?.close();
  if (root) rmSync(root, { recursive: true, force: true });
});

function newBuild() {
  for (const [file, text] of built) writeFileSync(join(root, file), text);
}

/** A listed example checked (its part fetched: a maybe confirmed), then the worker of build `version` settled with `copy` kept. */
async function confirmListed(page, version, copy) {
  await page.waitForSelector('body[data-ready="true"]', { timeout: 15_000 });
  await page.click(byId('example-0'));
  await page.locator(`${byId('check-verdict')}[data-verdict="listed"]`).waitFor();
  await waitForWorkerOfBuild(page, version, copy);
}

describe('the offline copy after the list was rebuilt', () => {
  test('a visit to the new build that confirmed a listed URL keeps the new copy, not the HTTP cache’s stale one: offline, every listed example is `listed`', async () => {
    const { context, page, close } = await openPage(site.browser, server.url, { viewport: PHONE });
    try {
      const listed = manifest.examples.filter((example) => example.entry !== null);
      await confirmListed(page, OLD_VERSION, olderName); // the old build: its copy is fetched and kept
      newBuild();
      await page.reload();
      // The new worker installs, takes over, deletes the old cache and keeps its own copy.
      await confirmListed(page, workerVersion(built.get('sw.js')), manifest.confirmation.offlineCopy);
      await page.reload();
      await confirmListed(page, workerVersion(built.get('sw.js')), manifest.confirmation.offlineCopy); // under the new worker
      const kept = await within('reading the kept copy', 10_000, page.evaluate(async (url) => (await caches.match(url))?.arrayBuffer().then((bytes) => bytes.byteLength), new URL(manifest.confirmation.offlineCopy, server.url).href));
      expect(kept).toBe(manifest.confirmation.partBytes.reduce((sum, bytes) => sum + bytes, 0));
      await reloadOffline(context, page);
      await expect(pageVerdicts(page, listed.map((example) => example.url))).resolves.toEqual(listed.map(() => 'listed'));
    } finally {
      await closeOnline(context, close);
    }
  }, 120_000);
});
