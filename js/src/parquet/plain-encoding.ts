// A JS value as Parquet's PLAIN encoding writes it, which is what the spec hashes
// for a Bloom filter (BloomFilter.md): BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY their
// raw bytes (a string as UTF-8), INT32 and INT64 little-endian two's complement,
// FLOAT and DOUBLE little-endian IEEE 754. BOOLEAN and INT96 have no filter any
// writer makes (UNSUPPORTED); a value that does not fit the type is INVALID_ARGUMENT.
import { FilterError } from '../errors.js';
import { describeValue } from '../keys/keys.js';
import type { ParquetPhysicalType } from './footer-fields.js';

/** A value `has` takes: a string or bytes for byte arrays, a number or bigint for numbers, a Date for DATE and TIMESTAMP columns. */
export type ParquetValue = string | Uint8Array | number | bigint | Date;

const utf8 = new TextEncoder();
// has() and add() encode a number into this scratch instead of a fresh array
// per value (the bytes are hashed at once and never kept).
const scratch = new Uint8Array(8);
const scratchView = new DataView(scratch.buffer);
const scratch4 = scratch.subarray(0, 4);
const INT64_MIN = -(1n << 63n);
const INT64_MAX = (1n << 63n) - 1n;

function littleEndian(length: number, write: (view: DataView) => void): Uint8Array {
  const bytes = new Uint8Array(length);
  write(new DataView(bytes.buffer));
  return bytes;
}

function wrong(value: ParquetValue, type: ParquetPhysicalType, need: string): FilterError {
  const shown = typeof value === 'string' ? JSON.stringify(value.slice(0, 40)) : value instanceof Uint8Array ? 'a Uint8Array' : typeof value === 'bigint' ? `${value}n` : typeof value === 'object' || typeof value === 'function' ? describeValue(value) : String(value);
  return new FilterError('INVALID_ARGUMENT', `a ${type} column's value must be ${need}, not ${shown}`);
}

/**
 * `value` as Parquet's PLAIN encoding writes it for a column of `type`: the bytes the
 * spec hashes for a Bloom filter.
 * @throws FilterError `INVALID_ARGUMENT` for a value the type cannot hold; `UNSUPPORTED` for BOOLEAN and INT96.
 */
export function plainEncode(value: ParquetValue, type: ParquetPhysicalType): Uint8Array {
  switch (type) {
    case 'BYTE_ARRAY':
    case 'FIXED_LEN_BYTE_ARRAY':
      if (typeof value === 'string') return utf8.encode(value);
      if (value instanceof Uint8Array) return value;
      throw wrong(value, type, 'a string or a Uint8Array');
    case 'INT32': {
      const int = typeof value === 'bigint' && value >= -0x80000000n && value <= 0x7fffffffn ? Number(value) : value;
      if (typeof int === 'number' && Number.isInteger(int) && int >= -0x80000000 && int <= 0x7fffffff) {
        return littleEndian(4, (view) => view.setInt32(0, int, true));
      }
      throw wrong(value, type, 'an integer (number or bigint) in the 32-bit range');
    }
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

/**
 * plainEncode's bytes for hashing at once: a number of a numeric column in a
 * shared scratch (valid until the next call; a fresh array per value cost more
 * than the hash itself), anything else (and every refusal) through plainEncode.
 */
export function encodeForHash(value: ParquetValue, type: ParquetPhysicalType): Uint8Array {
  if (typeof value === 'number' && type === 'DOUBLE') {
    scratchView.setFloat64(0, value, true);
    return scratch;
  }
  if (typeof value === 'number' && type === 'INT32' && Number.isInteger(value) && value >= -0x80000000 && value <= 0x7fffffff) {
    scratchView.setInt32(0, value, true);
    return scratch4;
  }
  if (typeof value === 'bigint' && type === 'INT64' && value >= INT64_MIN && value <= INT64_MAX) {
    scratchView.setBigInt64(0, value, true);
    return scratch;
  }
  if (typeof value === 'number' && type === 'INT64' && Number.isSafeInteger(value)) {
    scratchView.setBigInt64(0, BigInt(value), true);
    return scratch;
  }
  return plainEncode(value, type);
}
