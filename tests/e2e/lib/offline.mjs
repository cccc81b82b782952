// The demo offline, for the suites that check what its service worker kept: waiting for the
// companion's offline copy, and a reload with the network cut.
import { expect } from '@jest/globals';

/** Waits (20 s at most) until the service worker has stored the companion's offline copy (manifest.confirmation.offlineCopy). */
export async function waitForOfflineCopy(page, manifest) {
  const cached = () => page.evaluate(async (path) => (await caches.match(new URL(path, location.href).href)) !== undefined, manifest.confirmation.offlineCopy);
  for (const deadline = Date.now() + 20_000; !(await cached()) && Date.now() < deadline; ) await page.waitForTimeout(200);
  await expect(cached()).resolves.toBe(true);
}

/** Cuts the network of `context` and reloads `page` until the checker is ready (the caller sets it online again). */
export async function reloadOffline(context, page) {
  await context.setOffline(true);
  await page.reload();
  await page.waitForSelector('body[data-ready="true"]', { timeout: 15_000 });
}

/** The page's verdict on each URL (window.demo.verdicts: the form's own checking, a maybe confirmed first). */
export function pageVerdicts(page, urls) {
  return page.evaluate(async (list) => (await window.demo.verdicts(list)).map((result) => result.verdict), urls);
}
