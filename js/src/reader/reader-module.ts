// The read-only module's C exports (bindings/reader.cpp) and the one way this
// entry opens bytes through them. Internal: users see FilterReader and
// UrlBlocklistReader only.
import { FilterError, type FilterErrorCode } from '../errors.js';
import { failureOf } from '../core/wasm-status.js';
import { getRuntime } from '../runtime/init.js';
import { isDetached, MAX_ARENA_BYTES } from '../keys/keys.js';

/** What core.reader.mjs + core.reader.wasm export (no embind: plain C functions). */
export interface ReaderModule {
  HEAPU8: Uint8Array;
  _malloc(size: number): number;
  _free(pointer: number): void;
  /** A handle (0: out of memory) whose status says whether the bytes were read. */
  _cbw_reader_open(data: number, length: number, kind: ReadKind): number;
  _cbw_reader_free(handle: number): void;
  _cbw_reader_status(handle: number): number;
  _cbw_reader_message(handle: number): number;
  _cbw_status_name(code: number): number;
  _cbw_reader_type_name(handle: number): number;
  _cbw_reader_count(handle: number): number;
  _cbw_reader_capacity(handle: number): number;
  _cbw_reader_rate(handle: number): number;
  _cbw_reader_has(handle: number, key: number, length: number): number;
  _cbw_reader_blocklist_scheme(handle: number): number;
  _cbw_reader_blocklist_depth(handle: number): number;
  _cbw_reader_blocklist_entries(handle: number): number;
  _cbw_reader_set_contains(handle: number, key: number, length: number): number;
  _cbw_reader_set_count(handle: number): number;
  _cbw_reader_set_checksum_low(handle: number): number;
  _cbw_reader_set_checksum_high(handle: number): number;
  _cbw_reader_index_parts(handle: number): number;
  _cbw_reader_index_count(handle: number): number;
  _cbw_reader_index_checksum_low(handle: number): number;
  _cbw_reader_index_checksum_high(handle: number): number;
  _cbw_reader_index_part_of(handle: number, key: number, length: number): number;
  _cbw_reader_index_part_bytes(handle: number, part: number): number;
  /** A kind-2 handle over bytes checked as part `part` of the index's split (its status says whether they are). */
  _cbw_reader_index_open_part(index: number, part: number, data: number, length: number): number;
  /** The first of a batch of URL expressions a blocklist reports and its exceptions (a set handle, 0: none) do not hold, or -1. */
  _cbw_reader_first_hit(handle: number, exceptions: number, data: number, offsets: number, count: number): number;
}

/** What cbw_reader_open reads: a filter, a URL blocklist, or a blocklist's exact companion. */
export const ReadKind = { Filter: 0, Blocklist: 1, ExpressionSet: 2, ExpressionSetIndex: 3 } as const;
export type ReadKind = (typeof ReadKind)[keyof typeof ReadKind];

/** The statuses the core reports when reading (cpp/include/cuckoo_bloom/core/status.h). */
const READ_ERROR_CODES: ReadonlySet<string> = new Set<FilterErrorCode>([
  'INVALID_ARGUMENT',
  'CORRUPT',
  'UNSUPPORTED_VERSION',
  'WRONG_TYPE',
  'OUT_OF_MEMORY',
]);

/**
 * The loaded module. This entry's build swaps the package's glue and wasm for
 * core.reader.* (.ci/build-package.mjs), so init() loads this module.
 */
export function readerModule(): ReaderModule {
  const module = getRuntime().module as unknown as ReaderModule;
  if (typeof module._cbw_reader_open !== 'function') {
    throw new FilterError('LOAD_FAILED', 'the loaded WebAssembly module is not core.reader.wasm: pass init({ wasm }) the reader\'s module');
  }
  return module;
}

const utf8 = new TextDecoder();

/** The NUL-terminated UTF-8 string at `pointer` in wasm memory. */
export function stringAt(module: ReaderModule, pointer: number): string {
  const heap = module.HEAPU8;
  let end = pointer;
  while (heap[end] !== 0) end++;
  return utf8.decode(heap.subarray(pointer, end));
}

/** The bytes a reader reads: a Uint8Array or an ArrayBuffer, attached. */
export function bytesOf(input: unknown, what: string): Uint8Array {
  const bytes = input instanceof ArrayBuffer ? new Uint8Array(input) : input;
  if (!(bytes instanceof Uint8Array)) {
    throw new FilterError('INVALID_ARGUMENT', `${what} reads a Uint8Array or an ArrayBuffer`);
  }
  if (isDetached(bytes)) throw new FilterError('INVALID_ARGUMENT', `${what}: the bytes are detached (transferred)`);
  return bytes;
}

/**
 * Copies `bytes` into wasm memory, reads them (as a filter, a URL blocklist or a companion)
 * and returns the handle; a failure is a FilterError with the core's code.
 * The copy is freed either way: the handle keeps only what it read.
 */
export function openReader(
  module: ReaderModule,
  bytes: Uint8Array,
  kind: ReadKind,
  open: (pointer: number, length: number) => number = (pointer, length) => module._cbw_reader_open(pointer, length, kind),
): number {
  // _malloc takes a 32-bit size: anything near 2^31 would wrap, and cannot fit in wasm32 memory anyway.
  const pointer = bytes.length <= MAX_ARENA_BYTES ? module._malloc(Math.max(1, bytes.length)) : 0;
  if (pointer === 0) {
    throw new FilterError('OUT_OF_MEMORY', `out of wasm memory: cannot copy ${bytes.length} bytes in to read them`);
  }
  let handle = 0;
  try {
    module.HEAPU8.set(bytes, pointer);
    handle = open(pointer, bytes.length);
  } finally {
    module._free(pointer);
  }
  if (handle === 0) throw new FilterError('OUT_OF_MEMORY', 'out of wasm memory: cannot read the bytes');
  const status = module._cbw_reader_status(handle);
  if (status !== 0) {
    const message = stringAt(module, module._cbw_reader_message(handle));
    module._cbw_reader_free(handle);
    // Any name this build does not expect is reported as the bytes' fault, never dropped.
    throw failureOf(status, (code) => stringAt(module, module._cbw_status_name(code)), message, READ_ERROR_CODES, 'CORRUPT');
  }
  return handle;
}

/**
 * Frees handles whose owner was dropped without free(): a reader holds wasm
 * memory the JS garbage collector does not see.
 */
export const droppedReaders =
  typeof FinalizationRegistry === 'function'
    ? new FinalizationRegistry<{ module: ReaderModule; handle: number }>(({ module, handle }) => module._cbw_reader_free(handle))
    : null;
