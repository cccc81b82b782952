// init() as the installed package ships it: every misuse is a FilterError that
// names the option, file or URL at fault, a failed load can be retried, and the
// library prints nothing (Emscripten's own output and aborts are routed away).
import { spawnSync } from 'node:child_process';
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { packAndInstall } from './tools/package.mjs';

let installed;
let results;
let stderr;

beforeAll(() => {
  installed = packAndInstall('cbw-init-errors-');
  copyFileSync(new URL('./fixtures/init-errors-app.mjs', import.meta.url), join(installed.consumer, 'app.mjs'));
  const child = spawnSync(process.execPath, ['app.mjs'], { cwd: installed.consumer, encoding: 'utf8', timeout: 60_000 });
  expect(child.status).toBe(0);
  stderr = child.stderr;
  results = JSON.parse(child.stdout.trim().split('\n').pop());
}, 120_000);

afterAll(() => installed?.remove());

test('nothing is written to stderr, whatever went wrong', () => {
  expect(stderr).toBe('');
});

test('an unknown option is INVALID_ARGUMENT naming it and the known ones', () => {
  expect(results.unknownOption).toEqual({
    name: 'FilterError',
    code: 'INVALID_ARGUMENT',
    message: 'unknown init option "wsm" (known: wasm)',
  });
  // Checked on every call, also once loaded.
  expect(results.unknownOptionAfterLoad.code).toBe('INVALID_ARGUMENT');
});

test('a wasm option of the wrong type is INVALID_ARGUMENT naming the option', () => {
  expect(results.wrongType.code).toBe('INVALID_ARGUMENT');
  expect(results.wrongType.message).toMatch(/^init option "wasm" must be .* got a number \(42\)$/);
  expect(results.notAnObject.code).toBe('INVALID_ARGUMENT');
  expect(results.notAnObject.message).toMatch(/^init options must be a plain object/);
});

test('bytes that are not WebAssembly, or not core.wasm, are LOAD_FAILED saying so', () => {
  expect(results.garbageBytes.code).toBe('LOAD_FAILED');
  expect(results.garbageBytes.message).toMatch(/^could not compile the bytes given to init\(\{ wasm \}\): /);
  expect(results.otherModule.code).toBe('LOAD_FAILED');
  expect(results.otherModule.message).toMatch(/is it this version's core\.wasm\?/);
});

test('a missing file is LOAD_FAILED naming the path tried', () => {
  expect(results.missingFile).toEqual({
    name: 'FilterError',
    code: 'LOAD_FAILED',
    message: 'could not read /nonexistent/core.wasm (ENOENT)',
  });
});

test('after failed loads, init() can be retried and then works', () => {
  expect(results.initializedAfterFailures).toBe(false);
  expect(results.retry).toBe('loaded');
  expect(results.works).toBe(true);
});
