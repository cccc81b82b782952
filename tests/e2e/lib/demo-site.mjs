// What every browser suite of the demo sets up once: the site built from the sources
// (web-demo/build.mjs), served in-process on 127.0.0.1 (web-demo/serve.mjs), and a headless
// Chromium; both closed after the suite.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll } from '@jest/globals';
import { startServer } from '../../../web-demo/serve.mjs';
import { launchBrowser } from './browser.mjs';

/** The repository's root folder. */
export const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

/**
 * Registers the suite's beforeAll (build unless `build` is false, serve, launch) and
 * afterAll (close both), and returns { server, browser }, filled in once beforeAll has run.
 * A beforeAll the suite registers after this call runs after the build.
 */
export function useDemoSite({ build = true } = {}) {
  const site = { server: null, browser: null };
  beforeAll(async () => {
    if (build) buildOncePerRun();
    site.server = await startServer({ port: 0 });
    site.browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    await site.browser?.close();
    await site.server?.close();
  });
  return site;
}

/** The built demo's manifest (web-demo/dist/data/manifest.json): its examples and list facts. */
export function readDemoManifest() {
  return JSON.parse(readFileSync(join(ROOT, 'web-demo', 'dist', 'data', 'manifest.json'), 'utf8'));
}

const STAMP = join(ROOT, 'web-demo', 'dist', '.built-for-jest-run');
const LOCK = join(ROOT, 'web-demo', '.build-lock');
const STALE_LOCK_MS = 180_000;

/**
 * Builds the site unless this Jest run (CBW_JEST_RUN, tests/global-setup.mjs) already did.
 * Two demo suites run side by side on two workers; the build empties web-demo/dist first,
 * so a second build while the other suite serves from it gave 404s. A lock directory lets
 * one suite build while the other waits; a lock older than a build can take is stale.
 */
function buildOncePerRun() {
  const run = process.env.CBW_JEST_RUN;
  const built = () => run !== undefined && existsSync(STAMP) && readFileSync(STAMP, 'utf8') === run;
  for (;;) {
    if (built()) return;
    try {
      mkdirSync(LOCK);
    } catch {
      if (existsSync(LOCK) && Date.now() - statSync(LOCK).mtimeMs > STALE_LOCK_MS) rmSync(LOCK, { recursive: true, force: true });
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 250);
      continue;
    }
    try {
      if (!built()) {
        execFileSync(process.execPath, [join(ROOT, 'web-demo', 'build.mjs')], { cwd: ROOT, stdio: 'pipe' });
        if (run !== undefined) writeFileSync(STAMP, run);
      }
      return;
    } finally {
      rmSync(LOCK, { recursive: true, force: true });
    }
  }
}
