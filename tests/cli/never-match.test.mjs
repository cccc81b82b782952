// `build --urls` guards the whole Public Suffix List and each --never-match
// file's hosts (#28): none of their expressions is a hit of the file it writes
// (query answers clear without the companion too), listed entries still are,
// and the summary and `info` report the exceptions and their cost in bytes.
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { domainToASCII } from 'node:url';
import { expectOneLineError, ROOT, runCli, runOk, tempDir, URLHAUS, verdicts } from './helpers.mjs';
import { prng } from '../helpers/keys.mjs';

/** The PSL's suffixes as the CLI reads them (psl's data file). */
function publicSuffixes() {
  const text = readFileSync(join(ROOT, 'node_modules', 'psl', 'data', 'rules.js'), 'utf8');
  const rules = JSON.parse(text.slice(text.indexOf('['), text.lastIndexOf(']') + 1));
  return [...new Set(rules.filter((rule) => !rule.startsWith('!')).map((rule) => domainToASCII(rule.replace(/^\*\./, ''))))].filter(
    (suffix) => suffix !== '',
  );
}

const random = prng(2028);
const label = () => Math.floor(random() * 2 ** 32).toString(36);
const HOSTS = Array.from({ length: 3000 }, (_, i) => `${label()}.${label()}.${['com', 'net', 'org'][i % 3]}`);
// A listed host given as never-match too: the list wins, with a warning.
const LISTED_HOST = '1.1.104.12';

let work;
beforeAll(() => {
  work = tempDir();
  writeFileSync(join(work.dir, 'top.txt'), `# top sites\n${HOSTS.slice(0, 1500).join('\n')}\n\n`);
  writeFileSync(join(work.dir, 'allow.txt'), `${HOSTS.slice(1500).join('\n')}\n${LISTED_HOST}\n`);
});
afterAll(() => work.cleanup());

describe.each([['fuse'], ['bloom']])('build --urls --type %s --never-match', (type) => {
  const filter = () => join(work.dir, `guarded-${type}.filter`);
  let summary;
  let build;
  beforeAll(async () => {
    build = await runOk([
      'build', '--urls', '--type', type, '--fpr', '0.2', '--input', URLHAUS, '--output', filter(), '--json',
      '--never-match', join(work.dir, 'top.txt'), '--never-match', join(work.dir, 'allow.txt'),
    ]);
    summary = JSON.parse(build.stdout);
  });

  test('the summary reports the guarded hosts, the exceptions and their bytes; a listed one is a warning', () => {
    expect(summary.neverMatch.publicSuffixes).toBeGreaterThan(9000);
    expect(summary.neverMatch.fromFiles).toBe(HOSTS.length + 1);
    expect(summary.neverMatch.exceptions).toBeGreaterThan(10);
    expect(summary.neverMatch.exceptionBytes).toBeGreaterThan(88);
    expect(summary.neverMatch.listed.first).toContainEqual({ entry: LISTED_HOST, expression: `${LISTED_HOST}/` });
    expect(build.stderr).toMatch(/never-match expression\(s\) are listed, so they stay hits/);
  });

  test('no public suffix and no never-match host is a hit, even without the companion; the listed one is', async () => {
    const suffixes = publicSuffixes();
    const urls = [...suffixes, ...HOSTS].map((host) => `http://${host}/`);
    // A copy with no <filter>.confirm beside it: the filter's own answers.
    const alone = join(work.dir, `alone-${type}.filter`);
    copyFileSync(filter(), alone);
    const result = await runCli(['query', alone], { input: urls.join('\n') + '\n' });
    const rows = verdicts(result.stdout);
    expect(rows.length).toBe(urls.length);
    expect(rows.filter((row) => row[0] !== 'clear')).toEqual([]);
    const listed = await runCli(['query', filter(), `http://${LISTED_HOST}/x.sh`]);
    expect(listed.code).toBe(1);
  });

  test('info shows the exception count and bytes', async () => {
    const info = JSON.parse((await runOk(['info', filter(), '--json'])).stdout);
    expect(info.exceptions).toEqual({ count: summary.neverMatch.exceptions, bytes: summary.neverMatch.exceptionBytes });
    const text = (await runOk(['info', filter()])).stdout;
    expect(text).toMatch(new RegExp(`exceptions\\s+${summary.neverMatch.exceptions.toLocaleString('en-US')} never-match expressions`));
  });
});

test('--never-match needs --urls and a readable file of hosts', async () => {
  const output = join(work.dir, 'x.filter');
  const fails = async (args) => expectOneLineError(await runCli(['build', '--input', URLHAUS, '--output', output, ...args]));
  expect(await fails(['--never-match', join(work.dir, 'top.txt')])).toMatch(/--never-match applies to URL blocklists/);
  expect(await fails(['--urls', '--never-match', join(work.dir, 'missing.txt')])).toMatch(/missing\.txt/);
  writeFileSync(join(work.dir, 'bad.txt'), 'good.example\nnot a host\n');
  expect(await fails(['--urls', '--type', 'bloom', '--never-match', join(work.dir, 'bad.txt')])).toMatch(/neverMatch entry \d+ \("not a host"\)/);
  expect(await fails(['--urls', '--never-match', join(work.dir, 'bad.txt')])).toMatch(/neverMatch entry \d+ \("not a host"\)/);
});
