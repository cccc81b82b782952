// One fresh load of the demo, measured as a visitor meets it: navigate, submit a URL the
// moment the form exists (DOMContentLoaded), and stop the clock when the verdict is on
// screen. The URL is typed by a script inside the page, not by Playwright round trips,
// which on a busy 2-core machine took 400-700 ms on their own and would time the harness.
// Bytes are counted by the browser's network layer (Chrome DevTools Protocol: encoded
// bytes per response, headers included), so compression and duplicate fetches show.
import { byId } from './browser.mjs';

// Installed before any page script runs: records when the first verdict element appears
// (performance.now() counts from navigation start). It runs through the DevTools
// protocol, so the page's CSP does not apply, and the page's own code does not time itself.
// The moment is also a performance mark ('first-verdict'), for a profile's timeline.
export const WATCH_VERDICT = (checkUrl) => {
  document.addEventListener('DOMContentLoaded', () => {
    document.querySelector('[data-testid="url-input"]').value = checkUrl;
    document.querySelector('[data-testid="check-form"]').requestSubmit();
  });
  new MutationObserver((_, observer) => {
    if (document.querySelector('[data-testid="check-verdict"]')) {
      window.__firstVerdictMs = performance.now();
      performance.mark('first-verdict');
      observer.disconnect();
    }
  }).observe(document, { subtree: true, childList: true });
};

/**
 * A fresh context (empty cache, no service worker) per call; `cpuThrottle` slows its CPU
 * that many times (Chrome DevTools Protocol), as a phone profile does.
 * @returns {Promise<{ ms: number, bytes: number, responses: { url: string, bytes: number }[], verdict: string }>}
 *   ms: navigation start to the verdict; bytes: every response finished by then.
 */
export async function measureFirstVerdict(browser, url, checkUrl, { viewport, cpuThrottle = 1 } = {}) {
  const context = await browser.newContext({ viewport, serviceWorkers: 'block' });
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    // A phone's slower CPU (issue 43: 4× on a 390×844 profile), applied before the navigation.
    if (cpuThrottle !== 1) await cdp.send('Emulation.setCPUThrottlingRate', { rate: cpuThrottle });
    const urls = new Map();
    const finished = [];
    let navigationStart = null;
    let navigationWallMs = null;
    cdp.on('Network.requestWillBeSent', (event) => {
      urls.set(event.requestId, event.request.url);
      if (navigationStart === null && event.type === 'Document') {
        navigationStart = event.timestamp;
        navigationWallMs = event.wallTime * 1000;
      }
    });
    cdp.on('Network.loadingFinished', (event) => finished.push({ id: event.requestId, bytes: event.encodedDataLength, at: event.timestamp }));
    await page.addInitScript(WATCH_VERDICT, checkUrl);
    await page.goto(url, { waitUntil: 'domcontentloaded' });
    await page.waitForFunction(() => window.__firstVerdictMs !== undefined, null, { timeout: 15_000 });
    const { ms, timeOrigin } = await page.evaluate(() => ({ ms: window.__firstVerdictMs, timeOrigin: performance.timeOrigin }));
    const verdict = await page.locator(byId('check-verdict')).getAttribute('data-verdict');
    // The CDP timestamps are seconds on one monotonic clock, counted here from the document
    // request; performance.now() counts from the navigation's time origin, which comes before
    // that request by as much as a busy machine delays it (hundreds of ms under load: a chunk
    // fetched just after the verdict was then counted before it). Both have a wall clock time,
    // which gives the gap.
    const requestAfterOriginMs = Math.max(0, navigationWallMs - timeOrigin);
    const verdictAt = navigationStart + (ms - requestAfterOriginMs) / 1000;
    const before = finished.filter((entry) => entry.at <= verdictAt + 0.002);
    return {
      ms,
      verdict,
      bytes: before.reduce((sum, entry) => sum + entry.bytes, 0),
      responses: before.map((entry) => ({ url: urls.get(entry.id) ?? entry.id, bytes: entry.bytes })),
    };
  } finally {
    await context.close();
  }
}

/**
 * For the bench's traced and CPU-timed loads (a CDP session, no Playwright page call, which
 * would evaluate Playwright's injected script in the page): polls until the watch script
 * recorded the verdict; its time (ms since navigation). Polling, not awaiting a promise made
 * by the page: a promise evaluated in a context the navigation then replaced never settles.
 */
export async function waitForVerdict(cdp, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { result } = await cdp.send('Runtime.evaluate', { expression: 'window.__firstVerdictMs', returnByValue: true }).catch(() => ({ result: {} }));
    if (typeof result.value === 'number') return result.value;
    if (Date.now() > deadline) throw new Error(`no verdict on screen within ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
