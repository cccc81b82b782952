// The parquet.thrift fields the footer reader knows, with their Thrift types,
// and the one loop that reads a struct against such a list: a known field of
// another type is CORRUPT (a flipped type nibble, or a delta that lands on
// another field), a required one missing is CORRUPT. Fields not listed (a
// newer writer's) are skipped. Only the fields this reader needs are required:
// the others may be left out by the small writers tests and tools use.
import { CompactReader, CompactType } from './thrift-compact.js';

const { BoolTrue: BOOL, I16, I32, I64, Binary: BINARY, List: LIST, Struct: STRUCT } = CompactType;

/** A struct's known fields: id -> [type, name, required]. */
export interface StructFields {
  name: string;
  fields: Readonly<Record<number, readonly [CompactType, string, boolean?]>>;
}

export const FILE_META_DATA: StructFields = {
  name: 'FileMetaData',
  fields: {
    1: [I32, 'version'], 2: [LIST, 'schema'], 3: [I64, 'num_rows'], 4: [LIST, 'row_groups', true], 5: [LIST, 'key_value_metadata'],
    6: [BINARY, 'created_by'], 7: [LIST, 'column_orders'], 8: [STRUCT, 'encryption_algorithm'], 9: [BINARY, 'footer_signing_key_metadata'],
  },
};
export const ROW_GROUP: StructFields = {
  name: 'RowGroup',
  fields: {
    1: [LIST, 'columns', true], 2: [I64, 'total_byte_size'], 3: [I64, 'num_rows'], 4: [LIST, 'sorting_columns'],
    5: [I64, 'file_offset'], 6: [I64, 'total_compressed_size'], 7: [I16, 'ordinal'],
  },
};
export const COLUMN_CHUNK: StructFields = {
  name: 'ColumnChunk',
  fields: {
    1: [BINARY, 'file_path'], 2: [I64, 'file_offset'], 3: [STRUCT, 'meta_data'], 4: [I64, 'offset_index_offset'], 5: [I32, 'offset_index_length'],
    6: [I64, 'column_index_offset'], 7: [I32, 'column_index_length'], 8: [STRUCT, 'crypto_metadata'], 9: [BINARY, 'encrypted_column_metadata'],
  },
};
export const COLUMN_META_DATA: StructFields = {
  name: 'ColumnMetaData',
  fields: {
    1: [I32, 'type', true], 2: [LIST, 'encodings'], 3: [LIST, 'path_in_schema', true], 4: [I32, 'codec'], 5: [I64, 'num_values'],
    6: [I64, 'total_uncompressed_size'], 7: [I64, 'total_compressed_size'], 8: [LIST, 'key_value_metadata'], 9: [I64, 'data_page_offset'],
    10: [I64, 'index_page_offset'], 11: [I64, 'dictionary_page_offset'], 12: [STRUCT, 'statistics'], 13: [LIST, 'encoding_stats'],
    14: [I64, 'bloom_filter_offset'], 15: [I32, 'bloom_filter_length'], 16: [STRUCT, 'size_statistics'], 17: [STRUCT, 'geospatial_statistics'],
  },
};
export const SCHEMA_ELEMENT: StructFields = {
  name: 'SchemaElement',
  fields: {
    1: [I32, 'type'], 2: [I32, 'type_length'], 3: [I32, 'repetition_type'], 4: [BINARY, 'name', true], 5: [I32, 'num_children'],
    6: [I32, 'converted_type'], 7: [I32, 'scale'], 8: [I32, 'precision'], 9: [I32, 'field_id'], 10: [STRUCT, 'logicalType'],
  },
};

/** Parquet's physical types (parquet.thrift `Type`), by their number there. */
export const PHYSICAL_TYPES = ['BOOLEAN', 'INT32', 'INT64', 'INT96', 'FLOAT', 'DOUBLE', 'BYTE_ARRAY', 'FIXED_LEN_BYTE_ARRAY'] as const;
/** A Parquet physical type by name. */
export type ParquetPhysicalType = (typeof PHYSICAL_TYPES)[number];

/** A Type field's value (i32) as its name: CORRUPT for a number parquet.thrift does not define. */
export function readPhysicalType(reader: CompactReader): ParquetPhysicalType {
  const typeNumber = reader.readI32();
  const type = PHYSICAL_TYPES[typeNumber];
  if (type === undefined) throw reader.corrupt(`physical type ${typeNumber} is not a Parquet type`);
  return type;
}

/** Reads a list of structs (`what` names it), calling `each` with each element's index. */
export function forEachStruct(reader: CompactReader, what: string, each: (index: number) => void): void {
  const list = reader.readListHeader();
  if (list.elementType !== CompactType.Struct) throw reader.corrupt(`${what} is not a list of structs`);
  for (let index = 0; index < list.size; index++) each(index);
}

/**
 * Reads one struct of `spec`: `read(id, depth)` reads the known fields it wants
 * (returning true) and the rest are skipped after their type is checked.
 */
export function readFields(reader: CompactReader, spec: StructFields, depth: number, read: (id: number, depth: number) => boolean): void {
  const seen = new Set<number>();
  reader.readStruct((field, fieldDepth) => {
    const known = spec.fields[field.id];
    if (known !== undefined) {
      const [type, name] = known;
      const matches = type === BOOL ? field.type === CompactType.BoolTrue || field.type === CompactType.BoolFalse : field.type === type;
      if (!matches) throw reader.corrupt(`${spec.name}.${name} has Thrift type ${field.type}, not ${type}`);
      seen.add(field.id);
    }
    return known !== undefined && read(field.id, fieldDepth);
  }, depth + 1);
  for (const [id, [, name, required]] of Object.entries(spec.fields)) {
    if (required === true && !seen.has(Number(id))) throw reader.corrupt(`${spec.name} has no ${name}, a required field`);
  }
}
