// Node consumers of the packed package, each in its own process: plain ESM,
// plain CommonJS, both at once, a TypeScript (CommonJS, nodenext) project, and
// serverless-style single-file bundles made by esbuild --platform=node and run
// from a folder with no node_modules. Each app prints one JSON line; its
// stderr must stay empty (the library never writes there).
import { spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { bundle, packAndInstall, REPO, run } from './tools/package.mjs';

const FIXTURES = new URL('./fixtures/', import.meta.url).pathname;
const EXPECTED = { has: true, many: [true, true, false], copyHas: true, removed: true, afterRemove: false };

let installed;

/**
 * Runs `file` with Node in `cwd` and returns the JSON it printed last. The
 * app must exit 0 and print nothing on stderr: the library never writes there.
 */
function runApp(file, cwd) {
  const { status, stdout, stderr } = spawnSync(process.execPath, [file], { cwd, encoding: 'utf8', timeout: 60_000 });
  expect({ status, stderr }).toEqual({ status: 0, stderr: '' });
  return JSON.parse(stdout.trim().split('\n').pop());
}

beforeAll(() => {
  installed = packAndInstall('cbw-node-targets-');
  for (const file of ['node-app.mjs', 'node-app.cjs', 'readme-steps.mjs', 'mixed-app.mjs', 'serverless-app.mjs', 'bundled-main-app.mjs']) {
    copyFileSync(join(FIXTURES, file), join(installed.consumer, file));
  }
  cpSync(join(FIXTURES, 'ts-app'), join(installed.consumer, 'ts-app'), { recursive: true });
  cpSync(join(FIXTURES, 'jest-cjs-app'), join(installed.consumer, 'jest-cjs-app'), { recursive: true });
}, 120_000);

afterAll(() => installed?.remove());

describe('Node, no bundler', () => {
  test('an ES module app (import) creates, adds, checks, round-trips', () => {
    expect(runApp('node-app.mjs', installed.consumer)).toEqual(EXPECTED);
  });

  test('a CommonJS app (require) does the same', () => {
    expect(runApp('node-app.cjs', installed.consumer)).toEqual(EXPECTED);
  });

  test('import and require in one process share one implementation, one wasm instance, real class names', () => {
    expect(runApp('mixed-app.mjs', installed.consumer)).toEqual({
      sameClass: true,
      initializedForBoth: true,
      instanceOfEither: true,
      unionHas: [true, true],
      classNames: ['BloomFilter', 'CuckooFilter', 'FilterError'],
    });
  });

  test("a CommonJS project's Jest suite (jest without --experimental-vm-modules) loads and uses it", () => {
    // Before index.cjs required its glue, init() failed there with LOAD_FAILED: Jest's VM
    // has no import() for CommonJS code.
    const project = join(installed.consumer, 'jest-cjs-app');
    const { status, stdout, stderr } = spawnSync(
      process.execPath,
      [join(REPO, 'node_modules/jest/bin/jest.js'), '--rootDir', project, '--ci', '--json'],
      { cwd: installed.consumer, encoding: 'utf8', timeout: 120_000 },
    );
    const results = JSON.parse(stdout);
    expect({ status, passed: results.numPassedTests, failed: results.numFailedTests, failures: results.testResults.map((r) => r.message).join('\n') })
      .toEqual({ status: 0, passed: 1, failed: 0, failures: '' });
    expect(stderr).toMatch(/1 passed/);
  });

  test('a TypeScript project (CommonJS, module nodenext, skipLibCheck off) compiles and runs', () => {
    const project = join(installed.consumer, 'ts-app');
    run(process.execPath, [join(REPO, 'node_modules/typescript/bin/tsc'), '-p', project]);
    expect(runApp(join(project, 'out/main.js'), project)).toEqual({ freedCode: 'FREED', typed: true });
  });
});

describe('esbuild --bundle --platform=node, run from a folder without node_modules', () => {
  /**
   * Bundles the fixture `entry` into one file (without a warning), copies that file alone
   * into the empty folder `lambda`, as a serverless upload would be, and runs it there.
   */
  function runBundledAlone(entry, lambda) {
    const out = join(installed.workspace, `out-${lambda}`);
    expect(bundle('esbuild-node', installed.consumer, entry, out)).toEqual({ warnings: [] });
    const folder = join(installed.workspace, lambda);
    mkdirSync(folder);
    copyFileSync(join(out, 'app.mjs'), join(folder, 'index.mjs'));
    return runApp('index.mjs', folder);
  }

  test("cuckoo-bloom-wasm/inline: the wasm travels inside the one file", () => {
    expect(runBundledAlone('serverless-app.mjs', 'lambda')).toEqual({ has: true, absent: false });
  });

  test('the main entry, bundled: init() fails with LOAD_FAILED naming the file and the way out', () => {
    const { code, message } = runBundledAlone('bundled-main-app.mjs', 'lambda-main');
    expect(code).toBe('LOAD_FAILED');
    expect(message).toMatch(/core\.wasm/);
    expect(message).toContain("'cuckoo-bloom-wasm/inline'");
  });
});
