// The CLI's list deltas (docs/CLI.md, "Updates by delta"; issue #42): update and
// diff with --output NAME.delta, for a static type (binary fuse, named; the --urls
// default is the smallest static type for the list); the delta applies in the library to the base and its companion;
// a chain continues with --after and is refused with another list; diff says
// why when a filter patch passes half of the new file.
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { init, UrlBlocklist } from '../../dist/index.js';
import { runCli, runOk, tempDir } from './helpers.mjs';

let work;
const at = (name) => join(work.dir, name);
const HOSTS = Array.from({ length: 3000 }, (_, i) => `host${i}.example`);
const V1 = HOSTS;
const GONE = HOSTS.slice(0, 30);
const NEW = Array.from({ length: 30 }, (_, i) => `new${i}.example`);
const V2 = [...HOSTS.slice(30), ...NEW];
const V3 = V2.slice(10);
const lines = (list) => `${list.join('\n')}\n`;

beforeAll(async () => {
  await init();
  work = tempDir();
  for (const [name, list] of [['v1.txt', V1], ['v2.txt', V2], ['v3.txt', V3], ['gone.txt', GONE], ['new.txt', NEW], ['gone3.txt', V2.slice(0, 10)]]) {
    writeFileSync(at(name), lines(list));
  }
  // Named: these tests are about a binary fuse list (the default may pick another static type).
  await runOk(['build', '--urls', '--type', 'fuse', '--input', 'v1.txt', '--output', 'v1.filter', '-q'], { cwd: work.dir });
});
afterAll(() => work.cleanup());

test('update --output NAME.delta on a binary fuse list: a small delta; the filter and companion unchanged; diff of the two lists writes the same bytes', async () => {
  const filter = readFileSync(at('v1.filter'));
  const companion = readFileSync(at('v1.filter.confirm'));
  const out = await runOk(['update', 'v1.filter', '--list', 'v1.txt', '--remove', 'gone.txt', '--add', 'new.txt', '--output', 'v2.delta', '--json'], {
    cwd: work.dir,
  });
  const summary = JSON.parse(out.stdout);
  const delta = readFileSync(at('v2.delta'));
  expect(summary).toMatchObject({ delta: 'v2.delta', bytes: delta.length, sequence: 1, type: 'binary-fuse', entriesBefore: 3000, entries: 3000, rebuild: false });
  expect(summary.baseBytes).toBe(filter.length + companion.length);
  expect(delta.length / summary.baseBytes).toBeLessThan(0.03);
  expect(Buffer.compare(readFileSync(at('v1.filter')), filter)).toBe(0);
  expect(Buffer.compare(readFileSync(at('v1.filter.confirm')), companion)).toBe(0);
  await runOk(['diff', 'v1.txt', 'v2.txt', '--base', 'v1.filter', '--output', 'same.delta', '-q'], { cwd: work.dir });
  expect(Buffer.compare(readFileSync(at('same.delta')), delta)).toBe(0);

  const list = UrlBlocklist.deserialize(filter);
  list.attachConfirmation(companion);
  list.applyDelta(delta);
  expect(V2.filter((host) => list.check(`http://${host}/`).verdict !== 'listed')).toEqual([]);
  expect(GONE.filter((host) => list.check(`http://${host}/`).verdict !== 'clear')).toEqual([]);
  list.free();
});

test('--after continues the chain from the list that version holds; another list is exit 2 and writes nothing', async () => {
  const wrong = await runCli(['update', 'v1.filter', '--list', 'v1.txt', '--remove', 'gone3.txt', '--output', 'bad.delta', '--after', 'v2.delta'], { cwd: work.dir });
  expect(wrong.code).toBe(2);
  // v1.txt has the same length as v2.txt: only the recorded digest tells them apart.
  expect(wrong.stderr).toMatch(/not the one the previous delta made/);
  expect(() => statSync(at('bad.delta'))).toThrow();
  const out = await runOk(['update', 'v1.filter', '--list', 'v2.txt', '--remove', 'gone3.txt', '--output', 'v3.delta', '--after', 'v2.delta', '--json'], { cwd: work.dir });
  expect(JSON.parse(out.stdout)).toMatchObject({ sequence: 2, entriesBefore: 3000, entries: 2990 });
  const same = await runCli(['update', 'v1.filter', '--list', 'v2.txt', '--remove', 'gone3.txt', '--output', 'x.delta'], { cwd: work.dir });
  // Without --after it is a first delta, whose old list must be the base's: v2.txt is not.
  expect(same.code).toBe(2);
  expect(same.stderr).toMatch(/does not hold/);
});

test('query --delta answers for the updated version: the chain in order gives every current entry listed and every removed one clear; another order, a repeat or a damaged delta is exit 2', async () => {
  const urls = (hosts) => hosts.map((host) => `http://${host}/`);
  const asked = [...urls(V3.slice(0, 40)), ...urls(NEW), ...urls(V2.slice(0, 10)), ...urls(GONE)];
  const verdicts = async (...deltas) => {
    const out = await runCli(['query', 'v1.filter', '--json', ...deltas.flatMap((d) => ['--delta', d]), ...asked], { cwd: work.dir });
    return { code: out.code, stderr: out.stderr, byUrl: new Map(out.stdout.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l)).map((v) => [v.url, v.verdict])) };
  };
  const base = await verdicts();
  expect(urls(NEW).filter((url) => base.byUrl.get(url) === 'listed')).toEqual([]);
  const chained = await verdicts('v2.delta', 'v3.delta');
  expect(chained.code).toBe(1);
  const current = new Set(urls(V3));
  const wrong = asked.filter((url) => (chained.byUrl.get(url) === 'listed') !== current.has(url));
  expect(wrong).toEqual([]);
  expect(asked.filter((url) => !current.has(url) && chained.byUrl.get(url) !== 'clear')).toEqual([]);

  for (const deltas of [['v3.delta'], ['v3.delta', 'v2.delta'], ['v2.delta', 'v2.delta']]) {
    const refused = await verdicts(...deltas);
    expect({ deltas, code: refused.code, lines: refused.byUrl.size }).toEqual({ deltas, code: 2, lines: 0 });
    expect(refused.stderr).toMatch(/\.delta.*(another|order|applied|base)/i);
  }
  const damaged = readFileSync(at('v2.delta'));
  damaged[damaged.length >> 1] ^= 0x10;
  writeFileSync(at('damaged.delta'), damaged);
  const bad = await verdicts('damaged.delta');
  expect(bad.code).toBe(2);
  expect(bad.stderr).toMatch(/damaged\.delta: /);
  const plain = await runCli(['query', 'v1.filter', '--exact', '--delta', 'v2.delta', 'x'], { cwd: work.dir });
  expect(plain.code).toBe(2);
  expect(plain.stderr).toMatch(/--delta applies to a URL blocklist queried alone/);
});

test('a chain past 25% of the base: update says so on stderr, with the numbers', async () => {
  writeFileSync(at('many.txt'), lines(Array.from({ length: 2000 }, (_, i) => `other${i}.example`)));
  const out = await runOk(['update', 'v1.filter', '--list', 'v1.txt', '--add', 'many.txt', '--output', 'big.delta'], { cwd: work.dir });
  expect(out.stderr).toMatch(/the chain of 1 delta\(s\) since v1\.filter is now [\d,]+ bytes, [\d.]+% of v1\.filter and its companion \([\d,]+ bytes\), past 25%: .*build a fresh base/);
});

// Each static type (the default of build --urls picks one): named, so each is the one tested.
test.each([['fuse', 'binary-fuse'], ['ribbon', 'ribbon']])('diff of two --type %s builds: the patch is most of the file, and diff says why and what to ship instead', async (alias, name) => {
  await runOk(['build', '--urls', '--type', alias, '--input', 'v1.txt', '--output', `v1-${alias}.filter`, '-q'], { cwd: work.dir });
  await runOk(['build', '--urls', '--type', alias, '--input', 'v2.txt', '--output', `v2-${alias}.filter`, '-q'], { cwd: work.dir });
  const out = await runOk(['diff', `v1-${alias}.filter`, `v2-${alias}.filter`, '--output', `v-${alias}.patch`], { cwd: work.dir });
  expect(out.stderr).toMatch(
    new RegExp(`diff: the patch is [\\d.]+% of v2-${alias}\\.filter's [\\d,]+ bytes, more than half: a ${name} filter is built whole from its list, so a changed list moves every slot.*list delta`),
  );
  const bloom = await runOk(['diff', 'v1.filter', 'v1.filter', '--output', 'none.patch'], { cwd: work.dir });
  expect(bloom.stderr).toBe('');
});
