// The three list syntaxes (plus auto): what each fixture line must become.
// Expectations are written out by hand from the fixture files (see
// fixtures/README.md), line by line.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FIXTURES, runCli, runOk, tempDir, verdicts } from './helpers.mjs';

let work;
beforeAll(() => {
  work = tempDir();
});
afterAll(() => work.cleanup());

async function buildList(fixture, format, output) {
  const args = ['build', '--urls', '--input', join(FIXTURES, fixture), '--output', output, '--json'];
  if (format !== null) args.push('--format', format);
  return JSON.parse((await runOk(args, { cwd: work.dir })).stdout);
}

async function query(file, urls) {
  const result = await runCli(['query', file, '--urls', ...urls], { cwd: work.dir });
  return verdicts(result.stdout).map(([verdict, , expression]) => (verdict === 'listed' ? expression : verdict));
}

describe.each([
  ['plain', 'plain'],
  ['auto (the default)', null],
])('plain.txt with --format %s', (_name, format) => {
  test('hosts, IPs and URLs become expressions; "not a host" (line 7) is reported', async () => {
    const summary = await buildList('plain.txt', format, `plain-${format}.filter`);
    expect(summary).toMatchObject({ lines: 9, expressions: 5, skipped: 3 });
    expect(summary.unparseable.count).toBe(1);
    expect(summary.unparseable.first).toEqual([{ line: 7, text: 'not a host', reason: expect.any(String) }]);
    expect(
      await query(`plain-${format}.filter`, [
        'http://evil.example/',
        'https://a.b.evil.example/path',
        'http://bad.example/download/payload.exe',
        'http://bad.example/download/other.exe',
        'https://phish.example/login?x=1',
        'http://203.0.113.7/x',
        'https://dl.example.net/a/b.zip',
        'https://example.com/',
      ]),
    ).toEqual([
      'evil.example/',
      'evil.example/',
      'bad.example/download/payload.exe',
      'clear',
      'phish.example/login?x=1',
      '203.0.113.7/',
      'dl.example.net/a/b.zip',
      'clear',
    ]);
  });
});

test('hosts.txt with --format hosts: names after the address, loopback names skipped', async () => {
  const summary = await buildList('hosts.txt', 'hosts', 'hosts.filter');
  // line 4 names two hosts; lines 2 and 3 only name loopback hosts.
  expect(summary).toMatchObject({ lines: 9, expressions: 4, skipped: 4 });
  expect(summary.unparseable.first.map((e) => e.line)).toEqual([7, 8]);
  expect(
    await query('hosts.filter', [
      'http://ads.example/banner.js',
      'http://tracker.example/',
      'https://www.malware.example/',
      'http://spyware.example/',
      'http://localhost/',
      'http://bogus-line-without-address/',
    ]),
  ).toEqual(['ads.example/', 'tracker.example/', 'malware.example/', 'spyware.example/', 'clear', 'clear']);
});

test('hosts.txt with --format plain: the format is honoured (address lines are errors)', async () => {
  const summary = await buildList('hosts.txt', 'plain', 'hosts-plain.filter');
  expect(summary.unparseable.first.map((e) => e.line)).toEqual([2, 3, 4, 5, 8, 9]);
  expect(await query('hosts-plain.filter', ['http://ads.example/'])).toEqual(['clear']);
});

describe.each([
  ['adblock', 'adblock'],
  ['auto (the default)', null],
])('adblock.txt with --format %s', (_name, format) => {
  test('||host^, ||host/path^$options and bare hosts; inexpressible rules reported', async () => {
    const summary = await buildList('adblock.txt', format, `adblock-${format}.filter`);
    expect(summary).toMatchObject({ lines: 10, expressions: 4, skipped: 2 });
    // @@exception (5), cosmetic (6), regex (7), wildcard (10).
    expect(summary.unparseable.first.map((e) => [e.line, e.text])).toEqual([
      [5, '@@||good.example^'],
      [6, 'example.com##.banner'],
      [7, '/banner[0-9]+/'],
      [10, '||wild*.example^'],
    ]);
    expect(
      await query(`adblock-${format}.filter`, [
        'https://sub.ads.example/x',
        'https://cdn.example/evil/script.js',
        'https://cdn.example/good.js',
        'http://track.example/',
        'http://phishing.example/a',
        'http://good.example/',
      ]),
    ).toEqual(['ads.example/', 'cdn.example/evil/script.js', 'clear', 'track.example/', 'phishing.example/', 'clear']);
  });
});

test('plain.txt with --format adblock: paths without || are unanchored, so errors', async () => {
  const summary = await buildList('plain.txt', 'adblock', 'plain-adblock.filter');
  expect(summary.unparseable.first.map((e) => e.line)).toEqual([3, 4, 7, 9]);
});

test('the text summary lists the first 10 unparseable lines with numbers, then a count', async () => {
  const lines = ['||ok.example^'];
  for (let i = 0; i < 15; i++) lines.push(`bad line ${i}`);
  writeFileSync(join(work.dir, 'many-bad.txt'), `${lines.join('\n')}\n`);
  const result = await runOk(['build', '--urls', '--input', 'many-bad.txt', '--output', 'bad.filter'], { cwd: work.dir });
  const listed = result.stdout.split('\n').filter((line) => /^\s+line \d+: /.test(line));
  expect(listed.map((line) => Number(/line (\d+)/.exec(line)[1]))).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
  expect(listed[0]).toContain('"bad line 0"');
  expect(result.stdout).toMatch(/\.\.\. and 5 more/);
  expect(result.stdout).toMatch(/unparseable\s+15\b/);
  // --quiet drops the summary but not the unparseable lines (they go to stderr).
  const quiet = await runOk(['build', '--urls', '--quiet', '--input', 'many-bad.txt', '--output', 'bad.filter'], {
    cwd: work.dir,
  });
  expect(quiet.stdout).toBe('');
  expect(quiet.stderr).toMatch(/15 unparseable/);
  expect(quiet.stderr).toMatch(/line 2: "bad line 0"/);
  expect(quiet.stderr).toMatch(/\.\.\. and 5 more/);
});
