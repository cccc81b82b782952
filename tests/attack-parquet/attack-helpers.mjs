// Shared pieces of the attack-parquet suites: the parquet module's own FilterError
// check (the module is bundled from source, so no dist/ is needed), a Parquet file
// assembled around any FileMetaData bytes, and a recording range reader.
import { readFileSync } from 'node:fs';
import { T, struct, i32, i64, list, binary } from '../parquet/thrift-writer.mjs';
import { openDuckDB } from '../parquet/duckdb-parquet.mjs';

const MAGIC = [0x50, 0x41, 0x52, 0x31];

/** The FilterError code `run` threw (sync or async), 'read' when it returned; anything else it threw is rethrown. */
export async function outcomeOf(parquet, run) {
  try {
    await run();
  } catch (error) {
    if (error instanceof parquet.FilterError) return error.code;
    throw error;
  }
  return 'read';
}

/** A ColumnChunk: `meta: false` leaves out meta_data (field 3); offset/length are the Bloom filter's. */
export function columnChunk({ path = ['s'], type = 6, offset, length, meta = true, extraMeta = [] }) {
  const fields = [[2, T.I64, i64(4)]];
  if (meta) {
    const metaFields = [[1, T.I32, i32(type)], [3, T.LIST, list(T.BINARY, path.map(binary))]];
    if (offset !== undefined) metaFields.push([14, T.I64, i64(offset)]);
    if (length !== undefined) metaFields.push([15, T.I32, i32(length)]);
    fields.push([3, T.STRUCT, struct([...metaFields, ...extraMeta])]);
  }
  return struct(fields);
}

/** A FileMetaData (version, num_rows, row_groups) of row groups given as lists of ColumnChunk bytes; `before` fields go first. */
export function fileMetaData(rowGroups, { before = [] } = {}) {
  return struct([
    ...before,
    [1, T.I32, i32(2)],
    [3, T.I64, i64(1)],
    [4, T.LIST, list(T.STRUCT, rowGroups.map((columns) => struct([[1, T.LIST, list(T.STRUCT, columns)], [3, T.I64, i64(1)]])))],
  ]);
}

/** PAR1, `body`, the metadata bytes, their length, PAR1: a whole file. */
export function assemble(body, metadata) {
  const file = new Uint8Array(4 + body.length + metadata.length + 8);
  file.set(MAGIC, 0);
  file.set(body, 4);
  file.set(metadata, 4 + body.length);
  new DataView(file.buffer).setUint32(file.length - 8, metadata.length, true);
  file.set(MAGIC, file.length - 4);
  return file;
}

/** A range reader over `bytes` that records every request and refuses any outside the file. */
export function recordingReader(bytes) {
  const requests = [];
  const read = async (offset, length) => {
    requests.push([offset, length]);
    if (offset < 0 || length < 0 || offset + length > bytes.length) throw new Error(`out of the file: ${offset}+${length}`);
    return bytes.slice(offset, offset + length);
  };
  return { read, requests };
}

/** (row group, column, physical type, bitset) of each filter: two reads answer alike when these are equal. */
export const signature = (filters) =>
  filters.map((f) => `${f.rowGroup}|${f.column}|${f.physicalType}|${Buffer.from(f.filter.bitset).toString('hex')}`);

/** The bytes of the Parquet file DuckDB writes for `query` with COPY options `options`. */
export async function duckdbFile(query, options) {
  const duck = await openDuckDB();
  try {
    const path = `${duck.directory}/file.parquet`;
    await duck.connection.run(`COPY (${query}) TO '${path}' (${options})`);
    return new Uint8Array(readFileSync(path));
  } finally {
    duck.close();
  }
}
