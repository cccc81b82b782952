// Attack on issue 43's keyboard promise (focus never falls to <body>) in the lazily loaded
// part below the checker. With core.small.wasm blocked, "Load them now" pressed from the
// keyboard leaves the notices with their Retry buttons (page.ts notice()); pressing Retry
// from the keyboard replaces the notice, the focused button with it, so focus falls to
// <body> while the retry runs, and stays there when it fails again.
import { describe, expect, test } from '@jest/globals';
import { byId, openPage, PHONE } from '../e2e/lib/browser.mjs';
import { useDemoSite } from '../e2e/lib/demo-site.mjs';

const site = useDemoSite({ build: process.env.DEMO_SKIP_BUILD !== '1' });

const focused = (page) => page.evaluate(() => document.activeElement?.tagName);

describe('a blocked core.small.wasm after the lazy trigger, from the keyboard', () => {
  // One notice since section 2 came with the rest (sections.html); there were two, each with a Retry.
  test.each([['playgrounds-failed-retry']])('Retry (%s) pressed with Enter keeps focus off <body>', async (retry) => {
    const { page, context, close } = await openPage(site.browser, site.server.url, { viewport: PHONE, serviceWorkers: 'block' });
    try {
      await context.route('**/core.small.wasm', (route) => route.abort('blockedbyclient'));
      await page.locator(byId('playgrounds-load')).focus();
      await page.keyboard.press('Enter');
      await page.waitForSelector('body[data-playgrounds="failed"]', { timeout: 30_000 });
      expect(await focused(page)).not.toBe('BODY');
      await page.locator(byId(retry)).focus();
      await page.keyboard.press('Enter');
      await page.waitForTimeout(300);
      expect(await focused(page)).not.toBe('BODY');
      await page.locator(byId(retry)).waitFor({ timeout: 30_000 });
      await page.waitForTimeout(500);
      expect(await focused(page)).not.toBe('BODY');
    } finally {
      await close();
    }
  }, 60_000);
});
