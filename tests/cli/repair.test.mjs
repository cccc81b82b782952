// A damaged index log: `query` (alone and as --index) and `info` report
// CORRUPT naming the byte offset (exit 2), never "absent" for every key with
// exit 0, and leave the file as it is; `repair` keeps every whole record,
// before and after the damage, moves only the damaged record aside byte for
// byte (exit 0: repaired), and the log then answers; a whole log is left alone
// (exit 0).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { init } from 'cuckoo-bloom-wasm';
import { expectOneLineError, runCli, runCliTimed, runOk, tempDir, verdicts } from './helpers.mjs';

const keys = Array.from({ length: 40 }, (_, i) => `key-${i}`);
const LOG_HEADER_BYTES = 16;
/** Version 3: 13 header bytes (lengths, kind, header check), the key, an 8-byte checksum (docs/EXACT-INDEX.md). */
const recordBytes = (key) => 13 + Buffer.byteLength(key) + 8;
/** The close marker a clean close appends: a record with no key. */
const CLOSE_MARKER_BYTES = 21;
/** The snapshot mark saved after it with the snapshot: 13 header bytes, 40 (the table's digest, its keys), a checksum. */
const SNAPSHOT_MARK_BYTES = 61;
const startOf = (i) => LOG_HEADER_BYTES + keys.slice(0, i).reduce((sum, key) => sum + recordBytes(key), 0);

let work;
let damaged;
const DAMAGED_RECORD = 10;
beforeAll(async () => {
  await init();
  work = tempDir('cbw-cli-repair-');
  writeFileSync(join(work.dir, 'keys.txt'), `${keys.join('\n')}\n`);
  await runOk(['build', '--exact', '--input', 'keys.txt', '--output', 'keys.log', '--quiet'], { cwd: work.dir });
  await runOk(['build', '--input', 'keys.txt', '--output', 'keys.filter', '--quiet'], { cwd: work.dir });
  damaged = readFileSync(join(work.dir, 'keys.log'));
  expect(damaged.length).toBe(startOf(keys.length) + CLOSE_MARKER_BYTES + SNAPSHOT_MARK_BYTES);
  damaged[startOf(DAMAGED_RECORD) + 1] ^= 0x01; // record 10's key length + 256: it "runs past the end"
});
afterAll(() => work.cleanup());

function writeDamaged(name) {
  writeFileSync(join(work.dir, name), damaged);
  // A snapshot of the whole (undamaged) log beside it changes nothing: it no longer matches.
  writeFileSync(join(work.dir, `${name}.snapshot`), readFileSync(join(work.dir, 'keys.log.snapshot')));
}

test.each([
  ['query', (log) => ['query', log, 'key-1', 'key-30']],
  ['query --exact from stdin', (log) => ['query', log, '--exact']],
  ['query --index', (log) => ['query', 'keys.filter', '--index', log, 'key-1', 'key-30']],
  ['info', (log) => ['info', log]],
  ['info --json', (log) => ['info', log, '--json']],
])('%s on a damaged log: CORRUPT naming the offset and repair (exit 2), the file unchanged', async (_name, args) => {
  writeDamaged('damaged.log');
  const result = await runCli(args('damaged.log'), { cwd: work.dir, input: keys.join('\n') });
  const line = expectOneLineError(result);
  expect(line).toContain(`damaged.log: the record at byte ${startOf(DAMAGED_RECORD)} is damaged`);
  expect(line).toContain('cuckoo-bloom-wasm repair damaged.log');
  expect(result.stdout).toBe('');
  expect(readFileSync(join(work.dir, 'damaged.log')).equals(damaged)).toBe(true);
});

test('repair keeps every whole record, moves only the damaged one aside byte for byte (exit 0), and the log answers', async () => {
  writeDamaged('fixed.log');
  const offset = startOf(DAMAGED_RECORD);
  const end = startOf(DAMAGED_RECORD + 1);
  const result = await runCli(['repair', 'fixed.log', '--json'], { cwd: work.dir });
  expect(result.code).toBe(0);
  expect(result.stderr).toBe('');
  const movedTo = `fixed.log.damaged-at-${offset}`;
  expect(JSON.parse(result.stdout)).toEqual({
    file: 'fixed.log',
    logVersion: 3,
    recordsKept: keys.length + 1, // every record but the damaged one, the close marker and the snapshot mark
    keptBytes: damaged.length - (end - offset),
    movedBytes: end - offset,
    movedTo,
    moved: [{ offset, bytes: end - offset, file: movedTo }],
    headerRechained: false,
  });
  expect(readFileSync(join(work.dir, movedTo)).equals(damaged.subarray(offset, end))).toBe(true);
  const fixed = readFileSync(join(work.dir, 'fixed.log'));
  expect(fixed.subarray(0, offset).equals(damaged.subarray(0, offset))).toBe(true);
  expect(fixed.length).toBe(damaged.length - (end - offset));
  const query = await runCli(['query', 'fixed.log', ...keys], { cwd: work.dir });
  expect(query.code).toBe(1);
  expect(verdicts(query.stdout)).toEqual(keys.map((key, i) => [i === DAMAGED_RECORD ? 'absent' : 'present', key]));
  // Now whole: nothing to do, exit 0, text output.
  const again = await runCli(['repair', 'fixed.log'], { cwd: work.dir });
  expect(again.code).toBe(0);
  expect(again.stdout).toMatch(/records kept +41/);
  expect(again.stdout).toMatch(/the log is whole: nothing was changed/);
});

test('repair refuses what is not an index log, and a missing file (exit 2), changing nothing', async () => {
  const filter = readFileSync(join(work.dir, 'keys.filter'));
  expect(expectOneLineError(await runCli(['repair', 'keys.filter'], { cwd: work.dir }))).toMatch(/keys\.filter is not an index log/);
  expect(readFileSync(join(work.dir, 'keys.filter')).equals(filter)).toBe(true);
  expect(expectOneLineError(await runCli(['repair', 'nope.log'], { cwd: work.dir }))).toMatch(/cannot read nope\.log: no such file/);
  expect(expectOneLineError(await runCli(['repair'], { cwd: work.dir }))).toMatch(/repair needs an index log/);
});

test('help repair documents it, and the main help lists it', async () => {
  const help = (await runOk(['help', 'repair'], { cwd: work.dir })).stdout;
  expect(help).toMatch(/^Usage: cuckoo-bloom-wasm repair <log>/);
  expect(help).toMatch(/damaged-at-<offset>/);
  expect(help).toMatch(/Exit status: 0 the log was whole/);
  expect((await runOk(['--help'], { cwd: work.dir })).stdout).toMatch(/^ {2}repair +salvage a damaged index log/m);
});

// The marker that says a log's keys are URL expressions is its first record
// (build --exact --urls). Damage there must not become a silent "absent" for
// every listed URL after repair: repair asks what the log holds.
describe('a URL log whose first record (the marker) is damaged', () => {
  let urlLog;
  beforeAll(async () => {
    writeFileSync(join(work.dir, 'list.txt'), 'evil.example\n||bad.example/dl/^\n');
    await runOk(['build', '--exact', '--urls', '--input', 'list.txt', '--output', 'urls.log', '--quiet'], { cwd: work.dir });
    urlLog = readFileSync(join(work.dir, 'urls.log'));
  });
  const urls = ['http://evil.example/', 'http://www.bad.example/dl/x.exe'];
  const damage = (name, at) => {
    const bytes = Buffer.from(urlLog);
    bytes[at] ^= 0x01;
    writeFileSync(join(work.dir, name), bytes);
    return bytes;
  };

  test.each([
    ['a bit of the marker key', LOG_HEADER_BYTES + 13 + 5],
  ])('%s: repair without --urls/--keys refuses (exit 2), changing nothing', async (_name, at) => {
    const bytes = damage('marker.log', at);
    const line = expectOneLineError(await runCli(['repair', 'marker.log'], { cwd: work.dir }));
    expect(line).toMatch(/marker\.log: its first record is damaged.*--urls.*--keys.*nothing was changed/);
    expect(readFileSync(join(work.dir, 'marker.log')).equals(bytes)).toBe(true);
  });

  test.each([
    ['a bit of the marker key', LOG_HEADER_BYTES + 13 + 5, ['--urls']],
    // The first record is intact; the header's log id is what lost the bit: kept, re-chained, no flag needed.
    ['a bit of the log id (no flag needed)', 12, []],
  ])('%s: repair keeps or writes back the marker, and query still lists every URL', async (_name, at, flags) => {
    damage('marker-urls.log', at);
    await runOk(['repair', 'marker-urls.log', ...flags], { cwd: work.dir });
    const query = await runCli(['query', 'marker-urls.log', ...urls], { cwd: work.dir });
    expect(query.code).toBe(1);
    expect(verdicts(query.stdout).map(([verdict]) => verdict)).toEqual(['listed', 'listed']);
    expect((await runOk(['info', 'marker-urls.log'], { cwd: work.dir })).stdout).not.toMatch(/built without --urls/);
  });

  test('repair --keys and --urls together is a usage error; a log whose first record is whole needs neither', async () => {
    expect(expectOneLineError(await runCli(['repair', 'keys.log', '--urls', '--keys'], { cwd: work.dir }))).toMatch(/--urls or --keys, not both/);
    writeDamaged('later.log'); // record 10 damaged, the first whole
    expect((await runCli(['repair', 'later.log'], { cwd: work.dir })).code).toBe(0);
    // --urls writes the marker back only in place of a damaged first record: a keys log stays one.
    writeDamaged('later-urls.log');
    expect((await runCli(['repair', 'later-urls.log', '--urls'], { cwd: work.dir })).code).toBe(0);
    expect((await runOk(['info', 'later-urls.log'], { cwd: work.dir })).stdout).toMatch(/built without --urls/);
  });
});

test('repair of a FIFO or a device refuses at once (exit 2), reading nothing', async () => {
  const { execFileSync } = await import('node:child_process');
  execFileSync('mkfifo', [join(work.dir, 'fifo.log')]);
  const fifo = await runCliTimed(['repair', 'fifo.log'], { cwd: work.dir, timeoutMs: 15000 });
  expect(fifo.timedOut).toBe(false);
  expect(expectOneLineError(fifo)).toMatch(/cannot read fifo\.log: it is a FIFO \(named pipe\), not an index log/);
  const zero = await runCliTimed(['repair', '/dev/zero'], { cwd: work.dir, timeoutMs: 15000 });
  expect(zero.timedOut).toBe(false);
  expect(expectOneLineError(zero)).toMatch(/cannot read \/dev\/zero: it is a character device/);
});
