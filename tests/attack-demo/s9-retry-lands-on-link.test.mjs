// Attack on #43's promise that a nav link lands on its section once the later sections load.
// A link pressed while they cannot load (core.small.wasm refused) gives the one notice; its
// Retry, once the network is back, loads them, but the page lands on section 2 (focus moved
// to its heading) with #lab in the address and the lab thousands of pixels below.
import { describe, expect, test } from '@jest/globals';
import { byId, openPageWithBlocked, PHONE } from '../e2e/lib/browser.mjs';
import { useDemoSite } from '../e2e/lib/demo-site.mjs';

const site = useDemoSite({ build: process.env.DEMO_SKIP_BUILD !== '1' });

describe('a section link pressed while the later sections cannot load', () => {
  test('Retry, once they can, lands on the linked section, focus off <body>', async () => {
    const opened = await openPageWithBlocked(site.browser, site.server.url, '**/core.small.wasm', 'true');
    const { context, page } = opened;
    try {
      await page.setViewportSize(PHONE);
      await page.click('nav a[href="#lab"]');
      await page.waitForSelector('body[data-playgrounds="failed"]', { timeout: 20_000 });
      await context.unroute('**/core.small.wasm');
      await page.locator(byId('playgrounds-failed-retry')).focus();
      await page.keyboard.press('Enter');
      await page.waitForSelector('body[data-playgrounds="ready"]', { timeout: 20_000 });
      await page.waitForTimeout(500);
      expect(await page.evaluate(() => location.hash)).toBe('#lab');
      expect(await page.evaluate(() => document.activeElement !== document.body)).toBe(true);
      const top = await page.evaluate(() => document.getElementById('lab').getBoundingClientRect().top);
      expect(Math.abs(top)).toBeLessThan(PHONE.height);
    } finally {
      await opened.close();
    }
  }, 40_000);
});
