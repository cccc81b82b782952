// Parquet's footer: the file ends with the FileMetaData (Thrift compact), its
// length as 4 little-endian bytes, and the magic "PAR1"; the file starts with
// "PAR1" too. Only the fields that place a column chunk's Bloom filter and say
// how its values are encoded are read (parquet.thrift); every other field is
// skipped by CompactReader, but a field this reader knows must have its type
// (footer-fields.ts), and fields must come in rising order, so a damaged footer
// (a flipped bit that makes the parser read one field as another) is CORRUPT
// rather than a smaller, different footer.
import { FilterError } from '../errors.js';
import { CompactReader, CompactType } from './thrift-compact.js';
import { COLUMN_CHUNK, COLUMN_META_DATA, FILE_META_DATA, forEachStruct, PHYSICAL_TYPES, ROW_GROUP, readFields, readPhysicalType, type ParquetPhysicalType } from './footer-fields.js';
import { readSchemaLeaves, type ParquetLogicalType, type SchemaLeaf } from './footer-schema.js';

export { PHYSICAL_TYPES, type ParquetPhysicalType };

/** Where one column chunk's Bloom filter is, as the footer says. */
export interface ColumnChunkBloomPlace {
  /** The row group's index in the footer, from 0. */
  rowGroup: number;
  /**
   * The column's path in the schema, joined with '.' (a top-level column: its name);
   * a name holding a '.' or '"' is double-quoted ('"a.b"'), so two columns never share one.
   */
  column: string;
  /** The column's path in the schema, one name per level. */
  path: string[];
  /** The column's physical type: how its values are encoded for the filter. */
  physicalType: ParquetPhysicalType;
  /** The schema's logical type of the column (UUID, TIMESTAMP, DECIMAL...), when it has one. */
  logicalType: ParquetLogicalType | undefined;
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

/** A column path as one name: '.' between levels, a level holding '.' or '"' quoted as SQL quotes a name. */
export function columnName(path: readonly string[]): string {
  return path.map((name) => (/[."]/.test(name) ? `"${name.replaceAll('"', '""')}"` : name)).join('.');
}

function safeOffset(reader: CompactReader, value: bigint, name: string): number {
  if (value < 0n || value > BigInt(Number.MAX_SAFE_INTEGER)) throw reader.corrupt(`${name} ${value} is out of range`);
  return Number(value);
}

const encrypted = (what: string) =>
  new FilterError('UNSUPPORTED', `Parquet file: ${what} is encrypted (a plaintext footer over encrypted columns), which this reader does not decrypt`);

interface ChunkMeta {
  physicalType: ParquetPhysicalType;
  path: string[];
  bloomFilterOffset: number | undefined;
  bloomFilterLength: number | undefined;
}

function readColumnMetaData(reader: CompactReader, depth: number): ChunkMeta {
  const meta: Partial<ChunkMeta> = {};
  readFields(reader, COLUMN_META_DATA, depth, (id) => {
    switch (id) {
      case 1:
        meta.physicalType = readPhysicalType(reader);
        return true;
      case 3: {
        const list = reader.readListHeader();
        if (list.elementType !== CompactType.Binary) throw reader.corrupt('path_in_schema is not a list of strings');
        meta.path = [];
        for (let i = 0; i < list.size; i++) meta.path.push(reader.readString());
        if (meta.path.length === 0) throw reader.corrupt('path_in_schema is empty');
        return true;
      }
      case 14:
        meta.bloomFilterOffset = safeOffset(reader, reader.readI64(), 'bloom_filter_offset');
        return true;
      case 15: {
        const length = reader.readI32();
        if (length < 0) throw reader.corrupt(`bloom_filter_length ${length} is negative`);
        meta.bloomFilterLength = length;
        return true;
      }
      default:
        return false;
    }
  });
  if (meta.bloomFilterLength !== undefined && meta.bloomFilterOffset === undefined) {
    throw reader.corrupt('a bloom_filter_length without its bloom_filter_offset');
  }
  return meta as ChunkMeta;
}

function readColumnChunk(reader: CompactReader, depth: number): { meta: ChunkMeta; filePath: string | undefined } {
  let filePath: string | undefined;
  let meta: ChunkMeta | undefined;
  readFields(reader, COLUMN_CHUNK, depth, (id, fieldDepth) => {
    if (id === 1) {
      filePath = reader.readString();
      return true;
    }
    if (id === 3) {
      meta = readColumnMetaData(reader, fieldDepth);
      return true;
    }
    if (id === 8 || id === 9) throw encrypted('a column chunk');
    return false;
  });
  // meta_data is optional in the IDL only for encrypted columns (refused above).
  if (meta === undefined) throw reader.corrupt('a ColumnChunk without meta_data');
  return { meta, filePath };
}

/** Checks a chunk's path and type against the schema's leaf at its column index. */
function checkAgainstSchema(reader: CompactReader, meta: ChunkMeta, leaf: SchemaLeaf | undefined, index: number): void {
  if (leaf === undefined) throw reader.corrupt(`column chunk ${index} has no schema column`);
  if (leaf.path.length !== meta.path.length || leaf.path.some((name, i) => name !== meta.path[i])) {
    throw reader.corrupt(`column chunk ${index}'s path ${columnName(meta.path)} is not the schema's ${columnName(leaf.path)}`);
  }
  if (leaf.physicalType !== meta.physicalType) {
    throw reader.corrupt(`column chunk ${index} (${columnName(meta.path)}) is ${meta.physicalType}, the schema says ${leaf.physicalType}`);
  }
}

/**
 * Every column chunk's Bloom filter place, row group by row group, read
 * from a whole Parquet file's bytes. Hostile or truncated bytes are a
 * FilterError CORRUPT; an encrypted footer or column is UNSUPPORTED.
 */
export function readBloomFilterPlaces(bytes: Uint8Array): ColumnChunkBloomPlace[] {
  const { start, end } = footerRange(bytes);
  return parseFileMetaData(bytes.subarray(start, end));
}

/**
 * The places from the FileMetaData's bytes alone (the footer without its length
 * and magic): one per column chunk, a chunk without a filter included (its
 * bloomFilterOffset undefined).
 */
export function parseFileMetaData(footer: Uint8Array): ColumnChunkBloomPlace[] {
  const reader = new CompactReader(footer, 0, footer.length, 'Parquet footer');
  let leaves: SchemaLeaf[] | undefined;
  const rowGroups: ChunkMeta[][] = [];
  const filePaths: (string | undefined)[][] = [];
  readFields(reader, FILE_META_DATA, 0, (id, depth) => {
    if (id === 2) {
      leaves = readSchemaLeaves(reader, depth);
      return true;
    }
    if (id === 8) throw encrypted('every column (encryption_algorithm)');
    if (id !== 4) return false;
    forEachStruct(reader, 'FileMetaData.row_groups', () => {
      const chunks: ChunkMeta[] = [];
      const paths: (string | undefined)[] = [];
      readFields(reader, ROW_GROUP, depth + 1, (groupId, groupDepth) => {
        if (groupId !== 1) return false;
        forEachStruct(reader, 'RowGroup.columns', () => {
          const { meta, filePath } = readColumnChunk(reader, groupDepth + 1);
          chunks.push(meta);
          paths.push(filePath);
        });
        return true;
      });
      rowGroups.push(chunks);
      filePaths.push(paths);
    });
    return true;
  });
  if (reader.remaining !== 0) throw reader.corrupt(`${reader.remaining} bytes after the FileMetaData`);
  const places: ColumnChunkBloomPlace[] = [];
  rowGroups.forEach((chunks, rowGroup) => {
    if (leaves !== undefined && chunks.length !== leaves.length) {
      throw reader.corrupt(`row group ${rowGroup} has ${chunks.length} column chunks, the schema ${leaves.length} columns`);
    }
    chunks.forEach((meta, index) => {
      const leaf = leaves?.[index];
      if (leaves !== undefined) checkAgainstSchema(reader, meta, leaf, index);
      places.push({
        rowGroup,
        column: columnName(meta.path),
        path: meta.path,
        physicalType: meta.physicalType,
        logicalType: leaf?.logicalType,
        bloomFilterOffset: meta.bloomFilterOffset,
        bloomFilterLength: meta.bloomFilterLength,
        filePath: filePaths[rowGroup]![index],
      });
    });
  });
  return places;
}
