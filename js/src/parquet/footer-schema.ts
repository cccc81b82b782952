// The footer's schema (FileMetaData field 2): a depth-first list of
// SchemaElements whose leaves are the columns, in column-chunk order. The
// reader takes from it each leaf's path and physical type (to check each column
// chunk against: a damaged footer that renames or retypes a chunk is CORRUPT)
// and its logical type (how a JS value is encoded for the filter: a UUID string,
// a TIMESTAMP's unit, a DECIMAL's scale, plain-encoding.ts).
import { CompactType, type CompactReader } from './thrift-compact.js';
import { forEachStruct, readPhysicalType, SCHEMA_ELEMENT, readFields, type ParquetPhysicalType } from './footer-fields.js';

/** A time unit of a TIME or TIMESTAMP column. */
export type ParquetTimeUnit = 'MILLIS' | 'MICROS' | 'NANOS';

/** A column's logical type, as the schema gives it (LogicalType, or the older ConvertedType). */
export interface ParquetLogicalType {
  /** 'STRING', 'UUID', 'DECIMAL', 'DATE', 'TIME', 'TIMESTAMP', 'INTEGER', 'JSON', 'ENUM', ... */
  name: string;
  /** TIME and TIMESTAMP: the unit of the stored integer. */
  unit?: ParquetTimeUnit;
  /** DECIMAL: digits after the point (the stored integer is value * 10^scale). */
  scale?: number;
  /** INTEGER: its width in bits. */
  bitWidth?: number;
  /** INTEGER: whether it is signed (an unsigned one stores 2^31.. or 2^63.. as negative). */
  signed?: boolean;
}

/** Real schemas nest a few levels; this bounds the walk's recursion on hostile ones. */
const MAX_SCHEMA_DEPTH = 100;

export interface SchemaLeaf {
  path: string[];
  physicalType: ParquetPhysicalType;
  logicalType: ParquetLogicalType | undefined;
}

interface Element {
  name: string;
  type?: ParquetPhysicalType;
  numChildren?: number;
  convertedType?: number;
  scale?: number;
  logicalType?: ParquetLogicalType;
}

// LogicalType's union members by id (parquet.thrift).
const LOGICAL_NAMES: Record<number, string> = {
  1: 'STRING', 2: 'MAP', 3: 'LIST', 4: 'ENUM', 5: 'DECIMAL', 6: 'DATE', 7: 'TIME', 8: 'TIMESTAMP', 10: 'INTEGER',
  11: 'UNKNOWN', 12: 'JSON', 13: 'BSON', 14: 'UUID', 15: 'FLOAT16', 16: 'VARIANT', 17: 'GEOMETRY', 18: 'GEOGRAPHY',
};
const UNITS: Record<number, ParquetTimeUnit> = { 1: 'MILLIS', 2: 'MICROS', 3: 'NANOS' };

/** ConvertedType (the schema's older field 6) as a logical type. */
function fromConvertedType(converted: number, scale: number | undefined): ParquetLogicalType | undefined {
  if (converted >= 11 && converted <= 18) {
    return { name: 'INTEGER', bitWidth: 8 << (converted - (converted <= 14 ? 11 : 15)), signed: converted >= 15 };
  }
  switch (converted) {
    case 0: return { name: 'STRING' };
    case 4: return { name: 'ENUM' };
    case 5: return { name: 'DECIMAL', scale: scale ?? 0 };
    case 6: return { name: 'DATE' };
    case 7: return { name: 'TIME', unit: 'MILLIS' };
    case 8: return { name: 'TIME', unit: 'MICROS' };
    case 9: return { name: 'TIMESTAMP', unit: 'MILLIS' };
    case 10: return { name: 'TIMESTAMP', unit: 'MICROS' };
    case 19: return { name: 'JSON' };
    case 20: return { name: 'BSON' };
    case 21: return { name: 'INTERVAL' };
    default: return undefined; // MAP, LIST: groups
  }
}

/** One member of a union of empty structs: its id. */
function readUnionMember(reader: CompactReader, depth: number, what: string): number {
  let member = 0;
  reader.readStruct((field) => {
    if (member !== 0) throw reader.corrupt(`${what} has two members, a union has one`);
    reader.expectType(field, CompactType.Struct, what);
    member = field.id;
    return false; // its contents skipped
  }, depth + 1);
  if (member === 0) throw reader.corrupt(`${what} has no member`);
  return member;
}

function readLogicalType(reader: CompactReader, depth: number): ParquetLogicalType {
  let logical: ParquetLogicalType | undefined;
  reader.readStruct((field, memberDepth) => {
    if (logical !== undefined) throw reader.corrupt('LogicalType has two members, a union has one');
    reader.expectType(field, CompactType.Struct, 'LogicalType');
    logical = { name: LOGICAL_NAMES[field.id] ?? `LogicalType ${field.id}` };
    const current = logical;
    reader.readStruct((inner, innerDepth) => {
      if (current.name === 'DECIMAL' && inner.id === 1) {
        reader.expectType(inner, CompactType.I32, 'DecimalType.scale');
        current.scale = reader.readI32();
      } else if ((current.name === 'TIME' || current.name === 'TIMESTAMP') && inner.id === 2) {
        reader.expectType(inner, CompactType.Struct, `${current.name}.unit`);
        const unit = UNITS[readUnionMember(reader, innerDepth, 'TimeUnit')];
        if (unit === undefined) throw reader.corrupt('TimeUnit is not MILLIS, MICROS or NANOS');
        current.unit = unit;
      } else if (current.name === 'INTEGER' && inner.id === 1) {
        reader.expectType(inner, CompactType.Byte, 'IntType.bitWidth');
        current.bitWidth = reader.readByte();
      } else if (current.name === 'INTEGER' && inner.id === 2) {
        if (inner.type !== CompactType.BoolTrue && inner.type !== CompactType.BoolFalse) throw reader.corrupt('IntType.isSigned is not a bool');
        current.signed = inner.type === CompactType.BoolTrue;
      } else {
        return false;
      }
      return true;
    }, memberDepth + 1);
    return true;
  }, depth + 1);
  if (logical === undefined) throw reader.corrupt('LogicalType has no member');
  if ((logical.name === 'TIME' || logical.name === 'TIMESTAMP') && logical.unit === undefined) throw reader.corrupt(`${logical.name} without its unit`);
  return logical;
}

// The SchemaElement fields read as plain i32s: field id -> where it goes.
const I32_FIELDS = { 5: 'numChildren', 6: 'convertedType', 7: 'scale' } as const;

function readElement(reader: CompactReader, depth: number): Element {
  const element: Partial<Element> = {};
  readFields(reader, SCHEMA_ELEMENT, depth, (id, fieldDepth) => {
    if (id === 1) element.type = readPhysicalType(reader);
    else if (id === 4) element.name = reader.readString();
    else if (id === 10) element.logicalType = readLogicalType(reader, fieldDepth);
    else if (id in I32_FIELDS) element[I32_FIELDS[id as keyof typeof I32_FIELDS]] = reader.readI32();
    else return false;
    return true;
  });
  if (element.numChildren !== undefined && element.numChildren < 0) throw reader.corrupt(`num_children ${element.numChildren} is negative`);
  return element as Element;
}

/** The schema's leaves (the columns) in order, from the list at the reader. */
export function readSchemaLeaves(reader: CompactReader, depth: number): SchemaLeaf[] {
  const elements: Element[] = [];
  forEachStruct(reader, 'FileMetaData.schema', () => elements.push(readElement(reader, depth + 1)));
  if (elements.length === 0) throw reader.corrupt('the schema is empty');
  const leaves: SchemaLeaf[] = [];
  let next = 1; // element 0 is the root, its children follow depth-first
  const walk = (count: number, path: string[]): void => {
    if (path.length > MAX_SCHEMA_DEPTH) throw reader.corrupt(`schema groups nested deeper than ${MAX_SCHEMA_DEPTH}`);
    for (let child = 0; child < count; child++) {
      const element = elements[next++];
      if (element === undefined) throw reader.corrupt('the schema ends inside a group');
      const childPath = [...path, element.name];
      if (element.numChildren !== undefined) {
        walk(element.numChildren, childPath);
      } else {
        if (element.type === undefined) throw reader.corrupt(`schema column ${childPath.join('.')} has no type`);
        const logicalType = element.logicalType ?? (element.convertedType === undefined ? undefined : fromConvertedType(element.convertedType, element.scale));
        leaves.push({ path: childPath, physicalType: element.type, logicalType });
      }
    }
  };
  walk(elements[0]!.numChildren ?? 0, []);
  if (next !== elements.length) throw reader.corrupt(`the schema has ${elements.length - next} elements past its root's columns`);
  return leaves;
}
