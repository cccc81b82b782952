// Version-3 index logs: every record's checks are chained to the 8 bytes
// before it (the previous record's checksum; for the first, the header's
// version and random log id), and a clean close appends a close marker.
// - The fault model (lib/faults.mjs) over a cleanly closed log: every record
//   cut out, every pair of neighbours swapped, a valid record of another log
//   (same key, same value) inserted at or copied over every place, one bit
//   flipped in every byte of the last record, the log truncated inside its
//   last records: open (writable and read-only) is CORRUPT naming the offset,
//   and no file changes. With the snapshot close saved beside the log, and
//   without it (where cutting the snapshot mark at the end, which holds no
//   record, and truncation look like a crash). A crash mid-write is the one
//   fault opening drops.
// - One forged file cannot hide a key: a crafted snapshot (a slot dropped,
//   two offsets swapped, a slot sent back to an older record, its checksum
//   recomputed) matches no snapshot mark in the log, so it is ignored and the
//   log replayed; a writable session's close then saves a genuine one.
// - repair resynchronises: one flipped bit in a 200,000-record log costs one record.
import { copyFileSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { FilterError } from '../../dist/index.import.cjs';
import { FileCuckooIndex } from '../../dist/index-file.mjs';
import { logDirectory } from './lib/log-files.mjs';
import { expectAnswers, fileState, keysOf, logVersion, modelOf, parseRecords } from './lib/log-records.mjs';
import { crashes, cuts, flips, reorders, splices, truncations } from './lib/faults.mjs';
import { xxh3 } from '../helpers/xxh3.mjs';

const freshPath = logDirectory('cbw-index-records-');

/** 24 records (puts with and without values, an update, a delete), the close marker and the snapshot mark; returns the log's bytes. */
function writeLog(path) {
  const index = FileCuckooIndex.open(path);
  for (let i = 0; i < 22; i++) index.set(`key-${i}`, i % 3 === 0 ? undefined : `value-${i}`);
  index.set('key-4', 'updated');
  index.delete('key-7');
  index.close();
  return readFileSync(path);
}

/** The files beside `path` that share its name. */
function siblings(path) {
  return readdirSync(dirname(path))
    .filter((name) => name.startsWith(basename(path)))
    .sort();
}

/**
 * Writes `bytes` as a log (with `snapshot` beside it, or none) and expects
 * every open to be CORRUPT naming byte `offset`, changing no file. Returns
 * a description of each open that was not (empty when all were).
 */
function corruptFailures(path, bytes, snapshot, offset) {
  writeFileSync(path, bytes);
  rmSync(`${path}.snapshot`, { force: true });
  if (snapshot !== undefined) writeFileSync(`${path}.snapshot`, snapshot);
  const before = fileState(path);
  const files = siblings(path);
  const failures = [];
  for (const options of [{}, { readOnly: true }]) {
    let error;
    try {
      FileCuckooIndex.open(path, options).close();
    } catch (caught) {
      error = caught;
    }
    const ok = error instanceof FilterError && error.code === 'CORRUPT' && error.message.includes(`byte ${offset}`);
    if (!ok) failures.push(`${JSON.stringify(options)}: ${error?.message ?? 'opened'}`);
    const after = fileState(path);
    if (after.sha256 !== before.sha256 || after.size !== before.size) failures.push(`${JSON.stringify(options)}: the log changed`);
    if (siblings(path).join() !== files.join()) failures.push(`${JSON.stringify(options)}: files changed: ${siblings(path)}`);
  }
  return failures;
}

describe('a cleanly closed version-3 log: every cut, swap, splice and last-record flip is CORRUPT', () => {
  let bytes;
  let records;
  let snapshot;
  let foreign;
  beforeAll(() => {
    const path = freshPath('clean.log');
    bytes = writeLog(path);
    snapshot = readFileSync(`${path}.snapshot`);
    records = parseRecords(bytes);
    // Another log written the same way: the same records, byte for byte but for their checks.
    const other = writeLog(freshPath('other.log'));
    foreign = parseRecords(other).map((record) => other.subarray(record.start, record.end));
  });

  test('the log is version 3, closed with a marker and a snapshot mark, and whole it opens from its snapshot', () => {
    expect(logVersion(bytes)).toBe(3);
    expect(records).toHaveLength(26);
    expect(records[24]).toEqual(expect.objectContaining({ kind: 4, key: '' }));
    // The snapshot mark: kind 5, 40 bytes (SHA-256 of the table's slots, its live keys), at the length the snapshot covers.
    expect(records[25]).toEqual(expect.objectContaining({ kind: 5, end: bytes.length }));
    expect(records[25].key).toHaveLength(40);
    // The other log holds the same records in the same places.
    expect(foreign.map((record) => record.length)).toEqual(records.map((record) => record.end - record.start));
    const path = freshPath();
    writeFileSync(path, bytes);
    writeFileSync(`${path}.snapshot`, snapshot);
    const index = FileCuckooIndex.open(path, { readOnly: true });
    expect(index.openReport.snapshotLogBytes).toBe(records[25].start);
    expectAnswers(index, modelOf(records), keysOf(records));
    index.close();
  });

  describe.each([
    ['with the snapshot close saved', true],
    ['without a snapshot', false],
  ])('%s', (_label, withSnapshot) => {
    const sweep = (makeCases) => {
      const path = freshPath();
      const failures = [];
      let cases = 0;
      for (const { name, damaged, offset } of makeCases()) {
        cases++;
        for (const failure of corruptFailures(path, damaged, withSnapshot ? snapshot : undefined, offset)) {
          failures.push(`${name}: ${failure}`);
        }
      }
      expect(failures.slice(0, 5)).toEqual([]);
      return cases;
    };

    test('every record cut out', () => {
      // Cutting the snapshot mark at the end, which holds no record, leaves a
      // log a clean close without a snapshot leaves: only the snapshot tells.
      const cases = sweep(() => cuts(bytes, records, withSnapshot ? records.length : records.length - 1));
      expect(cases).toBe(withSnapshot ? 26 : 25);
    });

    test('every pair of neighbouring records swapped', () => {
      expect(sweep(() => reorders(bytes, records))).toBe(25);
    });

    test("another log's record inserted at every place, and copied over every record", () => {
      expect(sweep(() => splices(bytes, records, foreign))).toBe(27 + 26);
    });

    test('one bit flipped in every byte of the last record (and, with the snapshot, of the close marker and the snapshot mark)', () => {
      const last = records.length - 3; // the last record with a key: the delete of key-7
      expect(records[last]).toEqual(expect.objectContaining({ kind: 3, key: 'key-7' }));
      const end = withSnapshot ? bytes.length : records[last].end;
      expect(sweep(() => flips(bytes, records, records[last].start, end))).toBe(end - records[last].start);
    });

    if (withSnapshot) {
      test('the log cut at every byte of its last three records (the snapshot covered the first two, its mark the third)', () => {
        const from = records[records.length - 3].start;
        expect(sweep(() => truncations(bytes, records, from))).toBe(bytes.length - from);
      });
    }
  });

  test('a crash while writing the last record (no close marker, no snapshot) is the one fault opening drops', () => {
    // The log as the writer left it before close: without its close marker (and snapshot mark).
    const crashed = bytes.subarray(0, records[records.length - 2].start);
    const last = records.length - 3;
    const path = freshPath();
    let cases = 0;
    for (const { damaged, kept } of crashes(crashed, records, last)) {
      writeFileSync(path, damaged);
      const index = FileCuckooIndex.open(path, { snapshotOnClose: false });
      expect(index.openReport.droppedTailBytes).toBe(damaged.length - kept);
      expectAnswers(index, modelOf(records, last), keysOf(records));
      index.close();
      cases++;
    }
    expect(cases).toBe(records[last].end - records[last].start);
  });
});

// ---- Snapshots: a snapshot can cost time, never a record. ----

/** The slot words of a snapshot (docs/FORMAT.md, type 32) and a function that re-seals the bytes. */
function snapshotSlots(bytes) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
  const payload = 56 + view.getUint32(12, true);
  const slots = Number(view.getBigUint64(48, true)) / 8;
  return {
    get: (i) => view.getBigUint64(payload + 8 * i, true),
    set: (i, word) => view.setBigUint64(payload + 8 * i, word, true),
    occupied: () => Array.from({ length: slots }, (_, i) => i).filter((i) => (view.getBigUint64(payload + 8 * i, true) & 3n) === 1n),
    setItemCount: (count) => view.setBigUint64(24, BigInt(count), true),
    itemCount: () => Number(view.getBigUint64(24, true)),
    seal: () => view.setBigUint64(bytes.length - 8, xxh3(bytes.subarray(0, bytes.length - 8)), true),
  };
}

const OFFSET_SHIFT = 26n;
const LOW_BITS = (1n << OFFSET_SHIFT) - 1n;

describe.each([
  [
    'one slot dropped',
    (slots) => {
      const [first] = slots.occupied();
      slots.set(first, 0n);
      slots.setItemCount(slots.itemCount() - 1);
    },
  ],
  [
    'two offsets swapped',
    (slots) => {
      const [a, b] = slots.occupied();
      const wordA = slots.get(a);
      const wordB = slots.get(b);
      slots.set(a, (wordA & LOW_BITS) | (wordB & ~LOW_BITS));
      slots.set(b, (wordB & LOW_BITS) | (wordA & ~LOW_BITS));
    },
  ],
  [
    // A key set twice: its slot sent back to the first of its records (the update lost).
    "a slot pointed at its key's older record",
    (slots, records) => {
      const newer = records.findLast((record) => record.key.endsWith('/9') && record.kind === 2);
      const older = records.find((record) => record.key === newer.key);
      expect(older.start).toBeLessThan(newer.start);
      const slot = slots.occupied().find((i) => slots.get(i) >> OFFSET_SHIFT === BigInt(newer.start));
      slots.set(slot, (slots.get(slot) & LOW_BITS) | (BigInt(older.start) << OFFSET_SHIFT));
    },
  ],
])('a crafted snapshot (%s, checksum recomputed): one forged file cannot hide a key', (_name, craft) => {
  test('is ignored (no snapshot mark in the log vouches for its table): every key is found, also after a writable session closes', () => {
    const path = freshPath();
    const index = FileCuckooIndex.open(path);
    for (let i = 0; i < 300; i++) index.set(`https://site-${i % 17}.example/${i}`, i % 2 === 0 ? `v${i}` : undefined);
    for (let i = 0; i < 300; i += 10) index.delete(`https://site-${i % 17}.example/${i}`);
    index.set('https://site-9.example/9', 'updated');
    index.close();
    const records = parseRecords(readFileSync(path));
    const model = modelOf(records);
    const snapshot = readFileSync(`${path}.snapshot`);
    craft(snapshotSlots(snapshot), records);
    snapshotSlots(snapshot).seal();
    writeFileSync(`${path}.snapshot`, snapshot);

    // The crafted snapshot decodes, and matches the log's length and checksum,
    // but the mark at that length is of the genuine table: ignored, the log replayed.
    for (const options of [{ readOnly: true }, {}]) {
      const opened = FileCuckooIndex.open(path, options);
      expect(opened.openReport.snapshotLogBytes).toBe(0);
      expectAnswers(opened, model, keysOf(records));
      expect(opened.size).toBe(model.size);
      if (!options.readOnly) {
        opened.set('https://after.example/', 'written');
        model.set('https://after.example/', 'written');
      }
      // The writable session's close saves a snapshot of the replayed table.
      opened.close();
    }
    const reopened = FileCuckooIndex.open(path, { readOnly: true });
    expect(reopened.openReport.snapshotLogBytes).toBeGreaterThan(0); // the genuine snapshot close saved
    expectAnswers(reopened, model, keysOf(records));
    expect(reopened.size).toBe(model.size);
    reopened.close();
    // compact() from there writes every record too.
    const compacting = FileCuckooIndex.open(path);
    compacting.compact();
    compacting.close();
    rmSync(`${path}.snapshot`);
    const compacted = FileCuckooIndex.open(path, { readOnly: true });
    expectAnswers(compacted, model, keysOf(records));
    compacted.close();
  });
});

// ---- repair: resynchronise after the damage. ----

test('one flipped bit at byte 8,000,000 of a 200,000-record log: repair keeps 199,999 records and moves 1 aside', () => {
  const path = freshPath('big.log');
  const index = FileCuckooIndex.open(path, { bufferWrites: true, snapshotOnClose: false, capacity: 200_000 });
  for (let i = 0; i < 200_000; i++) index.set(`https://host-${i % 1000}.example/path/${i}`, i % 4 === 0 ? undefined : `${i}`);
  index.close();
  const bytes = readFileSync(path);
  expect(bytes.length).toBeGreaterThan(8_000_000);
  const records = parseRecords(bytes);
  expect(records).toHaveLength(200_001); // and the close marker
  const hit = records.findIndex((record) => record.start <= 8_000_000 && 8_000_000 < record.end);
  const damaged = Buffer.from(bytes);
  damaged[8_000_000] ^= 0x10;
  writeFileSync(path, damaged);
  expect(() => FileCuckooIndex.open(path, { readOnly: true })).toThrow(expect.objectContaining({ code: 'CORRUPT' }));

  const report = FileCuckooIndex.repair(path);
  expect(report.recordsKept).toBe(200_000); // 199,999 records and the close marker
  expect(report.moved).toEqual([
    { offset: records[hit].start, bytes: records[hit].end - records[hit].start, file: `${path}.damaged-at-${records[hit].start}` },
  ]);
  expect(readFileSync(report.movedTo)).toEqual(damaged.subarray(records[hit].start, records[hit].end));
  // Every other record is in the repaired log, in order (re-chained: same contents).
  const kept = records.filter((_, i) => i !== hit);
  const after = parseRecords(readFileSync(path));
  expect(after).toHaveLength(kept.length);
  const differs = (a, b) => a.kind !== b.kind || a.key !== b.key || a.value !== b.value;
  expect(after.findIndex((record, i) => differs(record, kept[i]))).toBe(-1);
  // And it opens and answers (every 100th key, and the damaged record's neighbours).
  const repaired = FileCuckooIndex.open(path, { readOnly: true, capacity: 200_000 });
  expect(repaired.size).toBe(199_999);
  for (let i = 0; i < 200_000; i++) {
    if (i % 100 !== 0 && Math.abs(i - hit) > 2) continue;
    const key = `https://host-${i % 1000}.example/path/${i}`;
    expect(repaired.getString(key)).toBe(i === hit ? undefined : i % 4 === 0 ? null : `${i}`);
  }
  repaired.close();
  // Whole now: a second repair changes nothing.
  expect(FileCuckooIndex.repair(path).movedBytes).toBe(0);
});

// ---- Older logs still open: version 2 (fixtures/v2.log, written by the build before version 3). ----

test('a version-2 log opens, keeps getting version-2 records, and compact() makes it version 3', () => {
  const fixture = readFileSync(new URL('./fixtures/v2.log', import.meta.url));
  expect(logVersion(fixture)).toBe(2);
  const records = parseRecords(fixture);
  const model = modelOf(records);
  const path = freshPath();
  copyFileSync(new URL('./fixtures/v2.log', import.meta.url), path);
  const reader = FileCuckooIndex.open(path, { readOnly: true });
  expect(reader.openReport.logVersion).toBe(2);
  expectAnswers(reader, model, keysOf(records));
  reader.close();
  expect(readFileSync(path)).toEqual(fixture);
  const writer = FileCuckooIndex.open(path, { snapshotOnClose: false });
  writer.set('after-v2', 'x');
  writer.close();
  const grown = readFileSync(path);
  expect(logVersion(grown)).toBe(2);
  // No close marker in a version-2 log: one more version-2 record (13 + 8 + 1 + 8 bytes).
  expect(grown.length).toBe(fixture.length + 13 + 8 + 1 + 8);
  model.set('after-v2', 'x');
  const again = FileCuckooIndex.open(path, { snapshotOnClose: false });
  again.compact();
  again.close();
  expect(logVersion(readFileSync(path))).toBe(3);
  const compacted = FileCuckooIndex.open(path, { readOnly: true });
  expectAnswers(compacted, model, [...keysOf(records), 'after-v2']);
  compacted.close();
});
