// 1 GB inputs that are not lists: one line without a newline, and binary
// bytes. Each must end quickly with exit 2 and a clear message, reading only
// what it takes to decide (64 KiB for binary, 64 MiB for a line) and holding
// memory bounded by that, not by the file.
//
// The files are sparse (a short text head, then a hole that reads as zero
// bytes), so making 1 GB costs no disk and no time; the CLI cannot tell. Set
// HUGE_INPUT_BYTES to try another size.
import { closeSync, ftruncateSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, tempDir, writeSparse } from './helpers.mjs';

const SIZE = Number(process.env.HUGE_INPUT_BYTES ?? 2 ** 30);
const MAX_LINE = 64 * 1024 * 1024;
// Far below the file's size: what the 64 MiB line limit and a chunk or two cost.
const MAX_EXTRA_RSS = 256 * 1024 * 1024;
const MAX_SECONDS = 20;

let work;
beforeAll(() => {
  work = tempDir();
});
afterAll(() => work.cleanup());

/** A sparse file of SIZE bytes that starts with `head`. */
function sparseFile(name, head) {
  const path = join(work.dir, name);
  writeSparse(path, head, SIZE);
  return path;
}

const peakRss = (stderr) => {
  const match = /debug-memory: max-rss-bytes=(\d+)/.exec(stderr);
  if (!match) throw new Error(`no debug-memory line in: ${stderr}`);
  return Number(match[1]);
};

async function timedBuild(args) {
  const started = Date.now();
  const result = await runCli(['build', ...args, '--output', 'out.filter', '--debug-memory'], { cwd: work.dir });
  return { ...result, seconds: (Date.now() - started) / 1000, rss: peakRss(result.stderr) };
}

let baselineRss;
beforeAll(async () => {
  const small = await runCli(['build', '--input', '-', '--output', 'small.filter', '--quiet', '--debug-memory'], { cwd: work.dir, input: 'a\nb\n' });
  baselineRss = peakRss(small.stderr);
});

const report = (what, run) => console.log(`${what} (${SIZE} bytes): exit ${run.code} in ${run.seconds.toFixed(1)} s, peak RSS ${(run.rss / 2 ** 20).toFixed(0)} MiB (baseline ${(baselineRss / 2 ** 20).toFixed(0)} MiB)`);

test.each([
  ['keys', []],
  ['--urls', ['--urls']],
  ['--type fuse', ['--type', 'fuse']],
])('a %s file that is one line of text is refused at the 64 MiB line limit, not read to the end', async (_name, extra) => {
  // Text for the first MiB (so it is not judged binary), then no newline at all.
  sparseFile('one-line.txt', Buffer.alloc(1024 * 1024, 'a'));
  const run = await timedBuild([...extra, '--input', 'one-line.txt']);
  report(`one line ${extra.join(' ')}`, run);
  expect(run.code).toBe(2);
  expect(run.stderr).toMatch(/cuckoo-bloom-wasm: line 1 is longer than 64 MiB/);
  expect(run.seconds).toBeLessThan(MAX_SECONDS);
  expect(run.rss - baselineRss).toBeLessThan(MAX_EXTRA_RSS);
  expect(run.rss - baselineRss).toBeLessThan(SIZE / 2);
}, 60_000);

test('a binary file is refused after its first 64 KiB', async () => {
  sparseFile('zeros.bin', Buffer.from('not text\n\0'));
  const run = await timedBuild(['--input', 'zeros.bin']);
  report('binary', run);
  expect(run.code).toBe(2);
  expect(run.stderr).toMatch(/zeros\.bin looks like a binary file \(a NUL byte at offset 9\)/);
  // Deciding reads 64 KiB: far faster than reading the file, and no memory to speak of.
  expect(run.seconds).toBeLessThan(MAX_SECONDS);
  expect(run.rss - baselineRss).toBeLessThan(32 * 1024 * 1024);
}, 60_000);

test('a binary file read with --force stops at the line limit too (no newline in it)', async () => {
  sparseFile('zeros.bin', Buffer.from('not text\n\0'));
  const run = await timedBuild(['--input', 'zeros.bin', '--force']);
  report('binary --force', run);
  expect(run.code).toBe(2);
  expect(run.stderr).toMatch(/line 2 is longer than 64 MiB/);
  expect(run.seconds).toBeLessThan(MAX_SECONDS);
  expect(run.rss - baselineRss).toBeLessThan(MAX_EXTRA_RSS);
  expect(MAX_LINE).toBeLessThan(SIZE);
}, 60_000);

test('a --urls list line of 60 MB (under the line limit) is reported as unparseable without being parsed; the other lines are built', async () => {
  const path = join(work.dir, 'long-entry.txt');
  const fd = openSync(path, 'w');
  try {
    writeSync(fd, Buffer.from(`http://h/${'a'.repeat(1024 * 1024)}`));
    writeSync(fd, Buffer.from('\nevil.example\n'), 0, 14, 60 * 1024 * 1024);
  } finally {
    closeSync(fd);
  }
  const started = Date.now();
  const result = await runCli(['build', '--urls', '--input', 'long-entry.txt', '--output', 'long-entry.filter', '--json', '--debug-memory'], { cwd: work.dir });
  const seconds = (Date.now() - started) / 1000;
  const rss = peakRss(result.stderr);
  console.log(`a 60 MB list line: exit ${result.code} in ${seconds.toFixed(1)} s, peak RSS ${(rss / 2 ** 20).toFixed(0)} MiB`);
  expect(result.code).toBe(0);
  const summary = JSON.parse(result.stdout);
  expect(summary).toMatchObject({ lines: 2, entries: 1, unparseable: { count: 1 } });
  expect(summary.unparseable.first[0]).toMatchObject({ line: 1 });
  expect(summary.unparseable.first[0].reason).toMatch(/longer than 6 MiB/);
  expect(summary.unparseable.first[0].text.length).toBeLessThan(300);
  expect(seconds).toBeLessThan(MAX_SECONDS);
  expect(rss - baselineRss).toBeLessThan(MAX_EXTRA_RSS);
}, 60_000);
