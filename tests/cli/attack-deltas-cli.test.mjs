// Attacking the CLI's list deltas (docs/CLI.md, "Updates by delta"; issue #42):
// "a wrong list is exit 2, never a delta that would leave an entry out". The
// old list was checked against the base's filter only, so a list with one
// entry swapped for a filter false positive passed: the delta's version then
// claimed an expression no delta adds and the base does not list, and a client
// answered it clear. With the companion beside the filter, the check is exact.
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { init, UrlBlocklist } from '../../dist/index.js';
import { runCli, runOk, tempDir } from './helpers.mjs';

let work;
const at = (name) => join(work.dir, name);
const HOSTS = Array.from({ length: 200 }, (_, i) => `site${i}.example`);
const lines = (list) => `${list.join('\n')}\n`;
let swapped; // a host the filter reports and the list does not hold

beforeAll(async () => {
  await init();
  work = tempDir();
  writeFileSync(at('v1.txt'), lines(HOSTS));
  writeFileSync(at('add.txt'), lines(['fresh.example']));
  // 20% per URL: a false positive is a few tries away (fixed names, so the same one each run).
  await runOk(['build', '--urls', '--fpr', '0.2', '--input', 'v1.txt', '--output', 'v1.filter', '-q'], { cwd: work.dir });
  const base = UrlBlocklist.deserialize(readFileSync(at('v1.filter')));
  for (let i = 0; swapped === undefined && i < 100_000; i++) if (base.filter.has(`other${i}.example/`)) swapped = `other${i}.example`;
  base.free();
  writeFileSync(at('wrong.txt'), lines([swapped, ...HOSTS.slice(1)]));
  writeFileSync(at('wrong-v2.txt'), lines([swapped, ...HOSTS.slice(1), 'fresh.example']));
});
afterAll(() => work.cleanup());

test('update and diff with a list that swaps an entry for a filter false positive: exit 2, no delta written', async () => {
  expect(swapped).toBeDefined();
  const update = await runCli(['update', 'v1.filter', '--list', 'wrong.txt', '--add', 'add.txt', '--output', 'u.delta'], { cwd: work.dir });
  expect([update.code, update.stderr]).toEqual([2, expect.stringContaining(JSON.stringify(`${swapped}/`))]);
  expect(() => statSync(at('u.delta'))).toThrow();
  const diff = await runCli(['diff', 'wrong.txt', 'wrong-v2.txt', '--base', 'v1.filter', '--output', 'd.delta'], { cwd: work.dir });
  expect([diff.code, diff.stderr]).toEqual([2, expect.stringContaining(JSON.stringify(`${swapped}/`))]);
  expect(() => statSync(at('d.delta'))).toThrow();
});

test('the right list still makes a delta after which every entry and the added one are listed, the swapped host clear', async () => {
  await runOk(['update', 'v1.filter', '--list', 'v1.txt', '--add', 'add.txt', '--output', 'v2.delta', '-q'], { cwd: work.dir });
  const list = UrlBlocklist.deserialize(readFileSync(at('v1.filter')));
  try {
    list.attachConfirmation(readFileSync(at('v1.filter.confirm')));
    list.applyDelta(readFileSync(at('v2.delta')));
    expect([...HOSTS, 'fresh.example'].filter((host) => list.check(`http://${host}/`).verdict !== 'listed')).toEqual([]);
    expect(list.check(`http://${swapped}/`).verdict).toBe('clear');
    expect(list.entryCount).toBe(HOSTS.length + 1);
  } finally {
    list.free();
  }
});

// Found by this suite: --output the same file as --after replaced the chain's
// last delta with the next one (exit 0): a client without it could apply
// neither, and the server no longer had it.
test('--output over --after (or over a list it reads) is exit 2 and leaves the file as it was', async () => {
  await runOk(['update', 'v1.filter', '--list', 'v1.txt', '--add', 'add.txt', '--output', 'chain1.delta', '-q'], { cwd: work.dir });
  const first = readFileSync(at('chain1.delta'));
  writeFileSync(at('more.txt'), lines(['more.example']));
  writeFileSync(at('v2.txt'), lines([...HOSTS, 'fresh.example']));
  const over = await runCli(['update', 'v1.filter', '--list', 'v2.txt', '--add', 'more.txt', '--output', 'chain1.delta', '--after', 'chain1.delta'], { cwd: work.dir });
  expect([over.code, over.stderr]).toEqual([2, expect.stringContaining('--after')]);
  expect(Buffer.compare(readFileSync(at('chain1.delta')), first)).toBe(0);
  writeFileSync(at('v3.delta'), lines([...HOSTS, 'fresh.example', 'more.example']));
  const overList = await runCli(['diff', 'v2.txt', 'v3.delta', '--base', 'v1.filter', '--after', 'chain1.delta', '--output', 'v3.delta'], { cwd: work.dir });
  expect([overList.code, overList.stderr]).toEqual([2, expect.stringContaining('NEW_LIST')]);
  // Beside the chain, the same command writes the next delta.
  await runOk(['update', 'v1.filter', '--list', 'v2.txt', '--add', 'more.txt', '--output', 'chain2.delta', '--after', 'chain1.delta', '-q'], { cwd: work.dir });
  expect(UrlBlocklist.describeDelta(readFileSync(at('chain2.delta'))).sequence).toBe(2);
});
