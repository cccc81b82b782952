// The URL checker's verdicts in real Chromium (issue 29, part A): a filter's "maybe" is
// never shown as "on the list"; 10,000 ordinary URLs and every entry of the list checked
// through the page's own checking function (window.demo, the one the form uses); the
// verdict element's host, date and roles; pasted and defanged input; the companion missing.
import { beforeAll, describe, expect, test } from '@jest/globals';
import { axeViolations } from './lib/axe.mjs';
import { byId, openPage, PHONE } from './lib/browser.mjs';
import { benignUrls } from './lib/benign-urls.mjs';
import { submit } from './lib/checker-form.mjs';
import { useDemoSite } from './lib/demo-site.mjs';
import { useShippedList } from './lib/library.mjs';

const site = useDemoSite({ build: process.env.DEMO_SKIP_BUILD !== '1' });
// The companion's index and parts (`**` crosses the parts folder's slash).
const COMPANION = '**/data/urlhaus.filter.confirm**';
const shipped = useShippedList();
/** The shipped list's expressions, each once. */
let listExpressions;

beforeAll(() => {
  listExpressions = new Set(shipped.expressions);
});

const open = (options) => openPage(site.browser, site.server.url, options);

/**
 * Verdicts from the page's own checking function, 5,000 per evaluate call, each as
 * { verdict, checked, match, maybes, confirmedBy, reason, inList }: `inList` says whether
 * any expression it checked is an entry of the list's text (the truth, decided by this
 * test's code from the list file, not by the page). Only these fields cross back: whole
 * verdicts made the calls several times slower under Jest.
 */
async function verdicts(page, urls) {
  await page.evaluate((listed) => {
    window.__listTruth ??= new Set(listed);
  }, [...listExpressions]);
  const out = [];
  for (let i = 0; i < urls.length; i += 5000) {
    const rows = await page.evaluate(async (batch) => (await window.demo.verdicts(batch)).map((result) => [
      result.verdict, result.checked, result.match, result.maybes, result.confirmedBy, result.reason,
      result.expressions.some((expression) => window.__listTruth.has(expression)),
    ]), urls.slice(i, i + 5000));
    for (const [verdict, checked, match, maybes, confirmedBy, reason, inList] of rows) out.push({ verdict, checked, input: urls[out.length], match, maybes, confirmedBy, reason, inList });
  }
  return out;
}

describe('confirmed verdicts', () => {
  test('10,000 ordinary URLs: none is listed, the filter’s false positives are cleared by the companion; every list entry is listed', async () => {
    const { page, problems, close } = await open();
    const started = Date.now();
    const urls = benignUrls(10_000);
    const results = await verdicts(page, urls);
    const checkedIn = Date.now() - started;
    // The truth, from the list's own text: no expression of these URLs is an entry.
    expect(results.filter((result) => result.inList).map((result) => result.checked)).toEqual([]);
    const counts = results.reduce((tally, result) => ({ ...tally, [result.verdict]: (tally[result.verdict] ?? 0) + 1 }), {});
    const falsePositives = results.filter((result) => result.maybes.length > 0);
    console.log(`10,000 ordinary URLs in ${checkedIn} ms: ${JSON.stringify(counts)}; the filter said "maybe" for ${falsePositives.length}: ${falsePositives.slice(0, 3).map((r) => r.checked).join(' ')}`);
    expect(counts.listed ?? 0).toBe(0);
    expect(counts.invalid ?? 0).toBe(0);
    // The seed gives the filter false positives to resolve (~20 lookups per URL at 1.4e-5 each,
    // shared expressions aside: ~2.8 expected). Deterministic for the list and filter of this
    // repository: 2 with its Ribbon filter (the smallest static type, build's default), 4 when
    // the checker's filter was binary fuse.
    expect(falsePositives.length).toBeGreaterThanOrEqual(2);
    for (const result of falsePositives) expect([result.checked, result.verdict, result.confirmedBy]).toEqual([result.checked, 'clear', 'exact-set']);

    // Every expression of the list, as a URL: listed, each by an entry of the list.
    const entries = [...listExpressions].map((expression) => `http://${expression}`);
    const found = await verdicts(page, entries);
    const missed = found.filter((result) => result.verdict !== 'listed' || !listExpressions.has(result.match));
    expect(missed.map((result) => `${result.input} → ${result.verdict}`)).toEqual([]);
    expect(found).toHaveLength(shipped.manifest.entryCount);

    // The first false positive through the form: clear, and the teaching moment on the spot.
    const fp = falsePositives[0];
    const verdict = await submit(page, fp.checked);
    await expect(verdict.getAttribute('data-verdict')).resolves.toBe('clear');
    const teaching = page.locator(byId('check-false-positive'));
    await expect(teaching.textContent()).resolves.toContain(`answered “maybe” for ${fp.maybes.join(', ')}`);
    await expect(teaching.textContent()).resolves.toMatch(/exact companion.*holds no hash/);
    await expect(verdict.textContent()).resolves.not.toMatch(/⚠|on the list:|do not open/i);
    expect(await axeViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
    await close();
  }, 120_000);

  test('without the companion a maybe is "possible", never "on the list"; Confirm again resolves it', async () => {
    const { page, context, close } = await open();
    await context.route(COMPANION, (route) => route.abort('blockedbyclient'));
    const fp = (await verdicts(page, benignUrls(5000))).find((result) => result.maybes.length > 0);
    expect(fp).toBeDefined();
    expect(fp.verdict).toBe('possible');
    expect(fp.reason).toMatch(/could not load data\/urlhaus\.filter\.confirm/);
    const verdict = await submit(page, fp.checked);
    await expect(verdict.getAttribute('data-verdict')).resolves.toBe('possible');
    const shown = await verdict.textContent();
    // Never worded as listed: no warning sign, no "On the list:"; what to do now and how to confirm.
    expect(shown).not.toMatch(/⚠|on the list:/i);
    expect(shown).toMatch(/the filter says “maybe” for .*Don’t open it for now\. To confirm, press “Confirm again”/);
    expect(await axeViolations(page)).toEqual([]);
    await context.unroute(COMPANION);
    await page.click(byId('check-confirm-retry'));
    await page.locator(`${byId('check-verdict')}[data-verdict="clear"]`).waitFor();
    await page.locator(byId('check-false-positive')).waitFor();
    // A listed example is confirmed now that the companion is attached.
    const listed = shipped.manifest.examples.find((example) => example.kind === 'listed-host');
    await expect((await submit(page, listed.url)).getAttribute('data-verdict')).resolves.toBe('listed');
    await close();
  }, 60_000);
});

describe('the verdict element', () => {
  test('role, host in Unicode and punycode, the copy’s date; a clear on a stale copy is green, its age a note of its own', async () => {
    const { page, close } = await open();
    const day = new Date(shipped.manifest.updated).toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
    const verdict = await submit(page, 'https://bücher.example/katalog');
    await expect(verdict.getAttribute('role')).resolves.toBe('status');
    await expect(page.locator(byId('check-output')).getAttribute('aria-live')).resolves.toBe('polite');
    await expect(page.locator(byId('check-host')).textContent()).resolves.toBe('Host bücher.example · punycode xn--bcher-kva.example');
    // The copy is far older than the source's 12-hour refresh: the verdict is still a clear one
    // (issue 43), and the age is said in a note of its own.
    await expect(verdict.locator('strong').first().textContent()).resolves.toBe('✓ Not on the list');
    await expect(page.locator(byId('check-date')).textContent()).resolves.toMatch(new RegExp(`List copy of ${day} · \\d+ days old · out of date: the source refreshes it every 12 hours`));
    await expect(verdict.getAttribute('class')).resolves.toMatch(/(^|\s)verdict-clear(\s|$)/);
    // Punycode typed: shown in Unicode too.
    await submit(page, 'http://xn--bcher-kva.example/');
    await expect(page.locator(byId('check-host')).textContent()).resolves.toBe('Host bücher.example · punycode xn--bcher-kva.example');
    await close();
  });

  test('a copy younger than the refresh interval gets the plain "Not on the list"', async () => {
    const { browser } = site;
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      await page.clock.setFixedTime(new Date(Date.parse(shipped.manifest.updated) + 3 * 3_600_000));
      await page.goto(site.server.url);
      await page.waitForSelector('body[data-ready="true"]');
      const verdict = await submit(page, 'https://www.wikipedia.org/');
      await expect(verdict.getAttribute('class')).resolves.toMatch(/(^|\s)verdict-clear(\s|$)/);
      await expect(verdict.locator('strong').first().textContent()).resolves.toBe('✓ Not on the list');
      await expect(page.locator(byId('check-date')).textContent()).resolves.toMatch(/· 3 hours old$/);
    } finally {
      await context.close();
    }
  });

  test('phone: after Check the verdict, with its host and date, is in view', async () => {
    const { page, close } = await open({ viewport: PHONE });
    const listed = shipped.manifest.examples.find((example) => example.kind === 'listed-url');
    for (const input of [listed.url, 'https://www.wikipedia.org/']) {
      await page.evaluate(() => window.scrollTo(0, 0));
      await submit(page, input);
      await page.waitForTimeout(100);
      for (const part of ['check-verdict', 'check-host', 'check-date']) {
        const box = await page.locator(byId(part)).boundingBox();
        expect([part, box.y >= 0, box.y + box.height <= PHONE.height + 1]).toEqual([part, true, true]);
      }
    }
    await close();
  });
});

describe('pasted input', () => {
  const PASTES = [
    ['defanged', (url) => url.replace(/^http/, 'hxxp').replace(/\./g, '[.]')],
    ['defanged scheme separator', (url) => url.replace('://', '[:]//')],
    ['angle brackets', (url) => `<${url}>`],
    ['quotes and whitespace', (url) => `  "${url}"  `],
    ['a sentence', (url) => `Reported today: ${url}, do not click.`],
    ['a space in the path', (url) => `${url}my file.exe`],
  ];
  test('defanged, wrapped, in a sentence, with spaces: a listed host is still found, and the verdict says what was checked', async () => {
    const { page, problems, close } = await open();
    const listed = shipped.manifest.examples.find((example) => example.kind === 'listed-host' && example.url.endsWith('/'));
    for (const [what, paste] of PASTES) {
      const verdict = await submit(page, paste(listed.url));
      await expect(verdict.getAttribute('data-verdict').then((value) => [what, value])).resolves.toEqual([what, 'listed']);
      await expect(verdict.getAttribute('data-match')).resolves.toBe(listed.entry);
      const checked = await page.locator(byId('check-checked')).textContent();
      expect([what, checked]).toEqual([what, expect.stringMatching(/^Checked http:\/\/\S+ \(.+\)\.$/)]);
      if (what === 'a space in the path') expect(checked).toContain('my%20file.exe');
    }
    expect(problems).toEqual([]);
    await close();
  });
});
