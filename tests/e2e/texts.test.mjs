// Issue 43: texts that said wrong numbers, each checked against the library's own value
// (read in Node from the built filter, or from a filter the library builds here).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from '@jest/globals';
import { axeViolations } from './lib/axe.mjs';
import { byId, openPage } from './lib/browser.mjs';
import { readDemoManifest, ROOT, useDemoSite } from './lib/demo-site.mjs';
import { initLibrary } from './lib/library.mjs';
import { startPlaygrounds } from './lib/playgrounds.mjs';

const site = useDemoSite({ build: process.env.DEMO_SKIP_BUILD !== '1' });
let manifest;
let library;

beforeAll(async () => {
  manifest = readDemoManifest();
  library = await initLibrary();
});

const integer = (value) => value.toLocaleString('en-US');

async function inPlaygrounds(body) {
  const { page, problems, close } = await openPage(site.browser, site.server.url);
  await startPlaygrounds(page);
  await body(page);
  expect(problems).toEqual([]);
  await close();
}

const text = (page, id) => page.locator(byId(id)).first().textContent();

describe('numbers read from the library', () => {
  test('the fuse section: which filter answers the checker (the smallest static type) and, for a fuse filter, its slots and arity, as the library reports them', () => inPlaygrounds(async (page) => {
    const list = library.UrlBlocklist.deserialize(readFileSync(join(ROOT, 'web-demo', 'dist', 'data', 'urlhaus.filter')));
    const { slotCount, arity, type } = list.filter;
    list.free();
    expect(type).toBe(manifest.preloaded);
    // The build's default: the fewest bytes of the static types built from the list.
    const statics = library.FILTER_TYPES.filter((entry) => entry.isStatic && manifest.filters[entry.name] !== undefined)
      .map((entry) => ({ ...manifest.filters[entry.name], label: entry.label, name: entry.name }))
      .sort((a, b) => a.bytes - b.bytes);
    expect(statics.length).toBeGreaterThan(1);
    expect(type).toBe(statics[0].name);
    await expect(text(page, 'checker-type')).resolves.toBe(`a ${statics[0].label} filter`);
    const sizes = await text(page, 'checker-static-sizes');
    for (const entry of statics) expect(sizes).toContain(`${entry.label}: ${integer(entry.bytes)} bytes`);
    if (arity !== undefined) {
      await expect(text(page, 'checker-fuse-slots')).resolves.toBe(integer(slotCount));
      await expect(text(page, 'checker-fuse-arity')).resolves.toBe(String(arity));
    } else {
      // Not a fuse table: no slot count or arity is said of it.
      await expect(page.locator(byId('checker-fuse-facts')).count()).resolves.toBe(0);
    }
    const section = page.locator(byId('fuse-section'));
    await expect(section.locator('h3').first().textContent()).resolves.not.toMatch(/answers the URL checker/);
    const paragraph = await section.locator('p.detail').first().textContent();
    expect(paragraph).not.toMatch(/hundreds of thousands/);
    // "reads three slots" is said of the toy only, never of the checker's filter.
    expect(paragraph).toMatch(/a lookup here reads three slots/);
  }));

  test('the Bloom tune panel explains m against the formula; the k slider says why its rate is not the panel’s estimate', () => inPlaygrounds(async (page) => {
    for (const rate of ['0.01', '0.001']) {
      await page.selectOption(byId('tune-bloom-rate'), rate);
      const n = Number(await page.inputValue(byId('tune-bloom-n')));
      const formulaBits = Math.ceil((-n * Math.log(Number(rate))) / Math.LN2 ** 2);
      const real = new library.BloomFilter({ capacity: n, falsePositiveRate: Number(rate) });
      const [m, k] = [real.bitCount, real.hashCount];
      real.free();
      const said = await text(page, 'tune-bloom-real');
      expect(said).toContain(`The library builds m = ${m}, k = ${k}`);
      if (m !== formulaBits) expect(said).toMatch(new RegExp(`${m > formulaBits ? 'more' : 'fewer'} than the formula’s ${formulaBits}, because`));
    }
    await expect(text(page, 'k-readout')).resolves.toMatch(/estimated false-positive rate.*reads the bits its keys really set/);
  }));

  test('the comparison: expected hits and their spread from the target rate, not "~100, ±10"', () => inPlaygrounds(async (page) => {
    await page.click(byId('comparison-load'));
    await page.waitForSelector('body[data-comparison="done"]', { timeout: 60_000 });
    const note = await text(page, 'comparison-note');
    const sample = 1_000_000;
    const rate = manifest.lookupFalsePositiveRate;
    expect(note).not.toMatch(/~100 expected hits|±10\)/);
    expect(note).toContain(`${integer(sample)} lookups expect about ${Math.round(sample * rate)} hits`);
    expect(note).toContain(`±${Math.max(1, Math.round(Math.sqrt(sample * rate * (1 - rate))))}`);
  }), 120_000);

  test('your own list at 0.1%: the rate chosen and the rate per URL the library reports, explained', () => inPlaygrounds(async (page) => {
    const lines = ['evil-downloads.example', 'http://phish.example/login/verify.php', ...Array.from({ length: 500 }, (_, i) => `host-${i}.filler.example`)];
    await page.selectOption(byId('byo-fpr'), '0.001');
    await page.setInputFiles(byId('byo-file'), { name: 'mine.txt', mimeType: 'text/plain', buffer: Buffer.from(lines.join('\n')) });
    await page.locator(byId('byo-download')).waitFor({ state: 'visible', timeout: 30_000 });
    const [download] = await Promise.all([page.waitForEvent('download'), page.click(byId('byo-download'))]);
    const list = library.UrlBlocklist.deserialize(new Uint8Array(readFileSync(await download.path())));
    const perUrl = list.falsePositiveRate;
    const lookups = list.lookupsPerUrl;
    list.free();
    const report = await text(page, 'byo-report');
    expect(report).toContain('You chose 0.1% per URL');
    const percent = (value) => `${(value * 100).toPrecision(2).replace(/0+$/, '').replace(/\.$/, '')}%`;
    expect(report).toContain(`at most ${lookups} lookups`);
    expect(report).toContain(`so at most ${percent(perUrl)} per URL`);
    if (Math.abs(perUrl - 0.001) > 0.000005) expect(report).toMatch(/(under|over) your choice, because/);
    expect(report).not.toMatch(/target 0\.0\d+%/);
    expect(await axeViolations(page)).toEqual([]);
  }), 60_000);
});
