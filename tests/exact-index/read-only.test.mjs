// FileCuckooIndex.open(path, { readOnly: true }): a reader that never writes
// to the log (another process may be appending to it): no truncation of a
// torn tail, no snapshot, no creation of a missing file, no removal of a
// writer's compaction file, and every write refused with UNSUPPORTED.
import { closeSync, existsSync, openSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync, writeSync } from 'node:fs';
import { FileCuckooIndex } from '../../dist/index-file.mjs';
import { codeOf, logDirectory } from './lib/log-files.mjs';

const freshPath = logDirectory('cbw-index-readonly-');


/** A log of key-0..key-(n-1) with values, closed (and so with a snapshot). */
function writeLog(path, n) {
  const index = FileCuckooIndex.open(path);
  for (let i = 0; i < n; i++) index.set(`key-${i}`, `value-${i}`);
  index.close();
}

test('answers every key and leaves the log, its snapshot and their times untouched', () => {
  const path = freshPath();
  writeLog(path, 500);
  const log = readFileSync(path);
  const snapshot = readFileSync(`${path}.snapshot`);
  const times = [statSync(path).mtimeMs, statSync(`${path}.snapshot`).mtimeMs];
  const index = FileCuckooIndex.open(path, { readOnly: true });
  expect(index.readOnly).toBe(true);
  expect(index.openReport.snapshotLogBytes).toBeGreaterThan(0);
  for (let i = 0; i < 500; i++) expect(index.getString(`key-${i}`)).toBe(`value-${i}`);
  expect(index.has('key-500')).toBe(false);
  index.close();
  expect(readFileSync(path).equals(log)).toBe(true);
  expect(readFileSync(`${path}.snapshot`).equals(snapshot)).toBe(true);
  expect([statSync(path).mtimeMs, statSync(`${path}.snapshot`).mtimeMs]).toEqual(times);
});

test('every write is refused with UNSUPPORTED, and nothing changes', () => {
  const path = freshPath();
  writeLog(path, 50);
  const before = readFileSync(path);
  const index = FileCuckooIndex.open(path, { readOnly: true });
  expect(codeOf(() => index.set('new-key'))).toBe('UNSUPPORTED');
  expect(codeOf(() => index.set('key-1', 'changed'))).toBe('UNSUPPORTED');
  expect(codeOf(() => index.delete('key-2'))).toBe('UNSUPPORTED');
  expect(codeOf(() => index.compact())).toBe('UNSUPPORTED');
  expect(codeOf(() => index.saveSnapshot())).toBe('UNSUPPORTED');
  expect(index.has('new-key')).toBe(false);
  expect(index.getString('key-1')).toBe('value-1');
  expect(index.has('key-2')).toBe(true);
  expect(index.size).toBe(50);
  index.close();
  expect(readFileSync(path).equals(before)).toBe(true);
});

test('a torn last record is ignored, not cut off: a writer may still be appending it', () => {
  const path = freshPath();
  writeLog(path, 100);
  rmSync(`${path}.snapshot`);
  const whole = statSync(path).size;
  // A record being appended: a few bytes of it are in the file so far.
  const fd = openSync(path, 'r+');
  writeSync(fd, new Uint8Array([40, 0, 0, 0, 1, 7]), 0, 6, whole);
  closeSync(fd);
  const torn = readFileSync(path);
  const index = FileCuckooIndex.open(path, { readOnly: true });
  expect(index.openReport.droppedTailBytes).toBe(6);
  expect(index.size).toBe(100);
  for (let i = 0; i < 100; i++) expect(index.has(`key-${i}`)).toBe(true);
  index.close();
  expect(readFileSync(path).equals(torn)).toBe(true);
  // A writable open is what cuts it.
  FileCuckooIndex.open(path, { snapshotOnClose: false }).close();
  expect(statSync(path).size).toBe(whole);
});

test('a missing log is UNAVAILABLE and is not created', () => {
  const path = freshPath();
  expect(codeOf(() => FileCuckooIndex.open(path, { readOnly: true }))).toBe('UNAVAILABLE');
  expect(existsSync(path)).toBe(false);
});

test("a writer's compaction file is left alone", () => {
  const path = freshPath();
  writeLog(path, 10);
  writeFileSync(`${path}.compact`, 'in progress');
  FileCuckooIndex.open(path, { readOnly: true }).close();
  expect(readFileSync(`${path}.compact`, 'utf8')).toBe('in progress');
  // A writable open removes it (a compaction that crashed before its rename).
  FileCuckooIndex.open(path).close();
  expect(existsSync(`${path}.compact`)).toBe(false);
});

test('a log whose header was never finished reads as empty, and stays as it is', () => {
  const path = freshPath();
  writeLog(path, 1);
  truncateSync(path, 7);
  const index = FileCuckooIndex.open(path, { readOnly: true });
  expect(index.size).toBe(0);
  index.close();
  expect(statSync(path).size).toBe(7);
});

test('readOnly, snapshotOnClose and syncEveryWrite must be booleans', () => {
  const path = freshPath();
  writeLog(path, 1);
  for (const name of ['readOnly', 'snapshotOnClose', 'syncEveryWrite']) {
    expect(codeOf(() => FileCuckooIndex.open(path, { [name]: 'yes' }))).toBe('INVALID_ARGUMENT');
  }
});
