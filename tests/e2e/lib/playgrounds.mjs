// Opens the demo for a playground test: the page with reduced motion, the playgrounds started
// and ready, and a clean console required after the test's body.
import { expect } from '@jest/globals';
import { openPage } from './browser.mjs';

/**
 * For the demo of `site` (useDemoSite), a function that opens it (`options` as openPage takes
 * them), waits for the playgrounds, runs `body(page)`, requires that the page reported no
 * problems (console errors, failed requests), and closes it even when the body throws.
 */
export const playgroundRunner = (site) => async (body, options = {}) => {
  const { page, problems, close } = await openPage(site.browser, site.server.url, { reducedMotion: 'reduce', ...options });
  try {
    // A scroll starts the playgrounds at once (main.ts waits for a check, a scroll or 2.5 s).
    await page.evaluate(() => window.scrollBy(0, 1));
    await page.waitForSelector('body[data-playgrounds="ready"]', { timeout: 20_000 });
    await body(page);
    expect(problems).toEqual([]);
  } finally {
    await close();
  }
};
