// End-to-end tests of the web demo (web-demo/) in real headless Chromium (Debian's
// /usr/bin/chromium via playwright-core), at desktop (1440×900) and phone (390×844) sizes.
// The site is rebuilt from the sources before the suite and served in-process on
// 127.0.0.1. Screenshots go to test-artifacts/e2e/; with UPDATE_DEMO_SCREENSHOTS=1 the
// ones the README shows are written to docs/demo/ as well.
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from '@jest/globals';
import { axeViolations } from './lib/axe.mjs';
import { byId, DESKTOP, openPage, PHONE } from './lib/browser.mjs';
import { installContrast } from './lib/contrast.mjs';
import { readDemoManifest, ROOT, useDemoSite } from './lib/demo-site.mjs';
import { startPlaygrounds } from './lib/playgrounds.mjs';

const ARTIFACTS = join(ROOT, 'test-artifacts', 'e2e');
const DOCS = join(ROOT, 'docs', 'demo');
const UPDATE_DOCS = process.env.UPDATE_DEMO_SCREENSHOTS === '1';

const site = useDemoSite();
let manifest;

beforeAll(() => {
  manifest = readDemoManifest();
  mkdirSync(ARTIFACTS, { recursive: true });
  if (UPDATE_DOCS) mkdirSync(DOCS, { recursive: true });
});

const open = (options) => openPage(site.browser, site.server.url, options);
const playgrounds = (page) => startPlaygrounds(page);

/** A screenshot of one element (a data-testid) or the viewport; `docs`: also for the README. */
async function shot(page, name, testId, { docs = false } = {}) {
  const path = join(ARTIFACTS, `${name}.png`);
  if (testId) await page.locator(byId(testId)).screenshot({ path, animations: 'disabled' });
  else await page.screenshot({ path, animations: 'disabled' });
  if (docs && UPDATE_DOCS) copyFileSync(path, join(DOCS, `${name}.png`));
}

async function checkUrl(page, url, { form = 'check-form', input = 'url-input', output = 'check-output' } = {}) {
  await page.fill(byId(input), url);
  await page.click(`${byId(form)} button[type="submit"]`);
  const verdict = page.locator(`${byId(output)} ${byId('check-verdict')}`);
  await verdict.waitFor();
  return { verdict: await verdict.getAttribute('data-verdict'), match: await verdict.getAttribute('data-match') };
}

const text = (page, testId) => page.locator(byId(testId)).first().textContent();

/**
 * Opens the demo (`options` as openPage takes them), waits until the playgrounds are
 * ready, runs `body(page)`, then requires that the page reported no problems (console
 * errors, failed requests) and closes it.
 */
async function inPlaygrounds(body, options) {
  const { page, problems, close } = await open(options);
  await playgrounds(page);
  await body(page);
  expect(problems).toEqual([]);
  await close();
}

describe('checking a URL', () => {
  test('flags listed hosts and URLs with the right entry (confirmed) and clears ordinary sites', async () => {
    const { page, problems, close } = await open();
    const listed = manifest.examples.filter((example) => example.entry !== null);
    expect(listed.length).toBeGreaterThanOrEqual(2);
    for (const example of listed) {
      await expect(checkUrl(page, example.url)).resolves.toEqual({ verdict: 'listed', match: example.entry });
    }
    const urlExample = manifest.examples.findIndex((example) => example.kind === 'listed-url');
    await page.click(byId(`example-${urlExample}`));
    await expect(text(page, 'check-match')).resolves.toBe(manifest.examples[urlExample].entry);
    await shot(page, 'check-listed', 'check-section', { docs: true });
    for (const url of ['https://www.wikipedia.org/', 'https://developer.mozilla.org/en-US/docs/Web']) {
      await expect(checkUrl(page, url)).resolves.toEqual({ verdict: 'clear', match: null });
    }
    await expect(page.locator(`${byId('check-expressions')} li`).count()).resolves.toBeGreaterThan(2);
    expect(problems).toEqual([]);
    await close();
  });

  test('the verdict names the list, its date and age, and does not call a snapshot certain; a listed one names the filter type from the bytes', async () => {
    const { page, close } = await open();
    await checkUrl(page, 'https://www.wikipedia.org/');
    const clear = await text(page, 'check-verdict');
    const updated = new Date(manifest.updated);
    const day = updated.toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
    expect(clear).toContain('URLhaus');
    expect(clear).toContain(day);
    expect(clear).toMatch(/\d+ (hours?|days) old/);
    expect(clear).not.toMatch(/certain/i);
    expect(clear).toMatch(/does not prove the site is safe/);
    await shot(page, 'check-clear', 'check-section', { docs: true });
    const listed = manifest.examples.find((example) => example.kind === 'listed-host');
    await checkUrl(page, listed.url);
    const hit = await text(page, 'check-verdict');
    expect(hit).toContain(day);
    expect(hit).toMatch(/confirmed against the exact list/);
    // Confirmed: no "1 in N" odds, which were never the chance that this verdict is wrong.
    expect(hit).not.toMatch(/1 in [\d,]+/);
    await expect(text(page, 'load-status')).resolves.toContain(`${manifest.preloaded.replace('-', ' ')} filter`);
    // The checker's type as its bytes say (the build's default: the smallest static type), not a fixed name.
    await expect(page.locator('#check-method').textContent()).resolves.toContain(`looked up in the list’s ${manifest.preloaded.replace('-', ' ')} filter`);
    await close();
  });

  test.each([['not a url'], ['http://exa mple.com:99999/'], ['javascript:alert(1)'], ['localhostish'], ['http://%zz/'], ['   '], ['ftp://files.example/x']])(
    'garbage input %j is invalid, never a verdict about the list',
    async (input) => {
      const { page, problems, close } = await open();
      await page.fill(byId('url-input'), input);
      await page.click(byId('check-button'));
      await expect(page.locator(byId('check-verdict')).getAttribute('data-verdict')).resolves.toBe('invalid');
      await expect(page.locator(byId('check-error')).count()).resolves.toBe(1);
      if (input === 'not a url') await shot(page, 'check-invalid', 'check-section', { docs: true });
      expect(problems).toEqual([]);
      await close();
    },
  );

  test.each([['desktop', DESKTOP], ['phone', PHONE]])('%s: after Check the verdict is in the viewport and has focus', async (_, viewport) => {
    const { page, close } = await open({ viewport });
    for (const url of ['https://www.wikipedia.org/', manifest.examples[0].url, 'not a url']) {
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.fill(byId('url-input'), url);
      await page.locator(byId('url-input')).press('Enter');
      await page.locator(byId('check-verdict')).waitFor();
      await page.waitForTimeout(100);
      const where = await page.evaluate(() => {
        const verdict = document.querySelector('[data-testid="check-verdict"]');
        const box = verdict.getBoundingClientRect();
        return { top: box.top, bottom: box.bottom, height: innerHeight, focused: document.activeElement === verdict };
      });
      expect(where.top).toBeGreaterThanOrEqual(0);
      expect(where.bottom).toBeLessThanOrEqual(where.height + 1); // sub-pixel layout
      expect(where.focused).toBe(true);
    }
    if (viewport === PHONE) await shot(page, 'phone-verdict', null, { docs: true });
    await close();
  });
});

describe('the filter and its comparison', () => {
  test('loads clean, measures each compared type with a fixed sample, and times nothing', async () => {
    const { page, problems, close } = await open();
    await playgrounds(page);
    await page.click(byId('comparison-load'), { timeout: 30_000 });
    await page.waitForSelector('body[data-comparison="done"]', { timeout: 30_000 });
    await expect(text(page, 'load-status')).resolves.toMatch(/^Ready: /);
    await expect(text(page, 'stats-entries')).resolves.toContain(manifest.entryCount.toLocaleString('en-US'));
    const types = Object.keys(manifest.filters);
    await expect(page.locator(`${byId('comparison-table')} tbody tr`).count()).resolves.toBe(types.length);
    const headers = await page.locator(`${byId('comparison-table')} thead th`).allTextContents();
    expect(headers.join(' ')).not.toMatch(/lookups|ms|µs/);
    expect(headers).toContain('One lookup reads');
    const hits = [];
    for (const type of types) {
      const cell = await text(page, `measured-fpr-${type}`);
      hits.push(Number(/\(([\d,]+)\)/.exec(cell)[1].replace(/,/g, '')));
    }
    // Filters at 0.1% per URL run at that divided by the lookups a URL makes at the list's
    // depths (about 70 for URLhaus) per lookup: over 1,000,000 absent expressions, ~14 hits
    // each (Poisson: below a quarter or over 3x is beyond 1 in 2,000); far outside would be a bug. A growing filter keeps its rate
    // under the target at any growth (a chain by tightening each link's, its first link alone
    // at about a tenth of it; the expandable filter by widening its fingerprints, which a whole
    // bit's rounding leaves at a quarter of it or less), so only the upper bound applies to it:
    // the registry's growth fact says which.
    const { init, FILTER_TYPES } = await import('cuckoo-bloom-wasm');
    await init();
    const grows = new Set(FILTER_TYPES.filter((entry) => entry.growth !== 'none').map((entry) => entry.name));
    expect(grows.size).toBeGreaterThan(0);
    expect(grows.has('bloom')).toBe(false);
    const expected = manifest.lookupFalsePositiveRate * 1_000_000;
    expect(expected).toBeGreaterThan(5);
    types.forEach((type, i) => {
      if (!grows.has(type)) expect([type, hits[i] > expected / 4]).toEqual([type, true]);
      expect([type, hits[i] < expected * 3]).toEqual([type, true]);
    });
    // A fixed seed: a second load measures exactly the same counts.
    const again = await open();
    await playgrounds(again.page);
    await again.page.click(byId('comparison-load'), { timeout: 30_000 });
    await again.page.waitForSelector('body[data-comparison="done"]', { timeout: 30_000 });
    for (const [i, type] of types.entries()) {
      await expect(text(again.page, `measured-fpr-${type}`)).resolves.toContain(`(${hits[i].toLocaleString('en-US')})`);
    }
    await again.close();
    await shot(page, 'filter-comparison', 'filter-section', { docs: true });
    expect(problems).toEqual([]);
    await close();
  });
});

describe('teaching moments, one click each from a fresh page', () => {
  test('Bloom: "Find a false positive" names the keys that set each of its bits (checked in Node)', () => inPlaygrounds(async (page) => {
    await page.click(byId('bloom-find-fp'));
    const key = await text(page, 'bloom-fp-key');
    const added = await page.locator(`${byId('bloom-keys')} button.chip-key`).evaluateAll((chips) => chips.map((chip) => chip.dataset.key));
    expect(added).not.toContain(key);
    // The same filter in Node (same options, same keys) agrees: a false positive, and each
    // bit is set by the keys the page names.
    const { init, BloomFilter } = await import('cuckoo-bloom-wasm');
    await init();
    const filter = new BloomFilter({ capacity: 20, falsePositiveRate: 0.01 });
    for (const k of added) filter.add(k);
    expect(filter.has(key)).toBe(true);
    const bits = await page.locator(byId('bloom-fp-bit')).evaluateAll((items) => items.map((item) => ({ bit: Number(item.dataset.bit), setters: [...item.querySelectorAll('code')].map((code) => code.textContent) })));
    expect(bits.map((entry) => entry.bit).sort((a, b) => a - b)).toEqual([...new Set(filter.positions(key))].sort((a, b) => a - b));
    for (const { bit, setters } of bits) {
      expect(setters.length).toBeGreaterThan(0);
      expect(setters).toEqual(added.filter((k) => filter.positions(k).includes(bit)));
    }
    filter.free();
    await shot(page, 'bloom-false-positive', 'bloom-section', { docs: true });
  }));

  test('Bloom: probes that land on the same bit are explained; tapping a key (keyboard) lights its bits', async () => {
    const { init, BloomFilter } = await import('cuckoo-bloom-wasm');
    await init();
    const filter = new BloomFilter({ capacity: 20, falsePositiveRate: 0.01 });
    const repeating = Array.from({ length: 5000 }, (_, i) => `key-${i}`).find((k) => new Set(filter.positions(k)).size < filter.positions(k).length);
    expect(repeating).toBeDefined();
    const distinct = new Set(filter.positions(repeating)).size;
    filter.free();
    const { page, problems, close } = await open();
    await playgrounds(page);
    await page.fill(byId('bloom-key'), repeating);
    await page.click(byId('bloom-add'));
    await expect(text(page, 'bloom-repeats')).resolves.toContain(`only ${distinct} distinct bits`);
    await page.click(byId('bloom-random'));
    await page.locator(`${byId('bloom-keys')} button.chip-key[data-key="${repeating}"]`).focus();
    await page.keyboard.press('Enter');
    await expect(page.locator(`${byId('bloom-keys')} button.chip-key[data-key="${repeating}"]`).getAttribute('aria-pressed')).resolves.toBe('true');
    await expect(page.locator(`${byId('bloom-grid')} .bit.is-probe`).count()).resolves.toBe(distinct);
    await expect(page.locator(`${byId('bloom-grid')} .bit-row-label`).first().textContent()).resolves.toBe('0');
    expect(problems).toEqual([]);
    await close();
  });

  test('unsafe Bloom delete beside a counting Bloom filter: false negatives named on one side only', () => inPlaygrounds(async (page) => {
    await page.click(byId('delete-demo'));
    await expect(page.locator(byId('delete-false-negative')).count()).resolves.toBeGreaterThan(0);
    await expect(text(page, 'delete-bloom-result')).resolves.toMatch(/false negatives/);
    await expect(text(page, 'delete-counting-result')).resolves.toMatch(/all 7 other keys still found/);
    await expect(page.locator(`${byId('delete-bloom-grid')} .bit.is-cleared`).count()).resolves.toBeGreaterThan(0);
    await shot(page, 'bloom-vs-counting-delete', 'delete-section', { docs: true });
  }));

  test('cuckoo: "Add until a kick happens", stepped forward and back; each move obeys i2 = (h(fp) - i1) mod m', () => inPlaygrounds(async (page) => {
    await page.click(byId('cuckoo-until-kick'));
    await page.locator(byId('cuckoo-kicked')).waitFor();
    await expect(page.locator(byId('kick-player')).isVisible()).resolves.toBe(true);
    const steps = () => page.locator(byId('cuckoo-kick-step')).count();
    await expect(steps()).resolves.toBe(1); // paused on the first step
    await page.click(byId('kick-step'));
    await expect(steps()).resolves.toBe(2);
    await expect(page.locator(byId('cuckoo-kick-arrow')).count()).resolves.toBe(1);
    await page.click(byId('kick-back'));
    await expect(steps()).resolves.toBe(1);
    await page.click(byId('kick-play'));
    await page.locator(`${byId('cuckoo-kick-chain')} li`, { hasText: 'a free slot: done' }).waitFor({ timeout: 15_000 });
    const moves = await page.locator(byId('cuckoo-kick-step')).evaluateAll((items) => items.map((item) => [Number(item.dataset.bucket), Number(item.dataset.formulaBucket)]));
    expect(moves.length).toBeGreaterThanOrEqual(2);
    for (const [bucket, formula] of moves) expect(formula).toBe(bucket);
    await expect(page.locator(byId('cuckoo-alt')).first().textContent()).resolves.toMatch(/^\(h\([0-9a-f]+\) − \d+\) mod \d+ = \(\d+ − \d+\) mod \d+ = \d+$/);
    await shot(page, 'cuckoo-kick-chain', 'cuckoo-section', { docs: true });
  }));

  test('cuckoo: "Find a false positive" names the stored key with the same fingerprint (checked in Node)', () => inPlaygrounds(async (page) => {
    await page.click(byId('cuckoo-find-fp'));
    const key = await text(page, 'cuckoo-fp-key');
    const sharers = await page.locator(byId('cuckoo-fp-sharer')).allTextContents();
    expect(sharers.length).toBeGreaterThan(0);
    const { init, CuckooFilter } = await import('cuckoo-bloom-wasm');
    await init();
    const filter = new CuckooFilter({ capacity: 16, bucketSize: 4, fingerprintBits: 8 });
    const at = filter.locate(key);
    for (const sharer of sharers) {
      const other = filter.locate(sharer);
      expect(other.fingerprint).toBe(at.fingerprint);
      expect(other.buckets.some((b) => at.buckets.includes(b))).toBe(true);
    }
    filter.free();
  }));

  test('cuckoo: removing a key never added, then checking its victim, is named a false negative', () => inPlaygrounds(async (page) => {
    await page.click(byId('cuckoo-unsafe-remove'));
    const victim = await text(page, 'cuckoo-victim');
    await expect(page.locator(`${byId('cuckoo-keys')} li.is-lost`).count()).resolves.toBe(1);
    await page.fill(byId('cuckoo-key'), victim);
    await page.click(byId('cuckoo-check'));
    const message = await text(page, 'cuckoo-false-negative');
    expect(message).toMatch(/^False negative! /);
    expect(message).toContain(victim);
    expect(message).toMatch(/never added, deleted its fingerprint/);
    await shot(page, 'cuckoo-false-negative', 'cuckoo-section', { docs: true });
  }));

  test('cuckoo: one key added 9 times is "no room for another copy", explained as 2 × bucketSize', () => inPlaygrounds(async (page) => {
    await page.fill(byId('cuckoo-key'), 'same-key');
    for (let i = 0; i < 9; i++) await page.click(byId('cuckoo-add'));
    const full = page.locator(byId('cuckoo-full'));
    await expect(full.getAttribute('data-reason')).resolves.toBe('copies');
    await expect(full.textContent()).resolves.toMatch(/at most 2 × bucketSize = 8 times/);
    await expect(text(page, 'cuckoo-recheck-summary')).resolves.toContain('8 of 8 found');
    const chain = await page.locator(byId('cuckoo-kick-chain')).textContent();
    expect(chain).not.toMatch(/kicks out/);
    expect(chain).toMatch(/another copy of [0-9a-f]+ \(the same fingerprint twice\)/);
  }, { reducedMotion: 'reduce' }));

  test('a full cuckoo filter shows the failed insert and every earlier key still found', () => inPlaygrounds(async (page) => {
    await page.click(byId('cuckoo-fill'));
    await page.locator(byId('cuckoo-full')).waitFor();
    const keys = await page.locator(`${byId('cuckoo-keys')} li`).count();
    expect(keys).toBeGreaterThan(20);
    await expect(text(page, 'cuckoo-recheck-summary')).resolves.toContain(`${keys} of ${keys} found`);
    await expect(page.locator(byId('cuckoo-kick-chain')).textContent()).resolves.toMatch(/gave up and undid every move/);
  }, { reducedMotion: 'reduce' }));

  test('tune it: formulas, toy filters rebuilt from the settings, measured points on the theory curve', () => inPlaygrounds(async (page) => {
    await page.fill(byId('tune-bloom-n'), '30');
    await page.selectOption(byId('tune-bloom-rate'), '0.001');
    await expect(text(page, 'tune-bloom-out')).resolves.toMatch(/m = −n ln ε \/ \(ln 2\)² = −30 · ln 0\.001 \/ 0\.480 = 432 bits/);
    await page.fill(byId('tune-cuckoo-f'), '6');
    await expect(text(page, 'tune-cuckoo-out')).resolves.toMatch(/2 · 4 \/ 2\^6 = 12\.5%/);
    await page.click(byId('tune-measure'));
    const real = await text(page, 'tune-bloom-real');
    const [, m, k] = /m = (\d+), k = (\d+)/.exec(real).map(Number);
    await expect(text(page, 'bloom-stats')).resolves.toContain(`m = ${m} bits, k = ${k} probes`);
    await expect(page.locator(`${byId('fpr-chart')} [data-testid="fpr-point-bloom"]`).count()).resolves.toBe(60);
    await expect(page.locator(`${byId('fpr-chart')} [data-testid="fpr-point-cuckoo"]`).count()).resolves.toBeGreaterThan(10);
    await expect(page.locator(`${byId('cuckoo-keys')} li`).count()).resolves.toBeGreaterThan(10);
    // The measured rate at 2n keys (4,000 fixed probes) lies near (1 − e^(−kx/m))^k.
    const current = page.locator(`${byId('fpr-chart')} circle.current.bloom`);
    await expect(current.getAttribute('data-keys')).resolves.toBe('60');
    const now = Number(await current.getAttribute('data-rate'));
    const theory = (1 - Math.exp((-k * 60) / m)) ** k;
    expect(now).toBeGreaterThan(theory / 2);
    expect(now).toBeLessThan(theory * 2);
    await shot(page, 'tune-it', 'tune-section', { docs: true });
  }));
});

describe('accessibility', () => {
  test.each([['desktop', DESKTOP], ['phone', PHONE]])('%s: axe-core finds 0 violations before and after interaction', async (_, viewport) => {
    const { page, problems, close } = await open({ viewport, reducedMotion: 'reduce' });
    // Before the playgrounds load: the note that they load on a scroll, and its button.
    expect(await axeViolations(page)).toEqual([]);
    await playgrounds(page);
    await page.click(byId('comparison-load'), { timeout: 30_000 });
    await page.waitForSelector('body[data-comparison="done"]', { timeout: 30_000 });
    expect(await axeViolations(page)).toEqual([]);
    await checkUrl(page, manifest.examples[0].url);
    await page.click(byId('bloom-find-fp'));
    await page.click(byId('delete-demo'));
    await page.click(byId('cuckoo-until-kick'));
    await page.click(byId('tune-measure'));
    await page.locator(`${byId('cuckoo-keys')} button.chip-key`).first().click();
    expect(await axeViolations(page)).toEqual([]);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBe(0);
    if (viewport === PHONE) await shot(page, 'phone-playgrounds', 'cuckoo-section', { docs: true });
    expect(problems).toEqual([]);
    await close();
  });

  test('non-text contrast is at least 3:1 for bits, slots and the focus ring', async () => {
    const { page, close } = await open();
    await playgrounds(page);
    await page.click(byId('bloom-random'));
    await page.click(byId('cuckoo-random'));
    // A check redraws the table without the "just placed" highlight: plain used slots.
    await page.fill(byId('cuckoo-key'), 'absent-key');
    await page.click(byId('cuckoo-check'));
    await page.locator(byId('url-input')).focus();
    await page.keyboard.press('Tab');
    await installContrast(page);
    const pairs = await page.evaluate(() => {
      const ratio = window.__contrastRatio;
      const style = (selector) => getComputedStyle(document.querySelector(selector));
      const card = style('#structures').backgroundColor;
      return {
        'empty bit border': ratio(style('.bit:not(.is-set)').borderTopColor, card),
        'set bit': ratio(style('.bit.is-set').backgroundColor, card),
        'empty slot border': ratio(style('rect.slot:not(.is-used)').stroke, card),
        'used slot vs empty slot': ratio(style('rect.slot.is-used').fill, style('rect.slot:not(.is-used)').fill),
        'focus ring': ratio(getComputedStyle(document.activeElement).outlineColor, style('#check').backgroundColor),
      };
    });
    for (const [what, value] of Object.entries(pairs)) expect([what, value >= 3]).toEqual([what, true]);
    await close();
  });
});

describe('bring your own list', () => {
  test('file input: builds with progress, flags its URLs, offers the bytes', () => inPlaygrounds(async (page) => {
    const head = ['# my list', '||evil-downloads.example^', 'http://phish.example/login/verify.php', '0.0.0.0 tracker.example', 'not a url at all ^^', ''];
    const filler = Array.from({ length: 60_000 }, (_, i) => `host-${i}.filler.example`);
    await page.evaluate(() => {
      window.__progress = [];
      const bar = document.querySelector('[data-testid="byo-progress"]');
      new MutationObserver(() => window.__progress.push(bar.value)).observe(bar, { attributes: true, attributeFilter: ['value'] });
    });
    await page.setInputFiles(byId('byo-file'), { name: 'my-list.txt', mimeType: 'text/plain', buffer: Buffer.from([...head, ...filler].join('\n')) });
    await page.locator(byId('byo-download')).waitFor({ state: 'visible', timeout: 30_000 });
    expect((await page.evaluate(() => window.__progress)).some((value) => value > 0 && value < 1)).toBe(true);
    await expect(text(page, 'byo-entries')).resolves.toContain('60,003 distinct expressions');
    const check = { form: 'byo-check-form', input: 'byo-url', output: 'byo-check-output' };
    await expect(checkUrl(page, 'https://www.evil-downloads.example/a/b.exe', check)).resolves.toEqual({ verdict: 'listed', match: 'evil-downloads.example/' });
    await expect(checkUrl(page, 'https://host-59999.filler.example/', check)).resolves.toEqual({ verdict: 'listed', match: 'host-59999.filler.example/' });
    await expect(checkUrl(page, 'https://www.wikipedia.org/', check)).resolves.toEqual({ verdict: 'clear', match: null });
    await expect(checkUrl(page, 'not a url', check)).resolves.toEqual({ verdict: 'invalid', match: null });
    const [download] = await Promise.all([page.waitForEvent('download'), page.click(byId('byo-download'))]);
    expect(download.suggestedFilename()).toBe('my-list.filter');
    const { init, UrlBlocklist } = await import('cuckoo-bloom-wasm');
    await init();
    const list = UrlBlocklist.deserialize(new Uint8Array(readFileSync(await download.path())));
    expect(list.match('http://tracker.example/x')).toBe('tracker.example/');
    list.free();
  }));

  test('drag and drop: a dropped file builds a working filter', () => inPlaygrounds(async (page) => {
    await page.selectOption(byId('byo-type'), 'cuckoo');
    await page.evaluate(() => {
      const transfer = new DataTransfer();
      transfer.items.add(new File(['! dropped list\nmalware-cdn.example\nhttps://files.example/payload/setup.exe\n'], 'dropped.txt', { type: 'text/plain' }));
      const zone = document.querySelector('[data-testid="byo-drop"]');
      for (const type of ['dragenter', 'dragover', 'drop']) zone.dispatchEvent(new DragEvent(type, { bubbles: true, cancelable: true, dataTransfer: transfer }));
    });
    await page.locator(byId('byo-download')).waitFor({ state: 'visible', timeout: 10_000 });
    const check = { form: 'byo-check-form', input: 'byo-url', output: 'byo-check-output' };
    await expect(checkUrl(page, 'http://malware-cdn.example/js/app.js', check)).resolves.toEqual({ verdict: 'listed', match: 'malware-cdn.example/' });
    await expect(checkUrl(page, 'https://files.example/payload/readme.txt', check)).resolves.toEqual({ verdict: 'clear', match: null });
  }));
});
