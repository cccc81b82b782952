// `build --urls` with no --type (issue #45): the list is built in each static type
// of the registry and the smallest file written, said in the summary (`type` row)
// and in --json (`typeChoice`); `info` reads the type back. A --type named is the one
// used; 'smallest' is taken by name with --urls only.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FILTER_TYPES, init, parseList, UrlBlocklist } from '../../dist/index.js';
import { runCli, runOk, tempDir, URLHAUS } from './helpers.mjs';

let work;
const at = (name) => join(work.dir, name);

beforeAll(async () => {
  await init();
  work = tempDir();
  writeFileSync(at('list.txt'), `${Array.from({ length: 3000 }, (_, i) => (i % 3 === 0 ? `site${i}.example/dl/${i}.exe` : `host${i}.example`)).join('\n')}\n`);
});
afterAll(() => work.cleanup());

const staticTypes = () => FILTER_TYPES.filter((entry) => entry.isStatic && !entry.forgets);

test.each([
  ['a generated list at 0.0007 per URL', 'list.txt', '0.0007'],
  ['URLhaus at 0.001 per URL', URLHAUS, '0.001'],
])('%s: the default file is the smallest of the static types built by name, and says so', async (_name, input, fpr) => {
  const json = JSON.parse((await runOk(['build', '--urls', '--fpr', fpr, '--input', input, '--output', 'default.filter', '--json'], { cwd: work.dir })).stdout);
  const bytes = readFileSync(at('default.filter'));
  const sizes = {};
  for (const entry of staticTypes()) {
    await runOk(['build', '--urls', '--type', entry.name, '--fpr', fpr, '--input', input, '--output', `${entry.name}.filter`, '-q'], { cwd: work.dir });
    const named = readFileSync(at(`${entry.name}.filter`));
    const read = UrlBlocklist.deserialize(named);
    expect(read.type).toBe(entry.name);
    read.free();
    sizes[entry.name] = named.length;
    expect(bytes.length).toBeLessThanOrEqual(named.length);
  }
  expect(staticTypes().length).toBeGreaterThan(1);
  expect(bytes.length).toBe(Math.min(...Object.values(sizes)));
  // The same bytes as its type built by name: nothing is added by choosing.
  expect(bytes.equals(readFileSync(at(`${json.type}.filter`)))).toBe(true);
  expect(json.typeChoice.chosen).toBe(json.type);
  expect(json.typeChoice.candidates.map((c) => c.type)).toEqual(staticTypes().map((entry) => entry.name));
  // Every listed entry is listed (the file and its companion, as query reads them).
  const list = UrlBlocklist.deserialize(bytes);
  expect(list.type).toBe(json.type);
  list.attachConfirmation(readFileSync(at('default.filter.confirm')));
  const text = readFileSync(input === URLHAUS ? URLHAUS : at(input), 'utf8');
  const { entries } = parseList(text);
  expect(entries.filter((expression) => list.check(`http://${expression}`).verdict !== 'listed')).toEqual([]);
  list.free();
  // info names the type read from the file.
  const info = JSON.parse((await runOk(['info', 'default.filter', '--json'], { cwd: work.dir })).stdout);
  expect(JSON.stringify(info)).toContain(`"${json.type}"`);
}, 180_000);

test('the text summary names the type kept and the bytes of each built', async () => {
  const out = await runOk(['build', '--urls', '--input', 'list.txt', '--output', 'summary.filter'], { cwd: work.dir });
  const kept = JSON.parse((await runOk(['build', '--urls', '--input', 'list.txt', '--output', 'again.filter', '--json'], { cwd: work.dir })).stdout).typeChoice;
  expect(out.stdout).toMatch(new RegExp(`URL blocklist \\(${kept.chosen} filter\\)`));
  expect(out.stdout).toMatch(new RegExp(`type +${kept.chosen}, the smallest static type for this list`));
  for (const candidate of kept.candidates) expect(out.stdout).toContain(`${candidate.type} ${candidate.bytes.toLocaleString('en-US')}`);
});

test('a --type named is the one used, and gets no choice', async () => {
  for (const entry of staticTypes()) {
    const json = JSON.parse((await runOk(['build', '--urls', '--type', entry.name, '--input', 'list.txt', '--output', 'named.filter', '--json'], { cwd: work.dir })).stdout);
    expect(json.type).toBe(entry.name);
    expect(json.typeChoice).toBeUndefined();
  }
  const smallest = JSON.parse((await runOk(['build', '--urls', '--type', 'smallest', '--input', 'list.txt', '--output', 'smallest.filter', '--json'], { cwd: work.dir })).stdout);
  expect(smallest.typeChoice.chosen).toBe(smallest.type);
});

test("'smallest' without --urls, and --capacity with the default, are usage errors", async () => {
  const keys = await runCli(['build', '--type', 'smallest', '--input', 'list.txt', '--output', 'keys.filter'], { cwd: work.dir });
  expect(keys.code).toBe(2);
  expect(keys.stderr).toMatch(/--type smallest applies to URL lists \(--urls\)/);
  const sized = await runCli(['build', '--urls', '--capacity', '100', '--input', 'list.txt', '--output', 'sized.filter'], { cwd: work.dir });
  expect(sized.code).toBe(2);
  expect(sized.stderr).toMatch(/--capacity does not apply to a static filter \(the smallest type for the list\) \(the default with --urls/);
});
