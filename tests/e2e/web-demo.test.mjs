// End-to-end tests of the web demo (web-demo/) in real headless Chromium (Debian's
// /usr/bin/chromium, driven by playwright-core; no browser is ever downloaded).
// The site is rebuilt from the sources before the suite and served in-process on
// 127.0.0.1. Screenshots of each state go to test-artifacts/e2e/.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { chromium } from 'playwright-core';
import { startServer } from '../../web-demo/serve.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const CHROMIUM = '/usr/bin/chromium';
const ARTIFACTS = join(root, 'test-artifacts', 'e2e');

let server;
let context;
let userDataDir;
let manifest;

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`${CHROMIUM} is missing: the e2e tests need Debian's Chromium (apt-get install -y chromium)`);
  }
  execFileSync(process.execPath, [join(root, 'web-demo', 'build.mjs')], { cwd: root, stdio: 'pipe' });
  manifest = JSON.parse(readFileSync(join(root, 'web-demo', 'dist', 'data', 'manifest.json'), 'utf8'));
  mkdirSync(ARTIFACTS, { recursive: true });
  server = await startServer({ port: 0 });
  userDataDir = mkdtempSync(join(tmpdir(), 'cbw-e2e-chromium-'));
  context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    headless: true,
    acceptDownloads: true,
    viewport: { width: 1100, height: 900 },
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
  });
}, 60_000);

afterAll(async () => {
  await context?.close();
  await server?.close();
  if (userDataDir) rmSync(userDataDir, { recursive: true, force: true });
});

/** Opens the demo in a new tab and records every console error, page error and failed request. */
async function openDemo({ width = 1100, height = 900, reducedMotion = 'no-preference' } = {}) {
  const page = await context.newPage();
  await page.setViewportSize({ width, height });
  await page.emulateMedia({ reducedMotion });
  const problems = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('requestfailed', (request) => problems.push(`request failed: ${request.url()} ${request.failure()?.errorText}`));
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`HTTP ${response.status()}: ${response.url()}`);
  });
  page.on('request', (request) => {
    const url = request.url();
    if (!url.startsWith(server.url) && !url.startsWith('blob:') && !url.startsWith('data:')) problems.push(`request to another origin: ${url}`);
  });
  await page.goto(server.url);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 15_000 });
  return { page, problems };
}

const byId = (id) => `[data-testid="${id}"]`;
/** Saves a screenshot: of one section (a data-testid), or of the whole page. */
const shot = (page, name, section) =>
  section
    ? page.locator(byId(section)).screenshot({ path: join(ARTIFACTS, `${name}.png`) })
    : page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });

async function checkUrl(page, url, { form = 'check-form', input = 'url-input', output = 'check-output' } = {}) {
  await page.fill(byId(input), url);
  await page.click(`${byId(form)} button[type="submit"]`);
  const verdict = page.locator(`${byId(output)} ${byId('check-verdict')}`);
  await verdict.waitFor();
  return { verdict: await verdict.getAttribute('data-verdict'), match: await verdict.getAttribute('data-match') };
}

describe('web demo in Chromium', () => {
  test('loads without console errors or failed requests, and measures the three filters', async () => {
    const { page, problems } = await openDemo();
    await page.waitForSelector('body[data-comparison="done"]', { timeout: 15_000 });
    await expect(page.locator(byId('load-status')).textContent()).resolves.toMatch(/^Ready: /);
    await expect(page.locator(byId('stats-entries')).textContent()).resolves.toContain(manifest.entryCount.toLocaleString('en-US'));
    await expect(page.locator(`${byId('comparison-table')} tbody tr`).count()).resolves.toBe(3);
    for (const type of ['bloom', 'blocked-bloom', 'cuckoo']) {
      const text = await page.locator(byId(`measured-fpr-${type}`)).textContent();
      // A 0.1% filter over 100,000 absent expressions: ~100 hits; far outside 0.4% would be a bug.
      const hits = Number(/\(([\d,]+)\)/.exec(text)[1].replace(/,/g, ''));
      expect(hits).toBeLessThan(400);
    }
    await expect(page.locator(`${byId('chart-bytes')} rect.chart-bar`).count()).resolves.toBe(3);
    await shot(page, '01-loaded');
    await shot(page, '01-filter', 'filter-section');
    expect(problems).toEqual([]);
    await page.close();
  });

  test('flags listed hosts and URLs with the right expression, clears ordinary sites, explains invalid input', async () => {
    const { page, problems } = await openDemo();
    const listed = manifest.examples.filter((example) => example.entry !== null);
    expect(listed.length).toBeGreaterThanOrEqual(2);
    for (const example of listed) {
      await expect(checkUrl(page, example.url)).resolves.toEqual({ verdict: 'match', match: example.entry });
    }
    // The example buttons do the same.
    const urlExample = manifest.examples.findIndex((example) => example.kind === 'listed-url');
    await page.click(byId(`example-${urlExample}`));
    await expect(page.locator(byId('check-match')).textContent()).resolves.toBe(manifest.examples[urlExample].entry);
    await expect(page.locator(byId('check-time')).textContent()).resolves.toMatch(/Check took [\d.]+ (µs|ms)/);
    await shot(page, '02-check-listed', 'check-section');

    for (const url of ['https://www.wikipedia.org/', 'https://developer.mozilla.org/en-US/docs/Web']) {
      await expect(checkUrl(page, url)).resolves.toEqual({ verdict: 'clear', match: null });
    }
    await expect(page.locator(`${byId('check-expressions')} li`).count()).resolves.toBeGreaterThan(2);
    await shot(page, '03-check-clear', 'check-section');

    await page.fill(byId('url-input'), 'http://exa mple.com:99999/');
    await page.click(byId('check-button'));
    await expect(page.locator(byId('check-error')).textContent()).resolves.toMatch(/Not a URL the checker can read/);
    await shot(page, '04-check-invalid', 'check-section');
    expect(problems).toEqual([]);
    await page.close();
  });

  test('Bloom playground: adding a key lights its k bits, checks answer from the real filter', async () => {
    const { page, problems } = await openDemo();
    const section = byId('bloom-section');
    await page.fill(byId('bloom-key'), 'apple');
    await page.click(byId('bloom-add'));
    const positions = (await page.locator(byId('bloom-positions')).textContent()).split(', ').map(Number);
    expect(positions.length).toBeGreaterThanOrEqual(3);
    for (const bit of positions) {
      await expect(page.locator(`${section} .bit[data-bit="${bit}"]`).getAttribute('class')).resolves.toContain('is-set');
    }
    await expect(page.locator(`${section} .bit.is-set`).count()).resolves.toBe(new Set(positions).size);
    for (let i = 0; i < 5; i++) await page.click(byId('bloom-random'));
    await page.fill(byId('bloom-key'), 'apple');
    await page.click(byId('bloom-check'));
    await expect(page.locator(byId('bloom-output')).textContent()).resolves.toMatch(/Possibly present/);
    await page.fill(byId('bloom-key'), 'never-added-key-123');
    await page.click(byId('bloom-check'));
    await expect(page.locator(byId('bloom-output')).textContent()).resolves.toMatch(/Definitely not added|False positive/);
    await expect(page.locator(`${byId('bloom-keys')} li`).count()).resolves.toBe(6);
    await shot(page, '05-bloom', 'bloom-section');
    expect(problems).toEqual([]);
    await page.close();
  });

  test('cuckoo playground: add and remove, then fill until an insert kicks and the chain is drawn', async () => {
    const { page, problems } = await openDemo();
    const section = byId('cuckoo-section');
    const used = () => page.locator(`${section} rect.slot.is-used`).count();
    await page.fill(byId('cuckoo-key'), 'apple');
    await page.click(byId('cuckoo-add'));
    await expect(used()).resolves.toBe(1);
    await expect(page.locator(`${section} rect.slot.is-new`).count()).resolves.toBe(1);
    await page.click(`${byId('cuckoo-keys')} button.chip-remove`);
    await expect(used()).resolves.toBe(0);
    await expect(page.locator(byId('cuckoo-output')).textContent()).resolves.toMatch(/Removed apple: one copy of fingerprint/);
    await expect(page.locator(`${section} rect.slot.is-cleared`).count()).resolves.toBe(1);

    let kicked = false;
    for (let i = 0; i < 40 && !kicked; i++) {
      await page.click(byId('cuckoo-random'));
      kicked = (await page.locator(`${byId('cuckoo-output')}`).textContent()).includes('kicked others out');
    }
    expect(kicked).toBe(true);
    // The walk animates step by step; it ends at a free slot.
    await page.locator(`${byId('cuckoo-kick-chain')} li`, { hasText: 'a free slot, done' }).waitFor({ timeout: 10_000 });
    const steps = await page.locator(byId('cuckoo-kick-step')).count();
    expect(steps).toBeGreaterThanOrEqual(2);
    await expect(page.locator(byId('cuckoo-kick-arrow')).count()).resolves.toBeGreaterThanOrEqual(1);
    await expect(page.locator(`${section} rect.slot.is-kicked`).count()).resolves.toBeGreaterThanOrEqual(1);
    await shot(page, '06-cuckoo-kicks', 'cuckoo-section');
    expect(problems).toEqual([]);
    await page.close();
  });

  test('a full cuckoo filter shows the failed insert and every earlier key still found', async () => {
    const { page, problems } = await openDemo({ reducedMotion: 'reduce' });
    await page.click(byId('cuckoo-fill'));
    await page.locator(byId('cuckoo-full')).waitFor({ timeout: 10_000 });
    const keys = await page.locator(`${byId('cuckoo-keys')} li`).count();
    expect(keys).toBeGreaterThan(20);
    await expect(page.locator(byId('cuckoo-recheck-summary')).textContent()).resolves.toContain(`${keys} of ${keys} found`);
    await expect(page.locator(`${byId('cuckoo-recheck')} li[data-found="true"]`).count()).resolves.toBe(keys);
    await expect(page.locator(`${byId('cuckoo-recheck')} li[data-found="false"]`).count()).resolves.toBe(0);
    await expect(page.locator(byId('cuckoo-kick-chain')).textContent()).resolves.toMatch(/gave up and undid every move/);
    await expect(page.locator(`${byId('cuckoo-arrows')} .kick-arrow-failed`).count()).resolves.toBeGreaterThan(0);
    await shot(page, '07-cuckoo-full', 'cuckoo-section');
    expect(problems).toEqual([]);
    await page.close();
  });

  test('bring your own list (file input): builds with progress, flags its URLs, offers the bytes', async () => {
    const { page, problems } = await openDemo();
    // A few real-looking entries plus enough filler lines to need several chunks.
    const head = ['# my list', '||evil-downloads.example^', 'http://phish.example/login/verify.php', '0.0.0.0 tracker.example', 'not a url at all ^^', ''];
    const filler = Array.from({ length: 60_000 }, (_, i) => `host-${i}.filler.example`);
    const text = [...head, ...filler].join('\n');
    await page.evaluate(() => {
      window.__progress = [];
      const bar = document.querySelector('[data-testid="byo-progress"]');
      new MutationObserver(() => window.__progress.push(bar.value)).observe(bar, { attributes: true, attributeFilter: ['value'] });
    });
    await page.setInputFiles(byId('byo-file'), { name: 'my-list.txt', mimeType: 'text/plain', buffer: Buffer.from(text) });
    await page.locator(byId('byo-download')).waitFor({ state: 'visible', timeout: 20_000 });
    const progress = await page.evaluate(() => window.__progress);
    expect(progress.some((value) => value > 0 && value < 1)).toBe(true);
    await expect(page.locator(byId('byo-entries')).textContent()).resolves.toContain('60,003 distinct expressions');
    await expect(page.locator(byId('byo-errors')).textContent()).resolves.toContain('1 line (see below)');

    const check = { form: 'byo-check-form', input: 'byo-url', output: 'byo-check-output' };
    await expect(checkUrl(page, 'https://www.evil-downloads.example/a/b.exe', check)).resolves.toEqual({ verdict: 'match', match: 'evil-downloads.example/' });
    await expect(checkUrl(page, 'http://phish.example/login/verify.php?id=3', check)).resolves.toEqual({ verdict: 'match', match: 'phish.example/login/verify.php' });
    await expect(checkUrl(page, 'https://host-59999.filler.example/', check)).resolves.toEqual({ verdict: 'match', match: 'host-59999.filler.example/' });
    await expect(checkUrl(page, 'https://www.wikipedia.org/', check)).resolves.toEqual({ verdict: 'clear', match: null });
    await shot(page, '08-byo-file', 'byo-section');

    const [download] = await Promise.all([page.waitForEvent('download'), page.click(byId('byo-download'))]);
    expect(download.suggestedFilename()).toBe('my-list.filter');
    const bytes = readFileSync(await download.path());
    expect(bytes.length).toBe(Number(await page.locator(byId('byo-download')).getAttribute('data-bytes')));
    // The downloaded bytes are a real blocklist: the package reads them back in Node.
    const { init, UrlBlocklist } = await import('cuckoo-bloom-wasm');
    await init();
    const list = UrlBlocklist.deserialize(new Uint8Array(bytes));
    expect(list.match('http://tracker.example/x')).toBe('tracker.example/');
    expect(list.match('https://example.org/')).toBeNull();
    list.free();
    expect(problems).toEqual([]);
    await page.close();
  });

  test('bring your own list (drag and drop): a dropped file builds a working filter', async () => {
    const { page, problems } = await openDemo();
    await page.selectOption(byId('byo-type'), 'cuckoo');
    await page.evaluate(() => {
      const list = '! dropped list\nmalware-cdn.example\nhttps://files.example/payload/setup.exe\n';
      const transfer = new DataTransfer();
      transfer.items.add(new File([list], 'dropped.txt', { type: 'text/plain' }));
      const zone = document.querySelector('[data-testid="byo-drop"]');
      for (const type of ['dragenter', 'dragover', 'drop']) {
        zone.dispatchEvent(new DragEvent(type, { bubbles: true, cancelable: true, dataTransfer: transfer }));
      }
    });
    await page.locator(byId('byo-download')).waitFor({ state: 'visible', timeout: 10_000 });
    await expect(page.locator(byId('byo-status')).textContent()).resolves.toContain('dropped.txt');
    await expect(page.locator(byId('byo-download')).textContent()).resolves.toContain('dropped.filter');
    const check = { form: 'byo-check-form', input: 'byo-url', output: 'byo-check-output' };
    await expect(checkUrl(page, 'http://malware-cdn.example/js/app.js', check)).resolves.toEqual({ verdict: 'match', match: 'malware-cdn.example/' });
    await expect(checkUrl(page, 'https://files.example/payload/setup.exe', check)).resolves.toEqual({ verdict: 'match', match: 'files.example/payload/setup.exe' });
    await expect(checkUrl(page, 'https://files.example/payload/readme.txt', check)).resolves.toEqual({ verdict: 'clear', match: null });
    await shot(page, '09-byo-drop', 'byo-section');
    expect(problems).toEqual([]);
    await page.close();
  });

  test('works at phone width (390 px): no horizontal scroll in any state', async () => {
    const { page, problems } = await openDemo({ width: 390, height: 844, reducedMotion: 'reduce' });
    await page.waitForSelector('body[data-comparison="done"]', { timeout: 15_000 });
    const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    await expect(overflow()).resolves.toBe(0);
    const listed = manifest.examples.find((example) => example.kind === 'listed-url');
    await expect(checkUrl(page, listed.url)).resolves.toEqual({ verdict: 'match', match: listed.entry });
    for (let i = 0; i < 4; i++) await page.click(byId('bloom-random'));
    await page.click(byId('cuckoo-fill'));
    await page.locator(byId('cuckoo-full')).waitFor();
    await expect(overflow()).resolves.toBe(0);
    await shot(page, '10-phone');
    expect(problems).toEqual([]);
    await page.close();
  });
});
