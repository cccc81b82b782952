// Issue 43: the kick player draws every fingerprint at every step and ends on the filter's
// own table; focus never falls to <body> when a player's button disables; a chip's
// accessible name is its visible text; axe finds nothing in each of these states.
import { describe, expect, test } from '@jest/globals';
import { axeViolations } from './lib/axe.mjs';
import { byId, DESKTOP, PHONE } from './lib/browser.mjs';
import { useDemoSite } from './lib/demo-site.mjs';
import { initLibrary } from './lib/library.mjs';
import { playgroundRunner } from './lib/playgrounds.mjs';

const site = useDemoSite({ build: process.env.DEMO_SKIP_BUILD !== '1' });
let lib;
const runInPlaygrounds = playgroundRunner(site);

async function inPlaygrounds(body, options = {}) {
  lib ??= await initLibrary();
  await runInPlaygrounds(body, options);
}

const text = (page, testId) => page.locator(byId(testId)).first().textContent();
const drawnTable = (page) => page.locator(`${byId('cuckoo-table')} text.slot-text`).evaluateAll((texts) => {
  const table = [];
  for (const t of texts) (table[Number(t.dataset.bucket)] ??= [])[Number(t.dataset.slot)] = t.textContent;
  return table;
});
const activeTestId = (page) => page.evaluate(() => (document.activeElement === document.body ? 'BODY' : document.activeElement?.dataset.testid ?? document.activeElement?.tagName));

/** The cuckoo playground's table for its chip keys, built again in Node (slot for slot). */
async function realTable(page) {
  const keys = await page.locator(`${byId('cuckoo-keys')} button.chip-key`).evaluateAll((chips) => chips.map((chip) => chip.dataset.key));
  const filter = new lib.CuckooFilter({ capacity: 16, bucketSize: 4, fingerprintBits: 8, semiSorted: false });
  try {
    for (const key of keys) expect(filter.tryAdd(key)).toBe(true);
    const hex = (value) => (value === 0 ? '' : value.toString(16).padStart(2, '0'));
    return Array.from({ length: filter.bucketCount }, (_, b) => Array.from({ length: filter.bucketSize }, (_, s) => hex(filter.slot(b, s))));
  } finally {
    filter.free();
  }
}

describe.each([['phone', PHONE], ['desktop', DESKTOP]])('%s: the kick player', (_, viewport) => {
  test('at step 1 the kicked fingerprint is drawn (in hand), placed at step 2; Step ▶ disabling keeps focus in the player', () => inPlaygrounds(async (page) => {
    await page.click(byId('cuckoo-until-kick'));
    await page.locator(byId('cuckoo-kicked')).waitFor();
    const total = Number(/of (\d+)/.exec(await text(page, 'kick-position'))[1]);
    expect(total).toBeGreaterThanOrEqual(2);
    // Reduced motion shows the end: walk back to step 1 by keyboard.
    await page.focus(byId('kick-back'));
    for (let step = total; step > 1; step--) await page.keyboard.press('Enter');
    await expect(text(page, 'kick-position')).resolves.toBe(`Step 1 of ${total}`);
    // Back disabled under focus: focus moved to another button of the player.
    expect(['kick-step', 'kick-play']).toContain(await activeTestId(page));
    const hand = page.locator(byId('cuckoo-in-hand'));
    await expect(hand.count()).resolves.toBe(1);
    const kicked = await hand.getAttribute('data-fingerprint');
    await expect(hand.textContent()).resolves.toContain(kicked);
    await page.focus(byId('kick-step'));
    await page.keyboard.press('Enter');
    // Step 2 puts it into its other bucket.
    const bucket = Number(await page.locator(byId('cuckoo-kick-step')).nth(1).getAttribute('data-bucket'));
    expect((await drawnTable(page))[bucket]).toContain(kicked);
    expect(await axeViolations(page)).toEqual([]);
    for (let step = 2; step < total; step++) await page.keyboard.press('Enter');
    await expect(page.locator(byId('kick-step')).isDisabled()).resolves.toBe(true);
    // Focus stays on the player (the previous-step button), never on <body>.
    await expect(activeTestId(page)).resolves.toBe('kick-back');
    await expect(page.locator(byId('cuckoo-in-hand')).count()).resolves.toBe(0);
  }, { viewport }));

  test('after a failed walk ("Fill until full") the table drawn is the filter’s own, slot for slot', () => inPlaygrounds(async (page) => {
    await page.click(byId('cuckoo-fill'));
    await page.locator(byId('cuckoo-full')).waitFor();
    await page.locator(byId('cuckoo-undone')).waitFor();
    await expect(drawnTable(page)).resolves.toEqual(await realTable(page));
    // Stepped back into the walk, then forward to its end: the filter's table again.
    await page.click(byId('kick-back'));
    const during = await drawnTable(page);
    await page.click(byId('kick-step'));
    const after = await drawnTable(page);
    expect(after).toEqual(await realTable(page));
    expect(during).not.toEqual(after);
    expect(await axeViolations(page)).toEqual([]);
  }, { viewport }));
});

describe('keyboard and names', () => {
  test('fuse player: Step ▶ to the end by keyboard leaves focus on the player', () => inPlaygrounds(async (page) => {
    await page.focus(byId('fuse-step'));
    for (let i = 0; i < 200 && !(await page.locator(byId('fuse-step')).isDisabled()); i++) await page.keyboard.press('Enter');
    await expect(page.locator(byId('fuse-step')).isDisabled()).resolves.toBe(true);
    await expect(activeTestId(page)).resolves.toBe('fuse-back');
    expect(await axeViolations(page)).toEqual([]);
  }));

  test('a lost cuckoo chip is named by its visible text (axe label-content-name-mismatch)', () => inPlaygrounds(async (page) => {
    await page.click(byId('cuckoo-unsafe-remove'));
    const lost = page.locator(`${byId('cuckoo-keys')} li.is-lost button.chip-key`);
    await expect(lost.count()).resolves.toBe(1);
    const visible = (await lost.innerText()).trim();
    expect(visible).toMatch(/✗ lost$/);
    const snapshot = await lost.ariaSnapshot();
    const name = /^- button "(.*)"/.exec(snapshot)?.[1];
    expect(name).toBe(visible);
    await page.evaluate(await import('node:fs').then(({ readFileSync }) => readFileSync(new URL('../../node_modules/axe-core/axe.min.js', import.meta.url), 'utf8')));
    const mismatch = await page.evaluate(() => window.axe.run(document, { runOnly: ['label-content-name-mismatch'] }).then((result) => result.violations.map((v) => v.nodes.map((n) => n.target.join(' '))).flat()));
    expect(mismatch).toEqual([]);
    expect(await axeViolations(page)).toEqual([]);
  }));
});
