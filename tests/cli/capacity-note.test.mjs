// A --capacity far above the input is said in the summary (issue #44: the README's
// --capacity 120000 for a 13.7k-entry list made the file 9x larger with no note).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { asciiKeys } from '../helpers/keys.mjs';
import { runOk, tempDir } from './helpers.mjs';

let work;
beforeAll(() => {
  work = tempDir();
  writeFileSync(join(work.dir, 'keys.txt'), `${asciiKeys(1000, 'cap-').join('\n')}\n`);
  writeFileSync(join(work.dir, 'list.txt'), `${asciiKeys(500, 'h').map((key) => `${key}.example`).join('\n')}\n`);
});
afterAll(() => work.cleanup());

test.each([
  ['keys, 10x', ['build', '--input', 'keys.txt', '--capacity', '10000'], /note: --capacity 10,000 is 10\.0x the 1,000 keys stored/],
  ['a URL list, 20x', ['build', '--urls', '--type', 'blocked', '--input', 'list.txt', '--capacity', '10000'], /note: --capacity 10,000 is 20\.0x the 500 expressions stored/],
])('%s: a note with the ratio', async (_name, args, note) => {
  const { stdout } = await runOk([...args, '--output', 'big.filter'], { cwd: work.dir });
  expect(stdout).toMatch(note);
});

test.each([
  ['a capacity near the input', ['build', '--input', 'keys.txt', '--capacity', '1500']],
  ['no --capacity', ['build', '--input', 'keys.txt']],
])('no note for %s', async (_name, args) => {
  const { stdout } = await runOk([...args, '--output', 'fit.filter'], { cwd: work.dir });
  expect(stdout).not.toMatch(/note: --capacity/);
});
