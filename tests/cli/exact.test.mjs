// Exact answers: `build --exact` writes an index log (a FileCuckooIndex),
// `query` answers from it with no false positives, `query <filter> --index
// <log>` lets the log confirm the filter's "maybe"s, `info` describes it.
// Expected answers come from the inputs themselves (the keys written, the
// list's own lines), and the log's size from the record format of
// docs/EXACT-INDEX.md, never from the CLI's earlier output.
import { execFileSync, spawn } from 'node:child_process';
import { copyFileSync, existsSync, readdirSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { init, UrlBlocklist } from 'cuckoo-bloom-wasm';
import { asciiKeys, prng, randomInt } from '../helpers/keys.mjs';
import { parseRecords } from '../exact-index/lib/log-records.mjs';
import { CLI, expectOneLineError, runCli, runOk, tempDir, tmpFilesIn, URLHAUS, verdicts } from './helpers.mjs';

// Keys with spaces, tabs, non-ASCII text and a leading "-" are keys like any other.
const odd = ['with space', 'tab\tinside', 'naïve café', '日本語', '-dash-first', '#not-a-comment', ' padded '];
const distinctKeys = [...asciiKeys(5000, 'in-'), ...odd];
// Every 10th key again, and blank lines: duplicates are stored once, blanks skipped.
const repeats = distinctKeys.filter((_, i) => i % 10 === 0);
const inputLines = [...distinctKeys.slice(0, 2500), '', ...repeats, ...distinctKeys.slice(2500), '', ''];
const absentKeys = asciiKeys(10000, 'out-');

const LOG_HEADER_BYTES = 16; // "CBWILOG1", u32 version, u32 log id
/**
 * A record without a value in a version-3 log: u32 key length, u32 value length, u8 kind,
 * u32 header check, the key, u64 checksum (docs/EXACT-INDEX.md).
 */
const recordBytes = (key) => 4 + 4 + 1 + 4 + Buffer.byteLength(key) + 8;
/** The close marker a clean close appends: a record with no key. */
const CLOSE_MARKER_BYTES = 21;
/** The snapshot mark saved with the snapshot after it: a 13-byte header, 40 bytes (the table's digest, its keys), a checksum. */
const SNAPSHOT_MARK_BYTES = 61;
const logBytesOf = (keys) =>
  LOG_HEADER_BYTES + keys.reduce((sum, key) => sum + recordBytes(key), 0) + CLOSE_MARKER_BYTES + SNAPSHOT_MARK_BYTES;

/** The numbers of the stderr line `query <filter> --index <log>` ends with. */
function maybeSummary(stderr) {
  const match = /said "maybe" for ([\d,]+) (?:key|URL)\(s\); the index .* confirmed ([\d,]+) and found ([\d,]+) absent/.exec(stderr);
  if (match === null) throw new Error(`no "maybe" summary on stderr:\n${stderr}`);
  const [maybes, confirmed, caught] = match.slice(1).map((n) => Number(n.replace(/,/g, '')));
  return { maybes, confirmed, caught };
}

// Shared by every test: keys.log (the index of keys.txt) and keys.filter (a Bloom filter of the same keys).
let work;
let summary;
let buildStderr;
beforeAll(async () => {
  await init();
  work = tempDir();
  writeFileSync(join(work.dir, 'keys.txt'), `${inputLines.join('\n')}\n`);
  const result = await runOk(['build', '--exact', '--input', 'keys.txt', '--output', 'keys.log', '--json'], { cwd: work.dir });
  summary = JSON.parse(result.stdout);
  buildStderr = result.stderr;
  await runOk(['build', '--type', 'bloom', '--fpr', '0.02', '--input', 'keys.txt', '--output', 'keys.filter', '--quiet'], {
    cwd: work.dir,
  });
});
afterAll(() => work.cleanup());

describe('build --exact from a file', () => {
  test('prints nothing on stderr (not a terminal: no progress bar)', () => {
    expect(buildStderr).toBe('');
  });

  test('the summary counts keys, duplicates (exactly), log, snapshot and table bytes', () => {
    expect(summary).toMatchObject({
      output: 'keys.log',
      kind: 'exact-index',
      keyKind: 'lines',
      lines: inputLines.length,
      read: distinctKeys.length + repeats.length,
      keys: distinctKeys.length,
      duplicates: repeats.length,
      skipped: 3,
      unparseable: { count: 0, first: [] },
    });
    expect(summary.logBytes).toBe(statSync(join(work.dir, 'keys.log')).size);
    expect(summary.logBytes).toBe(logBytesOf(distinctKeys));
    expect(summary.snapshotBytes).toBe(statSync(join(work.dir, 'keys.log.snapshot')).size);
    // 8 bytes a slot, at most 95% full (the index doubles past that), and no more than 4x the slots needed.
    expect(summary.tableBytes).toBeGreaterThanOrEqual((distinctKeys.length * 8) / 0.95);
    expect(summary.tableBytes).toBeLessThan(distinctKeys.length * 8 * 4 + 4096);
    expect(tmpFilesIn(work.dir)).toEqual([]);
  });

  test('the log holds one record per distinct key, in input order, and nothing else', () => {
    expect(statSync(join(work.dir, 'keys.log')).size).toBe(logBytesOf(distinctKeys));
    const log = readFileSync(join(work.dir, 'keys.log'));
    expect(log.subarray(0, 8).toString('latin1')).toBe('CBWILOG1');
    // A version-3 log; the first record's key sits after its 13-byte header.
    expect(log.readUInt32LE(8)).toBe(3);
    expect(log.subarray(LOG_HEADER_BYTES + 13, LOG_HEADER_BYTES + 13 + 4).toString()).toBe('in-0');
  });

  test('every input key is present (keys from stdin)', async () => {
    const result = await runCli(['query', 'keys.log', '--exact'], { cwd: work.dir, input: `${distinctKeys.join('\n')}\n` });
    expect(result.code).toBe(1);
    expect(verdicts(result.stdout)).toEqual(distinctKeys.map((key) => ['present', ...key.split('\t')]));
    expect(result.stderr).toBe('');
  });

  test('10,000 keys not in the input are all absent: no false positive at all (exit 0)', async () => {
    const result = await runCli(['query', 'keys.log', '--exact'], { cwd: work.dir, input: absentKeys.join('\n') });
    expect(verdicts(result.stdout)).toEqual(absentKeys.map((key) => ['absent', key]));
    expect(result.code).toBe(0);
  });

  test('keys on the command line, and a log is recognised without --exact', async () => {
    const args = ['in-7', 'out-7', 'naïve café', 'naive cafe', '--', '-dash-first'];
    const withFlag = await runCli(['query', 'keys.log', '--exact', ...args], { cwd: work.dir });
    const detected = await runCli(['query', 'keys.log', ...args], { cwd: work.dir });
    const expected = 'present\tin-7\nabsent\tout-7\npresent\tnaïve café\nabsent\tnaive cafe\npresent\t-dash-first\n';
    expect(withFlag.stdout).toBe(expected);
    expect(detected.stdout).toBe(expected);
    expect([withFlag.code, detected.code]).toEqual([1, 1]);
  });
});

describe('build --exact from stdin', () => {
  test('gives the same log as from the file (the same records; each log has its own id)', async () => {
    await runOk(['build', '--exact', '--input', '-', '--output', 'stdin.log', '--quiet'], {
      cwd: work.dir,
      input: readFileSync(join(work.dir, 'keys.txt')),
    });
    const [fromStdin, fromFile] = ['stdin.log', 'keys.log'].map((name) => readFileSync(join(work.dir, name)));
    expect(fromStdin.length).toBe(fromFile.length);
    // But the snapshot mark: the digest of each build's table, sized from a count for the file, grown for stdin.
    const withoutMarkDigest = (records) => records.map((record) => (record.kind === 5 ? { ...record, key: 'mark' } : record));
    expect(withoutMarkDigest(parseRecords(fromStdin))).toEqual(withoutMarkDigest(parseRecords(fromFile)));
  });

  test('a key with non-UTF-8 bytes is stored as its bytes and found through stdin', async () => {
    const latin1 = Buffer.from('caf\xe9', 'latin1'); // "café" in Latin-1: not UTF-8
    const binary = Buffer.from([0xff, 0xfe, 0x41]);
    const input = Buffer.concat([latin1, Buffer.from('\n'), binary, Buffer.from('\nplain\n')]);
    const { stdout } = await runOk(['build', '--exact', '--input', '-', '--output', 'bytes.log', '--json'], { cwd: work.dir, input });
    expect(JSON.parse(stdout)).toMatchObject({ keys: 3, duplicates: 0, logBytes: LOG_HEADER_BYTES + 3 * 21 + 4 + 3 + 5 + CLOSE_MARKER_BYTES + SNAPSHOT_MARK_BYTES });
    const queries = Buffer.concat([latin1, Buffer.from('\ncafé\n'), binary, Buffer.from('\ncaf\n')]);
    const result = await runCli(['query', 'bytes.log'], { cwd: work.dir, input: queries });
    // The UTF-8 "café" is another key than its Latin-1 bytes.
    expect(verdicts(result.stdout).map(([verdict]) => verdict)).toEqual(['present', 'absent', 'present', 'absent']);
    expect(result.code).toBe(1);
  });
});

describe('build --exact --urls on URLhaus', () => {
  const listText = readFileSync(URLHAUS, 'utf8');
  const listLines = listText.split('\n').filter((line) => line !== '');
  const entryLines = listLines.filter((line) => !line.startsWith('!'));
  const hostLines = listLines.filter((line) => /^[a-z][a-z0-9-]*(\.[a-z0-9-]+){1,2}$/.test(line) && !/\.\d+$/.test(line));
  const urlRules = listLines
    .map((line) => /^\|\|([a-z0-9.-]+)(\/[A-Za-z0-9._/-]+)\^\$all$/.exec(line))
    .filter((match) => match !== null);
  const pick = (array, count) => Array.from({ length: count }, (_, i) => array[Math.floor((i * array.length) / count)]);
  const hosts = pick(hostLines, 20);
  const rules = pick(urlRules, 20);
  const listedUrls = [
    ...hosts.flatMap((host) => [`http://${host}/`, `https://zz-sub.${host}/x/y?z=1`]),
    ...rules.map(([, host, path]) => `http://${host}${path}`),
  ];
  // Clean URLs: random hosts under a reserved name (RFC 2606), and a host listed only with paths.
  const random = prng(18);
  const cleanUrls = [
    ...Array.from({ length: 2000 }, (_, i) => `https://h${randomInt(random, 1e9)}-${i}.example/p/${randomInt(random, 1e6)}.html`),
    'https://github.com/',
    'https://www.wikipedia.org/',
  ];
  let urlSummary;

  beforeAll(async () => {
    const result = await runOk(['build', '--exact', '--urls', '--input', URLHAUS, '--output', 'urlhaus.log', '--json'], { cwd: work.dir });
    urlSummary = JSON.parse(result.stdout);
    // A loose filter (60% per URL at most), so that it says "maybe" for many clean URLs.
    await runOk(['build', '--urls', '--type', 'bloom', '--fpr', '0.6', '--input', URLHAUS, '--output', 'loose.filter', '--quiet'], {
      cwd: work.dir,
    });
    expect(hosts.length + rules.length).toBe(40);
    expect(listLines).not.toContain('github.com');
  });

  test('the summary counts the list expressions, stored once each', () => {
    const distinct = UrlBlocklist.build(listText, { type: 'bloom' });
    try {
      expect(urlSummary).toMatchObject({
        kind: 'exact-index',
        keyKind: 'url-expressions',
        lines: listLines.length,
        read: entryLines.length, // one expression per entry line in this list
        keys: distinct.entryCount,
        duplicates: entryLines.length - distinct.entryCount,
        skipped: listLines.length - entryLines.length,
        unparseable: { count: 0, first: [] },
        notUtf8: { count: 0, firstLines: [] },
      });
    } finally {
      distinct.free();
    }
  });

  test('listed URLs are listed, with the expression a blocklist of the list reports', async () => {
    const exact = await runCli(['query', 'urlhaus.log'], { cwd: work.dir, input: listedUrls.join('\n') });
    const rows = verdicts(exact.stdout);
    expect(rows.map(([verdict, url]) => [verdict, url])).toEqual(listedUrls.map((url) => ['listed', url]));
    hosts.forEach((host, i) => {
      expect(rows[2 * i][2]).toBe(`${host}/`);
      expect(rows[2 * i + 1][2]).toBe(`${host}/`);
    });
    rules.forEach(([, host, path], i) => expect(rows[2 * hosts.length + i][2]).toBe(`${host}${path}`));
    expect(exact.code).toBe(1);
  });

  test('clean URLs are clear, every one (exit 0)', async () => {
    const result = await runCli(['query', 'urlhaus.log', '--exact', '--urls'], { cwd: work.dir, input: cleanUrls.join('\n') });
    expect(verdicts(result.stdout)).toEqual(cleanUrls.map((url) => ['clear', url]));
    expect(result.code).toBe(0);
  });

  test('filter then index: the blocklist\'s "maybe"s for clean URLs are all caught, listed URLs stay listed', async () => {
    // The filter alone: without its exact companion (build writes loose.filter.confirm, which
    // would clear these itself), each "maybe" is a `possible`.
    rmSync(join(work.dir, 'loose.filter.confirm'), { force: true });
    const alone = await runCli(['query', 'loose.filter'], { cwd: work.dir, input: cleanUrls.join('\n') });
    const filterMaybes = verdicts(alone.stdout).filter(([verdict]) => verdict === 'possible').length;
    expect(filterMaybes).toBeGreaterThan(20);

    const clean = await runCli(['query', 'loose.filter', '--index', 'urlhaus.log'], { cwd: work.dir, input: cleanUrls.join('\n') });
    expect(verdicts(clean.stdout)).toEqual(cleanUrls.map((url) => ['clear', url]));
    expect(clean.code).toBe(0);
    expect(maybeSummary(clean.stderr)).toEqual({ maybes: filterMaybes, confirmed: 0, caught: filterMaybes });

    const listed = await runCli(['query', 'loose.filter', '--index', 'urlhaus.log', ...listedUrls], { cwd: work.dir });
    expect(verdicts(listed.stdout).map(([verdict]) => verdict)).toEqual(listedUrls.map(() => 'listed'));
    expect(listed.code).toBe(1);
    expect(maybeSummary(listed.stderr)).toEqual({ maybes: listedUrls.length, confirmed: listedUrls.length, caught: 0 });
  });

  test('info: an index of URL expressions, with its marker record', async () => {
    const info = JSON.parse((await runOk(['info', 'urlhaus.log', '--json'], { cwd: work.dir })).stdout);
    expect(info).toMatchObject({ kind: 'exact-index', keyKind: 'url-expressions', liveKeys: urlSummary.keys, deadRecords: 0 });
    expect(info.records).toBe(urlSummary.keys + 1);
  });

  test('a URL blocklist checked against a log of plain keys is a usage error', async () => {
    const result = await runCli(['query', 'loose.filter', '--index', 'keys.log', 'http://example.com/'], { cwd: work.dir });
    expect(expectOneLineError(result)).toMatch(/keys\.log was built without --urls/);
    expect(result.stdout).toBe('');
  });
});

test('--urls: entries deeper than Safe Browsing\'s 5 labels and 3 directories are found, as a blocklist finds them', async () => {
  writeFileSync(join(work.dir, 'deep.txt'), '||a.b.c.d.e.f.example^\n||deep.example/1/2/3/4/5/^\nshallow.example\n');
  await runOk(['build', '--exact', '--urls', '--input', 'deep.txt', '--output', 'deep.log', '--quiet'], { cwd: work.dir });
  await runOk(['build', '--urls', '--type', 'bloom', '--input', 'deep.txt', '--output', 'deep.filter', '--quiet'], { cwd: work.dir });
  const urls = [
    'http://x.a.b.c.d.e.f.example/',
    'http://deep.example/1/2/3/4/5/6/file.html',
    'http://deep.example/1/2/3/4/file.html',
    'https://www.shallow.example/a',
    'http://b.c.d.e.f.example/',
  ];
  const expected = [
    ['listed', urls[0], 'a.b.c.d.e.f.example/'],
    ['listed', urls[1], 'deep.example/1/2/3/4/5/'],
    ['clear', urls[2]],
    ['listed', urls[3], 'shallow.example/'],
    ['clear', urls[4]],
  ];
  const exact = await runCli(['query', 'deep.log', ...urls], { cwd: work.dir });
  expect(verdicts(exact.stdout)).toEqual(expected);
  const blocklist = await runCli(['query', 'deep.filter', ...urls], { cwd: work.dir });
  expect(verdicts(blocklist.stdout)).toEqual(expected);
});

describe('filter then index, plain keys', () => {
  test('every "maybe" the filter gives for absent keys becomes absent', async () => {
    const alone = await runCli(['query', 'keys.filter'], { cwd: work.dir, input: absentKeys.join('\n') });
    const falsePositives = verdicts(alone.stdout).filter(([verdict]) => verdict === 'present').length;
    // About 2% of 10,000: what a filter cannot avoid and the index removes.
    expect(falsePositives).toBeGreaterThan(100);
    expect(falsePositives).toBeLessThan(400);

    const result = await runCli(['query', 'keys.filter', '--index', 'keys.log'], { cwd: work.dir, input: absentKeys.join('\n') });
    expect(verdicts(result.stdout)).toEqual(absentKeys.map((key) => ['absent', key]));
    expect(result.code).toBe(0);
    expect(maybeSummary(result.stderr)).toEqual({ maybes: falsePositives, confirmed: 0, caught: falsePositives });
  });

  test('present keys stay present', async () => {
    const result = await runCli(['query', 'keys.filter', '--index', 'keys.log'], { cwd: work.dir, input: distinctKeys.join('\n') });
    expect(verdicts(result.stdout)).toEqual(distinctKeys.map((key) => ['present', ...key.split('\t')]));
    expect(result.code).toBe(1);
    expect(maybeSummary(result.stderr)).toEqual({ maybes: distinctKeys.length, confirmed: distinctKeys.length, caught: 0 });
  });
});

describe('info on an index log', () => {
  test('--json: records, live and dead, sizes, the snapshot valid', async () => {
    const info = JSON.parse((await runOk(['info', 'keys.log', '--json'], { cwd: work.dir })).stdout);
    expect(info).toMatchObject({
      file: 'keys.log',
      kind: 'exact-index',
      keyKind: 'lines',
      records: distinctKeys.length,
      liveKeys: distinctKeys.length,
      deadRecords: 0,
      logBytes: logBytesOf(distinctKeys),
      droppedTailBytes: 0,
      snapshot: { present: true, valid: true, coveredLogBytes: logBytesOf(distinctKeys) - SNAPSHOT_MARK_BYTES },
    });
    expect(info.tableBytes).toBeGreaterThanOrEqual((distinctKeys.length * 8) / 0.95);
    expect(info.loadFactor).toBeCloseTo(distinctKeys.length / (info.bucketCount * 4), 6);
  });

  test('text: says it is an exact index, with its numbers', async () => {
    const { stdout } = await runOk(['info', 'keys.log'], { cwd: work.dir });
    expect(stdout).toMatch(/^kind +exact index log/m);
    expect(stdout).toMatch(/^records +5,007$/m);
    expect(stdout).toMatch(/^live keys +5,007$/m);
    expect(stdout).toMatch(/^dead records +0 /m);
    expect(stdout).toMatch(new RegExp(`^log size +${logBytesOf(distinctKeys).toLocaleString('en-US')} bytes$`, 'm'));
    expect(stdout).toMatch(/^snapshot +valid /m);
  });

  test('without its snapshot, or with one of another log: replayed, and said so', async () => {
    copyFileSync(join(work.dir, 'keys.log'), join(work.dir, 'nosnap.log'));
    const none = JSON.parse((await runOk(['info', 'nosnap.log', '--json'], { cwd: work.dir })).stdout);
    expect(none.snapshot).toEqual({ present: false, valid: false, coveredLogBytes: 0 });
    expect(none.liveKeys).toBe(distinctKeys.length);
    await runOk(['build', '--exact', '--input', '-', '--output', 'other.log', '--quiet'], { cwd: work.dir, input: 'other\n' });
    copyFileSync(join(work.dir, 'other.log.snapshot'), join(work.dir, 'nosnap.log.snapshot'));
    const stale = JSON.parse((await runOk(['info', 'nosnap.log', '--json'], { cwd: work.dir })).stdout);
    expect(stale.snapshot).toEqual({ present: true, valid: false, coveredLogBytes: 0 });
    expect(stale.liveKeys).toBe(distinctKeys.length);
    expect((await runOk(['info', 'nosnap.log'], { cwd: work.dir })).stdout).toMatch(/^snapshot +present but not used/m);
  });
});

describe('a log cut in the middle of its last record', () => {
  const lastKey = distinctKeys[distinctKeys.length - 1];
  const whole = logBytesOf(distinctKeys) - CLOSE_MARKER_BYTES - SNAPSHOT_MARK_BYTES;
  const withoutLast = whole - recordBytes(lastKey);

  // What a crash while writing the last record leaves: no close marker, no snapshot.
  beforeEach(() => {
    copyFileSync(join(work.dir, 'keys.log'), join(work.dir, 'torn.log'));
    rmSync(join(work.dir, 'torn.log.snapshot'), { force: true });
    truncateSync(join(work.dir, 'torn.log'), withoutLast + Math.floor(recordBytes(lastKey) / 2));
  });

  test('still opens and answers for every key before it; the file is left as it is', async () => {
    const before = readFileSync(join(work.dir, 'torn.log'));
    const result = await runCli(['query', 'torn.log', '--exact'], { cwd: work.dir, input: distinctKeys.join('\n') });
    const expected = distinctKeys.map((key, i) => [i === distinctKeys.length - 1 ? 'absent' : 'present', ...key.split('\t')]);
    expect(verdicts(result.stdout)).toEqual(expected);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^cuckoo-bloom-wasm: warning: torn\.log ended in an unfinished record.*\d+ byte\(s\) are ignored/);
    // query opens logs read-only: a writer may still be appending that record.
    expect(readFileSync(join(work.dir, 'torn.log')).equals(before)).toBe(true);
  });

  test('info reports the bytes dropped, and no snapshot', async () => {
    const info = JSON.parse((await runOk(['info', 'torn.log', '--json'], { cwd: work.dir })).stdout);
    expect(info).toMatchObject({
      liveKeys: distinctKeys.length - 1,
      logBytes: withoutLast,
      droppedTailBytes: Math.floor(recordBytes(lastKey) / 2),
      snapshot: { present: false },
    });
  });

  test('with the snapshot of the whole log beside it, the record was committed: CORRUPT (exit 2), the file unchanged', async () => {
    copyFileSync(join(work.dir, 'keys.log.snapshot'), join(work.dir, 'torn.log.snapshot'));
    const before = readFileSync(join(work.dir, 'torn.log'));
    for (const args of [['query', 'torn.log', 'in-0'], ['info', 'torn.log']]) {
      const line = expectOneLineError(await runCli(args, { cwd: work.dir }));
      expect(line).toContain(`torn.log: the record at byte ${withoutLast} is damaged`);
      expect(line).toContain('cuckoo-bloom-wasm repair torn.log');
    }
    expect(readFileSync(join(work.dir, 'torn.log')).equals(before)).toBe(true);
  });
});

describe('errors: exit 2, one line, no file left behind', () => {
  test.each([
    ['--type', ['--type', 'cuckoo'], /--type does not apply to --exact/],
    ['--fpr', ['--fpr', '0.01'], /--fpr does not apply to --exact/],
    ['--capacity', ['--capacity', '100'], /--capacity does not apply to --exact/],
    ['--seed', ['--seed', '3'], /--seed does not apply to --exact/],
    ['--fpr and --capacity', ['--fpr', '0.01', '--capacity', '100'], /--fpr and --capacity do not apply to --exact/],
  ])('build --exact with %s', async (_name, extra, message) => {
    const result = await runCli(['build', '--exact', '--input', 'keys.txt', '--output', 'refused.log', ...extra], { cwd: work.dir });
    expect(expectOneLineError(result)).toMatch(message);
    expect(existsSync(join(work.dir, 'refused.log'))).toBe(false);
    expect(tmpFilesIn(work.dir)).toEqual([]);
  });

  test('build --exact from input with no key: refused, no log or snapshot written', async () => {
    const result = await runCli(['build', '--exact', '--input', '-', '--output', 'empty.log'], { cwd: work.dir, input: '\n\n' });
    expect(expectOneLineError(result)).toMatch(/stdin has no key.*--force to build an empty index/);
    expect(existsSync(join(work.dir, 'empty.log'))).toBe(false);
    expect(existsSync(join(work.dir, 'empty.log.snapshot'))).toBe(false);
    expect(tmpFilesIn(work.dir)).toEqual([]);
  });

  test.each([
    ['query --exact on a filter file', ['query', 'keys.filter', '--exact', 'in-1'], /keys\.filter is a filter file, not an index log/],
    ['query --exact on a text file', ['query', 'keys.txt', '--exact', 'in-1'], /keys\.txt is not an index log/],
    ['query --exact on a missing file', ['query', 'nope.log', '--exact', 'in-1'], /cannot read nope\.log: no such file/],
    ['--exact with --index', ['query', 'keys.filter', '--exact', '--index', 'keys.log', 'in-1'], /--exact and --index do not go together/],
    ['--index after an index log', ['query', 'keys.log', '--index', 'keys.log', 'in-1'], /keys\.log is an index log: query it alone/],
    ['--index naming a filter', ['query', 'keys.filter', '--index', 'keys.filter', 'in-1'], /--index keys\.filter is a filter file/],
  ])('%s', async (_name, args, message) => {
    const result = await runCli(args, { cwd: work.dir });
    expect(expectOneLineError(result)).toMatch(message);
    expect(result.stdout).toBe('');
    expect(existsSync(join(work.dir, 'nope.log'))).toBe(false);
  });

  test('a damaged record followed by others is CORRUPT, and the log is left as it was', async () => {
    const damaged = readFileSync(join(work.dir, 'keys.log'));
    damaged[LOG_HEADER_BYTES + 10] ^= 0xff; // inside the first record's key
    writeFileSync(join(work.dir, 'damaged.log'), damaged);
    const result = await runCli(['query', 'damaged.log', 'in-1'], { cwd: work.dir });
    expect(expectOneLineError(result)).toMatch(/damaged\.log: the record at byte 16 is damaged/);
    expect(readFileSync(join(work.dir, 'damaged.log')).equals(damaged)).toBe(true);
    rmSync(join(work.dir, 'damaged.log'));
  });
});

// build --exact renames a new log over <output>: a writer holding that log
// would go on appending to the replaced file (its acknowledged writes lost).
test('build --exact over a log a writer holds: LOCKED (exit 2), the log and the writer untouched; after close it builds', async () => {
  const { init: initIndex, FileCuckooIndex } = await import('cuckoo-bloom-wasm/index-file');
  await initIndex();
  const log = join(work.dir, 'held.log');
  const writer = FileCuckooIndex.open(log);
  try {
    writer.set('service-1');
    const before = readFileSync(log);
    const result = await runCli(['build', '--exact', '--input', 'keys.txt', '--output', 'held.log'], { cwd: work.dir });
    expect(expectOneLineError(result)).toMatch(/held\.log is open for writing by .*one writer per log/);
    expect(readFileSync(log).equals(before)).toBe(true);
    expect(tmpFilesIn(work.dir)).toEqual([]);
    writer.set('service-2');
  } finally {
    writer.close();
  }
  const reader = FileCuckooIndex.open(log, { readOnly: true });
  expect([reader.has('service-1'), reader.has('service-2')]).toEqual([true, true]);
  reader.close();
  await runOk(['build', '--exact', '--input', 'keys.txt', '--output', 'held.log', '--quiet'], { cwd: work.dir });
  expect(existsSync(`${log}.lock`)).toBe(false);
  const rebuilt = FileCuckooIndex.open(log, { readOnly: true });
  expect([rebuilt.has('service-1'), rebuilt.has('in-1')]).toEqual([false, true]);
  rebuilt.close();
});

test('build --exact --input <a FIFO no writer opened>: SIGTERM ends it at once, leaving no file', async () => {
  const dir = tempDir();
  try {
    const fifo = join(dir.dir, 'in.fifo');
    execFileSync('mkfifo', [fifo]);
    const child = spawn(process.execPath, [CLI, 'build', '--exact', '--input', fifo, '--output', 'out.log'], {
      cwd: dir.dir,
      stdio: 'ignore',
    });
    const ended = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
    // The writer lock is taken before the input is opened: once it is there, the open blocks on the FIFO.
    const deadline = Date.now() + 8000;
    while (!existsSync(join(dir.dir, 'out.log.lock')) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    await new Promise((r) => setTimeout(r, 200));
    const sent = Date.now();
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    const { signal } = await ended;
    clearTimeout(timer);
    // Before: the handler ran, but exit waited for the thread blocked opening the FIFO (until a writer came).
    expect(signal).toBe('SIGTERM');
    expect(Date.now() - sent).toBeLessThan(3000);
    expect(readdirSync(dir.dir)).toEqual(['in.fifo']);
  } finally {
    dir.cleanup();
  }
}, 15000);

test('help documents --exact and --index', async () => {
  expect((await runOk(['help', 'build'], { cwd: work.dir })).stdout).toMatch(/--exact +write an exact index log/);
  const query = (await runOk(['help', 'query'], { cwd: work.dir })).stdout;
  expect(query).toMatch(/--exact +the file must be an index log/);
  expect(query).toMatch(/--index <log> +check the filter's "maybe"s/);
  expect((await runOk(['help', 'info'], { cwd: work.dir })).stdout).toMatch(/index log \(build --exact\)/);
});
