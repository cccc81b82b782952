// Attack on #43 (the first document is the header, the checker, the placeholder and the
// footer). Section 2's empty shell used to sit between the checker and the `later-sections`
// placeholder; without it the placeholder starts ~220 px below the checker's last buttons.
// On a phone (390×844), tapping the "example.com" example or the false-positive teaching
// button, brought to mid-screen as a tap scrolls it (Playwright's click, Chrome's
// scrollIntoViewIfNeeded), puts the placeholder's top above 90 % of the viewport: a visit
// that only checks URLs downloads core.small.wasm and the whole page chunk. The scroll rule
// is now the placeholder's top in the upper half of the window (main.ts).
import { describe, expect, test } from '@jest/globals';
import { byId, openPage, PHONE } from '../e2e/lib/browser.mjs';
import { useDemoSite } from '../e2e/lib/demo-site.mjs';

const site = useDemoSite({ build: process.env.DEMO_SKIP_BUILD !== '1' });
const isLater = (url) => /\/(core\.small\.wasm|chunk-page-[^/]*\.js|chunk-core\.small-[^/]*\.js|sections\.html|playground\.css)$/.test(new URL(url).pathname);

describe('phone: the checker’s own last buttons', () => {
  test.each([['example-5'], ['example-false-positive']])('tapping %s (a verdict, no other scroll) loads nothing below the checker', async (button) => {
    const { page, problems, close } = await openPage(site.browser, site.server.url, { viewport: PHONE, serviceWorkers: 'block' });
    try {
      const requested = [];
      page.on('request', (request) => requested.push(request.url()));
      await page.click(byId(button));
      await page.locator(`${byId('check-verdict')}[data-verdict="clear"]`).waitFor();
      await page.waitForTimeout(2500);
      expect(requested.filter(isLater)).toEqual([]);
      await expect(page.locator('body').getAttribute('data-playgrounds')).resolves.toBeNull();
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  }, 40_000);
});
