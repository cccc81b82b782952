// Plain key mode: every non-empty line is a key. Round trips through
// build -> query for each filter type, from a file and from stdin.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deserialize, init } from 'cuckoo-bloom-wasm';
import { asciiKeys } from '../helpers/keys.mjs';
import { CLI, runCli, runOk, tempDir, tmpFilesIn, verdicts } from './helpers.mjs';

const TYPES = ['bloom', 'blocked', 'counting', 'cuckoo', 'fuse'];
// Keys with spaces, tabs, non-ASCII text and a leading "-" are keys like any other.
const odd = ['with space', 'tab\tinside', 'naïve café', '日本語', '-dash-first', '#not-a-comment', ' padded '];
const keys = [...asciiKeys(5000, 'in-'), ...odd];
const absent = asciiKeys(5000, 'out-');

let work;
beforeAll(async () => {
  await init();
  work = tempDir();
  writeFileSync(join(work.dir, 'keys.txt'), `${keys.join('\n')}\n`);
});
afterAll(() => work.cleanup());

describe.each(TYPES)('--type %s', (type) => {
  const file = () => join(work.dir, `keys-${type}.filter`);

  beforeAll(async () => {
    await runOk(['build', '--type', type, '--fpr', '0.01', '--input', 'keys.txt', '--output', file(), '--quiet'], {
      cwd: work.dir,
    });
  });

  test('every key built is present (keys from stdin)', async () => {
    const result = await runCli(['query', file()], { cwd: work.dir, input: `${keys.join('\n')}\n` });
    expect(result.code).toBe(1);
    expect(verdicts(result.stdout)).toEqual(keys.map((key) => ['present', ...key.split('\t')]));
  });

  test('keys never added are mostly absent (about the target rate)', async () => {
    const result = await runCli(['query', file()], { cwd: work.dir, input: absent.join('\n') });
    const rows = verdicts(result.stdout);
    expect(rows).toHaveLength(absent.length);
    expect(rows.map((row) => row[1])).toEqual(absent);
    const present = rows.filter(([verdict]) => verdict === 'present').length;
    expect(present).toBeLessThan(absent.length * 0.01 * 3);
    expect(result.code).toBe(present > 0 ? 1 : 0);
  });

  test('keys on the command line; exit 0 when none is present, 1 when one is', async () => {
    const none = await runCli(['query', file(), 'out-1', 'out-2', 'out-3'], { cwd: work.dir });
    expect(none.stdout).toBe('absent\tout-1\nabsent\tout-2\nabsent\tout-3\n');
    expect(none.code).toBe(0);
    const some = await runCli(['query', file(), 'out-1', '--', '-dash-first'], { cwd: work.dir });
    expect(some.stdout).toBe('absent\tout-1\npresent\t-dash-first\n');
    expect(some.code).toBe(1);
  });
});

test('CRLF input, blank lines and repeats: keys are the lines without "\\r"', async () => {
  writeFileSync(join(work.dir, 'crlf.txt'), '\uFEFFalpha\r\nbeta\r\n\r\nalpha\r\ngamma');
  const { stdout } = await runOk(['build', '--input', 'crlf.txt', '--output', 'crlf.filter', '--json'], { cwd: work.dir });
  const summary = JSON.parse(stdout);
  expect(summary).toMatchObject({ lines: 5, keys: 4, added: 3, alreadyPresent: 1, skipped: 1, capacity: 4 });
  const result = await runCli(['query', 'crlf.filter', 'alpha', 'beta', 'gamma', 'alpha\r', '\uFEFFalpha'], { cwd: work.dir });
  expect(verdicts(result.stdout).map(([verdict]) => verdict)).toEqual(['present', 'present', 'present', 'absent', 'absent']);
});

describe('stdin input (--input -)', () => {
  const input = `${keys.join('\n')}\n`;

  test.each([
    ['with --capacity', ['--capacity', '20000'], 20000],
    ['without --capacity (a growing filter: stdin has no size; nothing is spooled)', [], null],
  ])('%s', async (_name, extra, capacity) => {
    const spool = tempDir('cbw-cli-tmpdir-');
    try {
      const { stdout } = await runOk(['build', '--input', '-', '--output', 'stdin.filter', '--json', ...extra], {
        cwd: work.dir,
        input,
        env: { TMPDIR: spool.dir },
      });
      const summary = JSON.parse(stdout);
      if (capacity === null) {
        // Links of 1,000, 2,000, 4,000, ... until every key fits.
        expect(summary.type).toBe('scalable-bloom');
        expect(summary.capacitySource).toBe('growing');
        expect(summary.capacity).toBeGreaterThanOrEqual(keys.length);
        expect(summary.estimatedFalsePositiveRate).toBeLessThanOrEqual(summary.falsePositiveRate);
        expect(summary.overfilled).toBe(false);
      } else {
        expect(summary.capacity).toBe(capacity);
        expect(summary.capacitySource).toBe('option');
      }
      expect(summary.keys).toBe(keys.length);
      expect(readdirSync(spool.dir)).toEqual([]); // nothing spooled
      expect(tmpFilesIn(work.dir)).toEqual([]);
      const info = JSON.parse((await runOk(['info', 'stdin.filter', '--json'], { cwd: work.dir })).stdout);
      expect(info.capacity).toBe(summary.capacity);
      const query = await runCli(['query', 'stdin.filter'], { cwd: work.dir, input });
      expect(verdicts(query.stdout).every(([verdict]) => verdict === 'present')).toBe(true);
      expect(verdicts(query.stdout)).toHaveLength(keys.length);
    } finally {
      spool.cleanup();
    }
  });

  test('empty stdin is refused (exit 2); with --force it builds an empty filter that finds nothing', async () => {
    const refused = await runCli(['build', '--input', '-', '--output', 'empty.filter', '--json'], { cwd: work.dir, input: '' });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/stdin has no key: it is empty; give --force/);
    const { stdout } = await runOk(['build', '--input', '-', '--output', 'empty.filter', '--json', '--force'], { cwd: work.dir, input: '' });
    expect(JSON.parse(stdout)).toMatchObject({ lines: 0, keys: 0, type: 'scalable-bloom', capacity: 1000, bitsPerKey: null });
    const result = await runCli(['query', 'empty.filter', 'anything'], { cwd: work.dir });
    expect(result.stdout).toBe('absent\tanything\n');
    expect(result.code).toBe(0);
  });
});

test('stdin without --capacity grows the filter of the type asked: cuckoo and counting-bloom become scalable-cuckoo', async () => {
  const input = `${keys.slice(0, 3000).join('\n')}\n`;
  for (const type of ['cuckoo', 'counting-bloom', 'blocked-bloom']) {
    const { stdout } = await runOk(['build', '--type', type, '--input', '-', '--output', `grow-${type}.filter`, '--json'], { cwd: work.dir, input });
    const summary = JSON.parse(stdout);
    expect(summary.type).toBe(type === 'blocked-bloom' ? 'scalable-bloom' : 'scalable-cuckoo');
    // A filter with removal stores every key; a Bloom chain skips keys it
    // already reports present (false positives), counted as such.
    if (type === 'blocked-bloom') expect(summary.added + summary.alreadyPresent).toBe(3000);
    else expect(summary.added).toBe(3000);
    const query = await runCli(['query', `grow-${type}.filter`], { cwd: work.dir, input });
    expect(verdicts(query.stdout).every(([verdict]) => verdict === 'present')).toBe(true);
  }
});

// Issue #41: `build --type expandable` from a pipe said "a expandable filter cannot
// grow", though it is the type that grows in place: it is created at its default
// capacity and grows itself, and answers every key.
test('stdin without --capacity: an expandable filter grows itself (in place), holds every key and can remove them', async () => {
  const small = await runOk(['build', '--type', 'expandable', '--input', '-', '--output', 'ab.filter', '--json'], { cwd: work.dir, input: 'a\nb\n' });
  expect(JSON.parse(small.stdout)).toMatchObject({ type: 'expandable', capacitySource: 'growing', keys: 2, added: 2 });
  const ab = await runCli(['query', 'ab.filter', 'a', 'b'], { cwd: work.dir });
  expect(verdicts(ab.stdout)).toEqual([['present', 'a'], ['present', 'b']]);
  expect(ab.code).toBe(1);

  const input = `${keys.slice(0, 5000).join('\n')}\n`;
  const { stdout } = await runOk(['build', '--type', 'expandable', '--input', '-', '--output', 'grow-expandable.filter', '--json'], { cwd: work.dir, input });
  const summary = JSON.parse(stdout);
  expect(summary.type).toBe('expandable');
  // A type with removal stores every key.
  expect(summary.added).toBe(5000);
  expect(summary.estimatedFalsePositiveRate).toBeLessThanOrEqual(2 * summary.falsePositiveRate);
  const info = JSON.parse((await runOk(['info', 'grow-expandable.filter', '--json'], { cwd: work.dir })).stdout);
  expect(info.type).toBe('expandable');
  const query = await runCli(['query', 'grow-expandable.filter'], { cwd: work.dir, input });
  expect(verdicts(query.stdout)).toHaveLength(5000);
  expect(verdicts(query.stdout).every(([verdict]) => verdict === 'present')).toBe(true);
});

test('stdin without --capacity: a type that cannot grow and has no growing stand-in asks for --capacity', async () => {
  const result = await runCli(['build', '--type', 'expiring', '--input', '-', '--output', 'exp.filter'], { cwd: work.dir, input: 'a\n' });
  expect(result.code).toBe(2);
  expect(result.stderr).toMatch(/a expiring-bloom filter cannot grow and no growing type stands in for it: .* needs --capacity/);
});

test('an overfilled filter is written, with a warning and exit status 3', async () => {
  writeFileSync(join(work.dir, 'many.txt'), `${keys.slice(0, 2000).join('\n')}\n`);
  const result = await runCli(['build', '--input', 'many.txt', '--output', 'over.filter', '--capacity', '100', '--json'], { cwd: work.dir });
  expect(result.code).toBe(3);
  expect(result.stderr).toMatch(/warning: over\.filter is overfilled: estimated false-positive rate .* more than twice the target 0\.01/);
  expect(JSON.parse(result.stdout)).toMatchObject({ overfilled: true, capacity: 100 });
  expect(readFileSync(join(work.dir, 'over.filter')).subarray(0, 4).toString()).toBe('CBWF');
  // Sized for its keys: not overfilled, exit 0.
  const fine = await runCli(['build', '--input', 'many.txt', '--output', 'fine.filter', '--json'], { cwd: work.dir });
  expect(fine.code).toBe(0);
  expect(JSON.parse(fine.stdout).overfilled).toBe(false);
});

test('query --urls on a plain filter of expressions forms each URL\'s expressions', async () => {
  writeFileSync(join(work.dir, 'expr.txt'), 'evil.example/\nbad.example/dl/x.exe\n');
  await runOk(['build', '--input', 'expr.txt', '--output', 'expr.filter', '--quiet'], { cwd: work.dir });
  const result = await runCli(
    ['query', 'expr.filter', '--urls', 'https://www.evil.example/login', 'http://bad.example/dl/x.exe', 'http://bad.example/dl/', 'https://good.example/'],
    { cwd: work.dir },
  );
  expect(verdicts(result.stdout)).toEqual([
    ['possible', 'https://www.evil.example/login', 'evil.example/'],
    ['possible', 'http://bad.example/dl/x.exe', 'bad.example/dl/x.exe'],
    ['clear', 'http://bad.example/dl/'],
    ['clear', 'https://good.example/'],
  ]);
  expect(result.code).toBe(1);
});

test('a fuse build reads the input once, stores each key once, and takes no --capacity', async () => {
  writeFileSync(join(work.dir, 'fuse.txt'), `${[...keys, ...keys.slice(0, 100), ''].join('\n')}\n`);
  const { stdout } = await runOk(['build', '--type', 'fuse', '--fpr', '0.001', '--input', 'fuse.txt', '--output', 'fuse.filter', '--json'], {
    cwd: work.dir,
  });
  expect(JSON.parse(stdout)).toMatchObject({
    type: 'binary-fuse',
    keys: keys.length + 100,
    added: keys.length,
    alreadyPresent: 100,
    skipped: 1,
    capacity: keys.length,
  });
  const info = JSON.parse((await runOk(['info', 'fuse.filter', '--json'], { cwd: work.dir })).stdout);
  expect(info).toMatchObject({ type: 'binary-fuse', count: keys.length });
  expect(info.parameters).toMatchObject({ fingerprintBits: 10, arity: 3 });
  const refused = await runCli(['build', '--type', 'fuse', '--capacity', '10', '--input', 'fuse.txt', '--output', 'no.filter'], {
    cwd: work.dir,
  });
  expect(refused.code).toBe(2);
  expect(refused.stderr).toMatch(/--capacity does not apply/);
});

test('a cuckoo build stores a repeated key up to 2 x bucketSize times, then counts it as present', async () => {
  writeFileSync(join(work.dir, 'repeats.txt'), `${Array(50).fill('same-key').join('\n')}\nother\n`);
  const { stdout } = await runOk(['build', '--type', 'cuckoo', '--input', 'repeats.txt', '--output', 'rep.filter', '--json'], {
    cwd: work.dir,
  });
  // 8 copies fill the key's two buckets of 4; the other 42 are found, not an overflow.
  expect(JSON.parse(stdout)).toMatchObject({ keys: 51, added: 9, alreadyPresent: 42 });
  const info = JSON.parse((await runOk(['info', 'rep.filter', '--json'], { cwd: work.dir })).stdout);
  expect(info.count).toBe(9);
});

// Every key of the input is stored in a filter with removal, even one the
// filter already reported present (a false positive): otherwise removing the
// key it collided with would make it a false negative.
test.each(['cuckoo', 'counting'])('a %s build keeps every input key through removals of others', async (type) => {
  const keys = asciiKeys(20_000, `rm-${type}-`);
  const withRepeats = [...keys, ...keys.slice(0, 2_000)]; // repeats, stored again
  writeFileSync(join(work.dir, `rm-${type}.txt`), `${withRepeats.join('\n')}\n`);
  await runOk(['build', '--type', type, '--fpr', '0.05', '--input', `rm-${type}.txt`, '--output', `rm-${type}.filter`], {
    cwd: work.dir,
  });
  const filter = deserialize(new Uint8Array(readFileSync(join(work.dir, `rm-${type}.filter`))));
  expect(filter.count).toBe(withRepeats.length);
  // Remove a seeded 10% of the distinct keys, once each (their repeats stay).
  let state = 12345;
  const removed = new Set();
  for (const key of keys) {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    if (state % 10 === 0) {
      expect(filter.remove(key)).toBe(true);
      removed.add(key);
    }
  }
  expect(removed.size).toBeGreaterThan(1_500);
  const kept = withRepeats.filter((key, i) => i >= keys.length || !removed.has(key));
  const missing = kept.filter((key) => !filter.has(key));
  expect(missing).toEqual([]);
  filter.free();
});

test('query into a closed pipe (| head) stops quietly with the status so far', async () => {
  const child = spawn(process.execPath, [CLI, 'query', join(work.dir, 'keys-bloom.filter')], {
    cwd: work.dir,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  child.stdout.once('data', () => child.stdout.destroy()); // like `head -1`
  child.stdin.on('error', () => {});
  child.stdin.end(`${asciiKeys(200_000, 'in-').join('\n')}\n`);
  const code = await new Promise((resolve) => child.on('close', resolve));
  expect(code).toBe(1); // keys were present before the pipe closed
  expect(stderr).toBe('');
});
