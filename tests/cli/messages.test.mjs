// What the CLI prints agrees with the numbers it prints: overfill has one policy
// for every type (the estimated rate decides), a negative value is named as
// such, a hit is never hidden behind an invalid URL's exit status, and `info`
// shows everything that decides a blocklist's answers.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { asciiKeys } from '../helpers/keys.mjs';
import { expectOneLineError, runCli, runOk, tempDir } from './helpers.mjs';

let work;
beforeAll(() => {
  work = tempDir();
  writeFileSync(join(work.dir, 'eight.txt'), `${asciiKeys(8, 'k-').join('\n')}\n`);
  writeFileSync(join(work.dir, 'many.txt'), `${asciiKeys(2000, 'm-').join('\n')}\n`);
});
afterAll(() => work?.cleanup());

describe('overfill: one policy, decided by the estimated rate', () => {
  test('a cuckoo table that holds more keys than --capacity within the target is not overfilled: exit 0 and a note that says so', async () => {
    const result = await runCli(['build', '--type', 'cuckoo', '--capacity', '2', '--input', 'eight.txt', '--output', 'c.filter'], { cwd: work.dir });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    const estimated = Number(/estimated fpr\s+([\d.e-]+)/.exec(result.stdout)[1]);
    expect(estimated).toBeLessThanOrEqual(0.01);
    expect(result.stdout).toMatch(/note: 8 keys exceed --capacity 2, but the table holds them at an estimated fpr [\d.e-]+, within the target 0\.01/);
    expect(result.stdout).not.toMatch(/above the target/);
  });

  test.each(['bloom', 'blocked', 'counting'])('%s: more than twice the target is a warning and exit 3, in the summary and on stderr alike', async (type) => {
    const result = await runCli(['build', '--type', type, '--capacity', '100', '--input', 'many.txt', '--output', `${type}.filter`], { cwd: work.dir });
    expect(result.code).toBe(3);
    expect(result.stdout).toMatch(/warning: [\d,]+ keys exceed --capacity 100: the estimated fpr [\d.e-]+ is more than twice the target 0\.01 \(exit status 3\)/);
    expect(result.stderr).toMatch(/is overfilled: estimated false-positive rate .* more than twice the target 0\.01/);
  });
});

test.each([
  ['--capacity', '-5'],
  ['--fpr', '-0.1'],
  ['--seed', '-1'],
])('%s %s names the negative number instead of saying the option has no value', async (flag, value) => {
  const result = await runCli(['build', '--input', 'eight.txt', '--output', 'n.filter', flag, value], { cwd: work.dir });
  expect(expectOneLineError(result)).toMatch(new RegExp(`option ${flag} got '${value}', a negative number`));
});

test("info shows a blocklist's expression depth, as text and JSON", async () => {
  writeFileSync(join(work.dir, 'list.txt'), 'evil.example/\na.b.c.d.e.f.example/x/y/z/w/v/\n');
  await runOk(['build', '--urls', '--type', 'bloom', '--input', 'list.txt', '--output', 'list.filter', '--quiet'], { cwd: work.dir });
  const json = JSON.parse((await runOk(['info', 'list.filter', '--json'], { cwd: work.dir })).stdout);
  expect(json.kind).toBe('url-blocklist');
  // The deep entry needs 7 host labels and 5 directories (Safe Browsing's 5 and 3 at least).
  expect(json.expressionDepth).toEqual({ hostLabels: 7, pathDepth: 5 });
  const text = (await runOk(['info', 'list.filter'], { cwd: work.dir })).stdout;
  expect(text).toMatch(/checked to\s+host suffixes of up to 7 labels, paths of up to 5 directories/);
});
