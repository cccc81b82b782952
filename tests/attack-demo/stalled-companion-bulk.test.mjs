// Attack on the demo's checker (issue 43): a bulk paste in bounded time when the exact
// companion does not answer (a stalled network, a captive portal). Each "maybe" waits for
// the companion's index or part up to the page's fetch timeout (10 s), one link after the
// other, and a failed fetch is forgotten so the next link waits again; nothing is shown until
// the last link. A list with ten listed URLs waited 100 s behind "Checking…" on the code this
// was written against (attack-demo branch report). The listed links may stay `possible` (the
// companion never answered) but never `clear`, and the answer must come in bounded time.
import { expect, test } from '@jest/globals';
import { byId, openPage } from '../e2e/lib/browser.mjs';
import { useDemoSite } from '../e2e/lib/demo-site.mjs';
import { useShippedList } from '../e2e/lib/library.mjs';

const site = useDemoSite({ build: process.env.DEMO_SKIP_BUILD !== '1' });
const shipped = useShippedList();

/** Longer than one fetch timeout (10 s) and its retry: a bulk answer may wait for the companion once, not once per link. */
const VERDICT_WITHIN_MS = 30_000;

test('a pasted list with ten listed URLs while the companion never answers: a verdict within 30 s, the listed ones possible, none clear', async () => {
  const entries = [...new Set(shipped.expressions)];
  const listed = Array.from({ length: 10 }, (_, i) => `http://${entries[Math.floor(((i + 0.5) * entries.length) / 10)]}`);
  const benign = Array.from({ length: 40 }, (_, i) => `https://www.example.org/page/${i}`);
  const { page, context, close } = await openPage(site.browser, site.server.url, { serviceWorkers: 'block' });
  try {
    // The companion's index and parts: requests that never get an answer.
    await context.route('**/data/urlhaus.filter.confirm**', () => {});
    await page.fill(byId('url-input'), [...benign, ...listed].join('\n'));
    const started = Date.now();
    await page.click(byId('check-button'));
    const answered = await page.locator(`${byId('check-output')} ${byId('check-verdict')}`).waitFor({ timeout: VERDICT_WITHIN_MS }).then(() => true, () => false);
    console.log(`a verdict ${answered ? `after ${Date.now() - started} ms` : `not within ${VERDICT_WITHIN_MS} ms`}`);
    expect(answered).toBe(true);
    const lines = await page.locator(byId('check-link')).evaluateAll((items) => items.map((item) => [item.dataset.url, item.dataset.verdict]));
    const byUrl = new Map(lines);
    for (const url of listed) expect([url, byUrl.get(url)]).toEqual([url, 'possible']);
  } finally {
    await close();
  }
}, 90_000);
