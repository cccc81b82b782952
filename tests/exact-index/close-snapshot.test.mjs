// FileCuckooIndex.close() saves a snapshot when the log changed since the one
// loaded on open or last saved (docs/EXACT-INDEX.md), so the next open loads it
// instead of replaying the log; a close that changed nothing writes nothing;
// `snapshotOnClose: false` turns it off; a crash (no close) still reopens by
// replay; and a snapshot that cannot be saved still closes the file.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, readlinkSync, rmSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { FilterError } from '../../dist/index.import.cjs';
import { FileCuckooIndex } from '../../dist/index-file.mjs';
import { thrown } from '../helpers/keys.mjs';
import { codeOf, logDirectory } from './lib/log-files.mjs';
/** The snapshot mark a saved snapshot's log ends with (a 13-byte header, 40 bytes, an 8-byte checksum): the snapshot covers the log before it. */
const SNAPSHOT_MARK_RECORD_BYTES = 61;

const freshPath = logDirectory('cbw-index-close-');

function write(index, from, to) {
  for (let i = from; i < to; i++) index.set(`key-${i}`, `value-${i}`);
}

/** Every key-i below `to` answers value-i; none at or past it. */
function expectKeys(index, to) {
  expect(index.size).toBe(to);
  const wrong = [];
  for (let i = 0; i < to + 10; i++) if (index.getString(`key-${i}`) !== (i < to ? `value-${i}` : undefined)) wrong.push(i);
  expect(wrong).toEqual([]);
}

/** Opens the log at `path`, writes key-i for i in [from, to), and closes it. */
function writeAndClose(path, from, to, options) {
  const index = FileCuckooIndex.open(path, options);
  write(index, from, to);
  index.close();
}

/** Opens `path` again: its snapshot covers `snapshotLogBytes` of the log (0: none loaded) and keys below `to` answer. */
function expectReopened(path, to, snapshotLogBytes) {
  const reopened = FileCuckooIndex.open(path);
  expect(reopened.openReport.snapshotLogBytes).toBe(snapshotLogBytes);
  expectKeys(reopened, to);
  reopened.close();
}

test('a close after writes saves a snapshot that the next open loads', () => {
  const path = freshPath();
  writeAndClose(path, 0, 2000);
  expect(existsSync(`${path}.snapshot`)).toBe(true);
  const reopened = FileCuckooIndex.open(path);
  expect(reopened.openReport.snapshotLogBytes).toBe(statSync(path).size - SNAPSHOT_MARK_RECORD_BYTES);
  expectKeys(reopened, 2000);
  // More writes, another close: the snapshot follows the log.
  write(reopened, 2000, 2500);
  reopened.close();
  expectReopened(path, 2500, statSync(path).size - SNAPSHOT_MARK_RECORD_BYTES);
});

test('a read-only open and close leaves the snapshot file as it was', () => {
  const path = freshPath();
  writeAndClose(path, 0, 1000);
  const before = statSync(`${path}.snapshot`);
  const bytes = readFileSync(`${path}.snapshot`);
  const reader = FileCuckooIndex.open(path);
  expect(reader.openReport.snapshotLogBytes).toBeGreaterThan(0);
  expectKeys(reader, 1000);
  reader.delete('no-such-key'); // absent: writes nothing
  reader.close();
  const after = statSync(`${path}.snapshot`);
  expect(after.mtimeMs).toBe(before.mtimeMs);
  expect(after.ino).toBe(before.ino); // not replaced by a rename either
  expect(readFileSync(`${path}.snapshot`)).toEqual(bytes);
  // An empty log opened and closed gets no snapshot at all.
  const empty = freshPath();
  FileCuckooIndex.open(empty).close();
  expect(existsSync(`${empty}.snapshot`)).toBe(false);
});

test('snapshotOnClose: false writes no snapshot, and the next open replays the log', () => {
  const path = freshPath();
  writeAndClose(path, 0, 500, { snapshotOnClose: false });
  expect(existsSync(`${path}.snapshot`)).toBe(false);
  // With a snapshot saved by hand, later writes do not update it at close.
  const again = FileCuckooIndex.open(path, { snapshotOnClose: false });
  expect(again.openReport.snapshotLogBytes).toBe(0);
  again.saveSnapshot();
  const saved = readFileSync(`${path}.snapshot`);
  const savedLength = statSync(path).size - SNAPSHOT_MARK_RECORD_BYTES;
  write(again, 500, 600);
  again.close();
  expect(readFileSync(`${path}.snapshot`)).toEqual(saved);
  expectReopened(path, 600, savedLength);
  expect(codeOf(() => FileCuckooIndex.open(path, { snapshotOnClose: 'yes' }))).toBe('INVALID_ARGUMENT');
});

test('a crash (no close) leaves the records after the last snapshot to be replayed', () => {
  const child = fileURLToPath(new URL('./lib/exit-without-close.mjs', import.meta.url));
  const crash = (path, from, to) => {
    const result = spawnSync(process.execPath, [child, path, String(from), String(to)], { stdio: 'inherit' });
    expect(result.status).toBe(0);
  };
  // No snapshot ever: the whole log is replayed.
  const path = freshPath();
  crash(path, 0, 300);
  expect(existsSync(`${path}.snapshot`)).toBe(false);
  expectReopened(path, 300, 0); // read-only: still no snapshot
  expect(existsSync(`${path}.snapshot`)).toBe(false);
  // A snapshot from a clean close, then a crash: it is loaded, the rest replayed.
  writeAndClose(path, 300, 400);
  const covered = statSync(path).size - SNAPSHOT_MARK_RECORD_BYTES;
  crash(path, 400, 700);
  expect(statSync(path).size).toBeGreaterThan(covered);
  expectReopened(path, 700, covered);
});

test('a compaction drops the snapshot; the close after it saves one of the new log', () => {
  const path = freshPath();
  const index = FileCuckooIndex.open(path);
  write(index, 0, 800);
  for (let i = 0; i < 800; i += 2) index.set(`key-${i}`, `value-${i}`); // dead records to drop
  index.close();
  const compacting = FileCuckooIndex.open(path);
  expect(compacting.openReport.snapshotLogBytes).toBeGreaterThan(0);
  compacting.compact();
  expect(existsSync(`${path}.snapshot`)).toBe(false);
  compacting.close();
  const reopened = FileCuckooIndex.open(path);
  expect(reopened.openReport.snapshotLogBytes).toBe(statSync(path).size - SNAPSHOT_MARK_RECORD_BYTES);
  expect(reopened.stats().deadRecords).toBe(0);
  expectKeys(reopened, 800);
  reopened.close();
});

function readlinkOrEmpty(path) {
  try {
    return readlinkSync(path);
  } catch {
    return ''; // the directory's own descriptor, closed by now
  }
}

test('a snapshot that cannot be saved: close throws UNAVAILABLE, and the file is closed all the same', () => {
  const path = freshPath();
  const index = FileCuckooIndex.open(path);
  write(index, 0, 100);
  // The snapshot is written to path.snapshot.tmp first: a directory there makes that fail.
  mkdirSync(`${path}.snapshot.tmp`);
  // Files only: a writer also holds its lock's socket (docs/EXACT-INDEX.md, "One writer per log"), closed by close() too.
  const descriptors = () =>
    existsSync('/proc/self/fd')
      ? readdirSync('/proc/self/fd').filter((fd) => !readlinkOrEmpty(`/proc/self/fd/${fd}`).startsWith('socket:')).length
      : undefined;
  const openBefore = descriptors();
  const error = thrown(() => index.close());
  expect(error).toBeInstanceOf(FilterError);
  expect(error.code).toBe('UNAVAILABLE');
  expect(error.cause).toBeDefined();
  if (openBefore !== undefined) expect(descriptors()).toBe(openBefore - 1); // the log's descriptor
  expect(codeOf(() => index.has('key-1'))).toBe('FREED');
  expect(codeOf(() => index.close())).toBe('no error'); // idempotent: nothing left to save or close
  expect(existsSync(`${path}.snapshot`)).toBe(false);
  rmSync(`${path}.snapshot.tmp`, { recursive: true });
  expectReopened(path, 100, 0);
});

test('close after free() saves nothing and does not throw', () => {
  const path = freshPath();
  const index = FileCuckooIndex.open(path);
  write(index, 0, 10);
  index.free();
  expect(codeOf(() => index.close())).toBe('no error');
  expect(existsSync(`${path}.snapshot`)).toBe(false);
  const reopened = FileCuckooIndex.open(path);
  expectKeys(reopened, 10);
  reopened.close();
});
