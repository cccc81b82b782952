// `npm run build` (and `prepack`): builds the npm package into dist/ from a fresh
// clone. First the wasm module (.ci/build-wasm.sh: Debian's Emscripten), then:
//   browser.js   ES module for browsers and bundlers (`browser`/`default` conditions):
//                fetches core.wasm beside itself; no `node:` import anywhere in it
//   index.cjs    CommonJS for Node (`node` + `require`): reads core.wasm from disk
//   index.import.cjs   Node's `import` of the package (`node` + `import`): index.cjs
//                with its export names for Node, so `import` and `require` in one
//                process share one wasm instance (see writeImportEntry)
//   index.js     ES module deciding Node or browser at run time, for the test suites
//                (jest.config.js); not shipped: no export condition names it (pages
//                import browser.js)
//   small.js     `cuckoo-bloom-wasm/small` in browsers: browser.js over the size build
//                (core.small.mjs + core.small.wasm, -Oz: ~60% of the bytes, ~2-3x per key)
//   reader.js / reader.cjs / reader.import.cjs   `cuckoo-bloom-wasm/reader`:
//                js/src/reader/index.ts (read filters and URL blocklists, answer
//                has/match) over core.reader.* (bindings/reader.cpp: no embind, about
//                a third of core.small.wasm)
//   shared.js / shared.cjs / shared.import.cjs   `cuckoo-bloom-wasm/shared`: js/src/shared
//                (filters in one shared memory for worker_threads and Web Workers) over
//                core.shared.wasm (bindings/shared.cpp, -pthread), loaded without its glue
//   inline.js / inline.cjs / inline.import.cjs   `cuckoo-bloom-wasm/inline`: the same API
//                with core.wasm embedded (deflated, base64) and the glue bundled in, one file
//   redis.cjs / redis.import.cjs / redis.mjs   `cuckoo-bloom-wasm/redis` (Node only):
//                the Redis-backed filter, using index.cjs's classes and wasm instance
//   index-file.cjs / .import.cjs / .mjs   `cuckoo-bloom-wasm/index-file` (Node only): the
//                CuckooIndex over an append-only file, built as redis.cjs is
//   parquet.js / parquet.cjs / parquet.import.cjs   `cuckoo-bloom-wasm/parquet`: js/src/parquet
//                (Parquet files' Bloom filters), over browser.js's or index.cjs's classes and wasm
//   cli.js       the `cuckoo-bloom-wasm` command: its own code, the library from index.cjs
//   core.mjs + core.wasm   the Emscripten glue and module (core.small.*: the size build)
//   core.cjs, core.reader.cjs   the same glue as CommonJS, which index.cjs and reader.cjs
//                require (CommonJS builds never call import(): see cjsModuleUrl)
//   types/       .d.ts (ES) and .d.cts (CommonJS) declarations
// Each variant is js/src/index.ts with runtime/init-wasm.ts swapped for one loader.
// Bundles are minified (whitespace and syntax, never names) and ship without source maps:
// the package unpacks to at most 3 MB (tests/package/package.test.mjs).
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';
import { luaAsShipped } from './lua-shipped.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const src = join(root, 'js/src');
const dist = join(root, 'dist');
const wasmBuild = join(root, 'build-wasm');

function fail(message) {
  console.error(`build: ${message}`);
  process.exit(1);
}

// 1. The wasm module. Say what is missing rather than let cmake fail obscurely.
const onPath = (command) => (process.env.PATH ?? '').split(':').some((dir) => dir !== '' && existsSync(join(dir, command)));
const missing = [
  ['emcmake', 'emscripten'],
  ['cmake', 'cmake'],
].filter(([command]) => !onPath(command));
if (!existsSync('/usr/include/xxhash.h')) missing.push(['xxhash.h', 'libxxhash-dev']);
if (missing.length > 0) {
  const packages = missing.map(([, pkg]) => pkg).join(' ');
  fail(
    `the wasm build needs ${missing.map(([what]) => what).join(', ')}, which this machine lacks.\n` +
      `  Install them with \`bash .ci/setup.sh\` (Debian 12: apt-get, as root or with sudo),\n` +
      `  or by hand: apt-get install -y ${packages}`,
  );
}
try {
  execFileSync('bash', [join(root, '.ci/build-wasm.sh')], { stdio: ['ignore', 'ignore', 'inherit'] });
} catch {
  fail('.ci/build-wasm.sh failed (its errors are above)');
}
// core.shared ships its .wasm only: js/src/shared loads it with its own loader, not the glue.
const wasmFiles = [...['core', 'core.small', 'core.reader'].flatMap((name) => [`${name}.mjs`, `${name}.wasm`]), 'core.shared.wasm'];
for (const file of wasmFiles) {
  if (!existsSync(join(wasmBuild, file))) fail(`.ci/build-wasm.sh did not produce build-wasm/${file}`);
}

// esbuild and fflate (the inline entry's inflate) are dev dependencies: a fresh clone
// needs `npm install` before building.
let esbuild;
let unzlibSync;
try {
  esbuild = await import('esbuild');
  ({ unzlibSync } = await import('fflate/browser'));
} catch {
  fail('esbuild or fflate is missing: run `npm install` first');
}

rmSync(dist, { recursive: true, force: true });
mkdirSync(dist, { recursive: true });

// The Emscripten glue, minified with its local names: emcc without Closure leaves every
// local name as written (core.mjs 58 KB, 31 KB minified; it ships in seven places
// counting the CommonJS copies and the two inline bundles). The glue reaches the
// module's imports and exports and the Module fields by string keys only, never by a
// local's name, so renaming its locals changes nothing it does; the
// `new URL("core.wasm", import.meta.url)` that bundlers look for stays as it is.
// Written to build-wasm/minified/, which the inline bundles and dist/ take it from.
const minifiedGlue = join(wasmBuild, 'minified');
mkdirSync(minifiedGlue, { recursive: true });
/** The longest line a bundle keeps (esbuild breaks at the first chance past it): see `common`. */
const LINE_LIMIT = 160;
const minifyGlue = (text, format) => esbuild.transformSync(text, { minify: true, format, target: 'es2022', lineLimit: LINE_LIMIT }).code;
for (const name of ['core', 'core.small', 'core.reader']) {
  const text = readFileSync(join(wasmBuild, `${name}.mjs`), 'utf8');
  writeFileSync(join(minifiedGlue, `${name}.mjs`), minifyGlue(text, 'esm'));
}

// 2. The JavaScript variants.
/**
 * Resolves ./init-wasm.js to one loader, (inline) ./core.mjs to the glue itself, and
 * for another module than core.* (`module: 'core.small'`, the same code at -Oz;
 * `'core.reader'`, the read-only module; bindings/wasm.cmake) the glue and the wasm
 * beside the bundle to that module's.
 */
function variantPlugin({ loader, bundleGlue = false, module = 'core', commonJsGlue = false }) {
  return {
    name: 'cbw-variant',
    setup(build) {
      if (loader !== null) {
        build.onResolve({ filter: /^\.\/init-wasm\.js$/ }, () => ({ path: join(src, 'runtime', `init-wasm-${loader}.ts`) }));
      }
      if (commonJsGlue) {
        // The CommonJS builds load the CommonJS copy of the glue (see commonJsGlueOf).
        build.onResolve({ filter: /^\.\/core\.mjs$/ }, () => ({ path: `./${module}.cjs`, external: true }));
      }
      if (module !== 'core') {
        build.onResolve({ filter: /^\.\/core\.mjs$/ }, () => ({ path: `./${module}.mjs`, external: true }));
        // The literal `new URL('./core.wasm', import.meta.url)` form stays (bundlers copy
        // what it names); only the file name changes.
        build.onLoad({ filter: /init-wasm-(browser|node)\.ts$/ }, (args) => {
          const text = readFileSync(args.path, 'utf8');
          if (!text.includes("new URL('./core.wasm', import.meta.url)")) {
            throw new Error(`${args.path}: the ${module} build expects the literal new URL('./core.wasm', import.meta.url)`);
          }
          return { contents: text.replaceAll('core.wasm', `${module}.wasm`), loader: 'ts' };
        });
      }
      if (bundleGlue) {
        build.onResolve({ filter: /^\.\/core\.mjs$/ }, () => ({ path: join(minifiedGlue, 'core.mjs') }));
      }
    },
  };
}

const common = {
  bundle: true,
  // Lines of at most about LINE_LIMIT characters: Node prints the whole source line of an
  // uncaught error's throw site before its message, and one minified line was the whole
  // bundle (134 KB on stderr for `new BloomFilter({ capacity: 0 })`, issue #44). A
  // newline costs a byte where a line would pass the limit: ~0.5% of a bundle.
  lineLimit: LINE_LIMIT,
  // No source maps (issue #33: the package within 3 MB unpacked; the maps were 226 KB):
  // every bundle but reader.js keeps its class and function names (keepNames), so a stack
  // trace names what ran without a map.
  sourcemap: false,
  target: 'es2022',
  logLevel: 'warning',
  metafile: true,
  // Classes keep their names (`BloomFilter`, not esbuild's `_BloomFilter`) in stack traces and inspect output.
  keepNames: true,
  // Whitespace and syntax only: comments and indentation go, every identifier stays as
  // written, so a stack trace reads as the sources do.
  minifyWhitespace: true,
  minifySyntax: true,
  external: ['node:*'],
  // The Redis scripts (js/src/redis/lua/*.lua) are imported as their text (the redis entry's
  // plugin below drops their comment lines first: lua-shipped.mjs); scripts.ts sends that
  // text, and names it to EVALSHA by its SHA-1.
  loader: { '.lua': 'text' },
};
// CommonJS has no import.meta: the loader's `new URL('./core.wasm', import.meta.url)`
// uses this file's URL instead; undefined once a bundler folded it into an ES module.
// A footer, so "use strict" stays the first statement: the `var` is hoisted, and it
// is only read when init() runs, after the whole file has been evaluated.
//
// And no import(): a CommonJS module run by a test runner's VM (Jest without
// --experimental-vm-modules, the default for CommonJS projects) cannot call import() at
// all ("A dynamic import callback was invoked without --experimental-vm-modules"), and
// with that flag Node 20 can crash on it once the VM script is collected
// (nodejs/node#35889). Each import() becomes a require(), of node: modules and of the
// CommonJS copy of the glue.
const cjsModuleUrl = {
  define: { 'import.meta.url': '__cbwModuleUrl' },
  footer: {
    js: "var __cbwModuleUrl = typeof __filename === 'string' ? require('node:url').pathToFileURL(__filename).href : undefined;",
  },
  supported: { 'dynamic-import': false },
};
/**
 * What every Node CommonJS bundle over a wasm `module` (core, core.reader) is: the Node
 * loader, the CommonJS copy of that module's glue (external, beside the bundle), and the
 * module URL taken from __filename (cjsModuleUrl).
 */
function nodeCommonJs(module) {
  return {
    format: 'cjs',
    platform: 'node',
    external: [`./${module}.cjs`, 'node:*'],
    plugins: [variantPlugin({ loader: 'node', module, commonJsGlue: true })],
    ...cjsModuleUrl,
  };
}
// The single-file builds embed core.wasm deflated (zlib format, level 9: 356 KB as ~128 KB,
// ~171 KB of base64) and inflate it at init (runtime/inflate-embedded.ts: Node's zlib,
// DecompressionStream or the bundled fflate). The embed is checked here with fflate, the
// inflate that owes nothing to the platform, so a mismatch fails the build.
const coreWasm = readFileSync(join(wasmBuild, 'core.wasm'));
const coreWasmDeflated = deflateSync(coreWasm, { level: 9 });
if (!Buffer.from(unzlibSync(coreWasmDeflated)).equals(coreWasm)) fail('the deflated core.wasm does not inflate to core.wasm');
// In the single-file builds the glue's own `new URL("core.wasm", import.meta.url)` is never
// reached (init passes locateFile); hiding it keeps webpack and Vite from copying a
// core.wasm nobody loads.
const inline = {
  define: {
    __CBW_WASM_DEFLATED__: JSON.stringify(coreWasmDeflated.toString('base64')),
    __CBW_WASM_SIZE__: String(coreWasm.length),
    'import.meta.url': 'undefined',
  },
};

/**
 * `entryName`: the package entry the bundle is (its NOT_INITIALIZED message
 * names it: init.ts, __CBW_ENTRY__).
 */
// What browsers get (ES modules for the browser, or for any platform: browser.js,
// small.js, reader.js, shared.js, inline.js) also renames local identifiers, as a
// page's own minifier would: 0.7x the bytes, and the package within 3 MB unpacked
// (issue #33) once list deltas and the split companion came (3.24 MB). Classes and
// functions keep their names (keepNames: toString, inspect and stack frames name
// them), but in reader.js (below). Node's library bundles (.cjs) rename local identifiers too, keeping their
// own keepNames (as cli.js, below): a stack frame still names the function or class
// that ran, and the package stays within 3 MB with the Parquet reader and its type
// (3.12 MB with the .cjs bundles' locals as written). (index.js, the test suites' ES
// module, is not shipped and stays as written.)
function renamedLocals(options) {
  if (options.outfile.endsWith('/index.js')) return {};
  // An explicit keepNames: false stays false (reader.js); every other browser bundle keeps names.
  if (options.format === 'esm' && options.platform !== 'node') return { minifyIdentifiers: true, keepNames: options.keepNames ?? true };
  return { minifyIdentifiers: true };
}

async function bundle({ entryName, ...options }, entry = 'index.ts') {
  const define = { ...options.define, __CBW_ENTRY__: JSON.stringify(entryName) };
  const result = await esbuild.build({ ...common, ...options, ...renamedLocals(options), define, entryPoints: [join(src, entry)] });
  const [output] = Object.values(result.metafile.outputs).filter((o) => o.entryPoint);
  return output.exports;
}

const exported = await bundle({
  format: 'esm',
  platform: 'browser',
  outfile: join(dist, 'browser.js'),
  entryName: 'cuckoo-bloom-wasm',
  external: ['./core.mjs'],
  plugins: [variantPlugin({ loader: 'browser' })],
});
// `cuckoo-bloom-wasm/small`: the browser build over the size build of the wasm, for pages
// that count bytes. It keeps names as browser.js does: its filters' and lists' toString
// print `this.constructor.name`.
await bundle({
  format: 'esm',
  platform: 'browser',
  outfile: join(dist, 'small.js'),
  entryName: 'cuckoo-bloom-wasm/small',
  external: ['./core.small.mjs'],
  plugins: [variantPlugin({ loader: 'browser', module: 'core.small' })],
});
// `cuckoo-bloom-wasm/reader`: read-only, for pages that count bytes, so without keepNames:
// esbuild's name-keeping calls are statements a page's bundler must keep, and with them it
// kept all of reader.js (45.7 KB of the demo's 50.9 KB app.js; 36.2 KB without). Its public
// classes name themselves (a static `name`: inspect, toString and errors read the same);
// its stack frames show the renamed functions, as a page's own minifier would leave them.
// tests/reader/reader-tree-shaking.test.mjs pins both.
const readerExports = await bundle(
  {
    format: 'esm',
    platform: 'browser',
    keepNames: false,
    outfile: join(dist, 'reader.js'),
    entryName: 'cuckoo-bloom-wasm/reader',
    external: ['./core.reader.mjs'],
    plugins: [variantPlugin({ loader: 'browser', module: 'core.reader' })],
  },
  'reader/index.ts',
);
await bundle({ ...nodeCommonJs('core.reader'), outfile: join(dist, 'reader.cjs'), entryName: 'cuckoo-bloom-wasm/reader' }, 'reader/index.ts');
// `cuckoo-bloom-wasm/shared`: the shared-memory filters (js/src/shared) over core.shared.wasm,
// an ES module for browsers (and bundlers) and CommonJS for Node. Its loader compiles
// core.shared.wasm through runtime/init-wasm-{browser,node}.ts with the file name swapped.
function sharedLoaderPlugin(loader) {
  return {
    name: 'cbw-shared-loader',
    setup(build) {
      build.onResolve({ filter: /^\.\.\/runtime\/init-wasm\.js$/ }, () => ({ path: join(src, 'runtime', `init-wasm-${loader}.ts`) }));
      build.onLoad({ filter: /init-wasm-(browser|node)\.ts$/ }, (args) => {
        const text = readFileSync(args.path, 'utf8');
        if (!text.includes("new URL('./core.wasm', import.meta.url)")) {
          throw new Error(`${args.path}: the shared build expects the literal new URL('./core.wasm', import.meta.url)`);
        }
        return { contents: text.replaceAll('core.wasm', 'core.shared.wasm'), loader: 'ts' };
      });
    },
  };
}
const sharedExports = await bundle(
  {
    format: 'esm',
    platform: 'browser',
    outfile: join(dist, 'shared.js'),
    entryName: 'cuckoo-bloom-wasm/shared',
    plugins: [sharedLoaderPlugin('browser')],
  },
  'shared/index.ts',
);
await bundle(
  {
    format: 'cjs',
    platform: 'node',
    keepNames: false,
    outfile: join(dist, 'shared.cjs'),
    entryName: 'cuckoo-bloom-wasm/shared',
    external: ['node:*'],
    plugins: [sharedLoaderPlugin('node')],
    ...cjsModuleUrl,
  },
  'shared/index.ts',
);
await bundle({
  format: 'esm',
  platform: 'neutral',
  outfile: join(dist, 'index.js'),
  entryName: 'cuckoo-bloom-wasm',
  external: ['./core.mjs', 'node:*'],
  plugins: [variantPlugin({ loader: null })],
});
await bundle({ ...nodeCommonJs('core'), outfile: join(dist, 'index.cjs'), entryName: 'cuckoo-bloom-wasm' });
// The inline entry, one bundle written twice: an ES module for any platform and CommonJS for Node.
for (const [format, platform, outfile] of [['esm', 'neutral', 'inline.js'], ['cjs', 'node', 'inline.cjs']]) {
  await bundle({
    format,
    platform,
    outfile: join(dist, outfile),
    entryName: 'cuckoo-bloom-wasm/inline',
    plugins: [variantPlugin({ loader: 'inline', bundleGlue: true })],
    ...inline,
  });
}

/**
 * Node's ES entries are the CommonJS build (one implementation per process:
 * `import` and `require` get the same classes and wasm instance). The exports
 * map sends Node's `import` to `<entry>.import.cjs`, three lines that require
 * the implementation and name its exports for Node.
 *
 * Node reads an imported CommonJS module's export names statically
 * (cjs-module-lexer). Scanning the 129 KB index.cjs itself took ~50 ms, so
 * `module.exports = implementation` assigns a variable (not a re-export the
 * lexer follows) and the names come from an `0 && (module.exports = { ... })`
 * line that never runs (the form esbuild writes for the same purpose); the
 * implementation is required through the CommonJS loader, which does not scan.
 * No ES module sits in front of it: an `.mjs` wrapper cost ~1.7 ms more per
 * import (one more module for the ES loader to read and link), most of the gap
 * to the 15 ms import-to-first-has() target (bench/startup.mjs).
 *
 * `esModule`: also write `<entry>.mjs` re-exporting it, for the exports map's
 * `default` condition of the Node-only entries.
 */
function writeImportEntry(target, names = exported, { esModule = false } = {}) {
  const base = target.replace(/\.cjs$/, '');
  const entry = `${base}.import.cjs`;
  // The names must be exactly the module's own (loading it runs no filter code).
  const actual = Object.keys(createRequire(import.meta.url)(join(dist, target))).filter((key) => key !== '__esModule');
  if ([...actual].sort().join() !== [...names].sort().join()) {
    fail(`dist/${target} exports ${actual.join(', ')}; its import entry would name ${names.join(', ')}`);
  }
  writeFileSync(
    join(dist, entry),
    `'use strict';\n// What Node's \`import\` loads: ${target}, with its export names for Node (see .ci/build-package.mjs, writeImportEntry).\n` +
      `const implementation = require('./${target}');\nmodule.exports = implementation;\n` +
      `0 && (module.exports = { ${names.join(', ')} });\n`,
  );
  if (esModule) {
    writeFileSync(
      join(dist, `${base}.mjs`),
      `// The ES entry for the exports map's \`default\` condition: the CommonJS build, as Node's \`import\` gets it.\n` +
        `export * from './${entry}';\n`,
    );
  }
}
writeImportEntry('index.cjs');
writeImportEntry('inline.cjs');
writeImportEntry('reader.cjs', readerExports);
writeImportEntry('shared.cjs', sharedExports);

// The Node-only entries `cuckoo-bloom-wasm/redis` and `cuckoo-bloom-wasm/index-file`: each
// its own code bundled, the package's classes and wasm instance taken from index.cjs at run
// time, so one init() serves every entry and a FilterError from any is the same class.
// Every import that reaches the main entry, errors.ts or runtime/init.ts (directly or through a
// bundled helper) becomes that require. Returns the entry's export names.
const sharedWithMain = new Set(['index.ts', 'errors.ts', 'runtime/init.ts'].map((file) => join(src, file)));
// The esbuild plugin that makes every such import of entry `name` a require or import of `mainFile`.
const sharesMain = (name, mainFile) => ({
  name: `cbw-${name}-shares-main`,
  setup(build) {
    build.onResolve({ filter: /^\.\.?\/.*\.js$/ }, (args) => {
      const target = join(args.resolveDir, args.path).replace(/\.js$/, '.ts');
      return sharedWithMain.has(target) ? { path: mainFile, external: true } : undefined;
    });
  },
});
async function buildNodeOnlyEntry(name, entryPoint, extra = {}) {
  const file = `${name}.cjs`;
  await esbuild.build({
    ...common,
    ...extra,
    entryPoints: [join(src, entryPoint)],
    format: 'cjs',
    platform: 'node',
    outfile: join(dist, file),
    plugins: [
      sharesMain(name, './index.cjs'),
      {
        name: 'cbw-lua-as-shipped',
        setup(build) {
          build.onLoad({ filter: /\.lua$/ }, async (args) => ({ contents: luaAsShipped(await readFile(args.path, 'utf8')), loader: 'text' }));
        },
      },
    ],
  });
  // esbuild lists no exports for CommonJS output: ask the module itself (loading it runs no filter code).
  const names = Object.keys(createRequire(import.meta.url)(join(dist, file))).filter((key) => key !== '__esModule');
  if (names.length === 0) fail(`dist/${file} exports nothing`);
  if (!readFileSync(join(dist, file), 'utf8').includes('require("./index.cjs")')) {
    fail(`dist/${file} does not take the main entry from ./index.cjs`);
  }
  return names;
}
// Local names renamed, as in cli.js and the library's other bundles (classes and functions
// keep theirs: keepNames), toward the package's 3 MB (the parquet entry's two bundles ~7 KB
// smaller each, redis.cjs and index-file.cjs ~0.7x).
const renamedLocalsOnly = { minifyIdentifiers: true };
const redisExports = await buildNodeOnlyEntry('redis', 'redis/index.ts', renamedLocalsOnly);
const indexFileExports = await buildNodeOnlyEntry('index-file', 'exact-index/file/index.ts', renamedLocalsOnly);
// `cuckoo-bloom-wasm/parquet`: in Node built as the Node-only entries are; in browsers and
// bundlers (parquet.js) the same code as an ES module over browser.js's classes and wasm instance.
const parquetExports = await buildNodeOnlyEntry('parquet', 'parquet/index.ts', renamedLocalsOnly);
await esbuild.build({
  ...common,
  ...renamedLocalsOnly,
  entryPoints: [join(src, 'parquet/index.ts')],
  format: 'esm',
  platform: 'browser',
  outfile: join(dist, 'parquet.js'),
  plugins: [sharesMain('parquet-browser', './browser.js')],
});

// The CLI (`npx cuckoo-bloom-wasm ...`): an ES module for Node, its own code bundled, the
// library imported from the package's Node entries (index.import.cjs, index-file.import.cjs:
// what `import 'cuckoo-bloom-wasm'` gets in Node) instead of a second bundled copy (~130 KB).
// The imports are relative to cli.js's real path, which Node resolves through the bin
// symlinks of a global install or npx. Helpers with no state (key checks, URL rules) stay
// bundled; a class, an error type or the wasm instance comes from the entries only.
const cliImports = new Map([
  ...[...sharedWithMain].map((file) => [file, './index.import.cjs']),
  [join(src, 'exact-index/file/index.ts'), './index-file.import.cjs'],
]);
if (existsSync(join(src, 'cli/main.ts'))) {
  const { metafile } = await esbuild.build({
    ...common,
    entryPoints: [join(src, 'cli/main.ts')],
    format: 'esm',
    platform: 'node',
    outfile: join(dist, 'cli.js'),
    // Local names renamed as in the browser bundles (classes and functions keep theirs, so
    // a stack frame still names them): the CLI prints messages, not its own locals, and
    // this keeps the package within 3 MB with the Ribbon filter (0.7x cli.js's bytes).
    minifyIdentifiers: true,
    keepNames: true,
    // psl (the Public Suffix List: build's warnings and the suffixes it guards) is the
    // package's one runtime dependency, used by the CLI only: imported, not bundled (no
    // browser bundle reaches it).
    external: [...common.external, 'psl'],
    plugins: [
      {
        name: 'cbw-cli-uses-entries',
        setup(build) {
          build.onResolve({ filter: /^\.\.?\/.*\.js$/ }, (args) => {
            const target = cliImports.get(join(args.resolveDir, args.path).replace(/\.js$/, '.ts'));
            return target === undefined ? undefined : { path: target, external: true };
          });

        },
      },
    ],
    banner: { js: '#!/usr/bin/env node' },
  });
  // No filter class or loader may be bundled: two copies would mean two wasm instances.
  // (exact-index/file/ is the index-file entry's code: its stateless helpers may be bundled.)
  const bundled = Object.keys(metafile.inputs).filter((input) => /js\/src\/(runtime|core|bloom|cuckoo|fuse|chains|exact-index(?!\/file\/))\//.test(input));
  if (bundled.length > 0) fail(`dist/cli.js bundles library code instead of importing it: ${bundled.join(', ')}`);
  chmodSync(join(dist, 'cli.js'), 0o755);
}
writeImportEntry('redis.cjs', redisExports, { esModule: true });
writeImportEntry('index-file.cjs', indexFileExports, { esModule: true });
writeImportEntry('parquet.cjs', parquetExports);
for (const file of wasmFiles) copyFileSync(join(file.endsWith('.mjs') ? minifiedGlue : wasmBuild, file), join(dist, file));

/**
 * The glue as a CommonJS module, for index.cjs and reader.cjs (which must not call
 * import(); see cjsModuleUrl): the same text with `export default` as
 * `module.exports` and import.meta.url as this file's URL. Emscripten writes the ES
 * form; the two edits are checked so a different glue fails the build, not a user.
 */
function commonJsGlueOf(name) {
  const text = readFileSync(join(wasmBuild, `${name}.mjs`), 'utf8');
  const exportLine = 'export default createCoreModule;';
  if (text.split(exportLine).length !== 2 || text.includes('import(') || /^\s*import\s/m.test(text)) {
    fail(`build-wasm/${name}.mjs is not the glue this build knows how to turn into CommonJS`);
  }
  const cjs = text
    .replace(exportLine, 'module.exports = createCoreModule;')
    .replaceAll('import.meta.url', "require('node:url').pathToFileURL(__filename).href");
  writeFileSync(join(dist, `${name}.cjs`), minifyGlue(`'use strict';\n${cjs}`, 'cjs'));
}
commonJsGlueOf('core');
commonJsGlueOf('core.reader');
for (const file of readdirSync(dist).filter((name) => name.endsWith('.cjs'))) {
  if (/\bimport\(/.test(readFileSync(join(dist, file), 'utf8'))) fail(`dist/${file} calls import()`);
}

/**
 * Minified output writes `new URL("./core.wasm",import.meta.url)`; the bundles keep the
 * spelled-out form `new URL("./core.wasm", import.meta.url)` that bundlers document and
 * tests look for, so this puts the space back (no bundle has a source map to shift).
 */
function spellOutWasmUrls(file) {
  const path = join(dist, file);
  const text = readFileSync(path, 'utf8');
  const spelled = text.replace(/(new URL\("\.\/[\w.]+\.wasm"),(import\.meta\.url\))/g, '$1, $2');
  if (spelled === text) fail(`dist/${file} has no new URL("./….wasm", import.meta.url)`);
  writeFileSync(path, spelled);
}
for (const file of ['browser.js', 'small.js', 'reader.js', 'shared.js', 'index.js']) spellOutWasmUrls(file);

// What bundlers choke on must not be there: no `node:` import in what browsers get.
for (const file of ['browser.js', 'small.js', 'reader.js', 'shared.js', 'inline.js']) {
  if (/["']node:/.test(readFileSync(join(dist, file), 'utf8'))) fail(`dist/${file} imports a node: module`);
}
for (const file of ['inline.js', 'inline.cjs']) {
  if (/__CBW_WASM_(DEFLATED|SIZE)__/.test(readFileSync(join(dist, file), 'utf8'))) fail(`dist/${file} lacks the embedded wasm`);
}

// 3. Declarations: tsc writes ES .d.ts files; each gets a CommonJS twin (.d.cts
// importing .cjs paths), so `require` consumers under node16/nodenext resolve
// CommonJS types instead of ES types masquerading as CommonJS (TS1479).
execFileSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', join(root, 'tsconfig.json')], {
  stdio: 'inherit',
});
function writeCommonJsTwins(folder) {
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) writeCommonJsTwins(path);
    else if (entry.name.endsWith('.d.ts')) {
      // `declare module` too: the registry declares the type names into core/filter-type-name's
      // interface (declaration merging), and must name the same (CommonJS) module there.
      const text = readFileSync(path, 'utf8').replace(/((?:from|import|declare module)\s*\(?\s*["']\.{1,2}\/[^"']*?)\.js(["'])/g, '$1.cjs$2');
      writeFileSync(path.replace(/\.d\.ts$/, '.d.cts'), text);
    }
  }
}
writeCommonJsTwins(join(dist, 'types'));

// Only the declarations an entry's types reach are shipped: tsc declares every
// module, and most internal ones (scripts, planners, parsers) appear in no public
// type. Walks the relative imports (and `import("…")` type queries) from each
// entry's .d.ts and .d.cts; deletes the rest. The typings tests type-check every
// entry in every resolution mode against what is left.
function pruneUnreachableDeclarations(folder, entries) {
  const reached = new Set();
  const pending = [...entries.map((entry) => join(folder, entry))];
  while (pending.length > 0) {
    const file = pending.pop();
    if (reached.has(file) || !existsSync(file)) continue;
    reached.add(file);
    const text = readFileSync(file, 'utf8');
    for (const [, specifier] of text.matchAll(/(?:from|import|declare module)\s*\(?\s*["'](\.{1,2}\/[^"']+)["']/g)) {
      const target = join(file, '..', specifier);
      pending.push(target.replace(/\.js$/, '.d.ts').replace(/\.cjs$/, '.d.cts').replace(/\.mjs$/, '.d.mts'));
    }
  }
  let removed = 0;
  const sweep = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        sweep(path);
        if (readdirSync(path).length === 0) rmSync(path, { recursive: true });
      } else if (/\.d\.[cm]?ts$/.test(entry.name) && !reached.has(path)) {
        rmSync(path);
        removed++;
      }
    }
  };
  sweep(folder);
  if (removed === 0) fail('pruneUnreachableDeclarations removed nothing: is the walk reading the imports?');
}
const TYPED_ENTRIES = ['index', 'reader/index', 'shared/index', 'redis/index', 'exact-index/file/index', 'parquet/index'];
pruneUnreachableDeclarations(
  join(dist, 'types'),
  TYPED_ENTRIES.flatMap((entry) => [`${entry}.d.ts`, `${entry}.d.cts`]),
);

// One tree of declarations, not two: each entry's ES .d.ts re-exports its CommonJS twin
// (an ES module may import CommonJS types; the reverse is TS1479), and the other ES
// .d.ts files go. The twins were two copies of every declaration, ~200 KB of the 3 MB
// the package may unpack to (tests/package/package.test.mjs).
function pointEsDeclarationsAtTwins(folder, entries) {
  const sweep = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) sweep(path);
      else if (entry.name.endsWith('.d.ts')) rmSync(path);
    }
  };
  sweep(folder);
  for (const entry of entries) {
    const name = entry.split('/').pop();
    writeFileSync(join(folder, `${entry}.d.ts`), `export * from './${name}.cjs';\n`);
  }
}
pointEsDeclarationsAtTwins(join(dist, 'types'), TYPED_ENTRIES);
console.log('build: dist/ ready');
