#!/usr/bin/env node
// Builds the static web demo into web-demo/dist/ (gitignored):
//   app.js, chunk-*   web-demo/src/main.ts bundled with esbuild against the built package, as a
//                     page that counts its bytes would use it. Split: app.js holds only what a
//                     URL check needs, on `cuckoo-bloom-wasm/reader` (dist/reader.js + the glue
//                     dist/core.reader.mjs: read and match only); the filter's numbers, the
//                     playgrounds, tune panel, comparison, your-own-list and lab code load when
//                     the visitor scrolls below the checker, on `cuckoo-bloom-wasm/small` (dist/small.js + dist/core.small.mjs:
//                     the full library at -Oz, about 60% of the speed build's wasm bytes).
//   core.reader.wasm, core.small.wasm   the package build's, beside app.js (init() looks there)
//   index.html        with the manifest inlined (no request before the first verdict) and
//                     preload links, so the wasm and the filter download in parallel with app.js
//   styles.css, playground.css, sections.html (the later parts' markup and styles; the CSS minified)
//   sw.js             the service worker: network first, the cache when offline; it precaches the
//                     checker's files and keeps what else the page fetched (from the HTTP cache,
//                     never fetching a file twice)
//   data/*.filter     the list in each type of the registry a blocklist can use, built by the CLI;
//                     urlhaus.filter the one the page checks with (src/compared-types.json:
//                     "smallest", the CLI's default build, or a type's name)
//   data/urlhaus.filter.confirm.index, data/urlhaus.filter.confirm.parts/NNNN   the preloaded
//                     filter's exact companion split by hash prefix (the CLI's `build --urls`
//                     writes them): the index (type 34, a few hundred bytes) fetched with the
//                     filter, and on a "maybe" only the part (type 33, a few KB) its hashes fall
//                     in, so `listed` is confirmed without the whole companion. The whole
//                     `.confirm` is not shipped: nothing in the page needs it (a list built in
//                     the page makes its own).
//   data/urlhaus.filter.confirm.parts.<hash>.all   the parts back to back, named by content: the
//                     offline copy the service worker keeps after a confirmed maybe (src/offline.ts)
//   data/manifest.json                  source, counts, date, licence, example URLs
//   *.br, *.gz        every compressible file precompressed (serve.mjs picks by Accept-Encoding)
// and prints the transfer sizes (raw, gzip, brotli).
//
// Needs the package build first (`npm run build`: dist/reader.js, dist/small.js, dist/core.*, dist/cli.js).
// CBW_CLI=path overrides the CLI script (default dist/cli.js).
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';
import { build, transform } from 'esbuild';

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
  ...['core.small.wasm', 'core.small.mjs', 'small.js', 'core.reader.wasm', 'core.reader.mjs', 'reader.js'].map((file) => [join(pkg, file), 'npm run build']),
  [join(pkg, 'index.js'), 'npm run build'],
  [cli, 'npm run build (the CLI is dist/cli.js)'],
  [listFile, 'git checkout web-demo/data'],
]) {
  if (!existsSync(file)) fail(`${relative(root, file)} is missing: run \`${hint}\` first`);
}

rmSync(out, { recursive: true, force: true });
mkdirSync(join(out, 'data'), { recursive: true });

// 1. The page script, built against the package as users get it (`cuckoo-bloom-wasm/small`,
// dist/small.js). The library's init() does `import('./core.small.mjs')`; here that resolves
// to dist/core.small.mjs and is bundled in, so the page loads its script and then
// core.small.wasm from beside it.
const bundled = await build({
  entryPoints: { app: join(demo, 'src', 'main.ts') },
  metafile: true,
  outdir: out,
  // Chunks beside app.js: the library finds core.small.wasm beside the module (import.meta.url).
  chunkNames: 'chunk-[name]-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  external: ['node:*'],
  alias: { 'cuckoo-bloom-wasm/reader': join(pkg, 'reader.js'), 'cuckoo-bloom-wasm': join(pkg, 'small.js') },
  minify: true,
  legalComments: 'none',
  logLevel: 'warning',
  plugins: [
    {
      name: 'core-glue',
      setup(b) {
        b.onResolve({ filter: /^\.\/core\.(small|reader)\.mjs$/ }, (args) => ({ path: join(pkg, args.path) }));
      },
    },
  ],
});
// The chunks a URL check waits for: those app.js imports statically (the library, shared
// with the later chunk) and the Emscripten glue that init() imports. The page preloads
// them with app.js instead of discovering them one after another.
const outputName = (path) => relative(out, join(root, path)).split('\\').join('/');
const outputs = Object.entries(bundled.metafile.outputs);
const appOutput = outputs.find(([path]) => outputName(path) === 'app.js');
const glue = outputs.find(([path, info]) => path.endsWith('.js') && Object.keys(info.inputs).some((input) => input.endsWith('dist/core.reader.mjs')));
const criticalChunks = [
  ...(appOutput?.[1].imports ?? []).filter((entry) => entry.kind === 'import-statement').map((entry) => outputName(entry.path)),
  ...(glue && outputName(glue[0]) !== 'app.js' ? [outputName(glue[0])] : []),
];
for (const wasm of ['core.reader.wasm', 'core.small.wasm']) copyFileSync(join(pkg, wasm), join(out, wasm));
// The stylesheets minified (their comments are for this repository, not for every visitor's
// bytes before the first verdict); the markup as written.
for (const file of ['styles.css', 'playground.css']) {
  const { code } = await transform(readFileSync(join(demo, file), 'utf8'), { loader: 'css', minify: true, target: ['chrome120', 'firefox120', 'safari16'], logLevel: 'warning' });
  writeFileSync(join(out, file), code);
}
copyFileSync(join(demo, 'sections.html'), join(out, 'sections.html'));

// 2. The blocklist, with the project's own CLI, once per type of the library's registry that a
// blocklist can use (not one that forgets its keys); the page checks URLs with the preloaded one
// (src/compared-types.json) and compares them all. The registry's capabilities come from the core.
const { init, DEFAULT_FILTER_TYPES, FILTER_TYPES, UrlBlocklist, parseListLine, splitConfirmation, confirmationPartName } = await import(
  pathToFileURL(join(pkg, 'index.js')).href
);
await init();
const compared = JSON.parse(readFileSync(join(demo, 'src', 'compared-types.json'), 'utf8'));
const blocklistTypes = FILTER_TYPES.filter((entry) => !entry.forgets).map(({ name }) => name);
// "smallest" (the library's default for a whole list, DEFAULT_FILTER_TYPES.list): the preloaded
// filter is the CLI's build with no --type, whichever static type it picks; or a type's name.
const choosing = compared.preloaded === DEFAULT_FILTER_TYPES.list;
if (!choosing && !blocklistTypes.includes(compared.preloaded)) {
  fail(`src/compared-types.json: preloaded ${compared.preloaded} is neither "${DEFAULT_FILTER_TYPES.list}" nor a registered type a blocklist can use`);
}
const PRELOADED_FILE = 'urlhaus.filter';
const builds = [
  [compared.preloaded, PRELOADED_FILE],
  ...blocklistTypes.filter((type) => type !== compared.preloaded).map((type) => [type, `urlhaus.${type}.filter`]),
];
await Promise.all(
  builds.map(([type, name]) =>
    run(
      process.execPath,
      [cli, 'build', '--urls', ...(choosing && name === PRELOADED_FILE ? [] : ['--type', type]), '--fpr', String(RATE), '--input', relative(root, listFile), '--output', relative(root, join(out, 'data', name))],
      { cwd: root },
    ).catch((error) => fail(`the CLI failed building the ${type} filter:\n${error.stderr || error.message}`)),
  ),
);
// The type the page checks with, as the bytes say.
const preloadedType = choosing ? typeOfBlocklist(join(out, 'data', PRELOADED_FILE)) : compared.preloaded;
if (choosing) {
  // The type picked was also built by name for the comparison: the same bytes (a named type is
  // used as named, and the choice is deterministic), so one copy ships, as urlhaus.filter.
  const named = join(out, 'data', `urlhaus.${preloadedType}.filter`);
  if (!readFileSync(named).equals(readFileSync(join(out, 'data', PRELOADED_FILE)))) {
    fail(`the CLI's default build (${preloadedType}) and its build with --type ${preloadedType} wrote different bytes`);
  }
  for (const suffix of ['', '.confirm', '.confirm.index', '.confirm.parts']) rmSync(`${named}${suffix}`, { recursive: true, force: true });
}
const filters = Object.fromEntries(blocklistTypes.map((type) => [type, type === preloadedType ? PRELOADED_FILE : `urlhaus.${type}.filter`]));

// The CLI writes each filter's exact companion beside it, whole and in parts; the page
// confirms with the preloaded filter's parts only (the comparison needs none, and the whole
// companion nothing), so the rest is not shipped.
const companionIndex = `${PRELOADED_FILE}.confirm.index`;
const companionParts = `${PRELOADED_FILE}.confirm.parts`;
// The preloaded companion split again in parts of about DEMO_PART_HASHES hashes (the CLI's
// default is 512, under 4 KB a part): a first visit's listed verdict fetches one part, and
// the halved part keeps that path within 80 KB on the wire; the index grows by ~16 bytes a part.
const DEMO_PART_HASHES = 256;
{
  const whole = readFileSync(join(out, 'data', `${PRELOADED_FILE}.confirm`));
  const split = splitConfirmation(whole, DEMO_PART_HASHES);
  writeFileSync(join(out, 'data', companionIndex), split.index);
  rmSync(join(out, 'data', companionParts), { recursive: true, force: true });
  mkdirSync(join(out, 'data', companionParts), { recursive: true });
  split.parts.forEach((part, i) => writeFileSync(join(out, 'data', companionParts, confirmationPartName(i)), part));
}
for (const name of Object.values(filters)) {
  rmSync(join(out, 'data', `${name}.confirm`), { force: true });
  if (name === PRELOADED_FILE) continue;
  rmSync(join(out, 'data', `${name}.confirm.index`), { force: true });
  rmSync(join(out, 'data', `${name}.confirm.parts`), { recursive: true, force: true });
}
if (!existsSync(join(out, 'data', companionIndex)) || !existsSync(join(out, 'data', companionParts))) {
  fail(`the CLI wrote no split companion (data/${companionIndex}, data/${companionParts}/) for the preloaded filter`);
}
const partFiles = readdirSync(join(out, 'data', companionParts)).sort().map((name) => `data/${companionParts}/${name}`);
const partSizes = partFiles.map((file) => statSync(join(out, file)).size);
if (partFiles.length === 0) fail(`data/${companionParts}/ is empty`);
// The offline copy: the parts back to back in one file, which the service worker keeps once a
// maybe was confirmed (src/offline.ts), so any listed URL is confirmed offline after one
// visit. One request, where the parts one by one are ~25 (issue 29's budget is 25 requests).
// Named by its content: the worker takes it from the HTTP cache when it can, and a rebuilt
// list must never be confirmed against an older build's copy under the same name.
const offlineBytes = Buffer.concat(partFiles.map((file) => readFileSync(join(out, file))));
const offlineCopy = `data/${companionParts}.${createHash('sha256').update(offlineBytes).digest('hex').slice(0, 12)}.all`;
writeFileSync(join(out, offlineCopy), offlineBytes);

// 3. The manifest: what the page shows about the list, and examples checked here against
// the filter the CLI just wrote (read back with the package build).
const text = readFileSync(listFile, 'utf8');
const lines = text.split(/\r?\n/);
if (lines.at(-1) === '') lines.pop();
const header = Object.fromEntries(
  lines.filter((line) => /^!\s*[\w ]+:/.test(line)).map((line) => {
    const [, key, value] = /^!\s*([\w ]+?)\s*:\s*(.*)$/.exec(line);
    return [key.toLowerCase(), value.trim()];
  }),
);
const blocklist = UrlBlocklist.deserialize(readFileSync(join(out, 'data', PRELOADED_FILE)));
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
  // How often the source refreshes the list (its own header): the verdict shows the copy's age against it.
  refresh: header.expires ? header.expires.replace(/\s*\(.*\)$/, '') : null,
  lineCount: lines.length,
  entryCount: blocklist.entryCount,
  falsePositiveRate: RATE,
  lookupFalsePositiveRate: blocklist.lookupFalsePositiveRate,
  preloaded: preloadedType,
  filters: Object.fromEntries(Object.entries(filters).map(([type, name]) => [type, { file: `data/${name}`, bytes: sizes[type] }])),
  confirmation: {
    index: `data/${companionIndex}`,
    indexBytes: statSync(join(out, 'data', companionIndex)).size,
    parts: `data/${companionParts}/`,
    partCount: partFiles.length,
    bytes: partSizes.reduce((sum, bytes) => sum + bytes, 0),
    largestPart: Math.max(...partSizes),
    offlineCopy,
    partBytes: partSizes,
  },
  examples,
  builtWith: `cuckoo-bloom-wasm CLI: build --urls --type <type> --fpr ${RATE}`,
};
blocklist.free();
writeFileSync(join(out, 'data', 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);

// 4. The page: the manifest inlined as a JSON data block (not a script: the CSP allows no
// inline script, and a data block is never executed), preload links so the wasm and the
// filter start downloading with app.js instead of after it, the example buttons written
// into the markup (drawn with the first paint; the page script only listens to them, so
// building them is no work before a first verdict), the favicon as a data: URL (one
// request fewer; a PNG, not an SVG: the browser opens an SVG icon as a document of its own on
// the page's main thread, 25-66 ms at 4× CPU throttle, which a trace showed before the verdict). `<` is escaped so no list text can close the element.
const preloadedFile = `data/${PRELOADED_FILE}`;
// Only the fields the page reads are inlined (every byte here is before the first verdict);
// data/manifest.json keeps them all.
const { upstream: _upstream, builtWith: _builtWith, ...pageManifest } = manifest;
pageManifest.examples = manifest.examples.map(({ kind, url, entry }) => ({ kind, url, entry }));
const html = readFileSync(join(demo, 'index.html'), 'utf8')
  .replace('<!-- build:manifest -->', `<script type="application/json" id="manifest">${JSON.stringify(pageManifest).replace(/</g, '\\u003c')}</script>`)
  .replace(
    '<!-- build:preload -->',
    [
      ...criticalChunks.map((chunk) => `<link rel="modulepreload" href="${chunk}">`),
      '<link rel="preload" href="core.reader.wasm" as="fetch" type="application/wasm" crossorigin>',
      `<link rel="preload" href="${preloadedFile}" as="fetch" crossorigin>`,
    ].join('\n  '),
  )
  .replace('<!-- build:examples -->', exampleButtons(manifest.examples))
  .replace('<!-- build:favicon -->', `<link rel="icon" type="image/png" sizes="32x32" href="data:image/png;base64,${readFileSync(join(demo, 'favicon.png')).toString('base64')}">`);
if (html.includes('<!-- build:')) fail('index.html has a build placeholder this script does not fill');
// Its comments are for this repository, not for every visitor's bytes before the first verdict.
writeFileSync(join(out, 'index.html'), html.replace(/<!--[\s\S]*?-->\s*/g, ''));

// 5. The service worker: the file lists and a version from the files' contents, so a new
// build replaces the old cache and an unchanged one keeps it. It precaches only what a URL
// check loads (registered after the first verdict, it takes them from the HTTP cache); the
// rest (the playgrounds, the comparison filters, the companion's index, parts and offline
// copy) is cached when the page fetches it, or kept when the page asks (files of this build
// only), and data/manifest.json (inlined in the page) not at all.
const assets = listFiles(out).filter((file) => file !== 'sw.js');
const version = createHash('sha256');
for (const file of assets) version.update(file).update(readFileSync(join(out, file)));
const checkerFiles = ['styles.css', 'app.js', ...criticalChunks, 'core.reader.wasm', preloadedFile];
for (const file of checkerFiles) if (!assets.includes(file)) fail(`the checker's ${file} was not built`);
const worker = readFileSync(join(demo, 'sw.js'), 'utf8')
  .replace("'__VERSION__'", JSON.stringify(version.digest('hex').slice(0, 16)))
  .replace("['__ASSETS__']", JSON.stringify(['./', ...checkerFiles]))
  .replace("['__KEPT__']", JSON.stringify(assets.filter((file) => file !== 'index.html' && file !== 'data/manifest.json' && !checkerFiles.includes(file))))
  .replace("'__OFFLINE_COPY__'", JSON.stringify(offlineCopy));
writeFileSync(join(out, 'sw.js'), worker);

// 6. Precompressed copies, made once here so the server never compresses per request.
// Kept only when smaller (the filters are nearly random bytes and barely shrink).
const COMPRESSIBLE = /\.(html|css|js|mjs|json|wasm|svg|txt|filter)$/;
for (const file of listFiles(out).filter((name) => COMPRESSIBLE.test(name))) {
  const bytes = readFileSync(join(out, file));
  const brotli = brotliCompressSync(bytes, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11, [zlibConstants.BROTLI_PARAM_SIZE_HINT]: bytes.length } });
  const gzip = gzipSync(bytes, { level: 9 });
  if (brotli.length < bytes.length) writeFileSync(join(out, `${file}.br`), brotli);
  if (gzip.length < bytes.length) writeFileSync(join(out, `${file}.gz`), gzip);
}

// 7. What a visitor downloads: first what a URL check needs, then the rest.
const chunks = listFiles(out).filter((file) => file.startsWith('chunk-') && file.endsWith('.js') && !criticalChunks.includes(file));
const rows = [
  ['page (index.html, manifest inlined)', ['index.html']],
  ['styles.css', ['styles.css']],
  ['JS for a check (app.js + the library chunk)', ['app.js', ...criticalChunks]],
  ['wasm (core.reader.wasm)', ['core.reader.wasm']],
  [`filter (${preloadedFile})`, [preloadedFile]],
  ['-- later: playgrounds, tune, comparison (JS, CSS, HTML)', [...chunks, 'playground.css', 'sections.html']],
  ['-- later: the full library\'s wasm (core.small.wasm)', ['core.small.wasm']],
  [`-- after the first verdict (or on a "maybe"): companion index (data/${companionIndex})`, [`data/${companionIndex}`]],
  [`-- on a "maybe": one companion part (largest of ${partFiles.length})`, [partFiles[partSizes.indexOf(Math.max(...partSizes))]]],
  ['-- after a confirmed "maybe": the offline copy (all the parts, one file)', [offlineCopy]],
  ['-- on demand: comparison filters', Object.entries(filters).filter(([type]) => type !== preloadedType).map(([, name]) => `data/${name}`)],
];
const size = (file, kind) => (existsSync(join(out, `${file}${kind}`)) ? statSync(join(out, `${file}${kind}`)) : statSync(join(out, file))).size;
console.log(`web-demo: built ${relative(process.cwd(), out) || '.'}/ in ${((performance.now() - started) / 1000).toFixed(1)} s`);
console.log(`  ${'file'.padEnd(52)} ${'raw'.padStart(9)} ${'gzip'.padStart(9)} ${'brotli'.padStart(9)}`);
let firstCheck = 0;
for (const [label, files] of rows) {
  const sum = (kind) => files.reduce((total, file) => total + size(file, kind), 0);
  if (!label.startsWith('--')) firstCheck += sum('.br');
  console.log(`  ${label.padEnd(52)} ${kb(sum('')).padStart(9)} ${kb(sum('.gz')).padStart(9)} ${kb(sum('.br')).padStart(9)}`);
}
console.log(`  before the first verdict (brotli, bodies only): ${kb(firstCheck)}`);
console.log(`  list: ${manifest.entryCount} entries from ${manifest.lineCount} lines, updated ${manifest.updated}`);

/**
 * The "Try:" buttons, one per example and the teaching one (main.ts listens to their clicks):
 * each names its kind and a short form of its URL, with the whole URL as its title.
 */
function exampleButtons(examples) {
  const labels = { 'listed-host': 'listed host', 'listed-url': 'listed URL', ordinary: 'ordinary site' };
  const shortUrl = (url) => {
    const bare = url.replace(/^https?:\/\//, '');
    return bare.length > 34 ? `${bare.slice(0, 32)}…` : bare;
  };
  const buttons = examples.map((example, i) =>
    `<button type="button" class="example example-${escapeHtml(example.kind)}" data-testid="example-${i}" data-kind="${escapeHtml(example.kind)}" data-url="${escapeHtml(example.url)}" data-entry="${escapeHtml(example.entry ?? '')}" title="${escapeHtml(example.url)}">` +
    `<span class="example-kind">${escapeHtml(labels[example.kind])}</span> ${escapeHtml(shortUrl(example.url))}</button>`);
  // An address on no list that the filter answers "maybe" for, found by the page when pressed (false-positive-finder.ts).
  buttons.push('<button type="button" class="example example-false-positive" data-testid="example-false-positive"><span class="example-kind">teaching</span> show a caught false positive</button>');
  return buttons.join('');
}

function escapeHtml(text) {
  return String(text).replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/** Every file under `dir`, as '/'-separated paths relative to it. */
function listFiles(dir, prefix = '') {
  return readdirSync(join(dir, prefix), { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? listFiles(dir, `${prefix}${entry.name}/`) : [`${prefix}${entry.name}`],
  );
}

function kb(bytes) {
  return `${(bytes / 1024).toFixed(1)} KiB`;
}

/** The filter type of a blocklist file, read from its bytes by the library. */
function typeOfBlocklist(path) {
  const list = UrlBlocklist.deserialize(readFileSync(path));
  try {
    return list.type;
  } finally {
    list.free();
  }
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
