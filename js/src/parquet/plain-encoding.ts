// A JS value as Parquet's PLAIN encoding writes it, which is what the spec hashes
// for a Bloom filter (BloomFilter.md): BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY their
// raw bytes (a string as UTF-8), INT32 and INT64 little-endian two's complement,
// FLOAT and DOUBLE little-endian IEEE 754. BOOLEAN and INT96 have no filter any
// writer makes (UNSUPPORTED); a value that does not fit the type is INVALID_ARGUMENT.
import { FilterError } from '../errors.js';
import type { ParquetPhysicalType } from './footer.js';

/** A value `has` takes: a string or bytes for byte arrays, a number or bigint for numbers. */
export type ParquetValue = string | Uint8Array | number | bigint;

const utf8 = new TextEncoder();
// has() and add() encode into this scratch instead of a fresh array per value
// (the bytes are hashed at once and never kept). Grown for a longer string.
let scratch = new Uint8Array(256);
let scratchView = new DataView(scratch.buffer);
const INT64_MIN = -(1n << 63n);
const INT64_MAX = (1n << 63n) - 1n;

function littleEndian(length: number, write: (view: DataView) => void): Uint8Array {
  const bytes = new Uint8Array(length);
  write(new DataView(bytes.buffer));
  return bytes;
}

function wrong(value: ParquetValue, type: ParquetPhysicalType, need: string): FilterError {
  const shown = typeof value === 'string' ? JSON.stringify(value.slice(0, 40)) : typeof value === 'object' ? 'a Uint8Array' : String(value);
  return new FilterError('INVALID_ARGUMENT', `a ${type} column's value must be ${need}, not ${shown}`);
}

export function plainEncode(value: ParquetValue, type: ParquetPhysicalType): Uint8Array {
  switch (type) {
    case 'BYTE_ARRAY':
    case 'FIXED_LEN_BYTE_ARRAY':
      if (typeof value === 'string') return utf8.encode(value);
      if (value instanceof Uint8Array) return value;
      throw wrong(value, type, 'a string or a Uint8Array');
    case 'INT32':
      if (typeof value === 'number' && Number.isInteger(value) && value >= -0x80000000 && value <= 0x7fffffff) {
        return littleEndian(4, (view) => view.setInt32(0, value, true));
      }
      throw wrong(value, type, 'an integer in the 32-bit range');
    case 'INT64': {
      const big = typeof value === 'bigint' ? value : typeof value === 'number' && Number.isSafeInteger(value) ? BigInt(value) : undefined;
      if (big !== undefined && big >= INT64_MIN && big <= INT64_MAX) {
        return littleEndian(8, (view) => view.setBigInt64(0, big, true));
      }
      throw wrong(value, type, 'a bigint or a safe integer in the 64-bit range');
    }
    case 'FLOAT':
      if (typeof value === 'number') return littleEndian(4, (view) => view.setFloat32(0, value, true));
      throw wrong(value, type, 'a number');
    case 'DOUBLE':
      if (typeof value === 'number') return littleEndian(8, (view) => view.setFloat64(0, value, true));
      throw wrong(value, type, 'a number');
    default:
      throw new FilterError('UNSUPPORTED', `a ${type} column has no Bloom filter this reader evaluates`);
  }
}

/** The scratch buffer encodeForHash writes into (valid until its next call). */
export const hashScratch = (): Uint8Array => scratch;

function growScratch(length: number): void {
  if (length > scratch.length) {
    scratch = new Uint8Array(Math.max(length, 2 * scratch.length));
    scratchView = new DataView(scratch.buffer);
  }
}

/**
 * plainEncode's bytes written into hashScratch() for hashing at once; returns
 * their length. No array per value (a subarray or a fresh Uint8Array per call
 * cost more than the hash itself): an ASCII string is copied code unit by code
 * unit, other strings go through encodeInto, numbers through a DataView.
 */
export function encodeForHash(value: ParquetValue, type: ParquetPhysicalType): number {
  if (typeof value === 'string' && (type === 'BYTE_ARRAY' || type === 'FIXED_LEN_BYTE_ARRAY')) {
    const length = value.length;
    growScratch(length * 3); // UTF-8 takes at most 3 bytes per UTF-16 code unit
    let i = 0;
    for (; i < length; i++) {
      const unit = value.charCodeAt(i);
      if (unit >= 0x80) break;
      scratch[i] = unit;
    }
    return i === length ? length : utf8.encodeInto(value, scratch).written;
  }
  if (typeof value === 'number' && type === 'DOUBLE') {
    scratchView.setFloat64(0, value, true);
    return 8;
  }
  if (typeof value === 'bigint' && type === 'INT64' && value >= INT64_MIN && value <= INT64_MAX) {
    scratchView.setBigInt64(0, value, true);
    return 8;
  }
  const bytes = plainEncode(value, type); // the other cases, and every refusal
  growScratch(bytes.length);
  scratch.set(bytes);
  return bytes.length;
}
