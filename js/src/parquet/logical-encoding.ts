// A JS value for a column with a logical type, as the engine stores it: the
// physical value its filter hashed. Where a JS value could mean two stored
// values (a number for a TIMESTAMP: milliseconds, or the column's micros? for a
// DECIMAL: 4, or the unscaled 400?) it is refused with a typed error that says
// what to pass, never guessed: a wrong guess answers a certain `false` for a
// value the row group holds.
import { FilterError } from '../errors.js';
import type { ParquetPhysicalType } from './footer-fields.js';
import type { ParquetLogicalType } from './footer-schema.js';
import type { ParquetValue } from './plain-encoding.js';

const UNIT_PER_MILLISECOND = { MILLIS: 1n, MICROS: 1000n, NANOS: 1_000_000n } as const;
const MS_PER_DAY = 86_400_000;
const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function refuse(logical: ParquetLogicalType, value: unknown, need: string): FilterError {
  const shown = value instanceof Date ? 'a Date' : typeof value === 'string' ? JSON.stringify(value.slice(0, 40)) : typeof value === 'bigint' ? `${value}n` : String(value);
  return new FilterError('INVALID_ARGUMENT', `a ${describeLogical(logical)} column's value must be ${need}, not ${shown}`);
}

/** 'TIMESTAMP(MICROS)', 'DECIMAL(scale 2)', 'UUID'... for messages. */
export function describeLogical(logical: ParquetLogicalType): string {
  if (logical.unit !== undefined) return `${logical.name}(${logical.unit})`;
  if (logical.scale !== undefined) return `${logical.name}(scale ${logical.scale})`;
  return logical.name;
}

function uuidBytes(text: string, logical: ParquetLogicalType): Uint8Array {
  if (!UUID_PATTERN.test(text)) throw refuse(logical, text, "a UUID string ('8-4-4-4-12' hex digits) or its 16 bytes");
  const hex = text.replaceAll('-', '');
  const bytes = new Uint8Array(16);
  for (let i = 0; i < 16; i++) bytes[i] = Number.parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return bytes;
}

/**
 * `value` as the physical value the column stores (a bigint, number or bytes
 * plainEncode then encodes), or `value` itself when the logical type does not
 * change its meaning.
 * @throws FilterError `INVALID_ARGUMENT` for a value whose stored form is ambiguous or impossible.
 */
export function toPhysicalValue(value: ParquetValue | Date, physicalType: ParquetPhysicalType, logical: ParquetLogicalType | undefined): ParquetValue {
  if (value instanceof Uint8Array) return value; // the plain bytes themselves
  switch (logical?.name) {
    case 'UUID':
      if (typeof value === 'string') return uuidBytes(value, logical);
      throw refuse(logical, value, "a UUID string or its 16 bytes");
    case 'DECIMAL':
      if (typeof value === 'bigint' && (physicalType === 'INT32' || physicalType === 'INT64')) return value;
      throw refuse(logical, value, `its unscaled integer as a bigint (4.00 at scale 2 is 400n)${physicalType === 'INT32' || physicalType === 'INT64' ? '' : ' in its big-endian bytes'}`);
    case 'TIMESTAMP':
      if (value instanceof Date) return timestampOf(value, logical);
      if (typeof value === 'bigint') return value;
      throw refuse(logical, value, `a Date or a bigint of ${logical.unit!.toLowerCase()} since the epoch (a number is ambiguous: milliseconds or ${logical.unit!.toLowerCase()}?)`);
    case 'DATE':
      if (value instanceof Date) {
        const days = value.getTime() / MS_PER_DAY;
        if (!Number.isInteger(days)) throw refuse(logical, value, 'a Date at midnight UTC, or a number of days since the epoch');
        return days;
      }
      if (typeof value === 'number' || typeof value === 'bigint') return value; // days since the epoch: the stored form
      throw refuse(logical, value, 'a Date at midnight UTC, or a number of days since the epoch');
    case 'TIME':
      if (typeof value === 'bigint' || (typeof value === 'number' && logical.unit === 'MILLIS')) return value;
      throw refuse(logical, value, `a bigint of ${logical.unit!.toLowerCase()} since midnight${logical.unit === 'MILLIS' ? ', or a number of milliseconds' : ''}`);
    case 'INTEGER':
      // An unsigned column stores 2^31.. (2^63..) as negative two's complement.
      if (logical.signed === false && physicalType === 'INT32' && (typeof value === 'number' || typeof value === 'bigint')) {
        const big = typeof value === 'bigint' ? value : Number.isInteger(value) ? BigInt(value) : undefined;
        if (big !== undefined && big >= 0n && big < 1n << 32n) return Number(BigInt.asIntN(32, big));
      }
      if (logical.signed === false && physicalType === 'INT64' && (typeof value === 'bigint' || Number.isSafeInteger(value))) {
        const big = BigInt(value as number | bigint);
        if (big >= 0n && big < 1n << 64n) return BigInt.asIntN(64, big);
      }
      return value;
    case 'FLOAT16':
    case 'INTERVAL':
      if (typeof value === 'string' || typeof value === 'number' || typeof value === 'bigint') throw refuse(logical, value, 'its stored bytes, a Uint8Array');
      return value;
    default:
      if (value instanceof Date) throw new FilterError('INVALID_ARGUMENT', `a Date is a value of a DATE or TIMESTAMP column, not of a ${physicalType} column`);
      return value;
  }
}

function timestampOf(date: Date, logical: ParquetLogicalType): bigint {
  const ms = date.getTime();
  if (!Number.isFinite(ms)) throw refuse(logical, date, 'a valid Date');
  return BigInt(ms) * UNIT_PER_MILLISECOND[logical.unit!];
}
