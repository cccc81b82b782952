// A blocklist's exact companion read by core.reader.wasm (bindings/reader.cpp,
// cbw_reader_open kind 2): the reader entry's side of url/confirmation.ts.
import { FilterError } from '../errors.js';
import { getRuntime } from '../runtime/init.js';
import type { ExactSet } from '../url/confirmation.js';
import { bytesOf, droppedReaders, openReader, ReadKind, readerModule } from './reader-module.js';

/**
 * Reads companion bytes.
 * @throws FilterError `CORRUPT`, `WRONG_TYPE`, `UNSUPPORTED_VERSION`, `INVALID_ARGUMENT` (not bytes), `OUT_OF_MEMORY`.
 */
export function readReaderConfirmation(input: unknown): ExactSet {
  const module = readerModule();
  const bytes = bytesOf(input, 'attachConfirmation');
  let handle = openReader(module, bytes, ReadKind.ExpressionSet);
  const owner = {};
  droppedReaders?.register(owner, { module, handle }, owner);
  return {
    holds(expression: string): boolean {
      if (handle === 0) throw new FilterError('FREED', 'this confirmation was freed');
      const { arena } = getRuntime();
      const length = arena.encode(expression);
      return module._cbw_reader_set_contains(handle, arena.pointer, length) !== 0;
    },
    count: module._cbw_reader_set_count(handle),
    get address(): number {
      return handle;
    },
    blocklistChecksum: {
      low: module._cbw_reader_set_checksum_low(handle) >>> 0,
      high: module._cbw_reader_set_checksum_high(handle) >>> 0,
    },
    free(): void {
      if (handle === 0) return;
      droppedReaders?.unregister(owner);
      module._cbw_reader_free(handle);
      handle = 0;
    },
  };
}
