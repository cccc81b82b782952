import type { CoreModule } from './runtime/core-module.js';

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
  /** Memory for the filter (or for copying bytes into wasm) could not be allocated; nothing changed. */
  | 'OUT_OF_MEMORY'
  /**
   * An operation the filter type does not have (e.g. removing from a Bloom filter), or a
   * setting that would break a promise silently: a Redis whose `maxmemory` policy may evict
   * a filter's keys (`create`/`open` without `allowEviction: true`).
   */
  | 'UNSUPPORTED'
  /** The filter was used after `free()`. */
  | 'FREED'
  /** A filter was created before `init()` resolved. */
  | 'NOT_INITIALIZED'
  /** The WebAssembly module could not be loaded. */
  | 'LOAD_FAILED'
  /**
   * A remote store (Redis, `cuckoo-bloom-wasm/redis`) failed, timed out or could not be
   * reached. No answer was given; an add may or may not have been applied (adds are
   * idempotent: retry the same batch).
   */
  | 'UNAVAILABLE'
  /**
   * An index log is open for writing by another writer (FileCuckooIndex: one writer per
   * log); the message names it. Or, in `cuckoo-bloom-wasm/shared`, a lock or a call in
   * flight held by another thread past the 500 ms bound: the message names the filter's
   * slot and that thread (see `SharedFilter.recover`).
   */
  | 'LOCKED';

// Every FilterError carries this mark. The reader and shared entries are bundles of their
// own (the reader must stay small), each with its copy of this class, and a page may load
// two copies of the package: `instanceof` asks for the mark, so an error of any copy is a
// FilterError of every copy. Symbol.for gives the one symbol across bundles and realms.
const FILTER_ERROR_MARK: unique symbol = Symbol.for('cuckoo-bloom-wasm/FilterError') as never;

/**
 * The one error class of this package: every failure it reports, in every entry, is a
 * `FilterError` (`instanceof` works across entries, the reader's and shared's bundles
 * included: the check reads a mark every copy of the class sets). The message says what
 * was wrong and where (which option, key index, file or Redis key).
 */
export class FilterError extends Error {
  /**
   * The name inspect and stack traces show where a bundle renames classes
   * (`cuckoo-bloom-wasm/reader` is built without keepNames, so pages can tree-shake it).
   */
  static override readonly name = 'FilterError';

  /** `error instanceof FilterError`: true for a FilterError of any entry's bundle or copy of the package. */
  static override [Symbol.hasInstance](value: unknown): boolean {
    // A subclass keeps the ordinary prototype check.
    if (this !== FilterError) return Function.prototype[Symbol.hasInstance].call(this, value);
    return typeof value === 'object' && value !== null && (value as { [FILTER_ERROR_MARK]?: unknown })[FILTER_ERROR_MARK] === true;
  }

  /** What kind of failure: stable across releases (see {@link FilterErrorCode}). */
  readonly code: FilterErrorCode;
  /**
   * For a batch that stopped early (`addMany` on a full cuckoo filter): the
   * index of the first key that was not stored; every key before it was.
   */
  readonly index?: number;

  /**
   * For code that wraps this package (a store, a loader) and reports in its terms;
   * `cause` is the underlying error, `index` as above.
   */
  constructor(code: FilterErrorCode, message: string, options?: { cause?: unknown; index?: number }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'FilterError';
    Object.defineProperty(this, FILTER_ERROR_MARK, { value: true });
    this.code = code;
    if (options?.index !== undefined) this.index = options.index;
  }
}

// The core's status names by code number, read once per module from C++
// (cpp/include/cuckoo_bloom/core/status.h is the one list).
const statusNamesByModule = new WeakMap<CoreModule, string[]>();

/** The name of a core status code ('OK', 'FULL', ...). */
export function statusName(module: CoreModule, status: number): string {
  let names = statusNamesByModule.get(module);
  if (names === undefined) {
    names = module.statusCodeNames();
    statusNamesByModule.set(module, names);
  }
  return names[status] ?? `UNKNOWN_STATUS_${status}`;
}

const CORE_ERROR_CODES: ReadonlySet<string> = new Set<FilterErrorCode>([
  'INVALID_ARGUMENT',
  'FULL',
  'CORRUPT',
  'UNSUPPORTED_VERSION',
  'WRONG_TYPE',
  'OUT_OF_MEMORY',
  'UNSUPPORTED',
]);

/**
 * Turns a failed core status (by name) into a FilterError: the name is the code
 * when it is one the call can fail with (`expected`: by default every core
 * failure), else `unexpected` (by default CORRUPT).
 */
export function coreError(
  statusName: string,
  message: string,
  expected: ReadonlySet<string> = CORE_ERROR_CODES,
  unexpected: FilterErrorCode = 'CORRUPT',
): FilterError {
  // NOT_FOUND never reaches users as an error (remove() returns false); any
  // name this build does not know is reported as the bytes' fault, never dropped.
  const code = expected.has(statusName) ? (statusName as FilterErrorCode) : unexpected;
  return new FilterError(code, message);
}
