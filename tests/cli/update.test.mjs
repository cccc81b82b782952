// The CLI's update, diff and patch (docs/CLI.md, "Updates by patch").
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
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

// A repeated line is stored once in the filter, on build --urls and update
// --add, as UrlBlocklist.build stores it (adversarial report, item 8): it used
// to be stored once per occurrence (info: keys stored > entries), so after
// update --remove of the line the companion said clear while the filter alone
// still said possible, a stale copy no later update could remove.
describe.each(['cuckoo', 'counting', 'scalable-cuckoo'])('%s: a repeated line is stored once', (type) => {
  const queryAlone = async (name) => {
    const dir = `alone-${type}-${name}`;
    mkdirSync(at(dir));
    copyFileSync(at(name), at(`${dir}/${name}`));
    return (await runCli(['query', `${dir}/${name}`, '--urls', 'http://evil.example/', 'http://new.example/'], { cwd: work.dir })).stdout;
  };
  const f = (name) => `${type}-${name}`;

  test('build --urls then update --remove of it: the filter alone answers as the companion does', async () => {
    writeFileSync(at('rep.txt'), lines(['evil.example', 'other.example', 'evil.example']));
    writeFileSync(at('rep-rm.txt'), lines(['evil.example']));
    await runOk(['build', '--urls', '--type', type, '--input', 'rep.txt', '--output', f('r1.filter'), '-q'], { cwd: work.dir });
    const info = JSON.parse((await runOk(['info', f('r1.filter'), '--json'], { cwd: work.dir })).stdout);
    expect([info.entries, info.count]).toEqual([2, 2]);
    await runOk(['update', f('r1.filter'), '--list', 'rep.txt', '--remove', 'rep-rm.txt', '--output', f('r2.filter'), '-q'], { cwd: work.dir });
    const withCompanion = await runCli(['query', f('r2.filter'), '--urls', 'http://evil.example/'], { cwd: work.dir });
    expect(withCompanion.stdout).toMatch(/^clear\t/);
    expect(await queryAlone(f('r2.filter'))).toMatch(/^clear\thttp:\/\/evil\.example\//);
  });

  test('update --add of a repeated line, then --remove of it', async () => {
    writeFileSync(at('u-list.txt'), lines(['evil.example', 'bad.example']));
    writeFileSync(at('u-add.txt'), lines(['new.example', 'new.example']));
    writeFileSync(at('u-all.txt'), lines(['evil.example', 'bad.example', 'new.example', 'new.example']));
    writeFileSync(at('u-rm.txt'), lines(['new.example']));
    await runOk(['build', '--urls', '--type', type, '--capacity', '50', '--input', 'u-list.txt', '--output', f('u1.filter'), '-q'], { cwd: work.dir });
    await runOk(['update', f('u1.filter'), '--list', 'u-list.txt', '--add', 'u-add.txt', '--output', f('u2.filter'), '-q'], { cwd: work.dir });
    await runOk(['update', f('u2.filter'), '--list', 'u-all.txt', '--remove', 'u-rm.txt', '--output', f('u3.filter'), '-q'], { cwd: work.dir });
    expect((await runCli(['query', f('u3.filter'), '--urls', 'http://new.example/'], { cwd: work.dir })).stdout).toMatch(/^clear\t/);
    expect(await queryAlone(f('u3.filter'))).toMatch(/\nclear\thttp:\/\/new\.example\//);
  });
});

test('update --add counts as build does: added the new expressions, already present the rest', async () => {
  writeFileSync(at('c-list.txt'), lines(['evil.example', 'bad.example']));
  writeFileSync(at('c-add.txt'), lines(['new.example', 'new.example', 'evil.example']));
  await runOk(['build', '--urls', '--type', 'cuckoo', '--capacity', '50', '--input', 'c-list.txt', '--output', 'c1.filter', '-q'], { cwd: work.dir });
  const out = await runOk(['update', 'c1.filter', '--list', 'c-list.txt', '--add', 'c-add.txt', '--output', 'c2.filter'], { cwd: work.dir });
  expect(out.stdout).toMatch(/added +3 line\(s\), 1 expression\(s\), 2 already present\n/);
  expect(out.stdout).toMatch(/entries +2 -> 3\n/);
});

test('update --list that is not the filter\'s list: the message says the filter lacks the entry', async () => {
  writeFileSync(at('c-wrong.txt'), lines(['evil.example', 'bad.example', 'extra.example']));
  const result = await runCli(['update', 'c1.filter', '--list', 'c-wrong.txt', '--add', 'c-add.txt', '--output', 'c3.filter'], { cwd: work.dir });
  expect(result.code).toBe(2);
  expect(result.stderr).toMatch(/c-wrong\.txt: .*the list has "extra\.example\/", which this blocklist does not hold/);
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
