// A slip of the fingers gets a suggestion (issue #44): commands, --type names and
// option names, each still one error line with exit 2; a word far from every known
// one, or equally near two, gets none (a wrong guess is worse than no guess).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expectOneLineError, runCli, tempDir } from './helpers.mjs';

let work;
beforeAll(() => {
  work = tempDir();
  writeFileSync(join(work.dir, 'keys.txt'), 'a\nb\n');
});
afterAll(() => work.cleanup());

const BUILD = ['build', '--input', 'keys.txt', '--output', 'out.filter'];

test.each([
  ['a swapped pair in a command', ['buidl', '--input', 'keys.txt'], /unknown command 'buidl'; did you mean 'build'\?/],
  ['a missing letter in a command', ['qurey', 'x.filter', 'k'], /did you mean 'query'\?/],
  ['help for a misspelt topic', ['help', 'updat'], /no help for 'updat'; did you mean 'update'\?/],
  ['a misspelt type', [...BUILD, '--type', 'blom'], /got 'blom'; did you mean 'bloom'\?/],
  ['a misspelt alias', [...BUILD, '--type', 'cukoo'], /got 'cukoo'; did you mean 'cuckoo'\?/],
  ['a misspelt option', [...BUILD, '--capactiy', '10'], /unknown option --capactiy for 'build'; did you mean --capacity\?/],
])('%s', async (_name, args, message) => {
  expect(expectOneLineError(await runCli(args, { cwd: work.dir }))).toMatch(message);
});

test.each([
  ['a command far from every other', ['frobnicate']],
  ['a type far from every other', [...BUILD, '--type', 'xyz']],
  ['an option far from every other', [...BUILD, '--fast']],
])('no suggestion for %s', async (_name, args) => {
  expect(expectOneLineError(await runCli(args, { cwd: work.dir }))).not.toMatch(/did you mean/);
});
