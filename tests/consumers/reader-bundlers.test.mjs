// `cuckoo-bloom-wasm/reader` from the packed package in browser apps built by Vite,
// webpack 5 and esbuild (ES module, core.reader.wasm copied beside it as the README
// says), run in headless Chromium: no build warnings, no console errors or failed
// requests, the answers of the full package, and no byte of the full library's wasm
// in the output (the reader must not drag it in). Node's require and import too.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { serve, serveAndLaunch, writeModulePage } from './tools/browser.mjs';
import { bundle, packAndInstall } from './tools/package.mjs';

const FIXTURE = new URL('./fixtures/reader-app.js', import.meta.url);
const EXPECTED = {
  listed: 'evil.example/',
  file: 'bad.example/dl/x.exe',
  clear: null,
  type: 'binary-fuse',
  has: [true, true, true],
  keysType: 'bloom',
};

let installed;
let site; // the served folder and Chromium
let out;
let server;
let browser;
let listBytes;
let keyBytes;

/** Every file below `dir`, relative. */
function filesBelow(dir, prefix = '') {
  return readdirSync(join(dir, prefix), { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesBelow(dir, `${prefix}${entry.name}/`) : [`${prefix}${entry.name}`],
  );
}

beforeAll(async () => {
  installed = packAndInstall('cbw-reader-bundlers-');
  const { consumer, workspace } = installed;
  // The filters, made with the installed package (the full entry) in Node.
  const made = execFileSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `import { init, UrlBlocklist, BloomFilter } from 'cuckoo-bloom-wasm';
       await init();
       const list = UrlBlocklist.build('evil.example\\n||bad.example/dl/x.exe^');
       const keys = BloomFilter.from(['alpha', 'beta', 'gamma'], { falsePositiveRate: 0.001 });
       console.log(JSON.stringify([Buffer.from(list.serialize()).toString('base64'), Buffer.from(keys.serialize()).toString('base64')]));`,
    ],
    { cwd: consumer, encoding: 'utf8' },
  );
  [listBytes, keyBytes] = JSON.parse(made).map((text) => Buffer.from(text, 'base64'));
  mkdirSync(join(consumer, 'src'));
  copyFileSync(FIXTURE, join(consumer, 'src/reader-app.js'));
  // Vite builds the index.html at its root: a root of its own, sharing the installed package.
  const viteRoot = join(workspace, 'vite-consumer');
  mkdirSync(join(viteRoot, 'src'), { recursive: true });
  symlinkSync(join(consumer, 'node_modules'), join(viteRoot, 'node_modules'));
  writeFileSync(join(viteRoot, 'package.json'), JSON.stringify({ name: 'vite-consumer', private: true, type: 'module' }));
  copyFileSync(FIXTURE, join(viteRoot, 'src/reader-app.js'));
  writeModulePage(viteRoot, './src/reader-app.js');
  site = await serveAndLaunch(join(workspace, 'out'));
  ({ out, server, browser } = site);
}, 180_000);

afterAll(async () => {
  await site?.close();
  installed?.remove();
});

// [what, bundler, consumer folder (relative to the workspace), entry, copy core.reader.wasm beside the bundle]
const MATRIX = [
  ['Vite build', 'vite', 'vite-consumer', 'index.html', false],
  ['webpack 5 defaults', 'webpack', 'consumer', 'src/reader-app.js', false],
  ['esbuild --format=esm, core.reader.wasm copied beside the bundle', 'esbuild-esm', 'consumer', 'src/reader-app.js', true],
];

describe('the reader in browser bundles', () => {
  test.each(MATRIX)('%s', async (_what, bundler, consumerFolder, entry, copyWasm) => {
    const folder = join(out, bundler);
    expect(bundle(bundler, join(installed.workspace, consumerFolder), entry, folder)).toEqual({ warnings: [] });
    if (copyWasm) {
      copyFileSync(join(installed.consumer, 'node_modules/cuckoo-bloom-wasm/dist/core.reader.wasm'), join(folder, 'core.reader.wasm'));
    }
    if (bundler !== 'vite') {
      writeFileSync(
        join(folder, 'index.html'),
        `<!doctype html><html><head><link rel="icon" href="data:,"></head><body>` +
          `<script ${bundler === 'webpack' ? '' : 'type="module" '}src="app.js"></script></body></html>`,
      );
    }
    writeFileSync(join(folder, 'list.filter'), listBytes);
    writeFileSync(join(folder, 'keys.filter'), keyBytes);
    // One wasm in the output, the reader's (whatever name the bundler gave it), and no full library.
    const wasm = filesBelow(folder).filter((file) => file.endsWith('.wasm'));
    expect(wasm).toHaveLength(1);
    const site = bundler === 'vite' ? await serve(folder) : null;
    try {
      const url = site ? `${site.url}/` : `${server.url}/${bundler}/`;
      expect(await browser.open(url)).toEqual({ result: EXPECTED, error: undefined, problems: [] });
    } finally {
      await site?.close();
    }
  }, 120_000);
});

describe('the reader in Node', () => {
  test.each([
    ['require (CommonJS)', 'commonjs', "const { init, FilterReader, UrlBlocklistReader } = require('cuckoo-bloom-wasm/reader');"],
    ['import (ES module)', 'module', "import { init, FilterReader, UrlBlocklistReader } from 'cuckoo-bloom-wasm/reader';"],
  ])('%s reads core.reader.wasm from disk and answers', (_what, type, load) => {
    writeFileSync(join(installed.consumer, 'list.filter'), listBytes);
    const script = `${load}
      const { readFileSync } = require('node:fs');
      (async () => {
        await init();
        const list = UrlBlocklistReader.deserialize(readFileSync('list.filter'));
        console.log(JSON.stringify([list.match('https://www.evil.example/login'), list.match('https://example.org/')]));
      })();`.replace("const { readFileSync } = require('node:fs');", type === 'module' ? "import { readFileSync } from 'node:fs';" : "const { readFileSync } = require('node:fs');");
    const output = execFileSync(process.execPath, [`--input-type=${type}`, '-e', script], { cwd: installed.consumer, encoding: 'utf8' });
    expect(JSON.parse(output)).toEqual(['evil.example/', null]);
  });
});
