// The demo offline, for the suites that check what its service worker kept: waiting for the
// companion's offline copy, and a reload with the network cut.
import { expect } from '@jest/globals';

/** Waits (20 s at most) until the service worker has stored the companion's offline copy (manifest.confirmation.offlineCopy). */
export async function waitForOfflineCopy(page, manifest) {
  const cached = () => within('reading the caches', 10_000, page.evaluate(async (path) => (await caches.match(new URL(path, location.href).href)) !== undefined, manifest.confirmation.offlineCopy));
  for (const deadline = Date.now() + 20_000; !(await cached()) && Date.now() < deadline; ) await page.waitForTimeout(200);
  await expect(cached()).resolves.toBe(true);
}

/** Cuts the network of `context` and reloads `page` until the checker is ready (the caller sets it online again). */
export async function reloadOffline(context, page) {
  await within('going offline', 15_000, context.setOffline(true));
  await page.reload();
  await page.waitForSelector('body[data-ready="true"]', { timeout: 15_000 });
}

/** The page's verdict on each URL (window.demo.verdicts: the form's own checking, a maybe confirmed first). */
export function pageVerdicts(page, urls) {
  return within(`the page's verdicts on ${urls.length} URLs`, 30_000, page.evaluate(async (list) => (await window.demo.verdicts(list)).map((result) => result.verdict), urls));
}

/**
 * `promise`, or a rejection naming `what` when it has not settled within `ms`. A step that
 * has no timeout of its own (page.evaluate, context.setOffline) would otherwise hang until
 * Jest's timeout, which names only the test.
 */
export function within(what, ms, promise) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: not done within ${ms / 1000} s`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** The VERSION a built sw.js names (its cache is `cbw-demo-<VERSION>`). */
export function workerVersion(swSource) {
  const match = /const VERSION = "([0-9a-f]+)"/.exec(swSource);
  if (match === null) throw new Error('sw.js names no VERSION');
  return match[1];
}

/**
 * Waits (30 s at most) until the worker of the build whose sw.js names `version` controls
 * the page, none installing or waiting, and its cache is the demo's only one (an older
 * build's worker handed over and its cache is gone); with `copy` (a path such as
 * manifest.confirmation.offlineCopy), until that cache also holds it. A suite that reloads
 * the page waits for this instead of a fixed time: a reload while a worker is still
 * installing or activating tested the race, not the worker, and on a busy machine the
 * fixed time was once not enough.
 */
export async function waitForWorkerOfBuild(page, version, copy) {
  const settled = () =>
    within('reading the service worker and its caches', 10_000, page.evaluate(async ({ cacheName, path }) => {
      const registration = await navigator.serviceWorker.getRegistration();
      if (!registration || registration.installing || registration.waiting || registration.active?.state !== 'activated') return false;
      if (navigator.serviceWorker.controller === null) return false;
      const names = (await caches.keys()).filter((name) => name.startsWith('cbw-demo-'));
      if (names.length !== 1 || names[0] !== cacheName) return false;
      return path === undefined || (await (await caches.open(cacheName)).match(new URL(path, location.href).href)) !== undefined;
    }, { cacheName: `cbw-demo-${version}`, path: copy }));
  for (const deadline = Date.now() + 30_000; !(await settled()) && Date.now() < deadline; ) await page.waitForTimeout(200);
  if (!(await settled())) {
    const state = await page.evaluate(async () => {
      const registration = await navigator.serviceWorker.getRegistration();
      return { caches: await caches.keys(), installing: registration?.installing?.state ?? null, waiting: registration?.waiting?.state ?? null, active: registration?.active?.state ?? null, controlled: navigator.serviceWorker.controller !== null };
    });
    throw new Error(`the worker of build ${version}${copy ? ` with ${copy} kept` : ''} did not settle within 30 s: ${JSON.stringify(state)}`);
  }
}

/**
 * For a test's `finally`: sets `context` online again (15 s at most; a failure there is not
 * the test's) and closes the page with `close` (openPage's).
 */
export async function closeOnline(context, close) {
  await within('going online', 15_000, context.setOffline(false)).catch(() => {});
  await close();
}
