// The generated docs: the API reference in docs/api/ (Markdown that TypeDoc generates
// from the typings of the package's entries; typedoc.json lists them and the settings),
// and the lists of filter types in README.md and package.json's description, generated
// from the built package's FILTER_TYPES (type-lists.mjs; build the package first:
// node .ci/build-package.mjs).
//
//   node .ci/api-docs.mjs           (`npm run docs`)        regenerates docs/api/, and the
//       type lists in README.md and package.json
//   node .ci/api-docs.mjs --check   (`npm run docs:check`)  regenerates into a temporary
//       folder and fails when the committed docs/api/ or a type list differs from it
//       (stale, or edited by hand), leaving every file untouched
//
// Both fail, writing nothing to docs/api/, on any TypeDoc warning (typedoc.json turns
// warnings into errors): an export, public member or options field without a doc
// comment, a public signature naming a type no entry exports, an {@link} that does not
// resolve. Then every relative link of the generated Markdown must name a file of the
// reference and, with a #fragment, a heading in it: a broken link fails too.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeFileSync } from 'node:fs';
import { generatedDescription, generatedFactLists, generatedReadme } from './type-lists.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const committed = join(root, 'docs', 'api');
const check = process.argv.includes('--check');
const unknown = process.argv.slice(2).filter((arg) => arg !== '--check');

/** A reason to stop: printed as the one message of the run, exit status 1. */
class DocsError extends Error {}

function fail(message) {
  throw new DocsError(message);
}

/** Every file under `dir`, as paths relative to it with '/' separators, sorted. */
function filesUnder(dir) {
  const found = [];
  const walk = (current) => {
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      const path = join(current, entry.name);
      if (entry.isDirectory()) walk(path);
      else found.push(relative(dir, path).split('\\').join('/'));
    }
  };
  walk(dir);
  return found.sort();
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
function slug(heading) {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** The anchors of a Markdown file's headings, with GitHub's -1, -2 for repeats. */
function anchorsOf(text) {
  const anchors = new Set();
  const seen = new Map();
  let fenced = false;
  for (const line of text.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    const heading = fenced ? null : /^#{1,6}\s+(.*)$/.exec(line);
    if (heading === null) continue;
    const base = slug(heading[1]);
    const repeats = seen.get(base) ?? 0;
    seen.set(base, repeats + 1);
    anchors.add(repeats === 0 ? base : `${base}-${repeats}`);
  }
  return anchors;
}

/** Relative links of the reference that name no file of it, or no heading of that file. */
function brokenLinks(dir) {
  const files = filesUnder(dir).filter((file) => file.endsWith('.md'));
  const texts = new Map(files.map((file) => [file, readFileSync(join(dir, file), 'utf8')]));
  const anchors = new Map();
  const broken = [];
  for (const [file, text] of texts) {
    const withoutCode = text.replace(/```[\s\S]*?```/g, '');
    for (const [, target] of withoutCode.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:: not a file of the reference
      const [path, fragment] = target.split('#');
      const linked = path === '' ? file : relative(dir, resolve(dir, dirname(file), decodeURIComponent(path))).split('\\').join('/');
      if (!texts.has(linked)) {
        broken.push(`${file}: ${target} (no such file)`);
        continue;
      }
      if (fragment === undefined) continue;
      if (!anchors.has(linked)) anchors.set(linked, anchorsOf(texts.get(linked)));
      if (!anchors.get(linked).has(fragment)) broken.push(`${file}: ${target} (no heading #${fragment} in ${linked})`);
    }
  }
  return broken;
}

/** Runs TypeDoc (typedoc.json) into `out`; exits on any warning or error. */
function generate(out) {
  const typedoc = join(root, 'node_modules', 'typedoc', 'bin', 'typedoc');
  if (!existsSync(typedoc)) fail('TypeDoc is not installed: run `npm install` first');
  const run = spawnSync(process.execPath, [typedoc, '--options', join(root, 'typedoc.json'), '--out', out, '--logLevel', 'Warn'], {
    cwd: root,
    encoding: 'utf8',
  });
  process.stdout.write(run.stdout);
  process.stderr.write(run.stderr);
  if (run.status !== 0) {
    fail(
      `TypeDoc failed (exit ${run.status ?? run.signal}): every export, public member and options field needs a doc ` +
        'comment, every type a public signature names must be exported by an entry, and every {@link} must resolve',
    );
  }
  const broken = brokenLinks(out);
  if (broken.length > 0) fail(`${broken.length} broken link(s) in the generated reference:\n  ${broken.join('\n  ')}`);
}

/**
 * README.md's and package.json's type lists from FILTER_TYPES: written, or (check)
 * compared. Both files are computed before either is written.
 */
async function typeLists() {
  let lib;
  try {
    lib = await import('cuckoo-bloom-wasm');
    await lib.init();
  } catch (error) {
    fail(`cannot load the built package to list its filter types (run \`node .ci/build-package.mjs\` first): ${error.message}`);
  }
  const readmePath = join(root, 'README.md');
  const packagePath = join(root, 'package.json');
  const cliPath = join(root, 'docs', 'CLI.md');
  const cliDoc = readFileSync(cliPath, 'utf8');
  const readme = readFileSync(readmePath, 'utf8');
  const packageText = readFileSync(packagePath, 'utf8');
  const { description } = JSON.parse(packageText);
  let wantReadme, wantDescription, wantCliDoc;
  try {
    wantReadme = generatedReadme(readme, lib);
    wantDescription = generatedDescription(description, lib);
    wantCliDoc = generatedFactLists(cliDoc, lib);
  } catch (error) {
    fail(error.message);
  }
  const stale = [
    ...(wantReadme === readme ? [] : ['README.md (the type labels of its first sentence, or its filter table)']),
    ...(wantDescription === description ? [] : ["package.json's description"]),
    ...(wantCliDoc === cliDoc ? [] : ['docs/CLI.md (its <!-- types:<fact> --> lists)']),
  ];
  if (check) {
    if (stale.length > 0) fail(`not what FILTER_TYPES generates: ${stale.join(', ')}; run \`npm run docs\` and commit`);
    console.log('api-docs: README.md, package.json and docs/CLI.md name every filter type');
    return;
  }
  if (wantReadme !== readme) writeFileSync(readmePath, wantReadme);
  if (wantCliDoc !== cliDoc) writeFileSync(cliPath, wantCliDoc);
  if (wantDescription !== description) {
    writeFileSync(packagePath, packageText.replace(JSON.stringify(description), JSON.stringify(wantDescription)));
  }
  console.log(`api-docs: ${stale.length > 0 ? `rewrote ${stale.join(', ')}` : 'README.md and package.json were current'}`);
}

// Generated into a temporary folder first: a failed run leaves docs/api/ as it was.
const scratch = mkdtempSync(join(tmpdir(), 'cbw-api-docs-'));
try {
  if (unknown.length > 0) fail(`unknown argument(s): ${unknown.join(' ')} (the only option is --check)`);
  await typeLists();
  const out = join(scratch, 'api');
  generate(out);
  if (check) {
    const want = filesUnder(out);
    const have = existsSync(committed) ? filesUnder(committed) : [];
    const problems = [
      ...want.filter((file) => !have.includes(file)).map((file) => `missing: docs/api/${file}`),
      ...have.filter((file) => !want.includes(file)).map((file) => `not generated (remove it): docs/api/${file}`),
      ...want
        .filter((file) => have.includes(file) && !readFileSync(join(out, file)).equals(readFileSync(join(committed, file))))
        .map((file) => `differs: docs/api/${file}`),
    ];
    if (problems.length > 0) {
      fail(
        `docs/api/ is not what the typings generate (${problems.length} file(s)); run \`npm run docs\` and commit docs/api/:\n  ` +
          problems.slice(0, 20).join('\n  ') +
          (problems.length > 20 ? `\n  ... and ${problems.length - 20} more` : ''),
      );
    }
    console.log(`api-docs: docs/api/ is up to date (${want.length} files, links checked)`);
  } else {
    rmSync(committed, { recursive: true, force: true });
    cpSync(out, committed, { recursive: true });
    console.log(`api-docs: wrote docs/api/ (${filesUnder(committed).length} files, links checked)`);
  }
} catch (error) {
  if (!(error instanceof DocsError)) throw error;
  console.error(`api-docs: ${error.message}`);
  process.exitCode = 1;
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
