// Parquet's footer: the file ends with the FileMetaData (Thrift compact), its
// length as 4 little-endian bytes, and the magic "PAR1"; the file starts with
// "PAR1" too. Only the fields that place a column chunk's Bloom filter are
// read (parquet.thrift):
//   FileMetaData   4: list<RowGroup> row_groups
//   RowGroup       1: list<ColumnChunk> columns
//   ColumnChunk    1: string file_path (the chunk lives in another file), 3: ColumnMetaData meta_data
//   ColumnMetaData 1: Type type, 3: list<string> path_in_schema,
//                  14: i64 bloom_filter_offset, 15: i32 bloom_filter_length
// Everything else is skipped by CompactReader.
import { FilterError } from '../errors.js';
import { CompactReader, CompactType, type FieldHeader } from './thrift-compact.js';

/** Parquet's physical types (parquet.thrift `Type`), by their number there. */
export const PHYSICAL_TYPES = ['BOOLEAN', 'INT32', 'INT64', 'INT96', 'FLOAT', 'DOUBLE', 'BYTE_ARRAY', 'FIXED_LEN_BYTE_ARRAY'] as const;
/** A Parquet physical type by name. */
export type ParquetPhysicalType = (typeof PHYSICAL_TYPES)[number];

/** Where one column chunk's Bloom filter is, as the footer says. */
export interface ColumnChunkBloomPlace {
  /** The row group's index in the footer, from 0. */
  rowGroup: number;
  /** The column's path in the schema, joined with '.' (a top-level column: its name). */
  column: string;
  /** The column's physical type: how its values are encoded for the filter. */
  physicalType: ParquetPhysicalType;
  /** Byte offset of the BloomFilterHeader in the file; undefined when the chunk has no filter. */
  bloomFilterOffset: number | undefined;
  /** Header and bitset together, when the writer recorded it (format 2.10+). */
  bloomFilterLength: number | undefined;
  /** Set when the chunk lives in another file (its offsets are that file's). */
  filePath: string | undefined;
}

const MAGIC = [0x50, 0x41, 0x52, 0x31]; // "PAR1"
const ENCRYPTED_MAGIC = [0x50, 0x41, 0x52, 0x45]; // "PARE": an encrypted footer

function magicAt(bytes: Uint8Array, at: number, magic: readonly number[]): boolean {
  return magic.every((byte, i) => bytes[at + i] === byte);
}

/**
 * The FileMetaData's length from a file's last 8 bytes (its length, then the
 * magic), checked against the file's length.
 */
export function footerLengthFromTail(tail: Uint8Array, fileLength: number): number {
  if (fileLength < 12 || tail.length !== 8) {
    throw new FilterError('CORRUPT', `Parquet file: ${fileLength} bytes is too short for a Parquet file`);
  }
  if (magicAt(tail, 4, ENCRYPTED_MAGIC)) {
    throw new FilterError('UNSUPPORTED', 'Parquet file: the footer is encrypted (PARE), which this reader does not decrypt');
  }
  if (!magicAt(tail, 4, MAGIC)) throw new FilterError('CORRUPT', 'Parquet file: no PAR1 magic at its end');
  const footerLength = new DataView(tail.buffer, tail.byteOffset, 8).getUint32(0, true);
  if (footerLength > fileLength - 12) {
    throw new FilterError('CORRUPT', `Parquet file: footer length ${footerLength} is past the start of the file (${fileLength} bytes)`);
  }
  return footerLength;
}

/** Whether `head` (a file's first 4 bytes) is Parquet's magic. */
export function checkHeadMagic(head: Uint8Array): void {
  if (head.length < 4 || !magicAt(head, 0, MAGIC)) throw new FilterError('CORRUPT', 'Parquet file: no PAR1 magic at its start');
}

/** The footer's byte range [start, end) in a whole file's bytes. */
export function footerRange(bytes: Uint8Array): { start: number; end: number } {
  const footerLength = footerLengthFromTail(bytes.subarray(Math.max(0, bytes.length - 8)), bytes.length);
  checkHeadMagic(bytes);
  const end = bytes.length - 8;
  return { start: end - footerLength, end };
}

function safeOffset(reader: CompactReader, value: bigint, name: string): number {
  if (value < 0n || value > BigInt(Number.MAX_SAFE_INTEGER)) throw reader.corrupt(`${name} ${value} is out of range`);
  return Number(value);
}

function readColumnMetaData(reader: CompactReader, rowGroup: number, filePath: string | undefined, depth: number): ColumnChunkBloomPlace {
  let physicalType: ParquetPhysicalType | undefined;
  let path: string[] | undefined;
  let bloomFilterOffset: number | undefined;
  let bloomFilterLength: number | undefined;
  reader.readStruct((field) => {
    switch (field.id) {
      case 1: {
        reader.expectType(field, CompactType.I32, 'ColumnMetaData.type');
        const typeNumber = reader.readI32();
        physicalType = PHYSICAL_TYPES[typeNumber];
        if (physicalType === undefined) throw reader.corrupt(`physical type ${typeNumber} is not a Parquet type`);
        return true;
      }
      case 3: {
        reader.expectType(field, CompactType.List, 'ColumnMetaData.path_in_schema');
        const list = reader.readListHeader();
        if (list.elementType !== CompactType.Binary) throw reader.corrupt('path_in_schema is not a list of strings');
        path = [];
        for (let i = 0; i < list.size; i++) path.push(reader.readString());
        return true;
      }
      case 14:
        reader.expectType(field, CompactType.I64, 'ColumnMetaData.bloom_filter_offset');
        bloomFilterOffset = safeOffset(reader, reader.readI64(), 'bloom_filter_offset');
        return true;
      case 15: {
        reader.expectType(field, CompactType.I32, 'ColumnMetaData.bloom_filter_length');
        const length = reader.readI32();
        if (length < 0) throw reader.corrupt(`bloom_filter_length ${length} is negative`);
        bloomFilterLength = length;
        return true;
      }
      default:
        return false;
    }
  }, depth + 1);
  if (physicalType === undefined || path === undefined) throw reader.corrupt('a ColumnMetaData without its type or path_in_schema');
  return { rowGroup, column: path.join('.'), physicalType, bloomFilterOffset, bloomFilterLength, filePath };
}

function readColumnChunk(reader: CompactReader, rowGroup: number, depth: number): ColumnChunkBloomPlace | undefined {
  let filePath: string | undefined;
  let place: ColumnChunkBloomPlace | undefined;
  reader.readStruct((field, fieldDepth) => {
    if (field.id === 1) {
      reader.expectType(field, CompactType.Binary, 'ColumnChunk.file_path');
      filePath = reader.readString();
      if (place !== undefined) place.filePath = filePath;
      return true;
    }
    if (field.id === 3) {
      reader.expectType(field, CompactType.Struct, 'ColumnChunk.meta_data');
      place = readColumnMetaData(reader, rowGroup, filePath, fieldDepth);
      return true;
    }
    return false;
  }, depth + 1);
  return place; // none when the metadata is only in an encrypted column's own footer
}

/**
 * Every column chunk's Bloom filter place, row group by row group, read
 * from a whole Parquet file's bytes. Hostile or truncated bytes are a
 * FilterError CORRUPT; an encrypted footer is UNSUPPORTED.
 */
export function readBloomFilterPlaces(bytes: Uint8Array): ColumnChunkBloomPlace[] {
  const { start, end } = footerRange(bytes);
  return parseFileMetaData(bytes.subarray(start, end));
}

/** The places from the FileMetaData's bytes alone (the footer without its length and magic). */
export function parseFileMetaData(footer: Uint8Array): ColumnChunkBloomPlace[] {
  const reader = new CompactReader(footer, 0, footer.length, 'Parquet footer');
  const places: ColumnChunkBloomPlace[] = [];
  reader.readStruct((field, depth) => {
    if (field.id !== 4) return false;
    forEachStruct(reader, field, 'FileMetaData.row_groups', (rowGroup) => {
      reader.readStruct((groupField, groupDepth) => {
        if (groupField.id !== 1) return false;
        forEachStruct(reader, groupField, 'RowGroup.columns', () => {
          const place = readColumnChunk(reader, rowGroup, groupDepth + 1);
          if (place !== undefined) places.push(place);
        });
        return true;
      }, depth + 1);
    });
    return true;
  });
  return places;
}

/** Reads `field` as a list of structs (`what` names it), calling `each` with each element's index before it is read. */
function forEachStruct(reader: CompactReader, field: FieldHeader, what: string, each: (index: number) => void): void {
  reader.expectType(field, CompactType.List, what);
  const list = reader.readListHeader();
  if (list.elementType !== CompactType.Struct) throw reader.corrupt(`${what} is not a list of structs`);
  for (let index = 0; index < list.size; index++) each(index);
}
