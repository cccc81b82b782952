// Issue 43's phone budget (first verdict ≤ 1.0 s at 4× CPU throttle): a trace of the first
// layout showed most of its time in font lookups and text shaping, one round per font face
// met (bold, italic, monospace beside the regular face). The first screen (the header, the
// checker and its verdicts) is therefore drawn in ONE face: the system UI family at one
// weight, upright, no monospace, and no web font requested at all; the sections below it are
// not laid out until they come near the viewport (content-visibility: auto). Checked here by
// what the page computes, on the phone size, for each kind of verdict the checker draws.
import { describe, expect, test } from '@jest/globals';
import { byId, openPage, PHONE } from './lib/browser.mjs';
import { readDemoManifest, useDemoSite } from './lib/demo-site.mjs';

const site = useDemoSite({ build: process.env.DEMO_SKIP_BUILD !== '1' });

/** Each distinct face (family, weight, style) the header and the checker set text in, with an element of each. */
function facesOfFirstScreen(page) {
  return page.evaluate(() => {
    const faces = new Map();
    for (const root of [document.querySelector('header'), document.getElementById('check')]) {
      for (const element of [root, ...root.querySelectorAll('*')]) {
        const hasText = [...element.childNodes].some((node) => node.nodeType === Node.TEXT_NODE && node.textContent.trim() !== '');
        if (!hasText) continue;
        const style = getComputedStyle(element);
        const face = `${style.fontFamily} | ${style.fontWeight} | ${style.fontStyle}`;
        if (!faces.has(face)) faces.set(face, `${element.tagName.toLowerCase()}${element.className ? `.${String(element.className).split(' ').join('.')}` : ''}`);
      }
    }
    return Object.fromEntries(faces);
  });
}

describe('the first screen in one font face', () => {
  test('header, checker, a listed, a clear and a several-link verdict: one family, one weight, upright; no web font; the rest not laid out until near', async () => {
    const { page, problems, close } = await openPage(site.browser, site.server.url, { viewport: PHONE, serviceWorkers: 'block' });
    try {
      const manifest = readDemoManifest();
      const listed = manifest.examples.find((example) => example.entry !== null);
      const verdicts = [
        [listed.url, 'listed'],
        ['https://www.wikipedia.org/', 'clear'],
        [`See https://www.wikipedia.org/ and ${listed.url.replace('http', 'hxxp').replace(/\.([^./]+)\//, '[.]$1/')} now`, 'listed'],
      ];
      const seen = [];
      for (const [text, verdict] of verdicts) {
        await page.fill(byId('url-input'), text);
        await page.click(byId('check-button'));
        await page.locator(`${byId('check-verdict')}[data-verdict="${verdict}"]`).first().waitFor();
        // "How it was checked" open too: its addresses are code, drawn in the same face.
        for (const how of await page.locator(byId('check-how')).all()) await how.locator('summary').click();
        seen.push(await facesOfFirstScreen(page));
      }
      const faces = Object.assign({}, ...seen);
      expect(faces).toEqual({ [Object.keys(seen[0])[0]]: expect.any(String) });
      const [family, weight, style] = Object.keys(faces)[0].split(' | ');
      expect(family).toMatch(/^system-ui\b/);
      expect(weight).toBe('400');
      expect(style).toBe('normal');
      // No web font: none declared, none requested.
      expect(await page.evaluate(() => document.fonts.size)).toBe(0);
      const fonts = await page.evaluate(() => performance.getEntriesByType('resource').map((entry) => entry.name).filter((name) => /\.(woff2?|ttf|otf|eot)(\?|$)/i.test(name)));
      expect(fonts).toEqual([]);
      // Below the checker: skipped by layout until near the viewport.
      const below = await page.evaluate(() => [...document.querySelectorAll('main > :not(#check), footer')].map((element) => [element.id || element.tagName.toLowerCase(), getComputedStyle(element).contentVisibility]));
      expect(below.length).toBeGreaterThanOrEqual(2);
      for (const [, visibility] of below) expect(visibility).toBe('auto');
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  }, 60_000);
});
