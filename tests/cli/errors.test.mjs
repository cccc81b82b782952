// Every expected failure: exit 2, exactly one "cuckoo-bloom-wasm: ..." line
// on stderr (no stack trace), no output file and no ".tmp-" file left.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FILTER_TYPES } from 'cuckoo-bloom-wasm';
import { asciiKeys } from '../helpers/keys.mjs';
import { CLI, expectOneLineError, runCli, runOk, tempDir, tmpFilesIn, URLHAUS } from './helpers.mjs';

let work;
beforeAll(() => {
  work = tempDir();
  writeFileSync(join(work.dir, 'keys.txt'), asciiKeys(2000, 'err-').join('\n'));
});
afterAll(() => work.cleanup());

const BUILD = ['build', '--input', 'keys.txt', '--output', 'out.filter'];

test.each([
  ['unknown flag', [...BUILD, '--fast'], /unknown option --fast/],
  ['unknown command', ['frobnicate'], /unknown command 'frobnicate'/],
  ['unknown top-level flag', ['--frobnicate'], /unknown option --frobnicate/],
  ['--fpr 2', [...BUILD, '--fpr', '2'], /--fpr must be a number between 0 and 1.*'2'/],
  ['--fpr 0', [...BUILD, '--fpr', '0'], /--fpr/],
  ['--fpr 1', [...BUILD, '--fpr', '1'], /--fpr/],
  ['--fpr abc', [...BUILD, '--fpr', 'abc'], /--fpr/],
  ['--fpr without a value', [...BUILD, '--fpr'], /--fpr needs a value/],
  ['--type foo', [...BUILD, '--type', 'foo'], /--type must be one of bloom, blocked \(blocked-bloom\), counting \(counting-bloom\), cuckoo, fuse \(binary-fuse\), .*, got 'foo'/],
  ['--capacity 0', [...BUILD, '--capacity', '0'], /--capacity must be a whole number.*'0'/],
  ['--capacity 1.5', [...BUILD, '--capacity', '1.5'], /--capacity/],
  ['--capacity=-5', [...BUILD, '--capacity=-5'], /--capacity/],
  ['--seed -1', [...BUILD, '--seed=-1'], /--seed/],
  ['--format foo', [...BUILD, '--urls', '--format', 'foo'], /--format must be one of auto, plain, hosts, adblock, dnsmasq, unbound, rpz, got 'foo'/],
  ['--format without --urls', [...BUILD, '--format', 'hosts'], /--format applies to URL lists/],
  ['missing --input', ['build', '--output', 'out.filter'], /needs --input/],
  ['missing --output', ['build', '--input', 'keys.txt'], /needs --output/],
  ['a missing input file', ['build', '--input', 'nope.txt', '--output', 'out.filter'], /cannot read nope\.txt: no such file/],
  ['an input directory', ['build', '--input', '.', '--output', 'out.filter'], /cannot read \.: is a directory/],
  ['an output in a missing directory', ['build', '--input', 'keys.txt', '--output', 'no/such/out.filter'], /directory no\/such does not exist/],
  ['a positional argument to build', [...BUILD, 'extra'], /unexpected argument 'extra'/],
  ['info without a file', ['info'], /info needs a filter file/],
  ['info of a missing file', ['info', 'missing.filter'], /cannot read missing\.filter: no such file/],
  ['query without a file', ['query'], /query needs a filter file/],
  ['query of a missing file', ['query', 'missing.filter', 'key'], /cannot read missing\.filter/],
  ['help for an unknown topic', ['help', 'frobnicate'], /no help for 'frobnicate'/],
])('%s', async (_name, args, message) => {
  const result = await runCli(args, { cwd: work.dir });
  expect(expectOneLineError(result)).toMatch(message);
  expect(existsSync(join(work.dir, 'out.filter'))).toBe(false);
  expect(tmpFilesIn(work.dir)).toEqual([]);
});

test('an output path that is the input file (by any path) is refused and the list is untouched', async () => {
  const before = readFileSync(join(work.dir, 'keys.txt'));
  for (const output of ['keys.txt', './keys.txt', join(work.dir, 'keys.txt')]) {
    const result = await runCli(['build', '--input', 'keys.txt', '--output', output], { cwd: work.dir });
    expect(expectOneLineError(result)).toMatch(/is the input file/);
  }
  expect(readFileSync(join(work.dir, 'keys.txt')).equals(before)).toBe(true);
  expect(tmpFilesIn(work.dir)).toEqual([]);
});

test('--type foo names every registered type', async () => {
  const result = await runCli([...BUILD, '--type', 'foo'], { cwd: work.dir });
  const line = expectOneLineError(result);
  for (const { name } of FILTER_TYPES) expect(line).toMatch(new RegExp(`[ (]${name}[,)]`));
});

describe('a cuckoo filter that runs out of room', () => {
  test.each([
    ['keys', ['build', '--type', 'cuckoo', '--capacity', '100', '--input', 'keys.txt', '--output', 'full.filter']],
    ['a URL list', ['build', '--urls', '--type', 'cuckoo', '--capacity', '500', '--input', URLHAUS, '--output', 'full.filter']],
    ['stdin', ['build', '--type', 'cuckoo', '--capacity', '100', '--input', '-', '--output', 'full.filter']],
  ])('from %s: exit 2, a clear message, no output file', async (_name, args) => {
    const input = args.includes('-') ? readFileSync(join(work.dir, 'keys.txt')) : undefined;
    const result = await runCli(args, { cwd: work.dir, input });
    const line = expectOneLineError(result);
    expect(line).toMatch(/cuckoo filter ran out of room at line [\d,]+/);
    expect(line).toMatch(/--capacity [\d,]+ is too small/);
    expect(existsSync(join(work.dir, 'full.filter'))).toBe(false);
    expect(tmpFilesIn(work.dir)).toEqual([]);
  });

  test('an existing output file is left as it was', async () => {
    writeFileSync(join(work.dir, 'keep.filter'), 'previous contents');
    const result = await runCli(
      ['build', '--type', 'cuckoo', '--capacity', '100', '--input', 'keys.txt', '--output', 'keep.filter'],
      { cwd: work.dir },
    );
    expectOneLineError(result);
    expect(readFileSync(join(work.dir, 'keep.filter'), 'utf8')).toBe('previous contents');
    expect(tmpFilesIn(work.dir)).toEqual([]);
  });
});

test('a successful build replaces an existing output file', async () => {
  writeFileSync(join(work.dir, 'replace.filter'), 'previous contents');
  await runOk(['build', '--input', 'keys.txt', '--output', 'replace.filter', '--quiet'], { cwd: work.dir });
  expect(readFileSync(join(work.dir, 'replace.filter')).subarray(0, 4).toString()).toBe('CBWF');
  expect(tmpFilesIn(work.dir)).toEqual([]);
});

test('SIGINT while reading stdin writes nothing and leaves no temporary file', async () => {
  const spool = tempDir('cbw-cli-tmpdir-');
  try {
    const child = spawn(process.execPath, [CLI, 'build', '--input', '-', '--output', 'sigint.filter'], {
      cwd: work.dir,
      env: { ...process.env, TMPDIR: spool.dir },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const exited = new Promise((resolve) => child.on('close', (code, signal) => resolve({ code, signal })));
    // Stdin without --capacity goes straight into a growing filter (no spool
    // file): write keys, keep stdin open, and interrupt while it reads.
    child.stdin.write('some-key\n'.repeat(1000));
    await new Promise((r) => setTimeout(r, 1500));
    child.kill('SIGINT');
    const { code, signal } = await exited;
    // Nothing tracked for removal yet: the default action (killed by SIGINT,
    // 130 to a shell); with a temporary file tracked, the handler exits 130.
    expect(code === 130 || signal === 'SIGINT').toBe(true);
    expect(readdirSync(spool.dir)).toEqual([]);
    expect(existsSync(join(work.dir, 'sigint.filter'))).toBe(false);
    expect(tmpFilesIn(work.dir)).toEqual([]);
    expect(stderr).not.toMatch(/\n\s+at /);
  } finally {
    spool.cleanup();
  }
});
