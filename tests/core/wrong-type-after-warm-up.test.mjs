// A wrong key type is a FilterError even after V8 has optimized the call on
// valid keys. Node 20's optimizing compiler read a string's length before the
// type check in `has()` once it had met strings and Uint8Arrays, and
// `filter.has(42)` then crashed the whole process with SIGSEGV (found as a
// Jest worker lost to a signal in tests/reader/reader.test.mjs, then reproduced in
// 4 of 4 runs by the helper). Each entry point runs in a child process of
// its own, so a crash fails one test instead of taking Jest's worker down.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);
const HELPER = new URL('../helpers/wrong-type-after-warm-up.mjs', import.meta.url).pathname;
const ENTRY_POINTS = [
  'Filter#has',
  'Filter#add',
  'Filter#remove',
  'Filter#addIfNew',
  'Filter#hasMany',
  'KeyBatch.from',
  'FilterReader#has',
  'UrlBlocklist#match',
  'UrlBlocklistReader#match',
  'CuckooIndex#set',
  'CuckooIndex#has',
];

test.each(ENTRY_POINTS)('%s: warmed up on strings and Uint8Arrays, then given other values, throws INVALID_ARGUMENT each time', async (entryPoint) => {
  let outcome;
  try {
    const { stdout } = await run(process.execPath, [HELPER, entryPoint, '60'], { encoding: 'utf8' });
    outcome = JSON.parse(stdout.trim());
  } catch (error) {
    // A crash: report how the process ended rather than a bare rejection.
    outcome = { exit: error.code ?? null, signal: error.signal ?? null, stderr: String(error.stderr ?? '').slice(0, 500) };
  }
  expect(outcome).toEqual({ calls: 660, errors: { INVALID_ARGUMENT: 660 } });
});
