// docs/ARCHITECTURE.md's "Adding a filter type", proven: in a scratch copy of the
// tracked tree, a toy type (a one-hash Bloom filter over WordArrayFilter with one
// option of its own, tests/architecture/toy-type/files/) is added by its new files
// and the edits of toy-type/edits.mjs, which may touch only the existing files the
// checklist lists, at most five. Then the scratch builds natively (the library,
// and the registry's typed suite with the toy's own test, its golden file and the
// docs tables' check), the toy passes every contract of the registry suite, its
// golden file is written and read back, FORMAT.md's row says what its reader does,
// the registry's facts of the toy (type_facts_test.cpp: its estimate source, its
// option's declared range, the one create() enforces) hold, and the scratch's
// TypeScript type-checks.
//
// With TOY_TYPE_FULL=1 (opt-in: it builds the wasm and the package in the scratch,
// 10-20 minutes on a 2-core machine, too slow for `npm test`'s 30-minute budget) the
// same scratch then builds dist/, and the toy goes through what a user sees: `build
// --type toy` from a pipe and `query` (and, since the toy declares no growth and no
// growing stand-in, the same build without --capacity is refused by what the registry
// says), the Jest registry suite (tests/core/registry.test.mjs) with the toy in
// FILTER_TYPES, and the demo's comparison (tests/e2e/web-demo.test.mjs) with the toy
// built from the list and measured in the page.
//
// To see it fail when a listed edit is missing: TOY_TYPE_DROP='<part of a step>'
// (e.g. 'AnyFilter', 'own option', 'classes section') leaves that edit out.
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { applyEdit, EDITS } from './toy-type/edits.mjs';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const TOY_FILES = fileURLToPath(new URL('./toy-type/files', import.meta.url));
const MAX_EXISTING_FILES = 5;
const STEP_TIMEOUT_MS = 240_000;
const FULL = process.env.TOY_TYPE_FULL === '1';
// Building the wasm from nothing: emcc for core, small, reader and shared modules.
const PACKAGE_BUILD_TIMEOUT_MS = 45 * 60_000;

let scratch;
const timings = [];

/** Runs a command in the scratch copy; throws with its output when it fails. */
function run(command, args, what, env = {}, { timeout = STEP_TIMEOUT_MS, input } = {}) {
  const started = Date.now();
  const result = spawnSync(command, args, {
    cwd: scratch, encoding: 'utf8', timeout, maxBuffer: 64 << 20, env: { ...process.env, ...env }, input,
  });
  timings.push(`${what}: ${((Date.now() - started) / 1000).toFixed(1)} s`);
  if (result.status !== 0) {
    throw new Error(`${what} failed (${result.error?.message ?? `exit ${result.status ?? result.signal}`}):\n${result.stdout}\n${result.stderr}`.slice(-8000));
  }
  return result.stdout;
}

function filesUnder(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/**
 * The existing files the checklist lists: the path that opens each numbered
 * step of ARCHITECTURE.md's "Adding a filter type" ("2. `path`: ...").
 */
function checklistFiles(tracked) {
  const text = readFileSync(join(REPO, 'docs/ARCHITECTURE.md'), 'utf8');
  const start = text.indexOf('\n## Adding a filter type');
  const end = text.indexOf('\n## ', start + 1);
  expect(start).toBeGreaterThan(0);
  const section = text.slice(start, end < 0 ? undefined : end);
  const listed = [...section.matchAll(/^\d+\. `([^`\s]+)`/gm)].map((match) => match[1]);
  expect(listed.filter((path) => !tracked.has(path))).toEqual([]);
  expect(listed.length).toBeLessThanOrEqual(MAX_EXISTING_FILES);
  return listed;
}

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'cbw-toy-type-'));
  // The tracked tree only: no build directory, dist/ or node_modules/ of the real one.
  const tracked = execFileSync('git', ['ls-files', '-z'], { cwd: REPO, encoding: 'utf8' }).split('\0').filter(Boolean);
  for (const path of tracked) {
    mkdirSync(dirname(join(scratch, path)), { recursive: true });
    cpSync(join(REPO, path), join(scratch, path), { dereference: false });
  }
  const git = ['-c', 'user.name=toy', '-c', 'user.email=toy@localhost', '-c', 'commit.gpgsign=false'];
  run('git', ['init', '-q'], 'git init');
  run('git', ['add', '-A'], 'git add');
  run('git', [...git, 'commit', '-q', '-m', 'the tracked tree'], 'git commit');
}, STEP_TIMEOUT_MS);

afterAll(() => {
  if (scratch !== undefined) rmSync(scratch, { recursive: true, force: true });
  console.log(`toy type: ${timings.join('; ')}`);
});

test('a toy type with one option of its own needs its new files and the checklist\'s edits of at most five existing files, and then builds, passes the registry suite and type-checks', () => {
  // New files: the class (header, source), its C++ test, its TypeScript class.
  const added = filesUnder(TOY_FILES).map((path) => relative(TOY_FILES, path));
  for (const path of added) {
    mkdirSync(dirname(join(scratch, path)), { recursive: true });
    cpSync(join(TOY_FILES, path), join(scratch, path));
  }
  // The edits, each to a file the checklist lists.
  const tracked = new Set(run('git', ['ls-files'], 'git ls-files').split('\n').filter(Boolean));
  const listed = checklistFiles(tracked);
  const drop = process.env.TOY_TYPE_DROP;
  for (const edit of EDITS) {
    if (drop && edit.step.includes(drop)) continue;
    const path = join(scratch, edit.file);
    writeFileSync(path, applyEdit(readFileSync(path, 'utf8'), edit));
  }

  // What changed, by git: the new files, and existing files only from the list.
  const status = run('git', ['status', '--porcelain', '-uall'], 'git status').split('\n').filter(Boolean);
  const modified = status.filter((line) => !line.startsWith('??')).map((line) => line.slice(3));
  const untracked = status.filter((line) => line.startsWith('??')).map((line) => line.slice(3));
  expect(untracked.sort()).toEqual([...added].sort());
  const goldenFile = 'tests/golden/toy.cbf';
  expect(modified.filter((path) => !listed.includes(path))).toEqual([]);
  expect(modified.length).toBeLessThanOrEqual(MAX_EXISTING_FILES);

  // Native: configure and build the library only, warnings as errors, then the
  // registry's typed suite and the toy's own test against it.
  const build = join(scratch, 'build-toy');
  // -O0: this checks that the toy compiles, registers and passes, not its speed; the
  // library and the typed suite compile in about half the time of -O1 (this test was
  // 108 s of npm test's Jest stage), and the suite still runs in ~2 s.
  run('cmake', ['-S', '.', '-B', build, '-DCMAKE_BUILD_TYPE=Release', '-DCUCKOO_BLOOM_TESTS=OFF',
    '-DCMAKE_CXX_FLAGS_RELEASE=-O0', '-DCMAKE_CXX_FLAGS=-Werror'], 'cmake configure');
  run('cmake', ['--build', build, '--target', 'cuckoo_bloom', '-j2'], 'build the library');
  const suite = join(build, 'registry_suite');
  run('c++', ['-std=c++17', '-O0', '-Wall', '-Wextra', '-Werror', '-Icpp/include', '-Icpp/tests', `-I${join(build, 'xxhash-include')}`,
    `-DCUCKOO_BLOOM_GOLDEN_DIR="${join(scratch, 'tests/golden')}"`,
    'cpp/tests/registry/registry_test.cpp', 'cpp/tests/bloom/toy_filter_test.cpp', 'cpp/tests/registry/type_facts_test.cpp',
    'cpp/tests/registry/registered_golden_test.cpp', 'cpp/tests/core/docs_tables_test.cpp', join(build, 'libcuckoo_bloom.a'),
    '-lgtest', '-lgtest_main', '-pthread', '-o', suite], 'build the registry suite');
  // The toy is one of the typed suite's types; its golden file is written (a
  // new file, as the checklist says), then every test runs against the files.
  expect(run(suite, ['--gtest_list_tests'], 'list the registry suite')).toContain('TypeParam = cuckoo_bloom::ToyFilter');
  run(suite, ['--gtest_filter=RegisteredGolden*', '--gtest_brief=1'], 'write the golden file', { CUCKOO_BLOOM_UPDATE_GOLDEN: '1' });
  expect(run('git', ['status', '--porcelain', '-uall', 'tests/golden'], 'git status').trim()).toBe(`?? ${goldenFile}`);
  const passed = run(suite, ['--gtest_brief=1'], 'run the registry suite');
  expect(passed).toMatch(/\[ {2}PASSED {2}\] \d+ tests?\./);

  // TypeScript: the scratch's js/src, toy class and registry entry included, type-checks.
  symlinkSync(join(REPO, 'node_modules'), join(scratch, 'node_modules'), 'dir');
  run(process.execPath, [join(REPO, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json', '--noEmit'], 'tsc');
  toyReady = true;
}, 4 * STEP_TIMEOUT_MS);

let toyReady = false;

// Opt-in (TOY_TYPE_FULL=1): see the top of this file.
(FULL ? test : test.skip)('with TOY_TYPE_FULL=1: the toy builds into the wasm, `build --type toy` from a pipe and `query` work, the Jest registry suite and the demo\'s comparison include it', () => {
  expect(toyReady).toBe(true); // the scratch of the test above, toy added
  run(process.execPath, ['.ci/build-package.mjs'], 'build the wasm and the package', {}, { timeout: PACKAGE_BUILD_TIMEOUT_MS });
  const cli = (args, input) => spawnSync(process.execPath, ['dist/cli.js', ...args], { cwd: scratch, encoding: 'utf8', input, timeout: STEP_TIMEOUT_MS });

  // From a pipe: with --capacity a toy filter; without, the registry says it does not grow and nothing stands in.
  const built = run(process.execPath, ['dist/cli.js', 'build', '--type', 'toy', '--capacity', '100', '--input', '-', '--output', 'toy.filter', '--json'],
    'build --type toy from a pipe', {}, { input: 'a\nb\n' });
  expect(JSON.parse(built)).toMatchObject({ type: 'toy', keys: 2 });
  const query = cli(['query', 'toy.filter', 'a', 'b']);
  expect(query.stdout).toBe('present\ta\npresent\tb\n');
  expect(query.status).toBe(1);
  const info = JSON.parse(run(process.execPath, ['dist/cli.js', 'info', 'toy.filter', '--json'], 'info'));
  expect(info.type).toBe('toy');
  const refused = cli(['build', '--type', 'toy', '--input', '-', '--output', 'grown.filter'], 'a\n');
  expect(refused.status).toBe(2);
  expect(refused.stderr).toMatch(/a toy filter cannot grow and no growing type stands in for it/);

  // The Jest registry suite, and the demo's comparison (the site built from the list in every type, toy included).
  const jest = [join(scratch, 'node_modules/jest/bin/jest.js'), '--rootDir', scratch, '--ci'];
  const registry = run(process.execPath, ['--experimental-vm-modules', ...jest, 'tests/core/registry.test.mjs'], 'Jest registry suite', {}, { timeout: 4 * STEP_TIMEOUT_MS });
  void registry;
  run(process.execPath, ['--experimental-vm-modules', ...jest, 'tests/e2e/web-demo.test.mjs', '-t', 'the filter and its comparison'],
    "the demo's comparison", {}, { timeout: 4 * STEP_TIMEOUT_MS });
  const manifest = JSON.parse(readFileSync(join(scratch, 'web-demo/dist/data/manifest.json'), 'utf8'));
  expect(Object.keys(manifest.filters)).toContain('toy');
}, PACKAGE_BUILD_TIMEOUT_MS + 12 * STEP_TIMEOUT_MS);
