// Reads an index log's records in the test itself (docs/EXACT-INDEX.md, "Records"),
// independently of the library: where each record starts and what it holds.
// Checksums are not verified here: the logs parsed are ones the library wrote.
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';

export const FILE_HEADER_BYTES = 16;

/** The log's version (u32 at byte 8). */
export function logVersion(bytes) {
  return bytes[8] | (bytes[9] << 8) | (bytes[10] << 16) | (bytes[11] << 24);
}

/** Header bytes of a record: 9 in version 1, 13 (with the header check) in versions 2 and 3. */
export function headerBytes(version) {
  return version >= 2 ? 13 : 9;
}

/** [{ start, end, headerEnd, kind, key, value }] of every record, in order. */
export function parseRecords(bytes) {
  const version = logVersion(bytes);
  const header = headerBytes(version);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
  const records = [];
  for (let at = FILE_HEADER_BYTES; at < bytes.length; ) {
    const keyLength = view.getUint32(at, true);
    const valueLength = view.getUint32(at + 4, true);
    const kind = bytes[at + 8];
    const keyStart = at + header;
    const end = keyStart + keyLength + valueLength + 8;
    if (end > bytes.length) throw new Error(`record at ${at} runs past the end`);
    records.push({
      start: at,
      end,
      headerEnd: keyStart,
      kind,
      key: Buffer.from(bytes.subarray(keyStart, keyStart + keyLength)).toString('latin1'),
      value: kind === 2 ? Buffer.from(bytes.subarray(keyStart + keyLength, keyStart + keyLength + valueLength)).toString('latin1') : null,
    });
    at = end;
  }
  return records;
}

/** What the first `count` records leave: key -> value (null for a key without one). */
export function modelOf(records, count = records.length) {
  const model = new Map();
  for (const record of records.slice(0, count)) {
    if (record.kind === 4 || record.kind === 5) continue; // a close marker or a snapshot mark (version 3)
    if (record.kind === 3) model.delete(record.key);
    else model.set(record.key, record.value);
  }
  return model;
}

/** Every key the records name (present or not). */
export function keysOf(records) {
  return [...new Set(records.map((record) => record.key))];
}

/** Answers of `index` equal `model` for every key in `keys`. */
export function expectAnswers(index, model, keys) {
  for (const key of keys) {
    const expected = model.has(key) ? model.get(key) : undefined;
    const got = index.getString(key);
    if (got !== expected) throw new Error(`${key}: expected ${String(expected)}, got ${String(got)}`);
  }
  if (index.size !== model.size) throw new Error(`size ${index.size}, expected ${model.size}`);
}

/** Content hash, size and mtime: what "the file is unchanged" compares. */
export function fileState(path) {
  const stat = statSync(path);
  return {
    sha256: createHash('sha256').update(readFileSync(path)).digest('hex'),
    size: stat.size,
    mtimeMs: stat.mtimeMs,
  };
}
