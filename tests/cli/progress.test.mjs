// The progress bar: never on a pipe; on a terminal only for long inputs, at
// most ~10 redraws a second.
//  - End to end on a real terminal: the CLI runs under `script -qec` (a pty
//    from util-linux); skipped, and says so, when `script` is not installed.
//  - The module itself: js/src/cli/io/progress.ts is compiled with esbuild (a
//    dev dependency) and driven with a fake TTY stream and a fake clock.
import { execFileSync, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { transform } from 'esbuild';
import { readFile } from 'node:fs/promises';
import { asciiKeys } from '../helpers/keys.mjs';
import { CLI, ROOT, runOk, tempDir } from './helpers.mjs';

const LONG_LINES = 150_000; // over the 100,000-line threshold

let work;
let Progress;
beforeAll(async () => {
  work = tempDir();
  writeFileSync(join(work.dir, 'long.txt'), `${asciiKeys(LONG_LINES, 'p-').join('\n')}\n`);
  writeFileSync(join(work.dir, 'short.txt'), `${asciiKeys(1000, 'p-').join('\n')}\n`);
  const source = await readFile(join(ROOT, 'js/src/cli/io/progress.ts'), 'utf8');
  const { code } = await transform(source, { loader: 'ts', format: 'esm', target: 'es2022' });
  writeFileSync(join(work.dir, 'progress.mjs'), code);
  ({ Progress } = await import(pathToFileURL(join(work.dir, 'progress.mjs')).href));
});
afterAll(() => work.cleanup());

test('not a terminal: a long build writes nothing to stderr', async () => {
  const result = await runOk(['build', '--input', 'long.txt', '--output', 'long.filter', '--quiet'], { cwd: work.dir });
  expect(result.stderr).toBe('');
  const json = await runOk(['build', '--input', 'long.txt', '--output', 'long.filter', '--json'], { cwd: work.dir });
  expect(json.stderr).toBe('');
  expect(json.stdout).not.toContain('\r');
  expect(JSON.parse(json.stdout).keys).toBe(LONG_LINES);
});

const hasScript = spawnSync('script', ['--version']).status === 0;
const onTerminal = (args) =>
  execFileSync('script', ['-qec', [process.execPath, CLI, ...args].map((a) => `'${a}'`).join(' '), '/dev/null'], {
    cwd: work.dir,
    encoding: 'utf8',
  });

(hasScript ? test : test.skip)('on a terminal (script -qec): a long input draws a bar, then erases it', () => {
  const output = onTerminal(['build', '--input', 'long.txt', '--output', 'tty.filter', '--quiet']);
  expect(output).toMatch(/\r(counting|building) \[[#-]{24}\] +\d+% [\d,]+ lines/);
  expect(output).toContain('\x1b[K');
  expect(output.endsWith('\r\x1b[K')).toBe(true); // the bar is cleared at the end
});

(hasScript ? test : test.skip)('on a terminal (script -qec): a short input draws nothing', () => {
  const output = onTerminal(['build', '--input', 'short.txt', '--output', 'tty-short.filter', '--quiet']);
  expect(output).toBe('');
});

function fakeTty(isTTY = true) {
  const writes = [];
  return { stream: { isTTY, columns: 100, write: (text) => writes.push(text) }, writes };
}

/** A Progress bar on a fake TTY with a clock the test moves (`clock.now`, in milliseconds). */
function fakeBar(options, isTTY = true) {
  const { stream, writes } = fakeTty(isTTY);
  const clock = { now: 0 };
  return { bar: new Progress({ stream, now: () => clock.now, ...options }), writes, clock };
}

/** `count` updates, `ms` apart: update i reports i * bytesEach bytes read and i * linesEach lines. */
function feed({ bar, clock }, count, ms, bytesEach, linesEach) {
  for (let i = 1; i <= count; i++) {
    clock.now += ms;
    bar.update(i * bytesEach, i * linesEach);
  }
}

describe('Progress (module, fake TTY and clock)', () => {
  test('redraws at most every 100 ms however often it is updated', () => {
    const progress = fakeBar({ label: 'building', totalBytes: 10_000_000 });
    const { bar, writes } = progress;
    feed(progress, 2000, 1, 5000, 100); // 2,000 updates over 2 s
    expect(writes.length).toBeGreaterThanOrEqual(19);
    expect(writes.length).toBeLessThanOrEqual(21);
    for (const text of writes) {
      expect(text.startsWith('\r')).toBe(true);
      expect(text.endsWith('\x1b[K')).toBe(true);
      expect(text.length).toBeLessThanOrEqual(99 + 4);
    }
    const percents = writes.map((text) => Number(/(\d+)%/.exec(text)[1]));
    expect(percents).toEqual([...percents].sort((a, b) => a - b));
    expect(percents[0]).toBe(0);
    expect(percents.at(-1)).toBeGreaterThanOrEqual(95);
    bar.finish();
    expect(writes.at(-1)).toBe('\r\x1b[K');
  });

  test('a narrow terminal drops the rate and the sizes before it cuts anything (issue #44)', () => {
    for (const columns of [80, 60, 40]) {
      const writes = [];
      let now = 0;
      const bar = new Progress({ stream: { isTTY: true, columns, write: (text) => writes.push(text) }, label: 'building', totalBytes: 900_000_000, now: () => now });
      now = 1000;
      bar.update(450_000_000, 12_345_678);
      const text = writes.at(-1).slice(1, -'\x1b[K'.length);
      expect(text.length).toBeLessThan(columns);
      // Whole parts only: the percentage and the line count are there, nothing ends mid-word.
      expect(text).toMatch(/ 50% 12,345,678 lines(, [\d.]+\/[\d.]+ MiB)?(, [\d,]+ lines\/s)?$/);
    }
  });

  test('short inputs never draw: under 100,000 lines and 4 MiB', () => {
    const progress = fakeBar({ label: 'building', totalBytes: 1_000_000 });
    feed(progress, 1000, 1000, 1000, 99);
    progress.bar.finish();
    expect(progress.writes).toEqual([]);
  });

  test('without a known size it starts once past 100,000 lines or 4 MiB read', () => {
    const { stream, writes } = fakeTty();
    let now = 0;
    const bar = new Progress({ stream, label: 'reading stdin', now: () => now });
    bar.update(1000, 100_000);
    expect(writes).toEqual([]);
    now = 1;
    bar.update(1001, 100_001);
    expect(writes).toHaveLength(1);
    expect(writes[0]).toMatch(/^\rreading stdin 100,001 lines, 0\.0 MiB/);
    const bytesOnly = fakeTty();
    const bar2 = new Progress({ stream: bytesOnly.stream, label: 'x', now: () => now });
    bar2.update(4 * 1024 * 1024 + 1, 10);
    expect(bytesOnly.writes).toHaveLength(1);
  });

  test('not a TTY: nothing, whatever the input', () => {
    const progress = fakeBar({ label: 'building', totalBytes: 1e9 }, false);
    const { bar, writes } = progress;
    feed(progress, 100, 1000, 1e7, 1e6);
    bar.finish();
    expect(bar.enabled).toBe(false);
    expect(writes).toEqual([]);
  });
});
