// The CLI's build of URL lists in the DNS syntaxes (--format dnsmasq, rpz),
// its warnings (single-label hosts, public suffixes from the Public Suffix
// List bundled into cli.js), the refusal of a type that forgets, and the
// per-URL and per-lookup rates in build's summary and info.
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expectOneLineError, ROOT, runCli, runOk, tempDir, verdicts } from './helpers.mjs';

const SAMPLES = join(ROOT, 'tests', 'url', 'fixtures', 'formats');

let work;
beforeAll(() => {
  work = tempDir();
});
afterAll(() => work.cleanup());

test('an RPZ zone builds (the smallest static type, the default) with its $ORIGIN, and its refused lines are reported by number', async () => {
  const output = join(work.dir, 'rpz.filter');
  const { stdout } = await runOk(['build', '--urls', '--format', 'rpz', '--input', join(SAMPLES, 'rpz.zone'), '--output', output, '--json']);
  const summary = JSON.parse(stdout);
  expect(summary.entries).toBe(6);
  expect(summary.unparseable.count).toBe(3);
  expect(summary.unparseable.first.map((e) => e.line)).toEqual([17, 18, 19]);
  const result = await runCli(['query', output, '--urls', 'http://www.example-seven.com/x', 'http://a.malware.example-one.com/', 'http://example-seven.com/']);
  expect(verdicts(result.stdout).map((row) => row[0])).toEqual(['listed', 'listed', 'clear']);
});

test('a dnsmasq list builds into a dynamic type sized by a counting pass', async () => {
  const output = join(work.dir, 'dnsmasq.filter');
  const { stdout } = await runOk(['build', '--urls', '--format', 'dnsmasq', '--type', 'bloom', '--input', join(SAMPLES, 'dnsmasq.conf'), '--output', output, '--json']);
  const summary = JSON.parse(stdout);
  expect(summary).toMatchObject({ entries: 7, capacity: 7, unparseable: { count: 1 } });
  const result = await runCli(['query', output, '--urls', 'https://x.metrics.example-three.net/', 'https://corp.example-seven.com/']);
  expect(verdicts(result.stdout).map((row) => row[0])).toEqual(['listed', 'clear']);
});

test('--type expiring is refused for a blocklist, by what it does, and nothing is written', async () => {
  const output = join(work.dir, 'expiring.filter');
  for (const type of ['expiring', 'expiring-bloom']) {
    const line = expectOneLineError(await runCli(['build', '--urls', '--type', type, '--input', join(SAMPLES, 'hosts.txt'), '--output', output]));
    expect(line).toContain('forgets its keys');
  }
  expect(existsSync(output)).toBe(false);
});

test('single-label and public-suffix entries are stored with warnings on stderr, with line numbers', async () => {
  const input = join(work.dir, 'suffixes.txt');
  writeFileSync(input, ['evil.example', 'iclexofmarket', '0.0.0.0 co.jp', '||gob.cl^', 'now.sh', 'www.google.co.jp', ''].join('\n'));
  for (const type of ['fuse', 'bloom']) {
    const output = join(work.dir, `suffixes-${type}.filter`);
    const result = await runOk(['build', '--urls', '--type', type, '--input', input, '--output', output, '--json']);
    const summary = JSON.parse(result.stdout);
    expect(summary.entries).toBe(6);
    expect(summary.warnings.count).toBe(4);
    expect(summary.warnings.first.map((w) => w.line)).toEqual([2, 3, 4, 5]);
    expect(result.stderr).toContain('cuckoo-bloom-wasm: warning: 4 list line(s) stored with a warning');
    expect(result.stderr).toMatch(/line 2: "iclexofmarket": .*single label/);
    expect(result.stderr).toMatch(/line 3: "0\.0\.0\.0 co\.jp": "co\.jp" is a public suffix/);
    expect(result.stderr).toMatch(/line 4: .*"gob\.cl" is a public suffix/);
    expect(result.stderr).toMatch(/line 5: .*"now\.sh" is a public suffix/); // a private suffix
    expect(result.stderr).not.toContain('google');
  }
});

test('build and info print the rate per URL and per lookup', async () => {
  const output = join(work.dir, 'rates.filter');
  const input = join(work.dir, 'rates.txt');
  writeFileSync(input, 'a.b.c.d.example\nhost.example/x/y/z/\nplain.example\n');
  const built = await runOk(['build', '--urls', '--type', 'bloom', '--fpr', '0.01', '--input', input, '--output', output]);
  // Depths 5 and 3: 5 hosts x 6 paths = 30 lookups; 1 - (1 - p)^30 = 0.01 gives p = 0.000335.
  expect(built.stdout).toMatch(/^\s*target fpr\s+0\.01 per URL \(0\.000335 per lookup, 30 lookups per URL at most\)$/m);
  expect(built.stdout).toMatch(/^\s*estimated fpr\s+\S+ per URL \(\S+ per lookup\)$/m);
  const info = await runOk(['info', output]);
  expect(info.stdout).toMatch(/^target fpr\s+0\.01 per URL \(0\.000335 per lookup, 30 lookups per URL at most\)$/m);
  const json = JSON.parse((await runOk(['info', output, '--json'])).stdout);
  expect(json.lookupsPerUrl).toBe(30);
  expect(json.falsePositiveRate).toBeCloseTo(0.01, 12);
  expect(json.lookupFalsePositiveRate).toBeCloseTo(1 - 0.99 ** (1 / 30), 12);
});

test('--format takes the new names and refuses others, naming them', async () => {
  const line = expectOneLineError(await runCli(['build', '--urls', '--format', 'bind', '--input', 'x', '--output', join(work.dir, 'x.filter')]));
  expect(line).toContain('auto, plain, hosts, adblock, dnsmasq, unbound, rpz');
});
