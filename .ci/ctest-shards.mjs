// Runs the GoogleTest cases CTest would run, a few processes in all instead of one a test:
//   node .ci/ctest-shards.mjs <build dir> <shards> [ctest selection: -R/-E regex...]
// .ci/test.sh runs the ASan + UBSan suite this way. There a process costs 0.27 s of CPU before
// its first test (the sanitizer runtimes' start and the leak check at exit: a one-assert test
// took 0.20 s), 130 of the ~175 CPU seconds of one process per test over ~470 tests. The tests
// are exactly CTest's (its own list, --show-only=json-v1, with the same selection), each by its
// gtest name, in its working directory; every shard ends with LeakSanitizer's check. The Release
// suite keeps CTest's one process per test, so a test that leans on another's state still fails
// there. Prints each shard's output; exits non-zero if any shard fails or outlives TIMEOUT_S.
import { execFileSync, spawn } from 'node:child_process';
import { createWriteStream, readFileSync } from 'node:fs';
import { join } from 'node:path';

const TIMEOUT_S = 1800;
const [dir, shardArg, ...selection] = process.argv.slice(2);
const shards = Number(shardArg);
if (!dir || !Number.isInteger(shards) || shards < 1) {
  console.error('usage: node .ci/ctest-shards.mjs <build dir> <shards> [-R regex] [-E regex]');
  process.exit(2);
}

const listed = JSON.parse(execFileSync('ctest', ['--test-dir', dir, '--show-only=json-v1', ...selection], { encoding: 'utf8', maxBuffer: 64 << 20 })).tests;
if (listed.length === 0) {
  console.error(`ctest-shards: CTest lists no test in ${dir} for ${selection.join(' ') || 'everything'}`);
  process.exit(1);
}
/** Each test's command as CTest would run it: [executable, --gtest_filter=<one name>, ...flags]. */
const groups = new Map();
for (const test of listed) {
  const [executable, filter, ...flags] = test.command;
  if (!filter?.startsWith('--gtest_filter=')) throw new Error(`${test.name}: not a gtest_discover_tests test (${test.command.join(' ')})`);
  const cwd = test.properties?.find((property) => property.name === 'WORKING_DIRECTORY')?.value ?? dir;
  const key = JSON.stringify([executable, flags, cwd]);
  if (!groups.has(key)) groups.set(key, { executable, flags, cwd, names: [] });
  groups.get(key).names.push(filter.slice('--gtest_filter='.length));
}

// Round-robin over CTest's order (source order), so each shard gets a share of every folder's tests.
const runs = [];
for (const { executable, flags, cwd, names } of groups.values()) {
  for (let shard = 0; shard < Math.min(shards, names.length); shard++) {
    const mine = names.filter((_, i) => i % shards === shard);
    runs.push({ executable, cwd, args: [`--gtest_filter=${mine.join(':')}`, ...flags], count: mine.length, log: join(dir, `shard-${runs.length}.log`) });
  }
}

const started = Date.now();
const results = await Promise.all(runs.map((run) => new Promise((resolve) => {
  const out = createWriteStream(run.log);
  const child = spawn(run.executable, run.args, { cwd: run.cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.pipe(out, { end: false });
  child.stderr.pipe(out, { end: false });
  const timer = setTimeout(() => child.kill('SIGKILL'), TIMEOUT_S * 1000);
  child.on('close', (code, signal) => {
    clearTimeout(timer);
    out.end(() => resolve({ ...run, code, signal }));
  });
})));

let failed = 0;
for (const result of results) {
  console.log(`==== ${result.executable}: ${result.count} tests (${result.log})`);
  process.stdout.write(readFileSync(result.log, 'utf8'));
  if (result.code !== 0) {
    failed++;
    console.log(`==== FAILED: exit ${result.code ?? result.signal}${result.signal === 'SIGKILL' ? ` (over ${TIMEOUT_S} s?)` : ''}`);
  }
}
const total = results.reduce((sum, result) => sum + result.count, 0);
console.log(`ctest-shards: ${total} tests in ${results.length} processes, ${((Date.now() - started) / 1000).toFixed(1)} s, ${failed ? `${failed} failed` : 'all passed'}`);
process.exit(failed ? 1 : 0);
