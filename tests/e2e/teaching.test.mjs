// The playgrounds as a student meets them (issue #29, "For the student"), in headless
// Chromium: a kick stepped through shows the table as it was at each step, highlighted
// fingerprints are readable (≥ 4.5:1), the texts say what is true, the binary fuse
// explainer, the k slider, the keys behind any bit or slot, the same keys in both
// playgrounds, wide tables that scroll on a phone, and a note wherever a demo picked its
// case. Each page is opened fresh and checked for console errors and failed requests.
import { beforeAll, describe, expect, test } from '@jest/globals';
import { axeViolations } from './lib/axe.mjs';
import { byId, PHONE } from './lib/browser.mjs';
import { svgTextContrasts } from './lib/contrast.mjs';
import { readDemoManifest, useDemoSite } from './lib/demo-site.mjs';
import { initLibrary } from './lib/library.mjs';
import { playgroundRunner } from './lib/playgrounds.mjs';

const site = useDemoSite();
let manifest;
let lib;

beforeAll(async () => {
  manifest = readDemoManifest();
  lib = await initLibrary();
});

/** Opens the demo, waits for the playgrounds, runs `body`, requires a clean console, closes. */
const inPlaygrounds = playgroundRunner(site);

const text = (page, testId) => page.locator(byId(testId)).first().textContent();
const chipKeys = (page, list) => page.locator(`${byId(list)} button.chip-key`).evaluateAll((chips) => chips.map((chip) => chip.dataset.key));
/** The cuckoo table as drawn: bucket → slot → hex text ('' when empty). */
const drawnTable = (page) => page.locator(`${byId('cuckoo-table')} text.slot-text`).evaluateAll((texts) => {
  const table = [];
  for (const t of texts) (table[Number(t.dataset.bucket)] ??= [])[Number(t.dataset.slot)] = t.textContent;
  return table;
});
const candidates = (page) => page.locator(`${byId('cuckoo-table')} rect.bucket.is-candidate`).evaluateAll((rects) => rects.map((rect) => Number(rect.dataset.bucket)));

describe('the cuckoo kick, step by step', () => {
  test('each step redraws the table as it was; the two candidate buckets stay lit; the last step is the real filter; highlighted text ≥ 4.5:1', () => inPlaygrounds(async (page) => {
    await page.click(byId('cuckoo-until-kick'));
    await page.locator(byId('cuckoo-kicked')).waitFor();
    await expect(text(page, 'cuckoo-output')).resolves.toMatch(/Picked on purpose: keys were added until the first one whose two buckets were both full/);
    const total = Number(/of (\d+)/.exec(await text(page, 'kick-position'))[1]);
    expect(total).toBeGreaterThanOrEqual(2);
    const lit = await candidates(page);
    expect(lit.length).toBe(2);
    const tables = [await drawnTable(page)];
    const firstBucket = Number(await page.locator(byId('cuckoo-kick-step')).first().getAttribute('data-bucket'));
    expect(lit).toContain(firstBucket);
    for (let step = 2; step <= total; step++) {
      await page.click(byId('kick-step'));
      await expect(text(page, 'kick-position')).resolves.toBe(`Step ${step} of ${total}`);
      tables.push(await drawnTable(page));
      await expect(candidates(page)).resolves.toEqual(lit);
    }
    // Consecutive steps differ: each puts one fingerprint into the slot of the next one kicked.
    for (let i = 1; i < tables.length; i++) expect(tables[i]).not.toEqual(tables[i - 1]);
    expect(tables[0]).not.toEqual(tables.at(-1));
    // Step back gives the earlier table again.
    await page.click(byId('kick-back'));
    await expect(drawnTable(page)).resolves.toEqual(tables.at(-2));
    await page.click(byId('kick-step'));
    // The last step is the filter's table, slot for slot: the same keys in Node give it.
    const filter = new lib.CuckooFilter({ capacity: 16, bucketSize: 4, fingerprintBits: 8, semiSorted: false });
    try {
      for (const key of await chipKeys(page, 'cuckoo-keys')) expect(filter.tryAdd(key)).toBe(true);
      const hex = (value) => (value === 0 ? '' : value.toString(16).padStart(2, '0'));
      const real = Array.from({ length: filter.bucketCount }, (_, b) => Array.from({ length: filter.bucketSize }, (_, s) => hex(filter.slot(b, s))));
      expect(tables.at(-1)).toEqual(real);
    } finally {
      filter.free();
    }
    // The just-placed and moved fingerprints: their text against their slot's fill.
    const contrasts = await svgTextContrasts(page, `${byId('cuckoo-table')} rect.slot.is-new, ${byId('cuckoo-table')} rect.slot.is-kicked`);
    expect(contrasts.length).toBeGreaterThanOrEqual(2);
    expect(contrasts.map((entry) => entry.kind).sort()).toEqual(expect.arrayContaining(['is-kicked', 'is-new']));
    for (const entry of contrasts) expect([entry.cell, entry.ratio >= 4.5]).toEqual([entry.cell, true]);
  }, { reducedMotion: 'no-preference' }));
});

describe('texts that say what is true', () => {
  test('estimate source, comparison heading, power of two, no stale "Empty filter", visible clamping; a demo that picks its case says so', () => inPlaygrounds(async (page) => {
    // The preloaded type is the build's choice (the smallest static type): named from the manifest.
    await expect(text(page, 'stats-type')).resolves.toMatch(new RegExp(manifest.preloaded.replace(/-/g, '[ -]'), 'i'));
    const estimate = await text(page, 'stats-estimated-fpr');
    expect(estimate).not.toMatch(/bits actually set/);
    expect(estimate).toMatch(/fingerprint/);
    const types = Object.keys(manifest.filters).length;
    expect(types).toBeGreaterThan(3);
    await expect(page.locator(`${byId('filter-section')} h3`).first().textContent()).resolves.toBe(`The same list in ${types} filter types`);

    // "A power of two buckets" only beside a power of two.
    const seen = new Set();
    for (const n of ['16', '40', '64', '5']) {
      await page.fill(byId('tune-cuckoo-n'), n);
      const real = await text(page, 'tune-cuckoo-real');
      const buckets = Number(/builds (\d+) buckets/.exec(real)[1]);
      const powerOfTwo = (buckets & (buckets - 1)) === 0;
      seen.add(powerOfTwo);
      expect([buckets, /a power of two buckets/.test(real)]).toEqual([buckets, powerOfTwo]);
    }
    expect(seen.has(false)).toBe(true);

    // Out of range: the box shows the value used, and a note says so.
    await page.fill(byId('tune-bloom-n'), '100');
    await expect(text(page, 'tune-note')).resolves.toMatch(/Keys n: “100” is not a whole number from 4 to 40; will use 40\./);
    // Leaving the box settles it (a change event): it shows 40.
    await page.fill(byId('tune-cuckoo-f'), '2');
    await expect(page.inputValue(byId('tune-bloom-n'))).resolves.toBe('40');
    await page.press(byId('tune-cuckoo-f'), 'Enter');
    await expect(page.inputValue(byId('tune-bloom-n'))).resolves.toBe('40');
    await expect(page.inputValue(byId('tune-cuckoo-f'))).resolves.toBe('4');
    await expect(text(page, 'tune-note')).resolves.toBe('Keys n: “100” is not a whole number from 4 to 40; using 40. Fingerprint bits f: “2” is not a whole number from 4 to 16; using 4.');
    await expect(text(page, 'bloom-stats')).resolves.toMatch(/of the 40 it is sized for/);
    await expect(text(page, 'cuckoo-stats')).resolves.toMatch(/4-bit fingerprints/);

    // After "Fill both and measure" the toys say what was done, not "Empty filter".
    await page.fill(byId('tune-cuckoo-f'), '8');
    await page.click(byId('tune-measure'));
    for (const output of ['bloom-output', 'cuckoo-output']) {
      const said = await text(page, output);
      expect(said).not.toMatch(/Empty filter/);
      expect(said).toMatch(/^Filled by “Fill both and measure”: \d+ keys added one at a time/);
    }
    await expect(text(page, 'bloom-output')).resolves.toMatch(/80 keys added one at a time \(twice the 40 it is sized for\)/);

    // A demo that picks its case says so.
    await page.click(byId('tune-apply'));
    for (const [button, section] of [['bloom-find-fp', 'bloom-section'], ['delete-demo', 'delete-section'], ['cuckoo-find-fp', 'cuckoo-section'], ['cuckoo-unsafe-remove', 'cuckoo-section']]) {
      await page.click(byId(button));
      const note = page.locator(`${byId(section)} ${byId('picked-note')}`);
      await expect(note.count()).resolves.toBe(1);
      await expect(note.textContent()).resolves.toMatch(/^Picked on purpose: /);
    }
    await expect(text(page, 'delete-output')).resolves.toMatch(/the worst case: of the 8 keys/);
    await expect(text(page, 'cuckoo-output')).resolves.toMatch(/the worst case\. Of \d+ keys never added, this is the first/);
  }));
});

describe('the binary fuse explainer and the k slider', () => {
  test('fuse: three positions in consecutive segments, a peel order stepped by keyboard, a fill whose XOR is every key’s fingerprint; ' +
    'k slider: k* = (m/n) ln 2 for the playground’s m and n, the slider’s k on (1 − e^(−kn/m))^k', () => inPlaygrounds(async (page) => {
    const usingRow = () => page.locator(`${byId('fuse-table')} text.slot-text[data-row="0"]`).evaluateAll((texts) => texts.map((t) => Number(t.textContent)));
    const start = await usingRow();
    expect(start.reduce((a, b) => a + b, 0)).toBe(3 * 8); // 8 keys × 3 positions
    await expect(text(page, 'fuse-position')).resolves.toBe('Step 0 of 16 (peeling)');
    // Keyboard: focus Step and press Enter and Space.
    await page.locator(byId('fuse-step')).focus();
    await page.keyboard.press('Enter');
    await expect(text(page, 'fuse-position')).resolves.toBe('Step 1 of 16 (peeling)');
    const peeledSlot = Number(/slot (\d+) is used by one remaining key only/.exec(await text(page, 'fuse-output'))[1]);
    expect(start[peeledSlot]).toBe(1);
    const after = await usingRow();
    expect(after.reduce((a, b) => a + b, 0)).toBe(3 * 7);
    await expect(page.locator(`${byId('fuse-table')} rect.bucket.is-candidate`).count()).resolves.toBe(3);
    for (let i = 2; i <= 9; i++) await page.keyboard.press('Space');
    await expect(text(page, 'fuse-position')).resolves.toBe('Step 9 of 16 (filling)');
    const formula = await text(page, 'fuse-fill-formula');
    const [, fp, a, b, result] = /= ([0-9a-f]{2}) ⊕ ([0-9a-f]{2}) ⊕ ([0-9a-f]{2}) = ([0-9a-f]{2})$/.exec(formula);
    expect(Number.parseInt(fp, 16) ^ Number.parseInt(a, 16) ^ Number.parseInt(b, 16)).toBe(Number.parseInt(result, 16));
    await page.click(byId('fuse-peel-all'));
    await expect(text(page, 'fuse-position')).resolves.toBe('Step 16 of 16 (filling)');
    await expect(usingRow()).resolves.toEqual(new Array(start.length).fill(0));
    // Every key: the XOR of its three slots is its fingerprint; positions in consecutive segments.
    const keys = await chipKeys(page, 'fuse-keys');
    expect(keys.length).toBe(8);
    for (const key of keys) {
      await page.click(`${byId('fuse-keys')} button.chip-key[data-key="${key}"]`);
      const verdict = page.locator(byId('fuse-xor'));
      await expect(verdict.getAttribute('data-xor')).resolves.toBe(await verdict.getAttribute('data-fingerprint'));
      const [, s0, s1, s2] = /segments (\d+), (\d+), (\d+)/.exec(await verdict.textContent()).map(Number);
      expect([s1 - s0, s2 - s1]).toEqual([1, 1]);
      await expect(verdict.textContent()).resolves.toMatch(/possibly present/);
    }
    // A key never added: its XOR differs from its fingerprint (a fixed key, so a fixed answer).
    await page.fill(byId('fuse-key'), 'never-added');
    await page.press(byId('fuse-key'), 'Enter');
    const stranger = page.locator(byId('fuse-xor'));
    expect(await stranger.getAttribute('data-xor')).not.toBe(await stranger.getAttribute('data-fingerprint'));
    await expect(stranger.textContent()).resolves.toMatch(/certainly not added/);
    // The same keys as the playgrounds: the first eight the Bloom playground adds.
    for (let i = 0; i < 8; i++) await page.click(byId('bloom-random'));
    await expect(chipKeys(page, 'bloom-keys')).resolves.toEqual(keys);
    await page.click(byId('bloom-reset'));

    // The k slider.
    const [, m, k] = /m = (\d+) bits, k = (\d+) probes/.exec(await text(page, 'bloom-stats')).map(Number);
    const n = 20;
    const kStar = Number(await page.locator(byId('k-star')).getAttribute('data-k'));
    expect(kStar).toBeCloseTo((m / n) * Math.LN2, 6);
    const current = page.locator(byId('k-current'));
    await expect(current.getAttribute('data-k')).resolves.toBe(String(k));
    const slider = page.locator(byId('k-slider'));
    await slider.focus();
    await page.keyboard.press('Home');
    await expect(current.getAttribute('data-k')).resolves.toBe('1');
    for (const probes of [1, 2, 3]) {
      if (probes > 1) await page.keyboard.press('ArrowRight');
      await expect(current.getAttribute('data-k')).resolves.toBe(String(probes));
      const rate = Number(await current.getAttribute('data-rate'));
      expect(rate).toBeCloseTo((1 - Math.exp((-probes * n) / m)) ** probes, 12);
    }
    await expect(text(page, 'k-readout')).resolves.toMatch(new RegExp(`^k = 3: .* k\\* = ${kStar.toFixed(2)}; the best whole k is ${Math.round(kStar) === Math.floor(kStar) ? '\\d+' : '\\d+'}`));
    // A rebuilt playground moves k*.
    await page.fill(byId('tune-bloom-n'), '10');
    await page.click(byId('tune-apply'));
    const [, m2] = /m = (\d+) bits/.exec(await text(page, 'bloom-stats')).map(Number);
    await expect(page.locator(byId('k-star')).getAttribute('data-k').then(Number)).resolves.toBeCloseTo((m2 / 10) * Math.LN2, 6);
  }));
});

describe('the keys behind a bit or a slot', () => {
  test('pointer and keyboard name the keys that set a bit or live in a slot (checked in Node); both playgrounds get the same keys', () => inPlaygrounds(async (page) => {
    for (let i = 0; i < 4; i++) {
      await page.click(byId('bloom-random'));
      await page.click(byId('cuckoo-random'));
    }
    const bloomKeys = await chipKeys(page, 'bloom-keys');
    await expect(chipKeys(page, 'cuckoo-keys')).resolves.toEqual(bloomKeys);

    const bloom = new lib.BloomFilter({ capacity: 20, falsePositiveRate: 0.01 });
    const cuckoo = new lib.CuckooFilter({ capacity: 16, bucketSize: 4, fingerprintBits: 8, semiSorted: false });
    try {
      for (const key of bloomKeys) {
        bloom.add(key);
        cuckoo.tryAdd(key);
      }
      const setters = (bit) => bloomKeys.filter((key) => bloom.positions(key).includes(bit));
      const named = async (testId) => page.locator(`${byId(testId)} code`).allTextContents();
      // Pointer: a set bit.
      const bit = bloom.positions(bloomKeys[0])[0];
      await page.hover(`${byId('bloom-grid')} [data-bit="${bit}"]`);
      await expect(text(page, 'bloom-bit-info')).resolves.toMatch(new RegExp(`^Bit ${bit}: 1, set by `));
      await expect(named('bloom-bit-info')).resolves.toEqual(setters(bit));
      // Keyboard: the grid is one tab stop; arrows move bit by bit and row by row.
      await page.locator(byId('bloom-grid')).focus();
      await page.keyboard.press('Home');
      await expect(text(page, 'bloom-bit-info')).resolves.toMatch(/^Bit 0: /);
      await page.keyboard.press('ArrowRight');
      await page.keyboard.press('ArrowDown');
      const below = 1 + (bloom.bitCount <= 256 ? 16 : 32);
      await expect(text(page, 'bloom-bit-info')).resolves.toMatch(new RegExp(`^Bit ${below}: `));
      await expect(named('bloom-bit-info')).resolves.toEqual(setters(below));
      await expect(page.locator(`${byId('bloom-grid')} .is-inspected`).getAttribute('data-bit')).resolves.toBe(String(below));

      // Cuckoo: tap a used slot; its fingerprint's keys are named.
      const at = cuckoo.locate(bloomKeys[0]);
      let where = null;
      for (const b of at.buckets) for (let s = 0; s < cuckoo.bucketSize; s++) if (where === null && cuckoo.slot(b, s) === at.fingerprint) where = [b, s];
      expect(where).not.toBeNull();
      await page.click(`${byId('cuckoo-table')} rect.slot[data-bucket="${where[0]}"][data-slot="${where[1]}"]`);
      await expect(text(page, 'cuckoo-slot-info')).resolves.toMatch(new RegExp(`^Bucket ${where[0]}, slot ${where[1]}: fingerprint ${at.fingerprint.toString(16).padStart(2, '0')}`));
      const residents = bloomKeys.filter((key) => {
        const other = cuckoo.locate(key);
        return other.fingerprint === at.fingerprint && other.buckets.includes(where[0]);
      });
      await expect(named('cuckoo-slot-info')).resolves.toEqual(residents);
      // Keyboard in the cuckoo table: right is the next bucket, down the next slot.
      await page.locator(byId('cuckoo-table')).focus();
      await page.keyboard.press('Home');
      await page.keyboard.press('ArrowRight');
      await page.keyboard.press('ArrowDown');
      await expect(text(page, 'cuckoo-slot-info')).resolves.toMatch(/^Bucket 1, slot 1: /);
    } finally {
      bloom.free();
      cuckoo.free();
    }
    await page.click(byId('cuckoo-until-kick'));
    await page.click(byId('fuse-peel-all'));
    await page.hover(`${byId('fuse-table')} rect.fuse-slot[data-slot="5"][data-row="1"]`);
    await expect(text(page, 'fuse-slot-info')).resolves.toMatch(/^Slot 5 \(segment 1\): value [0-9a-f]{2}; a position of /);
    expect(await axeViolations(page)).toEqual([]);
  }));
});

describe('on a phone (390 px)', () => {
  test('a wide cuckoo table scrolls sideways with readable slots; the page itself does not; axe finds nothing', () => inPlaygrounds(async (page) => {
    await page.fill(byId('tune-cuckoo-n'), '64');
    await page.click(byId('tune-apply'));
    await page.click(byId('cuckoo-until-kick'));
    await page.click(byId('fuse-peel-all'));
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBe(0);
    for (const table of ['cuckoo-table', 'fuse-table']) {
      const box = await page.locator(byId(table)).evaluate((element) => ({ scroll: element.scrollWidth, client: element.clientWidth }));
      expect(box.scroll).toBeGreaterThan(box.client);
    }
    const slotWidth = await page.locator(`${byId('cuckoo-table')} rect.slot`).first().evaluate((rect) => rect.getBoundingClientRect().width);
    expect(slotWidth).toBeGreaterThanOrEqual(28);
    expect(await axeViolations(page)).toEqual([]);
  }, { viewport: PHONE }));
});
