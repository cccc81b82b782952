// Builds the npm package into dist/: the ESM and CommonJS bundles of js/src,
// their .d.ts types, and the wasm module (core.mjs + core.wasm) beside them.
// Run .ci/build-wasm.sh first (npm test and npm start do).
import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import { build } from 'esbuild';

const root = new URL('..', import.meta.url).pathname;
const dist = `${root}dist`;
for (const file of ['core.mjs', 'core.wasm']) {
  if (!existsSync(`${root}build-wasm/${file}`)) {
    console.error(`build: build-wasm/${file} is missing: run .ci/build-wasm.sh first`);
    process.exit(1);
  }
}
rmSync(dist, { recursive: true, force: true });
mkdirSync(dist, { recursive: true });

const common = {
  bundle: true,
  sourcemap: true,
  target: 'es2022',
  logLevel: 'warning',
  // The glue is loaded at run time from beside the bundle, never bundled.
  external: ['./core.mjs', 'node:*'],
};
await build({ ...common, entryPoints: [`${root}js/src/index.ts`], format: 'esm', platform: 'neutral', outfile: `${dist}/index.js` });
await build({
  ...common,
  entryPoints: [`${root}js/src/index.ts`],
  format: 'cjs',
  platform: 'node',
  outfile: `${dist}/index.cjs`,
  // CommonJS has no import.meta: point it at this file so core.wasm is found beside it.
  define: { 'import.meta.url': '__cbwModuleUrl' },
  banner: { js: "const __cbwModuleUrl = require('node:url').pathToFileURL(__filename).href;" },
});
// The CLI (`npx cuckoo-bloom-wasm ...`): a self-contained ES module for Node.
if (existsSync(`${root}js/src/cli/main.ts`)) {
  await build({
    ...common,
    entryPoints: [`${root}js/src/cli/main.ts`],
    format: 'esm',
    platform: 'node',
    outfile: `${dist}/cli.js`,
    banner: { js: '#!/usr/bin/env node' },
  });
  chmodSync(`${dist}/cli.js`, 0o755);
}
copyFileSync(`${root}build-wasm/core.mjs`, `${dist}/core.mjs`);
copyFileSync(`${root}build-wasm/core.wasm`, `${dist}/core.wasm`);
execFileSync(process.execPath, [`${root}node_modules/typescript/bin/tsc`, '-p', `${root}tsconfig.json`], { stdio: 'inherit' });
console.log('build: dist/ ready');
