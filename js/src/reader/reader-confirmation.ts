// A blocklist's exact companion read by core.reader.wasm (bindings/reader.cpp,
// cbw_reader_open kind 2, and a split companion's index, kind 3, with its
// parts): the reader entry's side of url/confirmation.ts.
import { FilterError } from '../errors.js';
import { getRuntime } from '../runtime/init.js';
import type { ConfirmationIndex, ExactSet } from '../url/confirmation.js';
import { bytesOf, droppedReaders, openReader, ReadKind, readerModule, type ReaderModule } from './reader-module.js';

/**
 * Reads companion bytes.
 * @throws FilterError `CORRUPT`, `WRONG_TYPE`, `UNSUPPORTED_VERSION`, `INVALID_ARGUMENT` (not bytes), `OUT_OF_MEMORY`.
 */
export function readReaderConfirmation(input: unknown): ExactSet {
  const module = readerModule();
  const bytes = bytesOf(input, 'attachConfirmation');
  return setOf(module, openReader(module, bytes, ReadKind.ExpressionSet));
}

/** An ExactSet over a kind-2 handle (a whole companion or one part of a split). */
function setOf(module: ReaderModule, opened: number): ExactSet {
  let handle = opened;
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

/**
 * Reads a split companion's index (https://github.com/cuckoo-bloom-wasm/cuckoo-bloom-wasm/blob/main/docs/URL-BLOCKLISTS.md, "Confirming in parts").
 * @throws FilterError `CORRUPT`, `WRONG_TYPE`, `UNSUPPORTED_VERSION`, `INVALID_ARGUMENT` (not bytes), `OUT_OF_MEMORY`.
 */
export function readReaderConfirmationIndex(input: unknown): ConfirmationIndex {
  const module = readerModule();
  const bytes = bytesOf(input, 'attachConfirmationParts');
  let handle = openReader(module, bytes, ReadKind.ExpressionSetIndex);
  const owner = {};
  droppedReaders?.register(owner, { module, handle }, owner);
  const live = (): number => {
    if (handle === 0) throw new FilterError('FREED', 'this confirmation index was freed');
    return handle;
  };
  const partCount = module._cbw_reader_index_parts(handle);
  const requirePart = (part: number): void => {
    if (!Number.isInteger(part) || part < 0 || part >= partCount) {
      throw new FilterError('INVALID_ARGUMENT', `part ${String(part)} does not exist: this split has ${partCount} parts (0..${partCount - 1})`);
    }
  };
  return {
    partCount,
    count: module._cbw_reader_index_count(handle),
    blocklistChecksum: {
      low: module._cbw_reader_index_checksum_low(handle) >>> 0,
      high: module._cbw_reader_index_checksum_high(handle) >>> 0,
    },
    partOf(expression: string): number {
      const index = live();
      const { arena } = getRuntime();
      const length = arena.encode(expression);
      return module._cbw_reader_index_part_of(index, arena.pointer, length);
    },
    partBytes(part: number): number {
      requirePart(part);
      return module._cbw_reader_index_part_bytes(live(), part);
    },
    readPart(part: number, input: Uint8Array): ExactSet {
      requirePart(part);
      const index = live();
      const partBytes = bytesOf(input, `part ${part}`);
      const opened = openReader(module, partBytes, ReadKind.ExpressionSet, (pointer, length) =>
        module._cbw_reader_index_open_part(index, part, pointer, length),
      );
      return setOf(module, opened);
    },
    free(): void {
      if (handle === 0) return;
      droppedReaders?.unregister(owner);
      module._cbw_reader_free(handle);
      handle = 0;
    },
  };
}
