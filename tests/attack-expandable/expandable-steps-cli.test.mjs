// Attack on the expandable filter's growth in eighths through the CLI: a
// filter built for 100 URL expressions from 150 (a growth step under way),
// then `update --add` of 1,500 more (through doublings and steps) and
// `update --remove` of some: every expression kept is still found by
// `query`, none removed is, and the file reads back through the library
// with its growth steps. The CLI suites before build expandable filters at
// step 0 from a pipe only.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, runOk, tempDir, verdicts } from '../cli/helpers.mjs';

let work;
const at = (name) => join(work.dir, name);
const lines = (list) => `${list.join('\n')}\n`;
const host = (i) => `host${i}.example`;
const hosts = (from, to) => Array.from({ length: to - from }, (_, i) => host(from + i));

beforeAll(() => {
  work = tempDir('cbw-attack-expandable-');
});
afterAll(() => work.cleanup());

async function queryVerdicts(file, list) {
  const result = await runCli(['query', file, '--urls'], { cwd: work.dir, input: lines(list.map((h) => `http://${h}/`)) });
  return verdicts(result.stdout);
}

test('build mid-step, update --add through steps and doublings, update --remove: every kept expression found', async () => {
  writeFileSync(at('base.txt'), lines(hosts(0, 150)));
  writeFileSync(at('add.txt'), lines(hosts(150, 1650)));
  writeFileSync(at('all.txt'), lines(hosts(0, 1650)));
  writeFileSync(at('remove.txt'), lines(hosts(100, 400)));
  await runOk(['build', '--urls', '--type', 'expandable', '--capacity', '100', '--input', 'base.txt', '--output', 'e1.filter', '-q'], { cwd: work.dir });
  const info1 = JSON.parse((await runOk(['info', 'e1.filter', '--json'], { cwd: work.dir })).stdout);
  expect(info1.type).toBe('expandable');
  expect(info1.parameters.growthSteps).toBeGreaterThan(0); // built mid-level: the step path
  await runOk(['update', 'e1.filter', '--list', 'base.txt', '--add', 'add.txt', '--output', 'e2.filter', '-q'], { cwd: work.dir });
  await runOk(['update', 'e2.filter', '--list', 'all.txt', '--remove', 'remove.txt', '--output', 'e3.filter', '-q'], { cwd: work.dir });
  const kept = [...hosts(0, 100), ...hosts(400, 1650)];
  const found = await queryVerdicts('e3.filter', kept);
  expect(found).toHaveLength(kept.length);
  expect(found.filter(([verdict]) => verdict !== 'listed' && verdict !== 'present')).toEqual([]);
  const gone = await queryVerdicts('e3.filter', hosts(100, 400));
  // Removed expressions: all clear (the companion confirms), or at most a few false positives.
  expect(gone.filter(([verdict]) => verdict === 'clear').length).toBeGreaterThan(290);
  const info3 = JSON.parse((await runOk(['info', 'e3.filter', '--json'], { cwd: work.dir })).stdout);
  expect(info3.parameters.level).toBeGreaterThan(info1.parameters.level);
  console.log(`[measured] CLI expandable: built at ${JSON.stringify(info1.parameters)}; updated ${JSON.stringify(info3.parameters)}`);
}, 120_000);
