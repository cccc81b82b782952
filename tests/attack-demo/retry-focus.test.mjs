// Attack on the demo's keyboard promise (issue 43): focus is never on <body>. The checker's
// own retry buttons ("Confirm again" on an unconfirmed verdict, "Try again" when the list
// could not load) live inside the output the check replaces: pressing one removes the
// focused button, so focus falls to <body> while the check waits (the companion's part, the
// list), and stays there when the answer has no verdict to focus (the list still failing).
// Failed on the code it was written against (attack-demo branch report).
import { describe, expect, test } from '@jest/globals';
import { byId, openPage, openPageWithBlocked } from '../e2e/lib/browser.mjs';
import { useDemoSite, readDemoManifest } from '../e2e/lib/demo-site.mjs';

const site = useDemoSite({ build: process.env.DEMO_SKIP_BUILD !== '1' });

/** The focused element, as "TAG#testid". */
const focused = (page) => page.evaluate(() => `${document.activeElement?.tagName}${document.activeElement?.dataset?.testid ? `#${document.activeElement.dataset.testid}` : ''}`);

describe('a retry pressed from the keyboard keeps focus off <body>', () => {
  test('"Confirm again" while the companion’s part is slow: focus is not on <body> during the wait', async () => {
    const listed = readDemoManifest().examples.find((example) => example.entry !== null);
    const { page, context, close } = await openPage(site.browser, site.server.url, { serviceWorkers: 'block' });
    try {
      // Unreachable first (the verdict is `possible`), then slow: 4 s before each answer fails.
      await context.route('**/data/urlhaus.filter.confirm**', (route) => route.abort('blockedbyclient'));
      await page.fill(byId('url-input'), listed.url);
      await page.keyboard.press('Enter');
      await page.locator(`${byId('check-verdict')}[data-verdict="possible"]`).waitFor();
      await context.unroute('**/data/urlhaus.filter.confirm**');
      await context.route('**/data/urlhaus.filter.confirm**', (route) => setTimeout(() => route.abort('blockedbyclient').catch(() => {}), 4000));
      await page.focus(byId('check-confirm-retry'));
      await page.keyboard.press('Enter');
      await page.waitForTimeout(1000);
      expect(await focused(page)).not.toBe('BODY');
    } finally {
      await close();
    }
  }, 60_000);

  test('"Try again" when the list cannot load: focus is not left on <body>', async () => {
    const { page, close } = await openPageWithBlocked(site.browser, site.server.url, '**/data/urlhaus.filter', 'error');
    try {
      await page.fill(byId('url-input'), 'https://www.wikipedia.org/');
      await page.keyboard.press('Enter');
      await page.locator(byId('check-retry')).waitFor();
      await page.focus(byId('check-retry'));
      await page.keyboard.press('Enter');
      // The list fails again: the notice and its button are drawn anew.
      await page.locator(byId('check-retry')).waitFor();
      await page.waitForTimeout(500);
      expect(await focused(page)).not.toBe('BODY');
    } finally {
      await close();
    }
  }, 60_000);
});
