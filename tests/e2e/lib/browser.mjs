// Debian's Chromium driven by playwright-core (no browser is ever downloaded), and the
// built demo served in-process on 127.0.0.1.
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';

export const DESKTOP = { width: 1440, height: 900 };
export const PHONE = { width: 390, height: 844 };

/** One headless browser; each test opens fresh contexts in it (no shared cache or storage). */
export async function launchBrowser() {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`${CHROMIUM} is missing: the e2e tests need Debian's Chromium (apt-get install -y chromium)`);
  }
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic', `--disable-features=${[...(await playwrightDisabledFeatures()), ...NO_BROWSER_UI_PRELOAD].join(',')}`],
  });
}

/**
 * Headless Chromium (156) opens a desktop window per context, and preloads its top-chrome
 * WebUIs: the address bar's popup (chrome://omnibox-popup.top-chrome) loads in its own
 * renderer for ~1 s after each new context. In a 4x trace of the demo's first visit that
 * renderer took 411 ms of CPU beside the page's 767 on this 2-core machine. A phone's
 * browser loads no such popup, and no test here uses the browser's own UI: the page's
 * timings (bench/demo-first-verdict.mjs, tests/e2e/delivery) and every suite's pace should
 * not share the cores with it.
 */
const NO_BROWSER_UI_PRELOAD = ['PreloadTopChromeWebUI', 'WebUIOmniboxPopup'];

/**
 * The features Playwright disables itself (its own --disable-features switch): Chromium keeps
 * only the last such switch, so ours restates them. Read from a probe browser's command line
 * (--enable-automation lets CDP return it) once per Playwright version, then from a file in
 * the temp directory.
 */
async function playwrightDisabledFeatures() {
  // Keyed by Playwright's version alone: the list is Playwright's (its chromiumSwitches), whatever the Chromium.
  const version = createRequire(import.meta.url)('playwright-core/package.json').version;
  const cache = join(tmpdir(), `cbw-playwright-${version}-disabled-features.json`);
  try {
    return JSON.parse(readFileSync(cache, 'utf8'));
  } catch {
    // not probed yet
  }
  const probe = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--enable-automation'] });
  try {
    const cdp = await probe.newBrowserCDPSession();
    const { arguments: argv } = await cdp.send('Browser.getBrowserCommandLine');
    const switches = argv.filter((arg) => arg.startsWith('--disable-features='));
    const features = switches.length === 0 ? [] : switches.at(-1).slice('--disable-features='.length).split(',').filter(Boolean);
    // Whole or not at all: two suites launching at once each probe, and each renames its own file in.
    const written = `${cache}.${process.pid}`;
    writeFileSync(written, JSON.stringify(features));
    renameSync(written, cache);
    return features;
  } finally {
    await probe.close();
  }
}

/** What Playwright prints in the page when a context that blocks service workers sees one registered. */
const HARNESS_BLOCKED_WORKER = 'Service Worker registration blocked by Playwright';

/**
 * Opens `url` in a new context and page, recording every console error, page error, failed
 * request, HTTP error and request to another origin in `problems`.
 */
export async function openPage(browser, url, { viewport = DESKTOP, reducedMotion = 'no-preference', serviceWorkers = 'allow', waitReady = true } = {}) {
  const context = await browser.newContext({ viewport, reducedMotion, serviceWorkers, acceptDownloads: true });
  const page = await context.newPage();
  const origin = new URL(url).origin;
  const problems = [];
  page.on('console', (message) => {
    // With serviceWorkers: 'block', Playwright's own script answers the page's register() with
    // this warning: the harness speaking, not the page (it appears whenever the page registers
    // its worker before the test closes, so only on some runs).
    if (serviceWorkers === 'block' && message.text() === HARNESS_BLOCKED_WORKER) return;
    if (message.type() === 'error' || message.type() === 'warning') problems.push(`console ${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('requestfailed', (request) => problems.push(`request failed: ${request.url()} ${request.failure()?.errorText}`));
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`HTTP ${response.status()}: ${response.url()}`);
  });
  page.on('request', (request) => {
    const target = request.url();
    if (!target.startsWith(origin) && !target.startsWith('blob:') && !target.startsWith('data:')) problems.push(`request to another origin: ${target}`);
  });
  await page.goto(url);
  if (waitReady) await page.waitForSelector('body[data-ready="true"]', { timeout: 15_000 });
  return { context, page, problems, close: () => context.close() };
}

export const byId = (id) => `[data-testid="${id}"]`;

/**
 * A page (no service worker) reloaded with the requests matching `blocked` refused, as a
 * failing network refuses them, once its body says `ready` ('true', or 'error' when what
 * failed was the list itself); openPage's handle.
 */
export async function openPageWithBlocked(browser, url, blocked, ready) {
  const opened = await openPage(browser, url, { serviceWorkers: 'block', waitReady: false });
  try {
    await opened.context.route(blocked, (route) => route.abort('blockedbyclient'));
    await opened.page.reload();
    await opened.page.waitForSelector(`body[data-ready="${ready}"]`, { timeout: 15_000 });
    return opened;
  } catch (error) {
    await opened.close();
    throw error;
  }
}
