// `build --urls` writes the exact companion beside the filter (<output>.confirm),
// and `query` gives the three verdicts: listed (confirmed), possible (no
// companion), clear; exit 1 for listed or possible, so a script written for
// listed/clear never takes an unconfirmed maybe for clear (docs/CLI.md).
import { readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expectOneLineError, runCli, runOk, tempDir, tmpFilesIn, URLHAUS, verdicts } from './helpers.mjs';

// Every line of this list is one expression ("!" lines are comments); the CLI's
// own parse is not used to pick the expected entries: a host line is host/,
// "||host/path^$all" is host/path, "||host^$all" is host/.
const entries = [
  ...new Set(
    readFileSync(URLHAUS, 'utf8')
      .split('\n')
      .filter((line) => line !== '' && !line.startsWith('!'))
      .map((line) => {
        const rule = /^\|\|([^/^]+)(\/[^^]*)?\^\$all$/.exec(line);
        return rule === null ? `${line}/` : `${rule[1]}${rule[2] ?? '/'}`;
      }),
  ),
];

let work;
beforeAll(() => {
  work = tempDir();
  expect(entries.length).toBeGreaterThan(6000);
});
afterAll(() => work.cleanup());

describe.each([['fuse'], ['bloom']])('build --urls --type %s', (type) => {
  const filter = () => join(work.dir, `urlhaus-${type}.filter`);
  let summary;
  beforeAll(async () => {
    summary = JSON.parse((await runOk(['build', '--urls', '--type', type, '--input', URLHAUS, '--output', filter(), '--json'])).stdout);
  });

  test('writes <output>.confirm beside the filter, named and sized in the summary', () => {
    expect(summary.confirmation.path).toBe(`${filter()}.confirm`);
    expect(summary.confirmation.bytes).toBe(statSync(`${filter()}.confirm`).size);
    expect(summary.confirmation.bitsPerExpression).toBeGreaterThan(50);
    expect(summary.confirmation.bitsPerExpression).toBeLessThan(56);
    expect(tmpFilesIn(work.dir)).toEqual([]);
  });

  test('every listed entry is listed (exit 1), read from stdin', async () => {
    const result = await runCli(['query', filter()], { input: entries.map((entry) => `http://${entry}\n`).join('') });
    expect(result.code).toBe(1);
    const rows = verdicts(result.stdout);
    expect(rows.length).toBe(entries.length);
    expect(rows.filter(([verdict]) => verdict !== 'listed')).toEqual([]);
    expect(result.stderr).toBe('');
  });
});

test('the text summary names the companion and its bits per expression', async () => {
  const result = await runOk(['build', '--urls', '--input', URLHAUS, '--output', join(work.dir, 'text.filter')]);
  expect(result.stdout).toMatch(/confirmation\s+\S*text\.filter\.confirm: [\d,]+ bytes \(5\d\.\d+ bits per expression\)/);
});

describe('query verdicts', () => {
  const filter = () => join(work.dir, 'q.filter');
  const listed = `http://${entries[0]}`;
  beforeAll(async () => {
    await runOk(['build', '--urls', '--input', URLHAUS, '--output', filter(), '--quiet']);
  });

  test('listed with the companion, clear for an unlisted URL; exit 0 when every URL is clear', async () => {
    const hit = await runCli(['query', filter(), listed, 'https://example.org/']);
    expect(hit.code).toBe(1);
    expect(verdicts(hit.stdout)).toEqual([['listed', listed, entries[0]], ['clear', 'https://example.org/']]);
    const clear = await runCli(['query', filter(), 'https://example.org/']);
    expect(clear.code).toBe(0);
  });

  test('--json gives one object per URL with the verdict, the expression and what confirmed it', async () => {
    const result = await runCli(['query', filter(), '--json', listed, 'https://example.org/', 'http://[bad']);
    expect(result.code).toBe(1);
    const [first, second, third] = result.stdout.trim().split('\n').map((line) => JSON.parse(line));
    expect(first).toEqual({ url: listed, verdict: 'listed', match: entries[0], confirmedBy: 'exact-set' });
    expect(second).toEqual({ url: 'https://example.org/', verdict: 'clear', match: null, confirmedBy: null });
    expect(third).toMatchObject({ url: 'http://[bad', verdict: 'invalid' });
  });

  test('without <filter>.confirm a maybe is possible (exit 1, a note on stderr); --confirm FILE finds it elsewhere', async () => {
    const moved = join(work.dir, 'elsewhere.confirm');
    renameSync(`${filter()}.confirm`, moved);
    try {
      const result = await runCli(['query', filter(), listed]);
      expect(result.code).toBe(1);
      expect(verdicts(result.stdout)).toEqual([['possible', listed, entries[0]]]);
      expect(result.stderr).toMatch(/1 URL\(s\) possibly listed .*q\.filter\.confirm not found/);
      const confirmed = await runCli(['query', filter(), '--confirm', moved, listed]);
      expect(verdicts(confirmed.stdout)).toEqual([['listed', listed, entries[0]]]);
    } finally {
      renameSync(moved, `${filter()}.confirm`);
    }
  });

  test('a damaged companion, one of another filter, or a missing --confirm file is an error (exit 2), never ignored', async () => {
    const companion = readFileSync(`${filter()}.confirm`);
    const damaged = join(work.dir, 'damaged.confirm');
    const bytes = Buffer.from(companion);
    bytes[bytes.length >> 1] ^= 0x20;
    writeFileSync(damaged, bytes);
    expect(expectOneLineError(await runCli(['query', filter(), '--confirm', damaged, listed]))).toMatch(/damaged\.confirm: corrupt companion file/);
    const other = join(work.dir, 'other.filter');
    await runOk(['build', '--urls', '--type', 'bloom', '--input', URLHAUS, '--output', other, '--quiet']);
    expect(expectOneLineError(await runCli(['query', filter(), '--confirm', `${other}.confirm`, listed]))).toMatch(/companion of another filter/);
    expect(expectOneLineError(await runCli(['query', filter(), '--confirm', join(work.dir, 'none.confirm'), listed]))).toMatch(/none\.confirm/);
    // The default <filter>.confirm, damaged: an error too.
    writeFileSync(`${filter()}.confirm`, bytes);
    try {
      expectOneLineError(await runCli(['query', filter(), listed]));
    } finally {
      writeFileSync(`${filter()}.confirm`, companion);
    }
  });

  test('--confirm and --json apply to URL blocklists only', async () => {
    const keys = join(work.dir, 'keys.filter');
    await runOk(['build', '--input', '-', '--output', keys, '--capacity', '10', '--quiet'], { input: 'a\nb\n' });
    expect(expectOneLineError(await runCli(['query', keys, '--confirm', `${filter()}.confirm`, 'a']))).toMatch(/--confirm applies to a URL blocklist/);
    expect(expectOneLineError(await runCli(['query', keys, '--json', 'a']))).toMatch(/--json applies to a URL blocklist/);
  });
});
