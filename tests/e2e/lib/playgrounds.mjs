// Opens the demo for a playground test: the page with reduced motion, the playgrounds started
// and ready, and a clean console required after the test's body.
import { expect } from '@jest/globals';
import { openPage } from './browser.mjs';

/**
 * Starts the playgrounds as a visitor does, by scrolling to them (main.ts loads everything
 * below the checker only then), and waits until they are ready (`state`: 'ready', or 'failed'
 * when a test blocks their files). Scroll restoration on a reload may have started them already.
 */
export async function startPlaygrounds(page, { state = 'ready', timeout = 30_000 } = {}) {
  await page.evaluate(() => document.querySelector('[data-testid="later-sections"]')?.scrollIntoView());
  await page.waitForSelector(`body[data-playgrounds="${state}"]`, { timeout });
}

/**
 * For the demo of `site` (useDemoSite), a function that opens it (`options` as openPage takes
 * them), waits for the playgrounds, runs `body(page)`, requires that the page reported no
 * problems (console errors, failed requests), and closes it even when the body throws.
 */
export const playgroundRunner = (site) => async (body, options = {}) => {
  const { page, problems, close } = await openPage(site.browser, site.server.url, { reducedMotion: 'reduce', ...options });
  try {
    await startPlaygrounds(page);
    await body(page);
    expect(problems).toEqual([]);
  } finally {
    await close();
  }
};
