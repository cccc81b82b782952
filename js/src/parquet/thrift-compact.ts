// A minimal reader of Thrift's compact protocol, enough for Parquet's footer
// (FileMetaData) and its Bloom filter headers: the parsers read the fields they
// need and skip every other field generically.
//
// The bytes come from a file nobody vouched for, so every read is bounded:
// a varint is at most 10 bytes, a length or element count never exceeds the
// bytes left (every element takes at least one byte, so the work is linear in
// the input), nesting stops at MAX_DEPTH, and any violation is a FilterError
// CORRUPT naming what was being read (`what`), never a RangeError or a hang.
//
// Compact protocol (thrift/doc/specs/thrift-compact-protocol.md): a field
// header byte is (id delta << 4) | type, delta 0 meaning a zigzag varint i16
// id follows; integers are zigzag varints; binary is a varint length and the
// bytes; a list or set header is (size << 4) | element type, size 15 meaning
// a varint size follows; a map is a varint size and, if not 0, one byte of
// (key type << 4) | value type; a struct ends at a STOP (0) byte.
import { FilterError } from '../errors.js';

// The compact protocol's type ids, 0..12 in the spec's order.
// prettier-ignore
export enum CompactType {
  Stop, BoolTrue, BoolFalse, Byte, I16, I32, I64, Double, Binary, List, Set, Map, Struct,
}

/** Parquet's metadata nests about 6 deep; anything past this is hostile. */
const MAX_DEPTH = 32;

export interface FieldHeader {
  id: number;
  type: CompactType;
}

export interface ListHeader {
  size: number;
  elementType: CompactType;
}

export class CompactReader {
  position: number;

  constructor(
    private readonly bytes: Uint8Array,
    start: number,
    private readonly end: number,
    /** What is being read, for error messages ("Parquet footer", "Bloom filter header"). */
    private readonly what: string,
  ) {
    this.position = start;
  }

  corrupt(detail: string): FilterError {
    return new FilterError('CORRUPT', `${this.what}: ${detail} at byte ${this.position}`);
  }

  get remaining(): number {
    return this.end - this.position;
  }

  readByte(): number {
    if (this.position >= this.end) throw this.corrupt('ends early');
    return this.bytes[this.position++]!;
  }

  /** An unsigned varint of up to 10 bytes, as a bigint (64 bits). */
  readVarintBig(): bigint {
    let result = 0n;
    for (let shift = 0n; shift < 70n; shift += 7n) {
      const byte = this.readByte();
      result |= BigInt(byte & 0x7f) << shift;
      if ((byte & 0x80) === 0) return BigInt.asUintN(64, result);
    }
    throw this.corrupt('a varint longer than 10 bytes');
  }

  /** An unsigned varint that must fit 32 bits (lengths, sizes, i32 before zigzag). */
  readVarint32(): number {
    let result = 0;
    for (let shift = 0; shift < 35; shift += 7) {
      const byte = this.readByte();
      result += (byte & 0x7f) * 2 ** shift;
      if ((byte & 0x80) === 0) {
        if (result > 0xffffffff) throw this.corrupt('a 32-bit varint out of range');
        return result;
      }
    }
    throw this.corrupt('a 32-bit varint longer than 5 bytes');
  }

  readI32(): number {
    const unsigned = this.readVarint32();
    return unsigned % 2 === 0 ? unsigned / 2 : -(unsigned + 1) / 2; // zigzag
  }

  readI64(): bigint {
    const unsigned = this.readVarintBig();
    return (unsigned >> 1n) ^ -(unsigned & 1n); // zigzag
  }

  /** A length that must fit in the bytes left (binary lengths, element counts). */
  private readCount(unitBytes: number, kind: string): number {
    const count = this.readVarint32();
    if (count * unitBytes > this.remaining) throw this.corrupt(`a ${kind} of ${count} past the end`);
    return count;
  }

  readBinary(): Uint8Array {
    const length = this.readCount(1, 'binary length');
    const value = this.bytes.subarray(this.position, this.position + length);
    this.position += length;
    return value;
  }

  readString(): string {
    return new TextDecoder().decode(this.readBinary());
  }

  /** The next field's header inside a struct; type Stop ends the struct. */
  readFieldHeader(previousId: number): FieldHeader {
    const byte = this.readByte();
    const type = (byte & 0x0f) as CompactType;
    // STOP is the byte 0x00: a STOP nibble under a nonzero delta is no header at all.
    if (type === CompactType.Stop) {
      if (byte !== 0) throw this.corrupt(`field header 0x${byte.toString(16)} is a STOP with a field id delta`);
      return { id: 0, type };
    }
    if (type > CompactType.Struct) throw this.corrupt(`field type ${type} is not a Thrift type`);
    const delta = byte >> 4;
    const id = delta === 0 ? this.readI32() : previousId + delta;
    return { id, type };
  }

  readListHeader(): ListHeader {
    const byte = this.readByte();
    const elementType = (byte & 0x0f) as CompactType;
    if (elementType === CompactType.Stop || elementType > CompactType.Struct) {
      throw this.corrupt(`list element type ${elementType} is not a Thrift type`);
    }
    const shortSize = byte >> 4;
    // Every element takes at least one byte (a bool in a list is one byte).
    const size = shortSize === 15 ? this.readCount(1, 'list size') : shortSize;
    if (size > this.remaining) throw this.corrupt(`a list of ${size} past the end`);
    return { size, elementType };
  }

  /** Skips a value of `type` (a field's, or a list's element), nested values included. */
  skip(type: CompactType, depth = 0): void {
    if (depth > MAX_DEPTH) throw this.corrupt(`nesting deeper than ${MAX_DEPTH}`);
    switch (type) {
      case CompactType.BoolTrue:
      case CompactType.BoolFalse:
        return; // a struct field's value is in its header; a list's bool is read as Byte below
      case CompactType.Byte:
        this.readByte();
        return;
      case CompactType.I16:
      case CompactType.I32:
      case CompactType.I64:
        this.readVarintBig();
        return;
      case CompactType.Double:
        if (this.remaining < 8) throw this.corrupt('a double past the end');
        this.position += 8;
        return;
      case CompactType.Binary:
        this.readBinary();
        return;
      case CompactType.List:
      case CompactType.Set: {
        const { size, elementType } = this.readListHeader();
        const boolAsByte = elementType === CompactType.BoolTrue || elementType === CompactType.BoolFalse;
        for (let i = 0; i < size; i++) this.skip(boolAsByte ? CompactType.Byte : elementType, depth + 1);
        return;
      }
      case CompactType.Map: {
        const size = this.readCount(2, 'map size');
        if (size === 0) return;
        const types = this.readByte();
        const keyType = (types >> 4) as CompactType;
        const valueType = (types & 0x0f) as CompactType;
        for (const t of [keyType, valueType]) {
          if (t === CompactType.Stop || t > CompactType.Struct) throw this.corrupt(`map type ${t} is not a Thrift type`);
        }
        const asValue = (t: CompactType) => (t === CompactType.BoolTrue || t === CompactType.BoolFalse ? CompactType.Byte : t);
        for (let i = 0; i < size; i++) {
          this.skip(asValue(keyType), depth + 1);
          this.skip(asValue(valueType), depth + 1);
        }
        return;
      }
      case CompactType.Struct:
        this.readStruct(() => false, depth + 1);
        return;
      default:
        throw this.corrupt(`type ${type} is not a Thrift type`);
    }
  }

  /**
   * Reads a struct's fields until its STOP: `field` reads the ones it knows
   * (returning true) and the rest are skipped. Field ids must rise: Thrift
   * writers emit a struct's fields in the IDL's order, and Parquet's IDL numbers
   * them in that order, so a repeated or falling id is damage (a flipped delta
   * that would otherwise read one field as another), not a writer's choice.
   */
  readStruct(field: (header: FieldHeader, depth: number) => boolean, depth = 0): void {
    if (depth > MAX_DEPTH) throw this.corrupt(`nesting deeper than ${MAX_DEPTH}`);
    let previousId = 0;
    for (;;) {
      const header = this.readFieldHeader(previousId);
      if (header.type === CompactType.Stop) return;
      if (header.id <= previousId) throw this.corrupt(`field id ${header.id} after field ${previousId}`);
      if (!field(header, depth)) this.skip(header.type, depth);
      previousId = header.id;
    }
  }

  /** Checks that a known field has the type the schema gives it. */
  expectType(header: FieldHeader, type: CompactType, name: string): void {
    if (header.type !== type) throw this.corrupt(`field ${name} has type ${header.type}, not ${type}`);
  }
}
