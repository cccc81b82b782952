// Builds the URLhaus list (web-demo/data, CC0, uBlock syntax) into a URL
// blocklist with each filter type, then queries listed and unlisted URLs.
// The expected matches come from the list text itself, picked here with
// regular expressions, not from the code under test.
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { expectOneLineError, runCli, runOk, tempDir, tmpFilesIn, URLHAUS, verdicts } from './helpers.mjs';

const listLines = readFileSync(URLHAUS, 'utf8').split('\n').filter((line) => line !== '');
// Every non-comment line of this list is one host or one URL rule: one expression each.
const entryLines = listLines.filter((line) => !line.startsWith('!'));
// Bare host names with two or three labels (uBlock reads "host" as "||host^").
const hostLines = listLines.filter((line) => /^[a-z][a-z0-9-]*(\.[a-z0-9-]+){1,2}$/.test(line) && !/\.\d+$/.test(line));
// "||host/path^$all" rules with a plain path.
const urlRules = listLines
  .map((line) => /^\|\|([a-z0-9.-]+)(\/[A-Za-z0-9._/-]+)\^\$all$/.exec(line))
  .filter((match) => match !== null);
// Hosts that appear only with paths: the host alone is not listed.
const pathOnlyHosts = [...new Set(urlRules.map((m) => m[1]))].filter(
  (host) => !listLines.includes(host) && !listLines.includes(`||${host}^$all`),
);

const pick = (array, count) => Array.from({ length: count }, (_, i) => array[Math.floor((i * array.length) / count)]);
const hosts = pick(hostLines, 5);
const rules = pick(urlRules, 5);

const TYPES = [
  ['bloom', 'bloom'],
  ['blocked', 'blocked-bloom'],
  ['counting', 'counting-bloom'],
  ['cuckoo', 'cuckoo'],
];

let work;
beforeAll(() => {
  work = tempDir();
  expect(entryLines.length).toBeGreaterThan(6000);
  expect(hostLines.length).toBeGreaterThan(100);
  expect(urlRules.length).toBeGreaterThan(100);
  expect(pathOnlyHosts).toContain('github.com');
});
afterAll(() => work.cleanup());

describe.each(TYPES)('build --urls --type %s from URLhaus', (cliType, libraryType) => {
  const file = () => join(work.dir, `urlhaus-${cliType}.filter`);
  let summary;

  beforeAll(async () => {
    const result = await runOk(
      ['build', '--urls', '--type', cliType, '--fpr', '0.001', '--input', URLHAUS, '--output', file(), '--json'],
      { cwd: work.dir },
    );
    summary = JSON.parse(result.stdout);
    // Not a terminal: no progress output at all.
    expect(result.stderr).toBe('');
  });

  test('summary accounts for every line of the list', () => {
    expect(summary.kind).toBe('url-blocklist');
    expect(summary.type).toBe(libraryType);
    expect(summary.lines).toBe(listLines.length);
    expect(summary.skipped).toBe(listLines.length - entryLines.length); // the "!" header lines
    expect(summary.unparseable).toEqual({ count: 0, first: [] });
    expect(summary.expressions).toBe(entryLines.length);
    expect(summary.capacity).toBe(entryLines.length);
    expect(summary.capacitySource).toBe('input');
    expect(summary.fileBytes).toBe(statSync(file()).size);
    expect(summary.falsePositiveRate).toBe(0.001);
    expect(tmpFilesIn(work.dir)).toEqual([]);
  });

  test('listed hosts match as host/ for any path and for subdomains', async () => {
    const urls = hosts.flatMap((host) => [`http://${host}/`, `https://zz-sub.${host}/`, `http://${host}/anything/at/all?q=1`]);
    const result = await runCli(['query', file(), '--urls', ...urls], { cwd: work.dir });
    expect(result.code).toBe(1);
    const rows = verdicts(result.stdout);
    expect(rows).toHaveLength(urls.length);
    hosts.forEach((host, i) => {
      const [root, sub, deep] = rows.slice(3 * i, 3 * i + 3);
      expect(root).toEqual(['listed', `http://${host}/`, `${host}/`]);
      expect(sub).toEqual(['listed', `https://zz-sub.${host}/`, `${host}/`]);
      // The more specific expressions of this URL are checked before host/,
      // so a false positive (about 0.1% each) may be the one reported.
      expect(deep.slice(0, 2)).toEqual(['listed', `http://${host}/anything/at/all?q=1`]);
      expect(deep[2] === `${host}/` || deep[2].startsWith(`${host}/anything`)).toBe(true);
    });
  });

  test('listed URL rules match as host/path', async () => {
    const urls = rules.map(([, host, path]) => `http://${host}${path}`);
    const result = await runCli(['query', file(), '--urls', ...urls], { cwd: work.dir });
    expect(result.code).toBe(1);
    expect(verdicts(result.stdout)).toEqual(rules.map(([, host, path]) => ['listed', `http://${host}${path}`, `${host}${path}`]));
  });

  test('unlisted URLs are clear (exit 0), URLs read from stdin', async () => {
    const urls = ['https://www.wikipedia.org/', 'https://example.com/', 'https://github.com/', 'https://github.com/nodejs/node'];
    const result = await runCli(['query', file(), '--urls'], { cwd: work.dir, input: `${urls.join('\n')}\n` });
    expect(verdicts(result.stdout)).toEqual(urls.map((url) => ['clear', url]));
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
  });

  test('info --json describes the blocklist and its nested filter', async () => {
    const { stdout } = await runOk(['info', file(), '--json'], { cwd: work.dir });
    const info = JSON.parse(stdout);
    expect(info).toMatchObject({
      kind: 'url-blocklist',
      type: libraryType,
      checksum: 'ok',
      capacity: entryLines.length,
      seed: 0,
      falsePositiveRate: 0.001,
      fileBytes: statSync(file()).size,
      entries: summary.entries,
    });
    // A few of the 6,254 lines are repeats (or, for Bloom-type filters, false positives) and are stored once.
    expect(info.entries).toBeGreaterThan(entryLines.length - 40);
    expect(info.entries).toBeLessThanOrEqual(entryLines.length);
    expect(info.bitsPerKey).toBeCloseTo((info.tableBytes * 8) / info.count, 6);
    expect(info.estimatedFalsePositiveRate).toBeGreaterThan(0);
    expect(info.estimatedFalsePositiveRate).toBeLessThan(0.002);
  });
});

test('query without --urls on a URL blocklist still checks URLs (implied)', async () => {
  const file = join(work.dir, 'implied.filter');
  await runOk(['build', '--urls', '--input', URLHAUS, '--output', file, '--quiet'], { cwd: work.dir });
  const result = await runCli(['query', file, `http://${hosts[0]}/x`, 'https://example.com/'], { cwd: work.dir });
  expect(result.code).toBe(1);
  expect(verdicts(result.stdout)).toEqual([
    ['listed', `http://${hosts[0]}/x`, `${hosts[0]}/`],
    ['clear', 'https://example.com/'],
  ]);
});

test('an unparseable URL is an "invalid" verdict with one stderr line; a listed URL beside it still exits 1', async () => {
  const file = join(work.dir, 'invalid.filter');
  await runOk(['build', '--urls', '--input', URLHAUS, '--output', file, '--quiet'], { cwd: work.dir });
  const result = await runCli(['query', file, '--urls', `http://${hosts[1]}/`, 'http://[::1'], { cwd: work.dir });
  const rows = verdicts(result.stdout);
  expect(rows[0]).toEqual(['listed', `http://${hosts[1]}/`, `${hosts[1]}/`]);
  expect(rows[1].slice(0, 2)).toEqual(['invalid', 'http://[::1']);
  expect(rows[1][2]).toMatch(/\S/);
  // A hit wins: a script testing for exit 1 never misses it because another URL was invalid.
  expect(result.code).toBe(1);
  expect(result.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^cuckoo-bloom-wasm: 1 URL\(s\) could not be checked/)]);
  // Invalid and clear only: exit 2.
  const alone = await runCli(['query', file, '--urls', 'https://example.com/', 'http://[::1'], { cwd: work.dir });
  expect(verdicts(alone.stdout).map(([verdict]) => verdict)).toEqual(['clear', 'invalid']);
  expect(expectOneLineError(alone)).toMatch(/1 URL/);
});
