// What every browser suite of the demo sets up once: the site built from the sources
// (web-demo/build.mjs), served in-process on 127.0.0.1 (web-demo/serve.mjs), and a headless
// Chromium; both closed after the suite.
import { execFileSync } from 'node:child_process';
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
    if (build) execFileSync(process.execPath, [join(ROOT, 'web-demo', 'build.mjs')], { cwd: ROOT, stdio: 'pipe' });
    site.server = await startServer({ port: 0 });
    site.browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    await site.browser?.close();
    await site.server?.close();
  });
  return site;
}
