// `build --urls` writes the companion split by hash prefix beside the filter
// (#42): `<output>.confirm.index` and `<output>.confirm.parts/NNNN`, named in the
// summary; `query` reads one part per "maybe" (--confirm on the index) and gives the whole companion's
// verdicts; `info` describes the index and checks every part; a damaged part is
// one error line, exit 2, never a clear.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expectOneLineError, runCli, runOk, tempDir, URLHAUS } from './helpers.mjs';

let work;
let summary;
beforeAll(async () => {
  work = tempDir();
  summary = JSON.parse(
    (await runOk(['build', '--urls', '--input', URLHAUS, '--output', 'list.filter', '--fpr', '0.2', '--json'], { cwd: work.dir })).stdout,
  );
}, 60_000);
afterAll(() => work.cleanup());

const URLS = [
  // Adblock lines '||host^' or '||host/path': as URLs.
  ...readFileSync(URLHAUS, 'utf8')
    .split('\n')
    .filter((line) => line.startsWith('||'))
    .slice(0, 200)
    .map((line) => `http://${line.slice(2).replace(/\^.*$/, '')}`),
  ...Array.from({ length: 400 }, (_, i) => `https://benign-${i}.example.org/path/${i}`),
];

test('build names the index and the parts folder, and writes every part under 4 KB', () => {
  const split = summary.confirmation.split;
  expect(split.index).toBe('list.filter.confirm.index');
  expect(split.parts).toBe('list.filter.confirm.parts');
  const parts = readdirSync(join(work.dir, split.parts)).sort();
  expect(parts.length).toBe(split.partCount);
  expect(parts[0]).toBe('0000');
  for (const name of parts) expect(readFileSync(join(work.dir, split.parts, name)).length).toBeLessThanOrEqual(4096);
  expect(split.splitOverWhole).toBeLessThan(1.05);
});

test('query with the index gives the whole companion\'s verdicts', async () => {
  const whole = await runCli(['query', '--urls', 'list.filter', '--json'], { cwd: work.dir, input: URLS.join('\n') });
  const parts = await runCli(['query', '--urls', 'list.filter', '--confirm', 'list.filter.confirm.index', '--json'], {
    cwd: work.dir,
    input: URLS.join('\n'),
  });
  expect(parts.stderr).toBe('');
  expect(parts.stdout).toBe(whole.stdout);
  expect(whole.stdout).toMatch(/"verdict":"listed"/);
  expect(whole.stdout).toMatch(/"confirmedBy":"exact-set"/); // some maybes ruled out at 20% per URL
  expect(whole.stdout).not.toMatch(/"possible"/);
});

test('info describes the index and checks each part', async () => {
  const report = JSON.parse((await runOk(['info', 'list.filter.confirm.index', '--json'], { cwd: work.dir })).stdout);
  expect(report.kind).toBe('url-blocklist-companion-index');
  expect(report.partCount).toBe(summary.confirmation.split.partCount);
  expect(report.partsChecked).toBe(report.partCount);
  expect(report.filter).toEqual({ file: 'list.filter', matches: true });
});

test('damaged parts: query is one error line (exit 2), never a verdict; info names the first', async () => {
  const folder = join(work.dir, 'list.filter.confirm.parts');
  const names = readdirSync(folder);
  const good = new Map(names.map((name) => [name, readFileSync(join(folder, name))]));
  for (const [name, bytes] of good) {
    const bad = Buffer.from(bytes);
    bad[bad.length >> 1] ^= 0x20;
    writeFileSync(join(folder, name), bad);
  }
  try {
    // The first URL is listed: its maybe needs a part, which is damaged.
    const result = await runCli(['query', '--urls', 'list.filter', '--confirm', 'list.filter.confirm.index'], {
      cwd: work.dir,
      input: URLS.join('\n'),
    });
    expectOneLineError(result);
    expect(result.stderr).toMatch(/part \d+/);
    expect(result.stdout).toBe('');
    const report = JSON.parse((await runOk(['info', 'list.filter.confirm.index', '--json'], { cwd: work.dir })).stdout);
    expect(report.firstBadPart.part).toBe(0);
    expect(report.partsChecked).toBe(0);
  } finally {
    for (const [name, bytes] of good) writeFileSync(join(folder, name), bytes);
  }
  expect(existsSync(join(folder, '0000'))).toBe(true);
});
