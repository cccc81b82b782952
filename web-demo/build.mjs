#!/usr/bin/env node
// Builds the static web demo into web-demo/dist/ (gitignored):
//   app.js            web-demo/src/main.ts bundled with esbuild (library from js/src + the
//                     Emscripten glue dist/core.mjs, minified, one ES module)
//   core.wasm         the package build's dist/core.wasm, beside app.js (init() looks there)
//   index.html, styles.css, favicon.svg
//   data/urlhaus.filter                 the preloaded blocklist (Bloom, 0.1%), built by the CLI
//   data/urlhaus.blocked-bloom.filter   the same list as a blocked Bloom filter (comparison)
//   data/urlhaus.cuckoo.filter          the same list as a cuckoo filter (comparison)
//   data/manifest.json                  source, counts, date, licence, example URLs
// and prints the transfer sizes (raw and gzip).
//
// Needs the package build first (`npm run build`: dist/core.wasm, dist/core.mjs, dist/cli.js).
// CBW_CLI=path overrides the CLI script (default dist/cli.js).
import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const run = promisify(execFile);
const root = fileURLToPath(new URL('..', import.meta.url));
const demo = join(root, 'web-demo');
const out = join(demo, 'dist');
const pkg = join(root, 'dist');
const cli = process.env.CBW_CLI ?? join(pkg, 'cli.js');
const listFile = join(demo, 'data', 'urlhaus-filter-online.txt');
const RATE = 0.001;
const started = performance.now();

for (const [file, hint] of [
  [join(pkg, 'core.wasm'), 'npm run build'],
  [join(pkg, 'core.mjs'), 'npm run build'],
  [join(pkg, 'index.js'), 'npm run build'],
  [cli, 'npm run build (the CLI is dist/cli.js)'],
  [listFile, 'git checkout web-demo/data'],
]) {
  if (!existsSync(file)) fail(`${relative(root, file)} is missing: run \`${hint}\` first`);
}

rmSync(out, { recursive: true, force: true });
mkdirSync(join(out, 'data'), { recursive: true });

// 1. The page script. The library's init() does `import('./core.mjs')` (external in the
// package build); here that import is resolved to dist/core.mjs and bundled in, so the
// page loads one script and then core.wasm from beside it.
await build({
  entryPoints: [join(demo, 'src', 'main.ts')],
  outfile: join(out, 'app.js'),
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  external: ['node:*'],
  minify: true,
  legalComments: 'none',
  logLevel: 'warning',
  plugins: [
    {
      name: 'core-glue',
      setup(b) {
        b.onResolve({ filter: /^\.\/core\.mjs$/ }, () => ({ path: join(pkg, 'core.mjs') }));
      },
    },
  ],
});
copyFileSync(join(pkg, 'core.wasm'), join(out, 'core.wasm'));
for (const file of ['index.html', 'styles.css', 'favicon.svg']) copyFileSync(join(demo, file), join(out, file));

// 2. The blocklist, with the project's own CLI (three filter types; the page shows Bloom
// and compares it with the other two).
const filters = { bloom: 'urlhaus.filter', 'blocked-bloom': 'urlhaus.blocked-bloom.filter', cuckoo: 'urlhaus.cuckoo.filter' };
await Promise.all(
  Object.entries(filters).map(([type, name]) =>
    run(
      process.execPath,
      [cli, 'build', '--urls', '--type', type, '--fpr', String(RATE), '--input', relative(root, listFile), '--output', relative(root, join(out, 'data', name))],
      { cwd: root },
    ).catch((error) => fail(`the CLI failed building the ${type} filter:\n${error.stderr || error.message}`)),
  ),
);

// 3. The manifest: what the page shows about the list, and examples checked here against
// the filter the CLI just wrote (read back with the package build).
const { init, UrlBlocklist, parseListLine } = await import(pathToFileURL(join(pkg, 'index.js')).href);
await init();
const text = readFileSync(listFile, 'utf8');
const lines = text.split(/\r?\n/);
if (lines.at(-1) === '') lines.pop();
const header = Object.fromEntries(
  lines.filter((line) => /^!\s*[\w ]+:/.test(line)).map((line) => {
    const [, key, value] = /^!\s*([\w ]+?)\s*:\s*(.*)$/.exec(line);
    return [key.toLowerCase(), value.trim()];
  }),
);
const blocklist = UrlBlocklist.deserialize(readFileSync(join(out, 'data', filters.bloom)));
const examples = pickExamples(lines, blocklist, parseListLine);

const sizes = Object.fromEntries(Object.entries(filters).map(([type, name]) => [type, statSync(join(out, 'data', name)).size]));
const manifest = {
  title: header.title ?? 'URLhaus malicious URL blocklist',
  source: 'URLhaus (abuse.ch), via the malware-filter/urlhaus-filter project',
  homepage: header.homepage ?? 'https://gitlab.com/malware-filter/urlhaus-filter',
  upstream: header.source ?? 'https://urlhaus.abuse.ch/api/',
  license: 'CC0 1.0 Universal (public domain dedication)',
  licenseUrl: 'https://gitlab.com/malware-filter/urlhaus-filter#license',
  updated: header.updated ?? null,
  lineCount: lines.length,
  entryCount: blocklist.entryCount,
  falsePositiveRate: RATE,
  filters: Object.fromEntries(Object.entries(filters).map(([type, name]) => [type, { file: `data/${name}`, bytes: sizes[type] }])),
  examples,
  builtWith: `cuckoo-bloom-wasm CLI: build --urls --type <type> --fpr ${RATE}`,
};
blocklist.free();
writeFileSync(join(out, 'data', 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);

// 4. What a visitor downloads.
const rows = [
  ['page (index.html + styles.css + favicon.svg)', ['index.html', 'styles.css', 'favicon.svg']],
  ['JS bundle (app.js)', ['app.js']],
  ['wasm (core.wasm)', ['core.wasm']],
  ['filter (data/urlhaus.filter)', [`data/${filters.bloom}`]],
  ['manifest (data/manifest.json)', ['data/manifest.json']],
  ['comparison filters (blocked Bloom + cuckoo)', [`data/${filters['blocked-bloom']}`, `data/${filters.cuckoo}`]],
];
let totalRaw = 0;
let totalGzip = 0;
console.log(`web-demo: built ${relative(process.cwd(), out) || '.'}/ in ${((performance.now() - started) / 1000).toFixed(1)} s`);
console.log(`  ${'file'.padEnd(46)} ${'raw'.padStart(9)} ${'gzip'.padStart(9)}`);
for (const [label, files] of rows) {
  let raw = 0;
  let gzip = 0;
  for (const file of files) {
    const bytes = readFileSync(join(out, file));
    raw += bytes.length;
    gzip += gzipSync(bytes, { level: 9 }).length;
  }
  totalRaw += raw;
  totalGzip += gzip;
  console.log(`  ${label.padEnd(46)} ${kb(raw).padStart(9)} ${kb(gzip).padStart(9)}`);
}
console.log(`  ${'total'.padEnd(46)} ${kb(totalRaw).padStart(9)} ${kb(totalGzip).padStart(9)}`);
console.log(`  list: ${manifest.entryCount} entries from ${manifest.lineCount} lines, updated ${manifest.updated}`);

function kb(bytes) {
  return `${(bytes / 1024).toFixed(1)} KiB`;
}

function fail(message) {
  console.error(`web-demo build: ${message}`);
  process.exit(1);
}

// Real entries of the list, spread through it, each confirmed against the built filter.
function pickExamples(lines, list, parseLine) {
  const hosts = [];
  const urls = [];
  for (const line of lines) {
    const parsed = parseLine(line, 'auto');
    if (parsed.kind !== 'entry' || parsed.expressions.length !== 1) continue;
    const expression = parsed.expressions[0];
    const slash = expression.indexOf('/');
    const host = expression.slice(0, slash);
    const path = expression.slice(slash);
    if (path === '/' && /[a-z]/.test(host) && host.split('.').length <= 3 && host.length <= 24) hosts.push(host);
    else if (path.length > 1 && expression.length <= 56 && !expression.includes('%')) urls.push(expression);
  }
  const spread = (items, count) => Array.from({ length: count }, (_, i) => items[Math.floor(((i + 0.5) * items.length) / count)]).filter(Boolean);
  const picked = [
    ...spread(hosts, 2).map((host, i) => ({
      kind: 'listed-host',
      label: `Listed host ${i + 1}`,
      url: i === 0 ? `http://${host}/` : `https://login.${host}/account/verify.php`,
      entry: `${host}/`,
    })),
    ...spread(urls, 2).map((expression, i) => ({
      kind: 'listed-url',
      label: `Listed URL ${i + 1}`,
      url: `http://${expression}`,
      entry: expression,
    })),
    { kind: 'ordinary', label: 'wikipedia.org', url: 'https://www.wikipedia.org/', entry: null },
    { kind: 'ordinary', label: 'example.com', url: 'https://example.com/some/page?q=1', entry: null },
  ];
  return picked.filter((example) => {
    const match = list.match(example.url);
    const ok = example.entry === null ? match === null : match === example.entry;
    if (!ok) console.warn(`web-demo build: example ${example.url} dropped (match ${match}, expected ${example.entry})`);
    return ok;
  });
}
