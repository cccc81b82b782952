// Version-1 logs (written before record headers carried their own check):
// fixtures/v1.log, 14 records in the version-1 layout (keys v1-key-0..11, a
// value on those not divisible by 3, v1-key-4 updated to "updated",
// v1-key-6 deleted), still opens and answers, read-only and for writing; its
// new records stay version 1 until compact() rewrites it as version 3. A
// record running past the end of a version-1 log is CORRUPT (it cannot be
// told from a damaged length) unless dropTornTail: true asks to drop it.
import { copyFileSync, readFileSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { FileCuckooIndex } from '../../dist/index-file.mjs';
import { codeOf, logDirectory } from './lib/log-files.mjs';
import { expectAnswers, fileState, keysOf, logVersion, modelOf, parseRecords } from './lib/log-records.mjs';
import { thrown } from '../helpers/keys.mjs';

const freshPath = logDirectory('cbw-index-v1-');
const fixture = fileURLToPath(new URL('./fixtures/v1.log', import.meta.url));
const fixtureBytes = readFileSync(fixture);
const records = parseRecords(fixtureBytes);

function copyFixture() {
  const path = freshPath();
  copyFileSync(fixture, path);
  return path;
}

function expectFixtureAnswers(index, model = modelOf(records)) {
  expectAnswers(index, model, keysOf(records));
}

/**
 * Opening `path` with each of `optionsList` is CORRUPT, with a message containing every one
 * of `parts`, and leaves the file byte for byte as it was. Returns the file's state.
 */
function expectCorruptAndUntouched(path, optionsList, parts) {
  const before = fileState(path);
  for (const options of optionsList) {
    const error = thrown(() => FileCuckooIndex.open(path, options).close());
    expect(error.code).toBe('CORRUPT');
    for (const part of parts) expect(error.message).toContain(part);
    expect(fileState(path)).toEqual(before);
  }
  return before;
}

test('the fixture is what it says', () => {
  expect(logVersion(fixtureBytes)).toBe(1);
  expect(records).toHaveLength(14);
  const model = modelOf(records);
  expect(model.get('v1-key-0')).toBe(null);
  expect(model.get('v1-key-1')).toBe('v1-value-1');
  expect(model.get('v1-key-4')).toBe('updated');
  expect(model.has('v1-key-6')).toBe(false);
});

test('a version-1 log opens and answers, read-only (untouched) and for writing', () => {
  const path = copyFixture();
  const before = fileState(path);
  const reader = FileCuckooIndex.open(path, { readOnly: true });
  expect(reader.openReport.logVersion).toBe(1);
  expectFixtureAnswers(reader);
  reader.close();
  expect(fileState(path)).toEqual(before);

  const writer = FileCuckooIndex.open(path, { snapshotOnClose: false });
  expect(writer.openReport.logVersion).toBe(1);
  expectFixtureAnswers(writer);
  // Opening rewrote nothing.
  expect(readFileSync(path)).toEqual(fixtureBytes);
  // A new record is a version-1 record: the file stays one layout.
  writer.set('after-v1', 'x');
  writer.close();
  const grown = readFileSync(path);
  expect(logVersion(grown)).toBe(1);
  const all = parseRecords(grown);
  expect(all).toHaveLength(15);
  expect(all[14].end - all[14].start).toBe(9 + 'after-v1'.length + 1 + 8);

  // compact() rewrites it as version 3, with the same answers.
  const again = FileCuckooIndex.open(path, { snapshotOnClose: false });
  again.compact();
  expect(logVersion(readFileSync(path))).toBe(3);
  again.close();
  const compacted = FileCuckooIndex.open(path, { readOnly: true });
  expect(compacted.openReport.logVersion).toBe(3);
  const model = modelOf(records);
  model.set('after-v1', 'x');
  expectAnswers(compacted, model, [...keysOf(records), 'after-v1']);
  compacted.close();
});

test('a version-1 record running past the end is CORRUPT, untouched, unless dropTornTail asks to drop it', () => {
  const last = records[records.length - 1];
  for (const length of [last.start + 17, last.end - 1]) {
    const path = copyFixture();
    truncateSync(path, length);
    const before = expectCorruptAndUntouched(path, [{}, { readOnly: true }], [`the record at byte ${last.start} is damaged`, 'dropTornTail']);
    const reader = FileCuckooIndex.open(path, { readOnly: true, dropTornTail: true });
    expect(reader.openReport.droppedTailBytes).toBe(length - last.start);
    expectFixtureAnswers(reader, modelOf(records, records.length - 1));
    reader.close();
    expect(fileState(path)).toEqual(before);
    const writer = FileCuckooIndex.open(path, { dropTornTail: true, snapshotOnClose: false });
    expectFixtureAnswers(writer, modelOf(records, records.length - 1));
    writer.close();
    expect(statSync(path).size).toBe(last.start);
  }
});

test('fewer bytes than the smallest record at the end are a torn tail even in version 1', () => {
  const last = records[records.length - 1];
  for (let length = last.start + 1; length < last.start + 17; length++) {
    const path = copyFixture();
    truncateSync(path, length);
    const index = FileCuckooIndex.open(path, { snapshotOnClose: false });
    expect(index.openReport.droppedTailBytes).toBe(length - last.start);
    expectFixtureAnswers(index, modelOf(records, records.length - 1));
    index.close();
    expect(statSync(path).size).toBe(last.start);
  }
});

test('a damaged version-1 length with whole records after it is CORRUPT even with dropTornTail', () => {
  const path = copyFixture();
  const damaged = Buffer.from(fixtureBytes);
  damaged[records[3].start + 2] ^= 0x01; // record 3's key length + 65,536: it "runs past the end"
  writeFileSync(path, damaged);
  expectCorruptAndUntouched(path, [{}, { dropTornTail: true }, { dropTornTail: true, readOnly: true }], [
    `the record at byte ${records[3].start} is damaged`,
    `a whole record follows it at byte ${records[4].start}`,
  ]);
  expect(codeOf(() => FileCuckooIndex.open(path, { dropTornTail: 'yes' }))).toBe('INVALID_ARGUMENT');
  // repair keeps every record but the damaged one (it resumes at record 4), unchanged: version 1 has no chain.
  const report = FileCuckooIndex.repair(path);
  const moved = records[4].start - records[3].start;
  expect(report).toEqual(
    expect.objectContaining({ logVersion: 1, recordsKept: records.length - 1, keptBytes: fixtureBytes.length - moved, movedBytes: moved }),
  );
  expect(readFileSync(path)).toEqual(Buffer.concat([damaged.subarray(0, records[3].start), damaged.subarray(records[4].start)]));
  const kept = records.filter((_, i) => i !== 3);
  const index = FileCuckooIndex.open(path, { readOnly: true });
  expectAnswers(index, modelOf(kept), keysOf(records));
  index.close();
});
