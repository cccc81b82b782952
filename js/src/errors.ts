/**
 * Every error this library throws is a `FilterError` with a stable `code`.
 * Switch on `code`, not on the message: messages may improve, codes do not change.
 */
export type FilterErrorCode =
  /** Bad options or arguments: capacity not a positive integer, rate outside (0, 1), a key that is neither string nor Uint8Array, ... */
  | 'INVALID_ARGUMENT'
  /** A cuckoo filter could not store the key. Every key stored before is still there. */
  | 'FULL'
  /** Bytes that are truncated, altered (bad checksum) or internally inconsistent. */
  | 'CORRUPT'
  /** Bytes in a format version this build does not read. */
  | 'UNSUPPORTED_VERSION'
  /** Valid bytes of another filter type (e.g. cuckoo bytes given to `BloomFilter.deserialize`). */
  | 'WRONG_TYPE'
  /** The filter was used after `free()`. */
  | 'FREED'
  /** A filter was created before `init()` resolved. */
  | 'NOT_INITIALIZED'
  /** The WebAssembly module could not be loaded. */
  | 'LOAD_FAILED';

export class FilterError extends Error {
  readonly code: FilterErrorCode;

  constructor(code: FilterErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'FilterError';
    this.code = code;
  }
}

/** The core's StatusCode numbers (cpp/include/cuckoo_bloom/status.h). */
const CORE_STATUS: Record<number, FilterErrorCode> = {
  1: 'INVALID_ARGUMENT',
  2: 'FULL',
  3: 'CORRUPT',
  4: 'UNSUPPORTED_VERSION',
  5: 'WRONG_TYPE',
};

export const CORE_OK = 0;
export const CORE_NOT_FOUND = 6;

/** Turns a non-ok core status into a FilterError. */
export function coreError(status: number, message: string): FilterError {
  return new FilterError(CORE_STATUS[status] ?? 'CORRUPT', message);
}
