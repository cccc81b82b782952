// Issue #41: the two maps of the house stay true as rooms are added or moved.
// docs/ARCHITECTURE.md names every folder of js/src, cpp/include/cuckoo_bloom and
// cpp/src (subfolders too) by its whole path, every path it names exists, and no line
// is longer than 200 characters (a table cell of 2,000 characters is read by nobody).
// CONTRIBUTING.md's layout table names every top-level folder, and in its rows every
// room of js/src, of the C++ core, every Jest folder and every bindings file.
// Runs without a build: the folders come from `git ls-files` (tracked files only, so
// node_modules, build-wasm and dist are not rooms).
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from '@jest/globals';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const MAX_LINE = 200;

const tracked = execFileSync('git', ['ls-files'], { cwd: REPO, encoding: 'utf8' }).split('\n').filter(Boolean);

/** Every folder holding a tracked file under `root` (its subfolders too), as `root/.../` paths. */
function foldersUnder(root) {
  const folders = new Set();
  for (const file of tracked) {
    if (!file.startsWith(`${root}/`)) continue;
    const parts = file.split('/');
    for (let depth = root.split('/').length + 1; depth < parts.length; depth++) {
      folders.add(`${parts.slice(0, depth).join('/')}/`);
    }
  }
  return [...folders].sort();
}

/** The names directly under `root`: folders as `name/`, files as `name`. */
function entriesOf(root, { files = false } = {}) {
  const names = new Set();
  const prefix = root === '' ? '' : `${root}/`;
  for (const file of tracked) {
    if (!file.startsWith(prefix)) continue;
    const rest = file.slice(prefix.length).split('/');
    if (rest.length > 1) names.add(`${rest[0]}/`);
    else if (files) names.add(rest[0]);
  }
  return [...names].sort();
}

/** The lines of `text` longer than MAX_LINE, as `line N: length`. */
function longLines(text) {
  return text
    .split('\n')
    .map((line, index) => [index + 1, [...line].length])
    .filter(([, length]) => length > MAX_LINE)
    .map(([line, length]) => `line ${line}: ${length} characters`);
}

/** Every `code span` of `text`. */
function codeSpans(text) {
  return [...text.matchAll(/`([^`\n]+)`/g)].map((match) => match[1]);
}

test('the folders to be named are found (the scan reads the tree)', () => {
  expect(foldersUnder('js/src')).toEqual(expect.arrayContaining(['js/src/cli/', 'js/src/patch/', 'js/src/redis/lua/parts/']));
  expect(foldersUnder('cpp/include/cuckoo_bloom')).toEqual(expect.arrayContaining(['cpp/include/cuckoo_bloom/concurrent/']));
  expect(entriesOf('bindings', { files: true })).toEqual(expect.arrayContaining(['embind.cpp', 'wasm.cmake']));
});

describe('docs/ARCHITECTURE.md', () => {
  const text = readFileSync(join(REPO, 'docs/ARCHITECTURE.md'), 'utf8');
  const spans = new Set(codeSpans(text));

  test('names every folder of js/src, cpp/include/cuckoo_bloom and cpp/src by its whole path', () => {
    const folders = ['js/src', 'cpp/include/cuckoo_bloom', 'cpp/src'].flatMap(foldersUnder);
    expect(folders.filter((folder) => !spans.has(folder))).toEqual([]);
  });

  test('every path it names in the repository exists', () => {
    const roots = /^(js|cpp|bindings|tests|web-demo|bench|docs|\.ci)\//;
    const named = [...spans].filter((span) => roots.test(span) && !/[<*{ ]/.test(span));
    expect(named.length).toBeGreaterThan(20);
    expect(named.filter((path) => !existsSync(join(REPO, path)))).toEqual([]);
  });

  test(`has no line over ${MAX_LINE} characters`, () => {
    expect(longLines(text)).toEqual([]);
  });
});

describe("CONTRIBUTING.md's layout", () => {
  const text = readFileSync(join(REPO, 'CONTRIBUTING.md'), 'utf8');
  const start = text.indexOf('\n## Layout');
  const end = text.indexOf('\n## ', start + 1);
  const layout = text.slice(start, end < 0 ? undefined : end);
  const rows = layout.split('\n').filter((line) => line.startsWith('| `'));
  /** The table row whose path cell names `path`, as its code spans. */
  const rowOf = (path) => {
    const row = rows.find((line) => codeSpans(line.split(' | ')[0]).some((span) => span.startsWith(path)));
    if (row === undefined) throw new Error(`CONTRIBUTING.md's layout has no row for ${path}`);
    return new Set(codeSpans(row));
  };
  /** The names not in `row`, bare (`patch/`) or under their folder (`js/src/patch/`). */
  const missing = (names, row, root) => names.filter((name) => !row.has(name) && !row.has(`${root}/${name}`));

  test('is there', () => {
    expect(start).toBeGreaterThan(0);
    expect(rows.length).toBeGreaterThan(5);
  });

  test('names every top-level folder', () => {
    const spans = new Set(rows.flatMap((row) => codeSpans(row.split(' | ')[0])).map((span) => `${span.split('/')[0]}/`));
    expect(missing(entriesOf(''), spans, '')).toEqual([]);
  });

  test('its js/src row names every room of js/src', () => {
    expect(missing(entriesOf('js/src'), rowOf('js/src/'), 'js/src')).toEqual([]);
  });

  test('its C++ row names every room of the core', () => {
    expect(missing(entriesOf('cpp/include/cuckoo_bloom'), rowOf('cpp/include/'), 'cpp/include/cuckoo_bloom')).toEqual([]);
  });

  test('its tests/ row names every Jest folder', () => {
    expect(missing(entriesOf('tests'), rowOf('tests/'), 'tests')).toEqual([]);
  });

  test('its bindings row names every bindings file', () => {
    expect(missing(entriesOf('bindings', { files: true }), rowOf('bindings/'), 'bindings')).toEqual([]);
  });

});
