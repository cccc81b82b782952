// Issue 43: every link in a paste is found and judged, and the verdicts say what to do in
// plain words. Real listed URLs from the shipped list (web-demo/data), benign ones whose
// verdict this suite checks first; at phone (390×844) and desktop sizes, in Chromium.
import { describe, expect, test } from '@jest/globals';
import { axeViolations } from './lib/axe.mjs';
import { benignUrls } from './lib/benign-urls.mjs';
import { byId, DESKTOP, openPage, PHONE } from './lib/browser.mjs';
import { submit } from './lib/checker-form.mjs';
import { useDemoSite } from './lib/demo-site.mjs';
import { useShippedList } from './lib/library.mjs';
import { seededRandom } from '../../web-demo/src/seeded.mjs';

const site = useDemoSite({ build: process.env.DEMO_SKIP_BUILD !== '1' });
// The companion's index and parts (`**` crosses the parts folder's slash).
const COMPANION = '**/data/urlhaus.filter.confirm**';
/** The manifest, and every entry of the shipped list's text (parsed by the library in Node): the truth the page is judged by. */
const shipped = useShippedList();

const open = (options) => openPage(site.browser, site.server.url, options);

/** A test's last checks on its page (axe finds nothing; no console errors or failed requests), then it is closed. */
async function expectCleanThenClose(page, problems, close) {
  expect(await axeViolations(page)).toEqual([]);
  expect(problems).toEqual([]);
  await close();
}

/** [data-verdict, data-url] of every link line shown. */
const linkLines = (page) => page.locator(byId('check-link')).evaluateAll((items) => items.map((item) => [item.dataset.verdict, item.dataset.url]));

const BENIGN = ['https://www.google.com/', 'https://www.paypal.com/signin'];
const defang = (url) => url.replace(/^http/, 'hxxp').replace('://', '[:]//').replace(/\./g, '[.]');

describe.each([['phone', PHONE], ['desktop', DESKTOP]])('%s: every link in a paste', (_, viewport) => {
  test('a benign and a listed link, in both orders, by space, newline, a sentence and defanged: the listed one is `listed`, the worst leads', async () => {
    const { page, problems, close } = await open({ viewport });
    // The benign ones are not listed: checked alone first.
    for (const url of BENIGN) await expect((await submit(page, url)).getAttribute('data-verdict')).resolves.toBe('clear');
    const listed = shipped.manifest.examples.filter((example) => example.entry !== null);
    expect(listed.length).toBeGreaterThanOrEqual(3);
    const separators = [
      ['space', (a, b) => `${a} ${b}`],
      ['newline', (a, b) => `${a}\n${b}`],
      ['sentence', (a, b) => `Your bank: ${a} — or use ${b}, today.`],
      ['defanged', (a, b) => `${defang(a)} and ${defang(b)}`],
      ['glued', (a, b) => `${a}${b}`],
    ];
    for (const [i, example] of listed.entries()) {
      const benign = BENIGN[i % BENIGN.length];
      for (const [what, join] of separators) {
        for (const [first, second] of [[benign, example.url], [example.url, benign]]) {
          const paste = join(first, second);
          const verdict = await submit(page, paste);
          const lines = await linkLines(page);
          expect([paste, await verdict.getAttribute('data-verdict'), await verdict.getAttribute('data-match')]).toEqual([paste, 'listed', example.entry]);
          expect([paste, lines.find(([, url]) => url === example.url)?.[0]]).toEqual([paste, 'listed']);
          if (what !== 'glued') expect([paste, lines]).toEqual([paste, [['listed', example.url], ['clear', benign]]]);
          // The worst first: the listed line leads.
          expect([paste, lines[0][0]]).toEqual([paste, 'listed']);
        }
      }
    }
    // A single link still gives a single verdict, no list of one.
    await submit(page, listed[0].url);
    await expect(page.locator(byId('check-link')).count()).resolves.toBe(0);
    await expectCleanThenClose(page, problems, close);
  }, 120_000);
});

describe('bulk', () => {
  test('1,000 pasted lines with 50 listed URLs: all 50 reported listed, listed first, no echo of the list', async () => {
    const { page, problems, close } = await open({ viewport: PHONE });
    const spread = Array.from({ length: 50 }, (_, i) => shipped.expressions[Math.floor(((i + 0.5) * shipped.expressions.length) / 50)]);
    const listedUrls = spread.map((expression) => `http://${expression}`);
    const benign = benignUrls(950);
    // The benign ones are really not on the list: none of their expressions is an entry.
    const truth = new Set(shipped.expressions);
    const benignChecks = await page.evaluate(async (urls) => (await window.demo.verdicts(urls)).map((v) => [v.verdict, v.expressions]), benign);
    expect(benignChecks.filter(([, expressions]) => expressions.some((expression) => truth.has(expression)))).toEqual([]);
    const random = seededRandom(43);
    const lines = [...benign, ...listedUrls].map((url) => [random(), url]).sort((a, b) => a[0] - b[0]).map(([, url]) => url);
    await submit(page, lines.join('\n'));
    const shown = await linkLines(page);
    const listedShown = shown.filter(([verdict]) => verdict === 'listed').map(([, url]) => url);
    expect(new Set(listedShown)).toEqual(new Set(listedUrls));
    expect(listedShown).toHaveLength(50);
    // Listed first, then the rest.
    expect(shown.slice(0, 50).every(([verdict]) => verdict === 'listed')).toBe(true);
    await expect(page.locator(byId('check-summary')).textContent()).resolves.toMatch(/^1,000 links found: 50 on the list, 950 not on the list\./);
    // No 300 KB echo: the clear ones are counted, a few named.
    const outputText = await page.locator(byId('check-output')).innerText();
    const pasted = lines.join('\n').length;
    expect(outputText.length).toBeLessThan(pasted / 4);
    await expect(page.locator(byId('check-links-hidden')).textContent()).resolves.toMatch(/and 93\d more links not on the list/);
    await expectCleanThenClose(page, problems, close);
  }, 120_000);
});

describe('verdicts in plain words', () => {
  test('listed: the first sentence after the headline says not to open it; the headline never breaks inside the host (phone)', async () => {
    const { page, close } = await open({ viewport: PHONE });
    for (const example of shipped.manifest.examples.filter((entry) => entry.entry !== null)) {
      const verdict = await submit(page, example.url);
      const [headline, after] = await verdict.evaluate((element) => [element.children[0].textContent, element.children[1].textContent]);
      expect(headline).toMatch(/^⚠ On the list/);
      expect([example.url, after.split(/(?<=\.)\s/)[0]]).toEqual([example.url, 'Don’t open it.']);
      // The host of the entry, as laid out in the headline: all on one line.
      const host = example.entry.slice(0, example.entry.indexOf('/'));
      const lines = await verdict.evaluate((element, hostText) => {
        const headlineElement = element.children[0];
        const walker = document.createTreeWalker(headlineElement, NodeFilter.SHOW_TEXT);
        let text = '';
        const nodes = [];
        while (walker.nextNode()) {
          nodes.push([walker.currentNode, text.length]);
          text += walker.currentNode.textContent;
        }
        const start = text.indexOf(hostText, text.indexOf(':'));
        const range = document.createRange();
        const at = (offset) => {
          const [node, base] = nodes.filter(([, b]) => b <= offset).at(-1);
          return [node, offset - base];
        };
        range.setStart(...at(start));
        range.setEnd(...at(start + hostText.length - 1));
        range.setEnd(range.endContainer, range.endOffset + 1);
        return new Set([...range.getClientRects()].filter((rect) => rect.width > 0).map((rect) => Math.round(rect.top))).size;
      }, host);
      expect([example.url, lines]).toEqual([example.url, 1]);
    }
    await close();
  });

  test('clear is green, styled apart from possible; the list’s age is a note; the odds are this URL’s, from the library’s per-lookup rate', async () => {
    const { page, context, close } = await open();
    const clear = await submit(page, 'https://www.wikipedia.org/');
    const clearStyle = await clear.evaluate((element) => [getComputedStyle(element).backgroundColor, getComputedStyle(element).borderLeftColor]);
    await expect(clear.locator('.verdict-headline').textContent()).resolves.toBe('✓ Not on the list');
    await expect(page.locator(byId('check-date')).textContent()).resolves.toMatch(/List copy of .* old/);
    // Punycode only when it differs from the host; the expressions under "How it was checked".
    await expect(clear.textContent()).resolves.not.toMatch(/punycode|expression/i);
    await context.route(COMPANION, (route) => route.abort('blockedbyclient'));
    const fp = (await page.evaluate(async (urls) => (await window.demo.verdicts(urls)).map((v) => [v.verdict, v.checked, v.expressions.length]), benignUrls(5000)))
      .find(([verdict]) => verdict === 'possible');
    expect(fp).toBeDefined();
    const possible = await submit(page, fp[1]);
    await expect(possible.getAttribute('data-verdict')).resolves.toBe('possible');
    const possibleStyle = await possible.evaluate((element) => [getComputedStyle(element).backgroundColor, getComputedStyle(element).borderLeftColor]);
    expect(clearStyle[0]).not.toBe(possibleStyle[0]);
    expect(clearStyle[1]).not.toBe(possibleStyle[1]);
    const text = await possible.textContent();
    // What to do now, and how to confirm.
    expect(text).toMatch(/Don’t open it for now\. To confirm, press “Confirm again”/);
    // The odds for this URL's lookups: 1 - (1 - p)^n with the library's per-lookup rate p.
    const rate = -Math.expm1(fp[2] * Math.log1p(-shipped.manifest.lookupFalsePositiveRate));
    expect(text).toContain(`this address’s ${fp[2]} lookup${fp[2] === 1 ? '' : 's'}`);
    expect(text).toContain(`1 in ${Math.round(1 / rate).toLocaleString('en-US')} (`);
    expect(text).not.toContain('1 in 1,000 (0.1%)');
    expect(await axeViolations(page)).toEqual([]);
    await close();
  });

  test('"How it was checked (1 lookup)": the count from the page’s own check, singular when one; punycode there and in the verdict only when it differs', async () => {
    const { page, close } = await open();
    const counts = [];
    for (const url of ['http://192.0.2.7/', 'https://www.wikipedia.org/', 'https://bücher.example/katalog']) {
      const n = await page.evaluate(async (input) => (await window.demo.verdict(input)).expressions.length, url);
      await submit(page, url);
      await expect(page.locator(`${byId('check-how')} summary`).textContent()).resolves.toBe(`How it was checked (${n} lookup${n === 1 ? '' : 's'})`);
      counts.push(n);
    }
    expect(counts).toContain(1);
    await expect(page.locator(byId('check-host')).textContent()).resolves.toBe('Host bücher.example · punycode xn--bcher-kva.example');
    await close();
  });

  test('"show a caught false positive": an address on no list that the filter says maybe for, cleared by the exact list and explained', async () => {
    const { page, problems, close } = await open({ viewport: PHONE });
    await page.click(byId('example-false-positive'));
    const verdict = page.locator(`${byId('check-output')} ${byId('check-verdict')}`);
    await verdict.waitFor();
    await expect(verdict.getAttribute('data-verdict')).resolves.toBe('clear');
    const teaching = page.locator(byId('check-false-positive'));
    await expect(teaching.textContent()).resolves.toMatch(/answered “maybe” for .*holds no hash/);
    // Truly on no list: none of its expressions is an entry of the list's text.
    const url = await page.inputValue(byId('url-input'));
    const { expressions, maybes } = await page.evaluate(async (input) => window.demo.verdict(input), url);
    const truth = new Set(shipped.expressions);
    expect(expressions.filter((expression) => truth.has(expression))).toEqual([]);
    expect(maybes.length).toBeGreaterThan(0);
    await expectCleanThenClose(page, problems, close);
  });
});
