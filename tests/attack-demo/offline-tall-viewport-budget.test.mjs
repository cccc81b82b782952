// Attack on issue 43's first-visit budget (≤ 25 requests, ≤ 250 KB with a listed check and the
// offline copy kept). The playgrounds' chunk (~158 KB: core.small.wasm, the page chunk,
// sections.html, playground.css) loads when the `later-sections` placeholder is within the
// viewport's top 90 %. Its top sits ~930 px down the page whatever the width, so on any
// viewport taller than ~1035 px (a 2560×1440 monitor's window, a portrait 1080×1920 screen,
// a 1920×2160 window) it is "in view" at load: a visitor who only checks one link, and never
// scrolls, downloads it all, and the first visit goes over the budget.
import { describe, expect, test } from '@jest/globals';
import { byId, openPage } from '../e2e/lib/browser.mjs';
import { useDemoSite } from '../e2e/lib/demo-site.mjs';
import { startServer } from '../../web-demo/serve.mjs';

const site = useDemoSite({ build: process.env.DEMO_SKIP_BUILD !== '1' });

describe('the first visit’s budget on tall viewports', () => {
  test.each([
    ['2560×1300 (a 1440p desktop window)', { width: 2560, height: 1300 }],
    ['1080×1920 (a portrait screen)', { width: 1080, height: 1920 }],
    ['1920×2160', { width: 1920, height: 2160 }],
  ])('%s: a listed check without scrolling is ≤ 25 requests and ≤ 250 KB, and loads no playground file', async (_, viewport) => {
    const log = [];
    const server = await startServer({ port: 0, onResponse: (entry) => log.push(entry) });
    const { page, problems, close } = await openPage(site.browser, server.url, { viewport });
    try {
      const manifest = await page.evaluate(() => JSON.parse(document.getElementById('manifest').textContent));
      await page.click(byId('example-0'));
      await page.locator(`${byId('check-verdict')}[data-verdict="listed"]`).waitFor();
      await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 15_000 });
      const copyUrl = new URL(manifest.confirmation.offlineCopy, server.url).href;
      for (const deadline = Date.now() + 20_000; !(await page.evaluate(async (url) => (await caches.match(url)) !== undefined, copyUrl)) && Date.now() < deadline; ) {
        await page.waitForTimeout(200);
      }
      await page.waitForTimeout(3000);
      const paths = log.map((entry) => entry.path);
      const bytes = log.reduce((sum, entry) => sum + entry.bytes, 0);
      expect(log.length).toBeLessThanOrEqual(25);
      expect(bytes).toBeLessThanOrEqual(250_000);
      expect(paths.filter((path) => /core\.small|playground|sections\.html|chunk-page/.test(path))).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await close();
      await server.close();
    }
  }, 60_000);
});
