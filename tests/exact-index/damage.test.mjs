// Damage is told from a torn tail (log versions 2 and 3: every record header
// carries its own check), and opening never changes a damaged file:
// - every bit of every record-header byte of a 40-record log (and its close
//   marker) flipped, one at a
//   time: open (writable and read-only) is CORRUPT naming the record's byte
//   offset, the log is byte-for-byte unchanged (hash, size, mtime) and no file
//   is left beside it; also with a valid snapshot beside the log;
// - the log cut at every offset: only the torn tail is dropped, every whole
//   record before it is kept;
// - repair keeps every whole record, before and after the damage, and moves
//   only the damaged record aside, byte for byte.
import { copyFileSync, mkdtempSync, openSync, closeSync, readdirSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FilterError, init } from '../../dist/index.import.cjs';
import { FileCuckooIndex } from '../../dist/index-file.mjs';
import { expectAnswers, fileState, keysOf, logVersion, modelOf, parseRecords } from './lib/log-records.mjs';

let directory;
beforeAll(async () => {
  await init();
  directory = mkdtempSync(join(tmpdir(), 'cbw-index-damage-'));
});
afterAll(() => rmSync(directory, { recursive: true, force: true }));

/** 40 records: 34 puts (a third without a value), 2 updates, 4 deletes. */
function writeLog(name, { snapshot = false } = {}) {
  const path = join(directory, name);
  const index = FileCuckooIndex.open(path, { snapshotOnClose: snapshot });
  for (let i = 0; i < 34; i++) index.set(`key-${i}`, i % 3 === 0 ? undefined : `value-${i}`);
  index.set('key-4', 'updated');
  index.set('key-9', 'again');
  for (const i of [5, 12, 20, 33]) index.delete(`key-${i}`);
  index.close();
  return path;
}

function openError(path, options) {
  try {
    FileCuckooIndex.open(path, options).close();
  } catch (error) {
    return error;
  }
  return undefined;
}

/** Flips `bit` of the byte at `at` in place (a positioned write: the rest of the file is untouched). */
function flipBit(path, bytes, at, bit) {
  const fd = openSync(path, 'r+');
  try {
    writeSync(fd, Uint8Array.of(bytes[at] ^ (1 << bit)), 0, 1, at);
  } finally {
    closeSync(fd);
  }
}

function restoreByte(path, bytes, at) {
  const fd = openSync(path, 'r+');
  try {
    writeSync(fd, Uint8Array.of(bytes[at]), 0, 1, at);
  } finally {
    closeSync(fd);
  }
}

describe.each([
  ['without a snapshot', false],
  ['with a valid snapshot beside the log', true],
])('every bit of every record header flipped (%s)', (_label, withSnapshot) => {
  test('open is CORRUPT naming the record, writable and read-only, and changes no file', () => {
    const path = writeLog(`sweep-${withSnapshot}.log`, { snapshot: withSnapshot });
    const bytes = readFileSync(path);
    const records = parseRecords(bytes);
    // 40, the close marker, and with the snapshot the snapshot mark saved before it.
    expect(records).toHaveLength(withSnapshot ? 42 : 41);
    expect(records[40].kind).toBe(4);
    if (withSnapshot) expect(records[41].kind).toBe(5);
    expect(logVersion(bytes)).toBe(3);
    const snapshotBefore = withSnapshot ? fileState(`${path}.snapshot`) : undefined;
    // The snapshot is valid: an undamaged open loads it.
    const clean = FileCuckooIndex.open(path, { readOnly: true });
    expect(clean.openReport.snapshotLogBytes).toBe(withSnapshot ? records[41].start : 0);
    clean.close();
    const filesBefore = readdirSync(directory).sort();
    let flips = 0;
    let lost = 0;
    for (const record of records) {
      for (let at = record.start; at < record.headerEnd; at++) {
        for (let bit = 0; bit < 8; bit++) {
          flipBit(path, bytes, at, bit);
          const before = fileState(path);
          for (const options of [{}, { readOnly: true }]) {
            const error = openError(path, options);
            const ok =
              error instanceof FilterError &&
              error.code === 'CORRUPT' &&
              error.message.includes(`the record at byte ${record.start} is damaged`) &&
              error.message.includes('repair');
            if (!ok) {
              lost++;
              if (lost <= 3) console.error(`byte ${at} bit ${bit} ${JSON.stringify(options)}: ${error?.message ?? 'opened'}`);
            }
            expect(fileState(path)).toEqual(before);
          }
          restoreByte(path, bytes, at);
          flips++;
        }
      }
    }
    expect(lost).toBe(0);
    expect(flips).toBe(records.length * 13 * 8);
    // No lock, no moved tail, no temporary file was left; the snapshot is untouched.
    expect(readdirSync(directory).sort()).toEqual(filesBefore);
    if (withSnapshot) expect(fileState(`${path}.snapshot`)).toEqual(snapshotBefore);
    // Restored, the log answers as written: no committed record was lost.
    const index = FileCuckooIndex.open(path);
    expectAnswers(index, modelOf(records), keysOf(records));
    index.close();
  });
});

test('the log cut at every offset: only the torn tail is dropped, every whole record before it is kept', () => {
  const base = writeLog('truncation-base.log');
  const bytes = readFileSync(base);
  const records = parseRecords(bytes);
  const keys = keysOf(records);
  const cut = join(directory, 'truncated.log');
  for (let length = 16; length < bytes.length; length++) {
    const whole = records.filter((record) => record.end <= length);
    const kept = whole.length === 0 ? 16 : whole[whole.length - 1].end;
    const model = modelOf(records, whole.length);
    copyFileSync(base, cut);
    truncateSync(cut, length);
    const before = fileState(cut);
    const reader = FileCuckooIndex.open(cut, { readOnly: true });
    expect(reader.openReport.droppedTailBytes).toBe(length - kept);
    expectAnswers(reader, model, keys);
    reader.close();
    expect(fileState(cut)).toEqual(before);
    const writer = FileCuckooIndex.open(cut, { snapshotOnClose: false });
    expect(writer.openReport.droppedTailBytes).toBe(length - kept);
    expectAnswers(writer, model, keys);
    writer.close();
    expect(statSync(cut).size).toBe(kept);
    expect(readFileSync(cut)).toEqual(bytes.subarray(0, kept));
  }
});

describe('repair', () => {
  test('keeps every record before the damage and moves the rest aside, byte for byte; the log then opens', () => {
    const path = writeLog('repair.log');
    const bytes = readFileSync(path);
    const records = parseRecords(bytes);
    const damaged = records[17];
    const flipped = Buffer.from(bytes);
    flipped[damaged.start + 2] ^= 0x04; // the key length's third byte: the record would run past the end
    const fd = openSync(path, 'r+');
    writeSync(fd, flipped, damaged.start + 2, 1, damaged.start + 2);
    closeSync(fd);
    expect(openError(path)).toEqual(expect.objectContaining({ code: 'CORRUPT' }));
    expect(readFileSync(path)).toEqual(flipped);

    const report = FileCuckooIndex.repair(path);
    const aside = `${path}.damaged-at-${damaged.start}`;
    const moved = damaged.end - damaged.start;
    // Resynchronised at the next record: only record 17 is moved aside.
    expect(report).toEqual({
      logVersion: 3,
      recordsKept: 40,
      keptBytes: bytes.length - moved,
      movedBytes: moved,
      movedTo: aside,
      moved: [{ offset: damaged.start, bytes: moved, file: aside }],
      headerRechained: false,
    });
    expect(readFileSync(aside)).toEqual(flipped.subarray(damaged.start, damaged.end));
    const repaired = readFileSync(path);
    // The records before the damage byte for byte; those after it re-chained (same contents).
    expect(repaired.subarray(0, damaged.start)).toEqual(flipped.subarray(0, damaged.start));
    const kept = records.filter((record) => record !== damaged);
    const strip = (record) => ({ kind: record.kind, key: record.key, value: record.value });
    expect(parseRecords(repaired).map(strip)).toEqual(kept.map(strip));
    expect(readdirSync(directory).filter((name) => name.startsWith('repair.log'))).toEqual(['repair.log', `repair.log.damaged-at-${damaged.start}`]);
    const index = FileCuckooIndex.open(path);
    expect(index.openReport.droppedTailBytes).toBe(0);
    expectAnswers(index, modelOf(kept), keysOf(records));
    index.close();

    // A whole log: nothing moved, nothing changed.
    const before = fileState(path);
    expect(FileCuckooIndex.repair(path)).toEqual({
      logVersion: 3,
      recordsKept: 40,
      keptBytes: repaired.length,
      movedBytes: 0,
      movedTo: null,
      moved: [],
      headerRechained: false,
    });
    expect(fileState(path)).toEqual(before);
  });

  test('never overwrites an earlier moved-aside file, and is refused while a writer holds the log', () => {
    const path = writeLog('repair-twice.log');
    const bytes = readFileSync(path);
    const records = parseRecords(bytes);
    const tail = Buffer.alloc(40, 0x5a); // not a record, not zeros: damage
    for (const round of [1, 2]) {
      const fd = openSync(path, 'a');
      writeSync(fd, tail);
      closeSync(fd);
      const report = FileCuckooIndex.repair(path);
      expect(report.movedTo).toBe(`${path}.damaged-at-${bytes.length}${round === 2 ? '.2' : ''}`);
      expect(readFileSync(report.movedTo)).toEqual(tail);
      expect(readFileSync(path)).toEqual(bytes);
    }
    const writer = FileCuckooIndex.open(path);
    try {
      expect(() => FileCuckooIndex.repair(path)).toThrow(expect.objectContaining({ code: 'LOCKED' }));
    } finally {
      writer.close();
    }
    expect(FileCuckooIndex.repair(path).recordsKept).toBe(records.length);
    expect(() => FileCuckooIndex.repair(join(directory, 'no-such.log'))).toThrow(expect.objectContaining({ code: 'UNAVAILABLE' }));
  });
});

// A value may hold any bytes, a whole chained record among them: 8 bytes,
// then a record chained to them. When the record holding that value is
// damaged, repair must not resume inside it and adopt the embedded record as
// genuine (a key never set appearing, or a real key deleted).
describe('repair never adopts a record smuggled inside a damaged record', () => {
  /** The bytes of a log whose only record is `write`'s, as [chain, record]. */
  function recordBytes(name, write) {
    const path = join(directory, `${name}.donor`);
    const donor = FileCuckooIndex.open(path, { snapshotOnClose: false });
    write(donor);
    donor.close();
    const bytes = readFileSync(path);
    const end = bytes.length - 21; // before the close marker
    return Buffer.concat([bytes.subarray(8, 16), bytes.subarray(16, end)]);
  }
  const ALPHA_END = 16 + 21 + 'alpha'.length + 'one'.length;

  test.each([
    ['a put (a key never set appears)', (ix) => ix.set('forged-key'), 'forged-key', false],
    ['a delete (a real key disappears)', (ix) => ix.delete('alpha'), 'alpha', true],
    ['a put, the damage in the body', (ix) => ix.set('forged-key'), 'forged-key', false],
  ])('%s', (name, write, key, expected) => {
    const smuggled = recordBytes(name.replace(/\W+/g, '-'), (ix) => {
      ix.set('alpha');
      write(ix);
    });
    const path = join(directory, `smuggle-${name.replace(/\W+/g, '-')}.log`);
    const index = FileCuckooIndex.open(path, { snapshotOnClose: false });
    index.set('alpha', 'one');
    // The donor's records after its first: the one to smuggle, with the 8 bytes it is chained to.
    const firstDonorRecord = 21 + 'alpha'.length;
    index.set('user-upload', Buffer.concat([smuggled.subarray(firstDonorRecord), Buffer.from('tail')]));
    index.set('omega', 'two');
    index.close();
    const bytes = readFileSync(path);
    // One bit of the value-holding record: its key length (header), or a byte of its key (body).
    bytes[name.includes('body') ? ALPHA_END + 13 + 2 : ALPHA_END] ^= 0x01;
    writeFileSync(path, bytes);
    const report = FileCuckooIndex.repair(path);
    const userUploadBytes = 21 + 'user-upload'.length + (smuggled.length - firstDonorRecord) + 4;
    expect(report.moved).toEqual([{ offset: ALPHA_END, bytes: userUploadBytes, file: `${path}.damaged-at-${ALPHA_END}` }]);
    const reader = FileCuckooIndex.open(path, { readOnly: true });
    expect([reader.has(key), reader.has('alpha'), reader.has('omega'), reader.has('user-upload')]).toEqual([expected, true, true, false]);
    reader.close();
  });
});

// One bit lost from a record's checksum: the next record is intact, but
// chained to that checksum as it was written. Only the damaged record moves.
test('repair after one flipped checksum bit moves only that record; the next one (chained to it) is kept', () => {
  for (const bit of [0x01, 0x80]) {
    const path = join(directory, `checksum-bit-${bit}.log`);
    const index = FileCuckooIndex.open(path, { snapshotOnClose: false });
    for (let i = 0; i < 5; i++) index.set(`key-${i}`);
    index.close();
    const bytes = readFileSync(path);
    const recordBytes = 21 + 'key-0'.length;
    const key1End = 16 + 2 * recordBytes;
    bytes[key1End - 1] ^= bit; // the last byte of key-1's checksum
    writeFileSync(path, bytes);
    const report = FileCuckooIndex.repair(path);
    expect(report.moved.map(({ offset, bytes: moved }) => [offset, moved])).toEqual([[key1End - recordBytes, recordBytes]]);
    expect(readFileSync(report.moved[0].file).equals(bytes.subarray(key1End - recordBytes, key1End))).toBe(true);
    const reader = FileCuckooIndex.open(path, { readOnly: true });
    expect([0, 1, 2, 3, 4].map((i) => reader.has(`key-${i}`))).toEqual([true, false, true, true, true]);
    reader.close();
  }
});

// One bit lost from the file header's log id: the first record is intact but
// fails against it. Every record is kept, re-chained to the header as it is.
test('repair after one flipped log-id bit keeps every record (re-chained), moves nothing', () => {
  for (const [at, bit] of [[12, 0x01], [15, 0x80]]) {
    const path = join(directory, `log-id-${at}.log`);
    const index = FileCuckooIndex.open(path, { snapshotOnClose: false });
    for (let i = 0; i < 5; i++) index.set(`key-${i}`, `value-${i}`);
    index.close();
    const bytes = readFileSync(path);
    bytes[at] ^= bit;
    writeFileSync(path, bytes);
    expect(() => FileCuckooIndex.open(path, { readOnly: true })).toThrow(/record at byte 16 is damaged/);
    const report = FileCuckooIndex.repair(path);
    expect(report).toMatchObject({ moved: [], movedBytes: 0, movedTo: null, headerRechained: true, recordsKept: 6 });
    const reader = FileCuckooIndex.open(path, { readOnly: true });
    expect([0, 1, 2, 3, 4].map((i) => reader.getString(`key-${i}`))).toEqual([0, 1, 2, 3, 4].map((i) => `value-${i}`));
    reader.close();
    expect(readFileSync(path).subarray(0, 16).equals(bytes.subarray(0, 16))).toBe(true);
    expect(FileCuckooIndex.repair(path)).toMatchObject({ moved: [], headerRechained: false });
  }
});
