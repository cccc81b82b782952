// The packed package in browser apps built by esbuild, webpack 5, Vite and
// Rollup, each with the configuration its docs give a plain app (nothing for
// this package beyond what the README shows), run in headless Chromium. Every
// build must be free of warnings, and every page free of console errors and
// failed requests; each app creates filters, adds, checks has() and reports.
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { serve, serveAndLaunch, writeModulePage } from './tools/browser.mjs';
import { bundle, packAndInstall, REPO } from './tools/package.mjs';

const FIXTURE = new URL('./fixtures/browser-app.js', import.meta.url);
const EXPECTED = { has: true, many: [true, true, false], copyHas: true, removed: true, afterRemove: false };

let installed;
let site; // the served folder and Chromium
let out; // one folder per build, served together
let server;
let browser;

/** The page a plain (non-Vite) build is loaded from. */
function writePage(folder, { module }) {
  writeFileSync(
    join(folder, 'index.html'),
    `<!doctype html><html><head><link rel="icon" href="data:,"></head><body>` +
      `<script ${module ? 'type="module" ' : ''}src="app.js"></script></body></html>`,
  );
}

beforeAll(async () => {
  installed = packAndInstall('cbw-browser-bundlers-');
  const { consumer } = installed;
  const app = readFileSync(FIXTURE, 'utf8');
  mkdirSync(join(consumer, 'src'));
  writeFileSync(join(consumer, 'src/app.js'), app);
  copyFileSync(new URL('./fixtures/readme-steps.mjs', import.meta.url), join(consumer, 'src/readme-steps.mjs'));
  writeFileSync(
    join(consumer, 'src/app-inline.js'),
    app.replace("from 'cuckoo-bloom-wasm'", "from 'cuckoo-bloom-wasm/inline'"),
  );
  // Vite builds from an index.html at the project root.
  writeModulePage(consumer, './src/app.js');
  site = await serveAndLaunch(join(installed.workspace, 'out'));
  ({ out, server, browser } = site);
}, 120_000);

afterAll(async () => {
  await site?.close();
  installed?.remove();
});

// [what, bundler, entry, how the page loads the bundle, core.wasm copied beside it by hand (as the README says)]
const MATRIX = [
  ['esbuild (IIFE, its browser default) with cuckoo-bloom-wasm/inline', 'esbuild', 'src/app-inline.js', { module: false }, false],
  ['esbuild --format=esm, core.wasm copied beside the bundle', 'esbuild-esm', 'src/app.js', { module: true }, true],
  ['webpack 5 defaults', 'webpack', 'src/app.js', { module: false }, false],
  ['Vite build', 'vite', 'index.html', null, false],
  ['Rollup + node-resolve with cuckoo-bloom-wasm/inline', 'rollup', 'src/app-inline.js', { module: true }, false],
  ['Rollup + node-resolve, core.wasm copied beside the bundle', 'rollup', 'src/app.js', { module: true }, true],
];

describe('browser bundles run in Chromium', () => {
  test.each(MATRIX)('%s', async (_what, bundler, entry, page, copyWasm) => {
    const folder = join(out, `${bundler}-${entry.replace(/\W/g, '-')}`);
    expect(bundle(bundler, installed.consumer, entry, folder)).toEqual({ warnings: [] });
    if (copyWasm) copyFileSync(join(installed.consumer, 'node_modules/cuckoo-bloom-wasm/dist/core.wasm'), join(folder, 'core.wasm'));
    // Vite writes its own index.html with absolute (/assets/...) URLs: serve it at a root.
    const vite = page === null ? await serve(folder) : null;
    if (page !== null) writePage(folder, page);
    try {
      const url = vite ? `${vite.url}/` : `${server.url}/${folder.slice(out.length + 1)}/`;
      expect(await browser.open(url)).toEqual({ result: EXPECTED, error: undefined, problems: [] });
    } finally {
      await vite?.close();
    }
  }, 60_000);

  test('Vite dev server (dependencies pre-bundled)', async () => {
    const script = fileURLToPath(new URL('./tools/vite-dev.mjs', import.meta.url));
    const child = spawn(process.execPath, [script, installed.consumer], { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      const { url } = await new Promise((resolve, reject) => {
        let output = '';
        child.stdout.on('data', (chunk) => {
          output += chunk;
          if (output.includes('\n')) resolve(JSON.parse(output.split('\n')[0]));
        });
        child.on('exit', (code) => reject(new Error(`vite dev exited with ${code}`)));
      });
      expect(await browser.open(url)).toEqual({ result: EXPECTED, error: undefined, problems: [] });
    } finally {
      child.kill();
    }
  }, 60_000);

  test('a bundle without its core.wasm fails with LOAD_FAILED naming the URL it tried', async () => {
    const folder = join(out, 'esbuild-esm-no-wasm');
    bundle('esbuild-esm', installed.consumer, 'src/app.js', folder);
    writePage(folder, { module: true });
    const { result, error } = await browser.open(`${server.url}/esbuild-esm-no-wasm/`);
    expect(result).toBeUndefined();
    expect(error).toBe(
      `FilterError LOAD_FAILED: could not fetch the WebAssembly module from ${server.url}/esbuild-esm-no-wasm/core.wasm: HTTP 404 Not Found`,
    );
  }, 60_000);
});
