// Issue 43: everything below the checker (the filter's numbers, the playgrounds, the lab) is
// one chunk on the full library, loaded when the visitor goes there, so a first visit that
// only checks links stays light enough to also keep the whole companion for offline use.
// Checked in Chromium: nothing of it loads on a visit that neither scrolls nor asks; each way
// of asking loads it (a section link, the keyboard); focus never falls to <body>; and the
// offline copy, when damaged, never gives a wrong verdict.
import { describe, expect, test } from '@jest/globals';
import { axeViolations } from './lib/axe.mjs';
import { byId, DESKTOP, openPage, PHONE } from './lib/browser.mjs';
import { readDemoManifest, useDemoSite } from './lib/demo-site.mjs';
import { closeOnline, pageVerdicts, reloadOffline, waitForOfflineCopy } from './lib/offline.mjs';
import { startPlaygrounds } from './lib/playgrounds.mjs';

const site = useDemoSite({ build: process.env.DEMO_SKIP_BUILD !== '1' });

/** A request of the later chunk's files (the full library's wasm and glue, the page chunk, its markup and styles). */
const isLater = (url) => /\/(core\.small\.wasm|chunk-page-[^/]*\.js|chunk-core\.small-[^/]*\.js|sections\.html|playground\.css)$/.test(new URL(url).pathname);

describe('the playgrounds load when the visitor goes to them', () => {
  test.each([['desktop', DESKTOP], ['phone', PHONE]])('%s: a visit that checks a URL and does not scroll loads none of them (4 s after the verdict)', async (_, viewport) => {
    const { page, problems, close } = await openPage(site.browser, site.server.url, { viewport, serviceWorkers: 'block' });
    try {
      const requested = [];
      page.on('request', (request) => requested.push(request.url()));
      await page.click(byId('example-0'));
      await page.locator(`${byId('check-verdict')}[data-verdict="listed"]`).waitFor();
      await page.waitForTimeout(4000);
      expect(requested.filter(isLater)).toEqual([]);
      await expect(page.locator('body').getAttribute('data-playgrounds')).resolves.toBeNull();
      await expect(page.locator(byId('playgrounds-waiting')).isVisible()).resolves.toBe(true);
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  }, 60_000);

  test('phone: a reload after a listed verdict scrolled the page loads none of them (the restored position showed the placeholder); a reload after going below loads them again', async () => {
    const { page, problems, close } = await openPage(site.browser, site.server.url, { viewport: PHONE, serviceWorkers: 'block' });
    try {
      const requested = [];
      page.on('request', (request) => requested.push(request.url()));
      await page.click(byId('example-0'));
      await page.locator(`${byId('check-verdict')}[data-verdict="listed"]`).waitFor();
      await page.waitForTimeout(500);
      expect(await page.evaluate(() => scrollY)).toBeGreaterThan(0); // the verdict scrolled into view
      await page.reload();
      await page.waitForSelector('body[data-ready="true"]', { timeout: 15_000 });
      await page.waitForTimeout(4000);
      expect(requested.filter(isLater)).toEqual([]);
      await expect(page.locator('body').getAttribute('data-playgrounds')).resolves.toBeNull();
      // Gone below, then reloaded at the lab: its place is restored and they load again.
      await startPlaygrounds(page);
      await page.evaluate(() => document.getElementById('lab').scrollIntoView());
      await page.waitForTimeout(300);
      await page.reload();
      await page.waitForSelector('body[data-playgrounds="ready"]', { timeout: 30_000 });
      expect(await page.evaluate(() => scrollY)).toBeGreaterThan(PHONE.height);
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  }, 90_000);

  test('when their own chunk cannot load (offline and never cached, blocked), the placeholder says so with a Retry that loads them once it can', async () => {
    const { page, context, problems, close } = await openPage(site.browser, site.server.url, { viewport: PHONE, serviceWorkers: 'block' });
    const pageChunk = /\/chunk-page-[^/]*\.js$/;
    try {
      await context.route(pageChunk, (route) => route.abort('internetdisconnected'));
      // "Load them now" in view with the placeholder's top in the lower half of the window: a
      // click that scrolled it to mid-screen would go below by the scroll itself (it loads
      // them too), and the failure's notice would replace the button under the click.
      await page.evaluate(() => {
        const placeholder = document.querySelector('[data-testid="later-sections"]');
        scrollTo(0, Math.max(0, placeholder.getBoundingClientRect().top + scrollY - innerHeight * 0.7));
      });
      await page.click(byId('playgrounds-load'));
      await page.waitForSelector('body[data-playgrounds="failed"]', { timeout: 20_000 });
      await expect(page.locator(byId('playgrounds-failed')).textContent()).resolves.toMatch(/could not load: .*chunk-page-/);
      expect(await page.evaluate(() => document.activeElement !== document.body)).toBe(true);
      await context.unroute(pageChunk);
      await page.click(byId('playgrounds-failed-retry'));
      await page.waitForSelector('body[data-playgrounds="ready"]', { timeout: 30_000 });
      await expect(page.locator(byId('filter-stats')).count()).resolves.toBe(1);
      expect(problems.filter((problem) => !/chunk-page-|ERR_INTERNET_DISCONNECTED/.test(problem))).toEqual([]);
    } finally {
      await close();
    }
  }, 60_000);

  test('a section link loads them and brings its section into view', async () => {
    const { page, problems, close } = await openPage(site.browser, site.server.url, { viewport: PHONE, serviceWorkers: 'block' });
    try {
      await page.click('nav a[href="#lab"]');
      await page.waitForSelector('body[data-playgrounds="ready"]', { timeout: 30_000 });
      await expect(page.locator('#lab').isVisible()).resolves.toBe(true);
      const top = await page.evaluate(() => document.getElementById('lab').getBoundingClientRect().top);
      expect(Math.abs(top)).toBeLessThan(PHONE.height);
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  }, 60_000);

  test('from the keyboard: tabbing onto "Load them now" loads nothing, Enter loads them, and focus moves to the section heading, never <body>', async () => {
    const { page, problems, close } = await openPage(site.browser, site.server.url, { viewport: DESKTOP, serviceWorkers: 'block' });
    try {
      const requested = [];
      page.on('request', (request) => requested.push(request.url()));
      await page.locator(byId('playgrounds-load')).focus();
      await page.waitForTimeout(1500);
      expect(requested.filter(isLater)).toEqual([]);
      expect(await axeViolations(page)).toEqual([]);
      await page.keyboard.press('Enter');
      await page.waitForSelector('body[data-playgrounds="ready"]', { timeout: 30_000 });
      await expect(page.locator(byId('playgrounds-waiting')).count()).resolves.toBe(0);
      await expect(page.evaluate(() => document.activeElement?.id)).resolves.toBe('filter-title');
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  }, 60_000);
});

describe('the offline copy of the companion', () => {
  test('offline, a damaged copy (same length, one byte changed in every part) leaves listed URLs possible, never clear or listed by it', async () => {
    const manifest = readDemoManifest();
    const listed = manifest.examples.filter((example) => example.entry !== null);
    const { context, page, close } = await openPage(site.browser, site.server.url, { viewport: PHONE });
    try {
      await page.click(byId('example-0'));
      await page.locator(`${byId('check-verdict')}[data-verdict="listed"]`).waitFor();
      await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 15_000 });
      const copyUrl = new URL(manifest.confirmation.offlineCopy, site.server.url).href;
      await waitForOfflineCopy(page, manifest);
      await reloadOffline(context, page);
      // Every part kept as its own file goes, and the copy is rewritten with one byte of each
      // part's payload flipped (its header and length intact).
      const damaged = await page.evaluate(async ({ url, partBytes }) => {
        let found = false;
        for (const name of await caches.keys()) {
          const cache = await caches.open(name);
          for (const request of await cache.keys()) if (/\.confirm\.parts\/\d{4}$/.test(new URL(request.url).pathname)) await cache.delete(request);
          const response = await cache.match(url);
          if (response === undefined) continue;
          const bytes = new Uint8Array(await response.arrayBuffer());
          let start = 0;
          for (const length of partBytes) {
            bytes[start + Math.floor(length / 2)] ^= 0x5a;
            start += length;
          }
          await cache.put(url, new Response(bytes));
          found = true;
        }
        return found;
      }, { url: copyUrl, partBytes: manifest.confirmation.partBytes });
      expect(damaged).toBe(true);
      await expect(pageVerdicts(page, listed.map((example) => example.url))).resolves.toEqual(listed.map(() => 'possible'));
    } finally {
      await closeOnline(context, close);
    }
  }, 90_000);
});
