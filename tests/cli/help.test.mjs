// --help, help, no arguments, per-command help and --version.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FILTER_TYPES } from 'cuckoo-bloom-wasm';
import { ROOT, runCli, runOk, tempDir } from './helpers.mjs';

let work;
beforeAll(() => {
  work = tempDir();
});
afterAll(() => work.cleanup());

test.each([[[]], [['--help']], [['-h']], [['help']]])('%j prints the usage with examples and exit codes', async (args) => {
  const { stdout, stderr } = await runOk(args, { cwd: work.dir });
  expect(stderr).toBe('');
  expect(stdout).toMatch(/^Usage: cuckoo-bloom-wasm <command>/);
  for (const command of ['build', 'info', 'query']) expect(stdout).toMatch(new RegExp(`^  ${command} `, 'm'));
  expect(stdout).toMatch(/Examples:/);
  expect(stdout).toMatch(/cuckoo-bloom-wasm build --input \S+ --output \S+/);
  expect(stdout).toMatch(/0 success.*1 query found.*\n?2 usage or input error/s);
});

test('the usage names every registered type (issue #44: it named four of nine), wrapped to 80 columns', async () => {
  const { stdout } = await runOk(['help'], { cwd: work.dir });
  const paragraph = stdout.split('\n\n')[1];
  for (const { label } of FILTER_TYPES) expect(paragraph.replace(/\s+/g, ' ').toLowerCase()).toContain(label.toLowerCase());
  for (const line of paragraph.split('\n')) expect(line.length).toBeLessThanOrEqual(80);
});

test.each([
  { command: 'build', words: ['--input', '--output', '--type', '--fpr', '--capacity', '--seed', '--urls', '--format', '--json', '--quiet'] },
  { command: 'info', words: ['--json', 'checksum', 'info <filter>.confirm'] },
  { command: 'query', words: ['--urls', 'present', 'absent', 'listed', 'clear', 'Exit status: 0'] },
])('help $command and $command --help document its options', async ({ command, words }) => {
  const a = await runOk(['help', command], { cwd: work.dir });
  const b = await runOk([command, '--help'], { cwd: work.dir });
  // --help wins over other (even invalid) options.
  const c = await runOk([command, '--bogus', '-h'], { cwd: work.dir });
  expect(b.stdout).toBe(a.stdout);
  expect(c.stdout).toBe(a.stdout);
  expect(a.stdout).toMatch(new RegExp(`^Usage: cuckoo-bloom-wasm ${command}`));
  for (const word of words) expect(a.stdout).toContain(word);
});

test('--version and -V print the version from package.json', async () => {
  const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  for (const flag of ['--version', '-V']) {
    const result = await runCli([flag], { cwd: work.dir });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(`${version}\n`);
  }
});

test('"--" lets a query key start with "-"; --help after "--" is a key', async () => {
  await runOk(['build', '--input', '-', '--output', 'dash.filter', '--quiet'], { cwd: work.dir, input: '--help\n-x\n' });
  const result = await runCli(['query', 'dash.filter', '--', '--help', '-x', '-y'], { cwd: work.dir });
  expect(result.stdout).toBe('present\t--help\npresent\t-x\nabsent\t-y\n');
  expect(result.code).toBe(1);
});
