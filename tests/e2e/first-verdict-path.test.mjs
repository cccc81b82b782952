// Issue 43: "nothing the verdict does not need runs before it", checked by what the page
// does rather than by a clock (a time on this shared 2-core machine is a benchmark:
// bench/demo-first-verdict.mjs). A URL is submitted the moment the form exists, on fresh
// loads at the phone size, and until its verdict is on screen the page
//   - makes no Intl formatter and calls no toLocaleString: the first one a page makes loads
//     the locale data, 0.1-0.8 s at 4× CPU throttle (it was a top-level
//     `new Intl.NumberFormat` in the checker's own chunk);
//   - requests nothing but what index.html names (its script, styles, preloads) and, for a
//     listed verdict only, the exact companion's index and part it is confirmed with: no
//     playgrounds, lab, full library, comparison filter or service worker, and for a clear
//     verdict (a filter's "no") not the companion's index either.
// The hand-written formats that replace Intl (web-demo/src/dom.ts, manifest.ts) are
// compared with Intl's own output here too, so the page reads the same as before.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, test } from '@jest/globals';
import { build } from 'esbuild';
import { PHONE } from './lib/browser.mjs';
import { readDemoManifest, ROOT, useDemoSite } from './lib/demo-site.mjs';
import { WATCH_VERDICT } from './lib/first-verdict.mjs';

const site = useDemoSite();

// Installed before any page script: every Intl formatter made and every toLocaleString
// call until the verdict is on screen, by name (with the first stack line for a failure message).
const WATCH_INTL = () => {
  const seen = (window.__intlBeforeVerdict = []);
  const record = (name) => {
    if (document.querySelector('[data-testid="check-verdict"]') === null) seen.push(`${name} ${new Error().stack.split('\n')[3]?.trim() ?? ''}`);
  };
  for (const name of ['NumberFormat', 'DateTimeFormat', 'PluralRules', 'RelativeTimeFormat', 'ListFormat', 'Collator', 'Segmenter', 'DisplayNames']) {
    const original = Intl[name];
    if (typeof original !== 'function') continue;
    Intl[name] = new Proxy(original, {
      construct(target, args, newTarget) {
        record(`Intl.${name}`);
        return Reflect.construct(target, args, newTarget === Intl[name] ? target : newTarget);
      },
      apply(target, self, args) {
        record(`Intl.${name}`);
        return Reflect.apply(target, self, args);
      },
    });
  }
  for (const [owner, label] of [[Number.prototype, 'Number'], [Date.prototype, 'Date'], [Array.prototype, 'Array'], [BigInt.prototype, 'BigInt']]) {
    for (const method of ['toLocaleString', 'toLocaleDateString', 'toLocaleTimeString']) {
      const original = owner[method];
      if (typeof original !== 'function') continue;
      owner[method] = function (...args) {
        record(`${label}.prototype.${method}`);
        return original.apply(this, args);
      };
    }
  }
  const compare = String.prototype.localeCompare;
  String.prototype.localeCompare = function (...args) {
    record('String.prototype.localeCompare');
    return compare.apply(this, args);
  };
};

/** A fresh load (no cache, no worker) at the phone size, `url` submitted at DOMContentLoaded. */
async function firstVisit(url) {
  const context = await site.browser.newContext({ viewport: PHONE, serviceWorkers: 'block' });
  try {
    const page = await context.newPage();
    const requests = [];
    page.on('request', (request) => requests.push({ url: request.url(), at: Date.now() }));
    await page.addInitScript(WATCH_INTL);
    await page.addInitScript(WATCH_VERDICT, url);
    await page.goto(site.server.url, { waitUntil: 'domcontentloaded' });
    await page.waitForFunction(() => window.__firstVerdictMs !== undefined, null, { timeout: 30_000 });
    const { verdict, intl, fetched } = await page.evaluate(() => ({
      verdict: document.querySelector('[data-testid="check-verdict"]').dataset.verdict,
      intl: window.__intlBeforeVerdict,
      // Requests started before the verdict appeared (the clock every entry shares).
      fetched: performance.getEntriesByType('resource').filter((entry) => entry.startTime <= window.__firstVerdictMs).map((entry) => new URL(entry.name).pathname),
    }));
    return { verdict, intl, fetched, requests };
  } finally {
    await context.close();
  }
}

/** What index.html itself names (scripts, styles, preloads), as paths. */
function pathsNamedByPage() {
  const html = readFileSync(join(ROOT, 'web-demo', 'dist', 'index.html'), 'utf8');
  return new Set([...html.matchAll(/<(?:link|script)\b[^>]*\b(?:href|src)="([^"]+)"/g)].map(([, ref]) => ref).filter((ref) => !ref.startsWith('data:')).map((ref) => new URL(ref, 'http://x/').pathname));
}

describe('the first verdict waits for nothing it does not need', () => {
  let manifest;
  beforeAll(() => {
    manifest = readDemoManifest();
  });

  test.each([
    ['clear', () => 'https://www.wikipedia.org/', false],
    ['listed', () => manifest.examples.find((example) => example.kind === 'listed-url').url, true],
  ])('%s: no Intl before the verdict, and nothing fetched but the page’s own files (and for listed, the companion’s index and part)', async (expected, url, confirmed) => {
    const named = pathsNamedByPage();
    const companion = new RegExp(`^/${manifest.confirmation.index.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$|^/${manifest.confirmation.parts.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\d+$`);
    for (let run = 0; run < 2; run++) {
      const { verdict, intl, fetched } = await firstVisit(url());
      expect(verdict).toBe(expected);
      expect(intl).toEqual([]);
      // A clear verdict is the filter's own "no": the companion (even its index) is for a maybe.
      expect(fetched.filter((path) => !named.has(path) && !(confirmed && companion.test(path)))).toEqual([]);
      // The verdict's own files did arrive (the page did not answer from somewhere else).
      expect(fetched).toEqual(expect.arrayContaining(['/app.js', '/core.reader.wasm', `/${manifest.filters[manifest.preloaded].file}`]));
    }
  }, 120_000);
});

describe('the formats written without Intl read as Intl wrote them', () => {
  let formatInteger;
  let formatUtcDay;
  beforeAll(async () => {
    // The page's modules as the page runs them (both are plain TypeScript with no imports from the package).
    const { outputFiles } = await build({
      stdin: { contents: "export { formatInteger } from './dom.ts'; export { formatUtcDay } from './manifest.ts';", resolveDir: join(ROOT, 'web-demo', 'src'), loader: 'ts' },
      bundle: true,
      format: 'esm',
      platform: 'neutral',
      write: false,
      logLevel: 'silent',
    });
    const dir = join(ROOT, 'test-artifacts', 'e2e');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'plain-formats.mjs'), outputFiles[0].text);
    ({ formatInteger, formatUtcDay } = await import(pathToFileURL(join(dir, 'plain-formats.mjs')).href));
  });

  test('integers (every sign and length, the largest safe ones) and the odd values left to Intl', () => {
    const intl = new Intl.NumberFormat('en-US');
    const values = [0, -0, 1, -1, 7, 12, 999, 1000, -1000, 6239, 12345, 999999, 1000000, 1234567, -9876543, 2 ** 31, 2 ** 53 - 1, -(2 ** 53 - 1), 2 ** 53, 1e21, 0.5, 1234.5678, -0.0004, Number.NaN, Infinity, -Infinity];
    for (let digits = 1; digits <= 16; digits++) values.push(Number('9'.repeat(digits)), Number(`1${'0'.repeat(digits - 1)}`));
    for (const value of values) expect([value, formatInteger(value)]).toEqual([value, intl.format(value)]);
  });

  test('the list’s date: every month and day edge, in UTC', () => {
    const intl = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
    const times = [];
    for (let month = 0; month < 12; month++) times.push(Date.UTC(2025, month, 1), Date.UTC(2025, month, 28, 23, 59, 59), Date.UTC(2024, month, 15, 0, 0, 0));
    times.push(Date.parse('2025-10-25T00:10:18Z'), Date.UTC(2000, 1, 29), Date.UTC(1970, 0, 1), Date.UTC(9999, 11, 31), Date.UTC(999, 0, 1), Date.UTC(10000, 0, 1));
    for (const time of times) expect([time, formatUtcDay(time)]).toEqual([time, intl.format(time)]);
  });
});
