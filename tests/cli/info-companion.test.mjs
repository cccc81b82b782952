// `info` on a URL blocklist's companion (issue #44: it failed "unknown filter type 33",
// exit 2): what it holds, read and checked whole, and whether the filter beside it is
// the one it was built with. A damaged companion is one error line, exit 2.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expectOneLineError, runCli, runOk, tempDir } from './helpers.mjs';

let work;
beforeAll(async () => {
  work = tempDir();
  const list = ['evil.example', 'bad.test/login', 'phish.example.net', 'evil.example'].join('\n');
  writeFileSync(join(work.dir, 'list.txt'), `${list}\n`);
  await runOk(['build', '--urls', '--input', 'list.txt', '--output', 'list.filter', '--quiet'], { cwd: work.dir });
  writeFileSync(join(work.dir, 'other.txt'), 'other.example\n');
  await runOk(['build', '--urls', '--input', 'other.txt', '--output', 'other.filter', '--quiet'], { cwd: work.dir });
});
afterAll(() => work.cleanup());

test('info on <filter>.confirm: its distinct expressions, and that its filter matches', async () => {
  const { stdout } = await runOk(['info', 'list.filter.confirm', '--json'], { cwd: work.dir });
  const report = JSON.parse(stdout);
  expect(report.kind).toBe('url-blocklist-companion');
  expect(report.expressions).toBe(3); // the repeat is one entry
  expect(report.fileBytes).toBe(readFileSync(join(work.dir, 'list.filter.confirm')).length);
  expect(report.filter).toEqual({ file: 'list.filter.confirm'.replace(/\.confirm$/, ''), matches: true });
  const text = await runOk(['info', 'list.filter.confirm'], { cwd: work.dir });
  expect(text.stdout).toMatch(/companion/);
  expect(text.stdout).toMatch(/list\.filter \(matches\)/);
});

test('a companion beside another filter is said to be for other bytes', async () => {
  writeFileSync(join(work.dir, 'other.filter.confirm'), readFileSync(join(work.dir, 'list.filter.confirm')));
  const report = JSON.parse((await runOk(['info', 'other.filter.confirm', '--json'], { cwd: work.dir })).stdout);
  expect(report.filter.matches).toBe(false);
});

test('a damaged companion is CORRUPT: one line, exit 2', async () => {
  const bytes = readFileSync(join(work.dir, 'list.filter.confirm'));
  bytes[bytes.length - 12] ^= 0x10;
  writeFileSync(join(work.dir, 'damaged.confirm'), bytes);
  expect(expectOneLineError(await runCli(['info', 'damaged.confirm'], { cwd: work.dir }))).toMatch(/damaged\.confirm: corrupt companion file/);
});
