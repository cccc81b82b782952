// Snapshots of a file index's table (FileCuckooIndex.saveSnapshot, docs/EXACT-INDEX.md):
// opening loads one only when it is whole and describes the start of the log it
// finds, then replays just the records after it. A damaged or mismatched
// snapshot is ignored — the log is replayed — and no committed record is ever
// lost or invented; a log shorter than its snapshot says (records cut off the
// end) is CORRUPT.
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FilterError, deserialize, init } from '../../dist/index.import.cjs';
import { FileCuckooIndex } from '../../dist/index-file.mjs';
import { thrown } from '../helpers/keys.mjs';
/** The snapshot mark a saved snapshot's log ends with (a 13-byte header, 40 bytes, an 8-byte checksum): the snapshot covers the log before it. */
const SNAPSHOT_MARK_RECORD_BYTES = 61;

const INDEX_FILE_MODULE = new URL('../../dist/index-file.mjs', import.meta.url).pathname;

let directory;
beforeAll(async () => {
  await init();
  directory = mkdtempSync(join(tmpdir(), 'cbw-index-snapshot-'));
});
afterAll(() => rmSync(directory, { recursive: true, force: true }));

const FILE_HEADER_BYTES = 16;

/** Applies keys [from, to) to the index and the model: set with a value, every 7th deleted again. */
function write(index, model, from, to) {
  for (let i = from; i < to; i++) {
    const key = `https://site${i % 97}.example/page/${i}`;
    index.set(key, `v${i}`);
    model.set(key, `v${i}`);
    if (i % 7 === 3) {
      index.delete(key);
      model.delete(key);
    }
  }
}

function expectModel(index, model, upTo) {
  expect(index.size).toBe(model.size);
  for (let i = 0; i < upTo; i++) {
    const key = `https://site${i % 97}.example/page/${i}`;
    expect(index.getString(key)).toBe(model.has(key) ? model.get(key) : undefined);
  }
}

/**
 * A log of `count` writes with a snapshot saved after `snapshotAt` of them
 * (closed without the snapshot close would save: close-snapshot.test.mjs).
 */
function logWithSnapshot(name, snapshotAt, count) {
  const path = join(directory, name);
  const model = new Map();
  const index = FileCuckooIndex.open(path, { capacity: 64, snapshotOnClose: false });
  write(index, model, 0, snapshotAt);
  index.saveSnapshot();
  const snapshotLength = statSync(path).size - SNAPSHOT_MARK_RECORD_BYTES;
  write(index, model, snapshotAt, count);
  index.close();
  return { path, model, snapshotLength };
}

test('a saved snapshot is loaded, and only the records after it are replayed', () => {
  const { path, model, snapshotLength } = logWithSnapshot('fresh.log', 3000, 3500);
  const bytes = readFileSync(`${path}.snapshot`);
  expect(bytes.subarray(0, 4).toString('latin1')).toBe('CBWF');
  expect(bytes[6]).toBe(32); // type 32: an index snapshot, not a filter
  const index = FileCuckooIndex.open(path, { capacity: 64, snapshotOnClose: false });
  expect(index.openReport.snapshotLogBytes).toBe(snapshotLength);
  expectModel(index, model, 3600);
  // It goes on: writes, growth, a reopen without a new snapshot.
  write(index, model, 3500, 9000);
  index.close();
  const again = FileCuckooIndex.open(path, { capacity: 64 });
  expect(again.openReport.snapshotLogBytes).toBe(snapshotLength);
  expectModel(again, model, 9100);
  again.close();
});

test('a snapshot is in the byte format but is no filter', () => {
  const { path } = logWithSnapshot('not-a-filter.log', 100, 100);
  const error = thrown(() => deserialize(readFileSync(`${path}.snapshot`)));
  expect(error).toBeInstanceOf(FilterError);
  expect(error.code).toBe('WRONG_TYPE');
});

test('a stale snapshot (from before a compaction) longer than the log is CORRUPT until it is deleted', () => {
  const { path, model } = logWithSnapshot('stale.log', 2000, 2500);
  const old = readFileSync(`${path}.snapshot`);
  const index = FileCuckooIndex.open(path, { capacity: 64 });
  index.compact();
  // Compaction drops the snapshot it outdated, before the new log takes its
  // place, so no crash leaves it beside the shorter log.
  expect(existsSync(`${path}.snapshot`)).toBe(false);
  index.close();
  rmSync(`${path}.snapshot`);
  writeFileSync(`${path}.snapshot`, old); // put back by hand
  const log = readFileSync(path);
  const error = thrown(() => FileCuckooIndex.open(path, { capacity: 64 }));
  expect(error).toEqual(expect.objectContaining({ code: 'CORRUPT' }));
  expect(error.message).toMatch(/delete the snapshot/);
  expect(readFileSync(path)).toEqual(log);
  rmSync(`${path}.snapshot`);
  const reopened = FileCuckooIndex.open(path, { capacity: 64 });
  expect(reopened.openReport.snapshotLogBytes).toBe(0);
  expectModel(reopened, model, 2600);
  reopened.close();
});

test('a snapshot of another log of the same length is ignored', () => {
  const first = logWithSnapshot('first.log', 500, 500);
  const second = join(directory, 'second.log');
  const model = new Map();
  const index = FileCuckooIndex.open(second, { capacity: 64 });
  for (let i = 0; i < 500; i++) {
    // Same lengths as first.log's records, other bytes.
    const key = `https://site${i % 97}.example/page/${i}`.replace('site', 'SITE');
    index.set(key, `v${i}`);
    model.set(key, `v${i}`);
    if (i % 7 === 3) {
      index.delete(key);
      model.delete(key);
    }
  }
  index.close();
  expect(statSync(second).size).toBe(statSync(first.path).size);
  copyFileSync(`${first.path}.snapshot`, `${second}.snapshot`);
  const reopened = FileCuckooIndex.open(second, { capacity: 64 });
  expect(reopened.openReport.snapshotLogBytes).toBe(0);
  expect(reopened.size).toBe(model.size);
  for (const [key, value] of model) expect(reopened.getString(key)).toBe(value);
  expect(reopened.has('https://site0.example/page/0')).toBe(false);
  reopened.close();
});

test('a truncated snapshot is ignored, at every cut', () => {
  const { path, model } = logWithSnapshot('cut-snapshot.log', 60, 80);
  const bytes = readFileSync(`${path}.snapshot`);
  for (let length = 0; length < bytes.length; length += length < 80 ? 1 : 37) {
    writeFileSync(`${path}.snapshot`, bytes.subarray(0, length));
    const index = FileCuckooIndex.open(path);
    expect(index.openReport.snapshotLogBytes).toBe(0);
    expectModel(index, model, 90);
    index.close();
  }
});

test('a snapshot with any flipped byte is ignored', () => {
  const { path, model } = logWithSnapshot('flipped.log', 60, 80);
  const bytes = readFileSync(`${path}.snapshot`);
  for (let at = 0; at < bytes.length; at += at < 120 ? 1 : 13) {
    const damaged = Buffer.from(bytes);
    damaged[at] ^= 0x04;
    writeFileSync(`${path}.snapshot`, damaged);
    const index = FileCuckooIndex.open(path);
    expect(index.openReport.snapshotLogBytes).toBe(0);
    expectModel(index, model, 90);
    index.close();
  }
});

test('a log cut below the length the snapshot covers is CORRUPT: the cut records were committed', () => {
  const path = join(directory, 'cut-log.log');
  const model = new Map();
  const index = FileCuckooIndex.open(path);
  write(index, model, 0, 100);
  index.close();
  const committed = statSync(path).size;
  const committedModel = new Map(model);
  const more = FileCuckooIndex.open(path);
  write(more, model, 100, 200);
  more.saveSnapshot();
  more.close();
  truncateSync(path, committed); // e.g. a restore from an older copy
  for (const options of [{}, { readOnly: true }]) {
    const error = thrown(() => FileCuckooIndex.open(path, options));
    expect(error).toEqual(expect.objectContaining({ code: 'CORRUPT' }));
    expect(error.message).toContain(`the log ends at byte ${committed}`);
    expect(statSync(path).size).toBe(committed);
  }
  // Restored on purpose: deleting the newer snapshot opens the older log.
  rmSync(`${path}.snapshot`);
  const reopened = FileCuckooIndex.open(path);
  expect(reopened.openReport.snapshotLogBytes).toBe(0);
  expectModel(reopened, committedModel, 210);
  reopened.close();
});

test('a damaged record inside the covered prefix is not hidden by the snapshot', () => {
  const { path } = logWithSnapshot('damaged-log.log', 50, 60);
  const bytes = readFileSync(path);
  bytes[FILE_HEADER_BYTES + 12] ^= 0x01; // inside the first record
  writeFileSync(path, bytes);
  expect(() => FileCuckooIndex.open(path)).toThrow(expect.objectContaining({ constructor: FilterError, code: 'CORRUPT' }));
});

test('a snapshot made with another seed or tag width is ignored', () => {
  const { path, model } = logWithSnapshot('options.log', 300, 300);
  for (const options of [{ seed: 5 }, { tagBits: 12 }]) {
    const index = FileCuckooIndex.open(path, options);
    expect(index.openReport.snapshotLogBytes).toBe(0);
    expectModel(index, model, 310);
    index.close();
  }
});

// Whatever sits at <log>.snapshot, or at the log's path, is checked before it
// is read: a FIFO blocked every open (read-only ones too) forever, /dev/zero
// or a huge file was read whole into memory. Each case runs in a child with a
// timeout, since the failure is a hang.
describe('a snapshot or log that is not a regular file, or not as long as it says', () => {
  const mkfifoSync = (path) => execFileSync('mkfifo', [path]);
  const openIn = (log, readOnly) =>
    spawnSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `import { init, FileCuckooIndex } from ${JSON.stringify(INDEX_FILE_MODULE)};
         await init();
         try { const ix = FileCuckooIndex.open(${JSON.stringify(log)}, { readOnly: ${readOnly} });
               console.log('opened', ix.has('apple'), ix.openReport.snapshotLogBytes); ix.close(); }
         catch (e) { console.log(e.code, e.message); }`,
      ],
      { encoding: 'utf8', timeout: 10000 },
    );
  const logWith = (name, makeSnapshot) => {
    const log = join(directory, `${name}.log`);
    const index = FileCuckooIndex.open(log, { snapshotOnClose: false });
    index.set('apple');
    index.close();
    makeSnapshot(`${log}.snapshot`);
    return log;
  };

  test.each([
    ['a FIFO', (path) => mkfifoSync(path)],
    ['a symlink to /dev/zero', (path) => symlinkSync('/dev/zero', path)],
    ['a 1.5 GB sparse file', (path) => { writeFileSync(path, ''); truncateSync(path, 1500 * 2 ** 20); }],
    ['a whole snapshot with bytes appended', null],
  ])('a snapshot that is %s is ignored at once (the log replayed), read-only and writable', (name, make) => {
    const log = logWith(`odd-${name.replace(/\W+/g, '-')}`, make ?? ((path) => {
      const index = FileCuckooIndex.open(path.slice(0, -'.snapshot'.length));
      index.saveSnapshot();
      index.close();
      writeFileSync(path, Buffer.concat([readFileSync(path), Buffer.alloc(8)]));
    }));
    for (const readOnly of [true, false]) {
      const result = openIn(log, readOnly);
      expect(result.error).toBeUndefined(); // no timeout
      expect(result.stdout.trim()).toBe('opened true 0');
    }
  });

  test('a log that is a FIFO: CORRUPT (not a regular file) at once, read-only and writable', () => {
    const log = join(directory, 'fifo.log');
    mkfifoSync(log);
    for (const readOnly of [true, false]) {
      const result = openIn(log, readOnly);
      expect(result.error).toBeUndefined();
      expect(result.stdout.trim()).toMatch(/^CORRUPT .*fifo\.log is not a cuckoo-bloom-wasm index log \(it is not a regular file: a FIFO\)$/);
    }
  });
});
