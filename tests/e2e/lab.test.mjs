// Issue 43's student lab and the two player moments it asked for, in Chromium: every number
// the lab shows is checked against the same filter built here in Node by the library from the
// same keys (web-demo/src/lab/lab-keys.mjs), never against a number written in the test.
import { describe, expect, test } from '@jest/globals';
import { COUNTING_TOY, labKeys, TOY_KEY_COUNT, TOY_K_RANGE, toyRateForProbes } from '../../web-demo/src/lab/lab-keys.mjs';
import { axeViolations } from './lib/axe.mjs';
import { byId, PHONE } from './lib/browser.mjs';
import { useDemoSite } from './lib/demo-site.mjs';
import { initLibrary } from './lib/library.mjs';
import { playgroundRunner } from './lib/playgrounds.mjs';

const site = useDemoSite({ build: process.env.DEMO_SKIP_BUILD !== '1' });
const runInPlaygrounds = playgroundRunner(site);
let lib;

async function inPlaygrounds(body, options = {}) {
  lib ??= await initLibrary();
  await runInPlaygrounds(body, options);
}

const activeTestId = (page) => page.evaluate(() => (document.activeElement === document.body ? 'BODY' : document.activeElement?.dataset.testid ?? document.activeElement?.id ?? document.activeElement?.tagName));

/** Opens the lab by keyboard and waits until its table is measured. */
async function openLab(page) {
  await expect(page.locator(byId('lab-row')).count()).resolves.toBe(0); // nothing of the lab before it is asked for
  await page.focus(byId('lab-open'));
  await page.keyboard.press('Enter');
  await page.waitForSelector(`${byId('lab-part-compare')}[data-lab="built"]`, { timeout: 20_000 });
  // The button went away under focus: focus is on the lab's first heading, not on <body>.
  await expect(activeTestId(page)).resolves.toBe('lab-part-compare-title');
}

/** The filter the lab builds for `type`, built here from the same keys. */
function buildInNode(type, keys, falsePositiveRate) {
  if (type === 'binary-fuse') return lib.BinaryFuseFilter.from(keys, { falsePositiveRate });
  const Class = { bloom: lib.BloomFilter, 'counting-bloom': lib.CountingBloomFilter, cuckoo: lib.CuckooFilter }[type];
  const filter = new Class({ capacity: keys.length, falsePositiveRate });
  filter.addMany(keys);
  return filter;
}

const probeNames = (count) => Array.from({ length: count }, (_, i) => `lab-probe-${i}`);

/** Each row of the table against the library in Node: bits per key and the false positives among the same probes. */
async function expectRowsMatchLibrary(page) {
  const rows = await page.locator(byId('lab-row')).evaluateAll((elements) => elements.map((row) => ({ ...row.dataset })));
  expect(rows.map((row) => row.type)).toEqual(['bloom', 'counting-bloom', 'cuckoo', 'binary-fuse']);
  for (const row of rows) {
    const keys = labKeys(Number(row.keys));
    const filter = buildInNode(row.type, keys, Number(row.rate));
    try {
      expect(Number(row.bitsPerKey)).toBeCloseTo(filter.bitsPerKey, 9);
      const answers = filter.hasMany(probeNames(Number(row.probes)));
      expect(Number(row.falsePositives)).toBe(Array.from(answers).filter(Boolean).length);
    } finally {
      filter.free();
    }
  }
  return rows;
}

describe('the lab', () => {
  test('side by side: each filter’s bits per key and false positives are the library’s for the same keys, a rebuild with other settings too; each caught false positive is a key never added that the filter answers true for, the next press the next', () => inPlaygrounds(async (page) => {
    await openLab(page);
    const first = await expectRowsMatchLibrary(page);
    // “Show me a caught false positive”: for each filter a key never added that it answers true for.
    const shown = async () => page.locator(byId('lab-caught-key')).evaluateAll((items) => items.map((item) => ({ ...item.dataset })));
    await page.click(byId('lab-catch'));
    const caughtFirst = await shown();
    expect(caughtFirst.map((entry) => entry.type)).toEqual(['bloom', 'counting-bloom', 'cuckoo', 'binary-fuse']);
    const count = Number(await page.locator(byId('lab-row')).first().getAttribute('data-keys'));
    const rate = Number(await page.locator(byId('lab-row')).first().getAttribute('data-rate'));
    const keys = new Set(labKeys(count));
    for (const entry of caughtFirst) {
      expect(keys.has(entry.key)).toBe(false);
      expect(entry.inKeys).toBe('false');
      const filter = buildInNode(entry.type, [...keys], rate);
      try {
        expect(filter.has(entry.key)).toBe(true);
      } finally {
        filter.free();
      }
    }
    await page.click(byId('lab-catch'));
    const caughtNext = await shown();
    expect(caughtNext.map((entry) => entry.key)).not.toEqual(caughtFirst.map((entry) => entry.key));
    expect(await axeViolations(page)).toEqual([]);
    await page.selectOption(byId('lab-n'), '1000');
    await page.selectOption(byId('lab-rate'), '0.001');
    await page.click(byId('lab-build'));
    await page.waitForFunction(() => document.querySelector('[data-testid="lab-row"]')?.dataset.keys === '1000' && document.querySelector('[data-testid="lab-row"]')?.dataset.rate === '0.001');
    const second = await expectRowsMatchLibrary(page);
    expect(second.map((row) => row.bitsPerKey)).not.toEqual(first.map((row) => row.bitsPerKey));
  }, { viewport: PHONE }));

  test('the k slider rebuilds the toy Bloom filter (its k is the slider’s, its bits the library’s, both change); counting Bloom: removing a key never added makes an added key a false negative, counters saturate at 15 and stay', () => inPlaygrounds(async (page) => {
    await openLab(page);
    const keys = labKeys(TOY_KEY_COUNT);
    const state = async () => ({
      ...(await page.locator(byId('lab-k-stats')).evaluate((element) => ({ ...element.dataset }))),
      drawn: await page.locator(`${byId('lab-k-bits')} .bit`).evaluateAll((cells) => cells.map((cell) => (cell.classList.contains('is-set') ? 1 : 0)).join('')),
    });
    const expectLibrary = (seen, k) => {
      const filter = new lib.BloomFilter({ capacity: TOY_KEY_COUNT, falsePositiveRate: toyRateForProbes(k) });
      try {
        filter.addMany(keys);
        expect(filter.hashCount).toBe(k);
        expect(Number(seen.k)).toBe(k);
        expect(Number(seen.bitCount)).toBe(filter.bitCount);
        expect(Number(seen.setBits)).toBe(filter.setBitCount);
        const bits = filter.bits();
        expect(seen.drawn).toBe(Array.from({ length: filter.bitCount }, (_, i) => (bits[i >> 3] >> (i & 7)) & 1).join(''));
        expect(Number(seen.falsePositives)).toBe(Array.from(filter.hasMany(probeNames(Number(seen.probes)))).filter(Boolean).length);
      } finally {
        filter.free();
      }
    };
    const before = await state();
    expectLibrary(before, TOY_K_RANGE.initial);
    // By keyboard: two steps up.
    await page.focus(byId('lab-k'));
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    const after = await state();
    expectLibrary(after, TOY_K_RANGE.initial + 2);
    expect(after.k).not.toBe(before.k);
    expect(after.drawn).not.toBe(before.drawn);
    await expect(page.locator(byId('lab-k-readout')).textContent()).resolves.toBe(`k = ${TOY_K_RANGE.initial + 2}`);
    // (axe runs below, with the rebuilt toy still on the page.)

    // Counting Bloom’s pitfalls, on the same page.
    const fresh = () => {
      const filter = new lib.CountingBloomFilter({ capacity: TOY_KEY_COUNT, falsePositiveRate: COUNTING_TOY.falsePositiveRate });
      filter.addMany(keys);
      return filter;
    };
    const counters = (filter, key) => filter.positions(key).map((position) => filter.counterAt(position)).join(',');
    const data = (testId) => page.locator(byId(testId)).evaluate((element) => ({ ...element.dataset }));

    await page.click(byId('lab-counting-remove'));
    const unsafe = await data('lab-counting-unsafe');
    const victims = unsafe.victims.split(',').filter(Boolean);
    expect(victims.length).toBeGreaterThan(0);
    let filter = fresh();
    try {
      expect(keys).not.toContain(unsafe.key);
      expect(filter.has(unsafe.key)).toBe(true);
      for (const victim of victims) expect(filter.has(victim)).toBe(true);
      await expect(data('lab-counting-before')).resolves.toEqual({ testid: 'lab-counting-before', counters: counters(filter, unsafe.key) });
      expect(filter.remove(unsafe.key)).toBe(true);
      await expect(data('lab-counting-after')).resolves.toEqual({ testid: 'lab-counting-after', counters: counters(filter, unsafe.key) });
      expect(keys.filter((key) => !filter.has(key))).toEqual(victims);
    } finally {
      filter.free();
    }
    expect(await axeViolations(page)).toEqual([]);

    await page.click(byId('lab-counting-saturate'));
    const saturation = await data('lab-counting-saturation');
    filter = fresh();
    try {
      for (let i = 0; i < Number(saturation.repeats); i++) filter.add(saturation.key);
      const full = counters(filter, saturation.key);
      expect(full.split(',').map(Number)).toContain(15);
      await expect(page.locator(byId('lab-counting-full')).getAttribute('data-counters')).resolves.toBe(full);
      let removals = 0;
      for (let i = 0; i < Number(saturation.repeats); i++) if (filter.remove(saturation.key)) removals++;
      await expect(page.locator(byId('lab-counting-drained')).getAttribute('data-counters')).resolves.toBe(counters(filter, saturation.key));
      expect(Number(saturation.removals)).toBe(removals);
      expect(saturation.present).toBe(String(filter.has(saturation.key)));
      expect(filter.has(saturation.key)).toBe(true);
    } finally {
      filter.free();
    }
    expect(await axeViolations(page)).toEqual([]);
  }));
});

describe('the players’ new moments', () => {
  test('fuse: Play advances the build step by step and Pause stops it; cuckoo: “Show a longer kick chain” gives a stored insert after more than one eviction, the library’s own walk', () => inPlaygrounds(async (page) => {
    const position = async () => Number(/Step (\d+) of/.exec(await page.locator(byId('fuse-position')).textContent())[1]);
    expect(await position()).toBe(0);
    await page.focus(byId('fuse-play'));
    await page.keyboard.press('Enter');
    await expect(page.locator(byId('fuse-play')).getAttribute('aria-pressed')).resolves.toBe('true');
    await page.waitForFunction(() => /Step ([2-9]|\d\d+) of/.test(document.querySelector('[data-testid="fuse-position"]').textContent), null, { timeout: 10_000 });
    await page.keyboard.press('Enter');
    await expect(page.locator(byId('fuse-play')).getAttribute('aria-pressed')).resolves.toBe('false');
    const paused = await position();
    expect(paused).toBeGreaterThanOrEqual(2);
    await page.waitForTimeout(1000);
    expect(await position()).toBe(paused);
    expect(await axeViolations(page)).toEqual([]);

    // The cuckoo player, on the same page.
    await page.click(byId('cuckoo-long-kick'));
    await page.locator(byId('cuckoo-kicked')).waitFor();
    const keys = await page.locator(`${byId('cuckoo-keys')} button.chip-key`).evaluateAll((chips) => chips.map((chip) => chip.dataset.key));
    const filter = new lib.CuckooFilter({ capacity: 16, bucketSize: 4, fingerprintBits: 8, semiSorted: false });
    try {
      for (const key of keys.slice(0, -1)) expect(filter.tryAdd(key)).toBe(true);
      expect(filter.tryAdd(keys.at(-1))).toBe(true);
      const path = filter.lastKickPath();
      // More than one eviction: the new key's fingerprint placed, then at least two kicked ones.
      expect(path.length).toBeGreaterThan(2);
      const steps = page.locator(byId('cuckoo-kick-step'));
      // The player draws at most 12 steps: the first 11 and the last of a longer walk.
      const drawn = path.length <= 12 ? path : [...path.slice(0, 11), path.at(-1)];
      await expect(steps.evaluateAll((items) => items.map((item) => Number(item.dataset.bucket)))).resolves.toEqual(drawn.map((step) => step.bucket));
    } finally {
      filter.free();
    }
    expect(await axeViolations(page)).toEqual([]);
  }));
});
