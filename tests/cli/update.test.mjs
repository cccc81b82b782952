// The CLI's update, diff and patch (docs/CLI.md, "Updates by patch").
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, runOk, tempDir } from './helpers.mjs';

let work;
const at = (name) => join(work.dir, name);
const HOSTS = Array.from({ length: 300 }, (_, i) => `host${i}.example`);
const lines = (list) => `${list.join('\n')}\n`;

beforeAll(async () => {
  work = tempDir();
  writeFileSync(at('base.txt'), lines(HOSTS));
  writeFileSync(at('remove.txt'), lines(HOSTS.slice(0, 10)));
  writeFileSync(at('add.txt'), lines(['added1.example', '||added2.example^']));
  writeFileSync(at('not-held.txt'), lines(['host5.example', 'never-listed.example']));
  await runOk(['build', '--urls', '--type', 'cuckoo', '--input', 'base.txt', '--output', 'list.filter', '-q'], { cwd: work.dir });
});
afterAll(() => work.cleanup());

test('--remove needs --list (the filter does not know what it holds); nothing is written', async () => {
  const before = readFileSync(at('list.filter'));
  const result = await runCli(['update', 'list.filter', '--remove', 'remove.txt'], { cwd: work.dir });
  expect(result.code).toBe(2);
  expect(result.stderr).toMatch(/update needs --list FILE, the list list\.filter was built from/);
  expect(Buffer.compare(readFileSync(at('list.filter')), before)).toBe(0);
});

test('a removal the filter does not hold fails the whole update, naming the line; nothing is written', async () => {
  const before = readFileSync(at('list.filter'));
  const result = await runCli(['update', 'list.filter', '--list', 'base.txt', '--remove', 'not-held.txt', '--output', 'x.filter'], { cwd: work.dir });
  expect(result.code).toBe(2);
  expect(result.stderr).toMatch(/nothing was written: 1 line\(s\) of --remove not-held\.txt cannot be removed .*not-held\.txt:2: not in the filter: "never-listed\.example"/);
  expect(existsSync(at('x.filter'))).toBe(false);
  expect(Buffer.compare(readFileSync(at('list.filter')), before)).toBe(0);
});

test('update, diff, patch: the patched file is the updated one, and its rewritten companion confirms', async () => {
  const out = await runOk(
    ['update', 'list.filter', '--list', 'base.txt', '--remove', 'remove.txt', '--add', 'add.txt', '--output', 'new.filter', '--json'],
    { cwd: work.dir },
  );
  const summary = JSON.parse(out.stdout);
  expect(summary).toMatchObject({ entriesBefore: 300, entries: 292, removed: { lines: 10 }, added: { lines: 2 }, confirmation: 'new.filter.confirm' });
  const query = await runCli(['query', 'new.filter', 'http://host3.example/', 'http://added2.example/a', 'http://host200.example/'], { cwd: work.dir });
  expect(query.stdout).toBe(
    'clear\thttp://host3.example/\nlisted\thttp://added2.example/a\tadded2.example/\nlisted\thttp://host200.example/\thost200.example/\n',
  );
  const diff = await runOk(['diff', 'list.filter', 'new.filter', '--output', 'list.patch', '--json'], { cwd: work.dir });
  expect(JSON.parse(diff.stdout).bytes).toBe(readFileSync(at('list.patch')).length);
  await runOk(['patch', 'list.filter', 'list.patch', '--output', 'patched.filter', '-q'], { cwd: work.dir });
  expect(Buffer.compare(readFileSync(at('patched.filter')), readFileSync(at('new.filter')))).toBe(0);
  // The patch applies to its base only: the new file is refused, and no output is written.
  const wrong = await runCli(['patch', 'new.filter', 'list.patch', '--output', 'wrong.filter'], { cwd: work.dir });
  expect(wrong.code).toBe(2);
  expect(wrong.stderr).toMatch(/list\.patch: this patch applies only to its base filter/);
  expect(existsSync(at('wrong.filter'))).toBe(false);
});

test('a type without removal: exit 2 naming the route', async () => {
  await runOk(['build', '--urls', '--type', 'bloom', '--input', 'base.txt', '--output', 'bloom.filter', '-q'], { cwd: work.dir });
  const result = await runCli(['update', 'bloom.filter', '--list', 'base.txt', '--remove', 'remove.txt'], { cwd: work.dir });
  expect(result.code).toBe(2);
  expect(result.stderr).toMatch(/cannot remove entries.*build the new list afresh/);
});

test.each(['update', 'diff', 'patch'])('help %s documents it', async (command) => {
  const { stdout } = await runOk(['help', command], { cwd: work.dir });
  expect(stdout).toMatch(new RegExp(`^Usage: cuckoo-bloom-wasm ${command}`));
  expect(stdout).toMatch(/--output/);
  expect(stdout).toMatch(/Exit status: 0/);
});
