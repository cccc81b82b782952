// Snapshot marks (docs/EXACT-INDEX.md, "Snapshots"): before a version-3 log's
// snapshot is written, a mark record with the SHA-256 of the table's slots
// and its live keys is appended to the log; a snapshot is loaded only when
// the record at the length it covers is a mark of exactly its table. So one
// file forged or damaged alone never hides a key:
// - a mark whose digest or count does not match the snapshot's table (the
//   log's mark changed, its checks recomputed): the snapshot is ignored;
// - a writer killed between the mark and the snapshot's rename: the log
//   opens with every record (a mark without a snapshot is stepped over);
// - version 1 and 2 logs have no marks: their snapshots are never loaded.
// The forged-snapshot cases (a slot dropped, offsets swapped) are in records.test.mjs.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { init } from '../../dist/index.import.cjs';
import { FileCuckooIndex } from '../../dist/index-file.mjs';
import { logDirectory } from './lib/log-files.mjs';
import { expectAnswers, keysOf, modelOf, parseRecords } from './lib/log-records.mjs';
import { xxh3 } from '../helpers/xxh3.mjs';

const freshPath = logDirectory('cbw-index-mark-');
beforeAll(async () => {
  await init();
});

const SNAPSHOT_MARK_KIND = 5;
/** The seed of a record's checksum (docs/EXACT-INDEX.md), XORed with its chain in version 3. */
const CHECKSUM_SEED = 0x43425749445831n;

function writeLog(path, keys, options = {}) {
  const index = FileCuckooIndex.open(path, options);
  for (let i = 0; i < keys; i++) index.set(`https://mark.example/${i}`, i % 3 === 0 ? undefined : `v${i}`);
  index.delete('https://mark.example/4');
  index.close();
}

/** Changes byte `at` of the mark's 40 bytes in `bytes` (a log) and recomputes its checksum: a whole record still. */
function forgeMark(bytes, mark, at) {
  const forged = Buffer.from(bytes);
  forged[mark.headerEnd + at] ^= 0x01;
  const chain = forged.readBigUInt64LE(mark.start - 8);
  forged.writeBigUInt64LE(xxh3(forged.subarray(mark.start, mark.end - 8), CHECKSUM_SEED ^ chain), mark.end - 8);
  return forged;
}

describe.each([
  ['its digest', 0],
  ['its live-key count', 32],
])('a snapshot mark with %s changed (the log forged, the mark still whole)', (_name, at) => {
  test('the snapshot is ignored and the log replayed: every key is found', () => {
    const path = freshPath();
    writeLog(path, 200);
    const bytes = readFileSync(path);
    const records = parseRecords(bytes);
    const mark = records.at(-1);
    expect(mark.kind).toBe(SNAPSHOT_MARK_KIND);
    writeFileSync(path, forgeMark(bytes, mark, at));
    // The forged mark is a whole record: replay steps over it.
    expect(parseRecords(readFileSync(path)).at(-1)).toEqual(expect.objectContaining({ kind: SNAPSHOT_MARK_KIND, end: bytes.length }));
    for (const options of [{ readOnly: true }, {}]) {
      const index = FileCuckooIndex.open(path, options);
      expect(index.openReport.snapshotLogBytes).toBe(0);
      expectAnswers(index, modelOf(records), keysOf(records));
      index.close();
    }
    // Untouched, the same log and snapshot load.
    writeFileSync(path, bytes);
    const index = FileCuckooIndex.open(path, { readOnly: true });
    expect(index.openReport.snapshotLogBytes).toBe(mark.start);
    index.close();
  });
});

test('an older genuine snapshot beside a longer log still loads: its mark is still at the length it covers', () => {
  const path = freshPath();
  writeLog(path, 100);
  const first = parseRecords(readFileSync(path));
  const older = readFileSync(`${path}.snapshot`);
  // Another session writes more and saves: its snapshot covers up to its own mark.
  const index = FileCuckooIndex.open(path);
  index.set('https://mark.example/later', 'x');
  index.saveSnapshot();
  index.close();
  const after = parseRecords(readFileSync(path));
  // saveSnapshot(), then close(): its close marker changed the log, so it saved again (a mark each).
  expect(after.filter((record) => record.kind === SNAPSHOT_MARK_KIND)).toHaveLength(3);
  writeFileSync(`${path}.snapshot`, older);
  const reopened = FileCuckooIndex.open(path, { readOnly: true });
  expect(reopened.openReport.snapshotLogBytes).toBe(first.at(-1).start);
  expectAnswers(reopened, modelOf(after), keysOf(after));
  reopened.close();
});

/** Runs a child that opens `path`, sets `keys` more keys, and is SIGKILLed in saveSnapshot() between the mark and the rename. */
function killedBetweenMarkAndRename(path, keys) {
  const script = `
    import fs from 'node:fs';
    import { init } from ${JSON.stringify(fileURLToPath(new URL('../../dist/index.import.cjs', import.meta.url)))};
    import { FileCuckooIndex } from ${JSON.stringify(fileURLToPath(new URL('../../dist/index-file.mjs', import.meta.url)))};
    await init();
    const index = FileCuckooIndex.open(${JSON.stringify(path)});
    for (let i = 0; i < ${keys}; i++) index.set('https://crash.example/' + i, 'c' + i);
    const rename = fs.renameSync;
    fs.renameSync = (from, to) => {
      if (String(to).endsWith('.snapshot')) {
        fs.writeSync(1, 'renaming\\n');
        process.kill(process.pid, 'SIGKILL');
      }
      return rename(from, to);
    };
    index.saveSnapshot();
    fs.writeSync(1, 'saved\\n');
  `;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

describe.each([
  ['after an earlier snapshot', true],
  ['with no snapshot before', false],
])('a writer killed between the snapshot mark and the snapshot (%s)', (_name, earlier) => {
  test('the log opens with every record; the earlier snapshot (if any) still loads', async () => {
    const path = freshPath();
    writeLog(path, 100, { snapshotOnClose: earlier });
    const snapshotBefore = existsSync(`${path}.snapshot`) ? readFileSync(`${path}.snapshot`) : undefined;
    expect(snapshotBefore !== undefined).toBe(earlier);
    const before = parseRecords(readFileSync(path));
    const result = await killedBetweenMarkAndRename(path, 50);
    expect(result.signal).toBe('SIGKILL');
    expect(result.stdout).toBe('renaming\n');
    // The mark is the log's last record; the snapshot beside it is the earlier one (or none).
    const records = parseRecords(readFileSync(path));
    expect(records.at(-1).kind).toBe(SNAPSHOT_MARK_KIND);
    expect(records.length).toBe(before.length + 50 + 1);
    if (earlier) expect(readFileSync(`${path}.snapshot`)).toEqual(snapshotBefore);
    else expect(existsSync(`${path}.snapshot`)).toBe(false);
    for (const options of [{ readOnly: true }, {}]) {
      const index = FileCuckooIndex.open(path, options);
      expect(index.openReport.snapshotLogBytes).toBe(earlier ? before.at(-1).start : 0);
      expect(index.openReport.droppedTailBytes).toBe(0);
      expectAnswers(index, modelOf(records), keysOf(records));
      index.close();
    }
  });
});

test('a version-2 log has no marks: its snapshot is written (how far the log was committed) but never loaded', () => {
  const path = freshPath();
  copyFileSync(new URL('./fixtures/v2.log', import.meta.url), path);
  const index = FileCuckooIndex.open(path);
  expect(index.openReport.logVersion).toBe(2);
  index.set('https://v2.example/new', 'value');
  index.close();
  expect(existsSync(`${path}.snapshot`)).toBe(true);
  const records = parseRecords(readFileSync(path));
  expect(records.some((record) => record.kind === SNAPSHOT_MARK_KIND)).toBe(false);
  const reopened = FileCuckooIndex.open(path, { readOnly: true });
  expect(reopened.openReport.snapshotLogBytes).toBe(0);
  expectAnswers(reopened, modelOf(records), keysOf(records));
  reopened.close();
  // compact() makes it version 3, whose snapshots load.
  const compacting = FileCuckooIndex.open(path);
  compacting.compact();
  compacting.close();
  const upgraded = FileCuckooIndex.open(path, { readOnly: true });
  expect(upgraded.openReport.logVersion).toBe(3);
  expect(upgraded.openReport.snapshotLogBytes).toBeGreaterThan(0);
  expectAnswers(upgraded, modelOf(records), keysOf(records));
  upgraded.close();
});

// Found by the outside attacker: a value may hold the bytes of a whole snapshot mark chained
// to its own first 8 bytes (and, after it, a header claiming 512 MiB). A snapshot forged alone,
// an empty table whose n points at that embedded mark (its prefix hash and checksum recomputed),
// was loaded: every key answered absent, and a writable open cut the log at the fake header,
// destroying acknowledged records. A mark vouches only where a record of the log starts.
const HEADER_SEED = 0x43425749484452n;
/** A version-3 record chained to the 8 bytes `chain`: header (claiming `claimed` value bytes), key, value, checksum. */
function chainedRecord(chain, kind, key, value, claimed = value.length) {
  const c = chain.readBigUInt64LE(0);
  const header = Buffer.alloc(13);
  header.writeUInt32LE(key.length, 0);
  header.writeUInt32LE(claimed, 4);
  header[8] = kind;
  header.writeUInt32LE(Number(xxh3(header.subarray(0, 9), HEADER_SEED ^ c) & 0xffffffffn), 9);
  const body = Buffer.concat([header, key, value]);
  const checksum = Buffer.alloc(8);
  checksum.writeBigUInt64LE(xxh3(body, CHECKSUM_SEED ^ c));
  return Buffer.concat([body, checksum]);
}

test('a snapshot forged to point at a mark inside a value is ignored: every key found, the log left whole', () => {
  // An empty table's snapshot, as a template of the forgery.
  const template = freshPath();
  const empty = FileCuckooIndex.open(template);
  empty.saveSnapshot();
  empty.close();
  const snapshot = readFileSync(`${template}.snapshot`);
  const tableBytes = Number(snapshot.readBigUInt64LE(48));
  const digest = Buffer.alloc(40);
  createHash('sha256').update(snapshot.subarray(96, 96 + tableBytes)).digest().copy(digest); // live count 0
  const chain = Buffer.from('ABCDEFGH');
  const fakeMark = chainedRecord(chain, SNAPSHOT_MARK_KIND, digest, Buffer.alloc(0));
  const fakeHeader = chainedRecord(fakeMark.subarray(-8), 2, Buffer.from('x'), Buffer.alloc(0), 2 ** 29).subarray(0, 13);
  const value = Buffer.concat([chain, fakeMark, fakeHeader, Buffer.from('tail-of-value')]);
  // The victim writes through the API only.
  const path = freshPath();
  const index = FileCuckooIndex.open(path);
  for (let i = 0; i < 10; i++) index.set(`k${i}`, `v${i}`);
  index.set('evil', value);
  for (let i = 10; i < 20; i++) index.set(`k${i}`, `v${i}`);
  index.close();
  const log = readFileSync(path);
  const evil = parseRecords(log).find((record) => record.end - record.start === 13 + 4 + value.length + 8);
  expect(evil).toBeDefined();
  const n = evil.start + 13 + 4 + chain.length;
  expect(log.subarray(n, n + fakeMark.length).equals(fakeMark)).toBe(true);
  // The forgery: the empty table, n at the embedded mark, the prefix hash and the format checksum recomputed.
  const forged = Buffer.from(snapshot);
  forged.writeBigUInt64LE(BigInt(n), 64);
  forged.writeBigUInt64LE(xxh3(log.subarray(0, n)), 72);
  const covered = 56 + snapshot.readUInt32LE(12) + tableBytes;
  forged.writeBigUInt64LE(xxh3(forged.subarray(0, covered)), covered);
  writeFileSync(`${path}.snapshot`, forged);
  const keys = Array.from({ length: 20 }, (_, i) => `k${i}`);
  for (const options of [{ readOnly: true }, {}]) {
    const opened = FileCuckooIndex.open(path, options);
    expect(opened.openReport.snapshotLogBytes).toBe(0);
    expect(keys.filter((key) => !opened.has(key))).toEqual([]);
    expect(Buffer.from(opened.get('evil')).equals(value)).toBe(true);
    opened.close();
  }
  expect(readFileSync(path).subarray(0, log.length).equals(log)).toBe(true);
});
