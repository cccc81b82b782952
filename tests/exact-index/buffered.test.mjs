// FileCuckooIndex with bufferWrites: appends collected in a 1 MiB buffer and
// written when it fills and at sync/close/saveSnapshot. Answers are the same
// as unbuffered ones (records still in the buffer are read from it), a close
// or sync puts everything on the file, and a crash loses only a suffix of
// what was set: the log is always a prefix of the writes.
import { spawnSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { FileCuckooIndex } from '../../dist/index-file.mjs';
import { prng } from '../helpers/keys.mjs';
import { codeOf, logDirectory } from './lib/log-files.mjs';
import { parseRecords } from './lib/log-records.mjs';
/** The snapshot mark a saved snapshot's log ends with (a 13-byte header, 40 bytes, an 8-byte checksum): the snapshot covers the log before it. */
const SNAPSHOT_MARK_RECORD_BYTES = 61;

const freshPath = logDirectory('cbw-index-buffered-');
const writer = fileURLToPath(new URL('./lib/buffered-writer.mjs', import.meta.url));



test('the same answers and the same log records as an unbuffered index, through random operations', () => {
  const paths = [freshPath(), freshPath()];
  const buffered = FileCuckooIndex.open(paths[0], { bufferWrites: true, capacity: 16 });
  const plain = FileCuckooIndex.open(paths[1], { capacity: 16 });
  const random = prng(99);
  const model = new Map();
  for (let op = 0; op < 60_000; op++) {
    const key = `key-${Math.floor(random() * 4000)}`;
    const roll = random();
    if (roll < 0.5) {
      const value = random() < 0.5 ? undefined : `v${op}`.repeat(1 + Math.floor(random() * 20));
      expect(buffered.set(key, value)).toBe(plain.set(key, value));
      model.set(key, value ?? null);
    } else if (roll < 0.65) {
      expect(buffered.delete(key)).toBe(plain.delete(key));
      model.delete(key);
    } else {
      // A key set a moment ago has its record in the buffer: read from there.
      const expected = model.has(key) ? model.get(key) : undefined;
      expect(buffered.getString(key)).toBe(expected);
    }
    if (op === 30_000) {
      buffered.compact();
      plain.compact();
    }
  }
  buffered.close();
  plain.close();
  // The same records in the same places (the bytes differ only by each log's
  // random id, which every record's checks are chained to).
  const [a, b] = paths.map((path) => readFileSync(path));
  expect(a.length).toBe(b.length);
  expect(a.subarray(0, 12).equals(b.subarray(0, 12))).toBe(true);
  expect(parseRecords(a)).toEqual(parseRecords(b));
  const reopened = FileCuckooIndex.open(paths[0]);
  expect(reopened.size).toBe(model.size);
  for (const [key, value] of model) expect(reopened.getString(key)).toBe(value);
  reopened.close();
});

test('writes reach the file a megabyte at a time, and all of them at sync()', () => {
  const path = freshPath();
  const index = FileCuckooIndex.open(path, { bufferWrites: true, snapshotOnClose: false });
  const empty = statSync(path).size;
  for (let i = 0; i < 1000; i++) index.set(`key-${i}`, `value-${i}`);
  expect(statSync(path).size).toBe(empty); // 1000 small records: all still in the buffer
  index.sync();
  const synced = statSync(path).size;
  expect(synced).toBe(index.stats().logBytes);
  for (let i = 1000; i < 40_000; i++) index.set(`key-${i}`, `value-${i}`);
  // Past a megabyte some buffers were written, and at most one megabyte waits.
  expect(statSync(path).size).toBeGreaterThan(synced);
  expect(index.stats().logBytes - statSync(path).size).toBeLessThanOrEqual(1 << 20);
  const logBytes = index.stats().logBytes;
  index.close();
  expect(statSync(path).size).toBe(logBytes + 21); // and the close marker
});

test('a crash loses only records still in the buffer: the log is a prefix of the writes', () => {
  for (const [count, syncAfter] of [
    [30_000, 0],
    [30_000, 25_000],
    [500, 500],
  ]) {
    const path = freshPath();
    const child = spawnSync(process.execPath, [writer, path, String(count), String(syncAfter)], { encoding: 'utf8' });
    expect(child.status).toBe(0);
    const index = FileCuckooIndex.open(path, { readOnly: true });
    const kept = index.size;
    // Everything up to the sync is there; what follows is a prefix, no gaps.
    expect(kept).toBeGreaterThanOrEqual(syncAfter);
    for (let i = 0; i < count; i++) {
      expect(index.has(`key-${i}`)).toBe(i < kept);
      if (i < kept && i % 997 === 0) expect(index.getString(`key-${i}`)).toBe(`value-${i}`);
    }
    if (syncAfter === count) expect(kept).toBe(count);
    index.close();
  }
});

test('bufferWrites contradicts syncEveryWrite and readOnly', () => {
  const path = freshPath();
  FileCuckooIndex.open(path).close();
  expect(codeOf(() => FileCuckooIndex.open(path, { bufferWrites: true, syncEveryWrite: true }))).toBe('INVALID_ARGUMENT');
  expect(codeOf(() => FileCuckooIndex.open(path, { bufferWrites: true, readOnly: true }))).toBe('INVALID_ARGUMENT');
  expect(codeOf(() => FileCuckooIndex.open(path, { bufferWrites: 1 }))).toBe('INVALID_ARGUMENT');
});

test('a snapshot saved with records in the buffer describes the file as written', () => {
  const path = freshPath();
  const index = FileCuckooIndex.open(path, { bufferWrites: true });
  for (let i = 0; i < 2000; i++) index.set(`key-${i}`, `value-${i}`);
  index.saveSnapshot();
  index.close();
  const reopened = FileCuckooIndex.open(path, { readOnly: true });
  expect(reopened.openReport.snapshotLogBytes).toBe(statSync(path).size - SNAPSHOT_MARK_RECORD_BYTES);
  expect(reopened.size).toBe(2000);
  reopened.close();
});

test('a record larger than the buffer is written at once, after what the buffer holds, in order', () => {
  const path = freshPath();
  const index = FileCuckooIndex.open(path, { bufferWrites: true, snapshotOnClose: false });
  const big = new Uint8Array(3 << 20);
  for (let i = 0; i < big.length; i++) big[i] = (i * 31) & 255;
  // Buffer#equals: Jest's toEqual walks 3M elements one by one.
  const same = (bytes) => bytes instanceof Uint8Array && Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).equals(big);
  index.set('before', 'small');
  index.set('big', big);
  index.set('after', 'small too');
  expect(same(index.get('big'))).toBe(true);
  expect(index.getString('before')).toBe('small');
  index.compact(); // buffered into its new file, then back to this index's mode
  expect(same(index.get('big'))).toBe(true);
  index.set('after compact', 'x');
  index.close();
  const reopened = FileCuckooIndex.open(path, { readOnly: true });
  expect(same(reopened.get('big'))).toBe(true);
  expect(reopened.getString('before')).toBe('small');
  expect(reopened.getString('after')).toBe('small too');
  expect(reopened.getString('after compact')).toBe('x');
  reopened.close();
});
