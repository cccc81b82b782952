/**
 * What is at the end of an index log, where its whole records stop: an
 * unfinished last write (a torn tail, which opening may drop) or damage
 * (which opening refuses, leaving the file untouched). The rules are in
 * https://github.com/cuckoo-bloom-wasm/cuckoo-bloom-wasm/blob/main/docs/EXACT-INDEX.md ("Durability, precisely"); record_store.h says why formats 2
 * and 3 can tell them apart and format 1 often cannot. Format 3 chains each
 * record to the 8 bytes before it, so every scan here reads those 8 bytes
 * too (readWithChain) and hands the core a pointer just after them.
 */
import { FilterError, internalRuntime } from '../../index.js';
import type { IndexCore } from '../record-store.js';
import { FILE_HEADER_BYTES, type FileRecordStore, type LogVersion } from './file-store.js';

/** Format 1's smallest record (9 header + 8 checksum bytes). */
const V1_SMALLEST_RECORD = 17;
/** A tail longer than this is not searched for a whole record (dropTornTail on a version-1 log). */
const SEARCHED_TAIL_BYTES = 16 << 20;
const CHUNK_BYTES = 1 << 20;

type Stop = 'incomplete' | 'garbled' | 'bad-header';

type TailVerdict =
  | { torn: true }
  | { torn: false; reason: string; ambiguous: boolean };

export function core(): IndexCore {
  return internalRuntime().module as IndexCore;
}

/** Copies `bytes` into wasm memory for `use`, then frees it. */
export function withBytesInWasm<T>(bytes: Uint8Array, use: (pointer: number) => T): T {
  const module = core();
  const pointer = module._malloc(Math.max(16, bytes.length));
  if (pointer === 0) throw new FilterError('OUT_OF_MEMORY', 'out of wasm memory reading the index log');
  try {
    module.HEAPU8.set(bytes, pointer);
    return use(pointer);
  } finally {
    module._free(pointer);
  }
}

function readRange(store: FileRecordStore, from: number, length: number): Uint8Array {
  const bytes = new Uint8Array(length);
  const got = store.readInto(from, bytes);
  return bytes.subarray(0, got);
}

/**
 * The log bytes [from, from + length) with the 8 bytes before them in front
 * (format 3 chains a record to them; from >= 16 always): pass `pointer + 8`
 * of the copy in wasm memory to the core's scans.
 */
export function readWithChain(store: FileRecordStore, from: number, length: number): Uint8Array {
  return readRange(store, from - 8, length + 8);
}

/**
 * Judges where replay stopped (`position`, the first byte that is not a whole
 * record; `claimed`, what that record's header announces, 0 if unreadable).
 * `dropTornTail` lets a version-1 log's ambiguous tail (a record running past
 * the end, which a flipped length can fake) count as torn, unless a whole
 * record follows it (then it is damage for certain).
 */
export function judgeTail(
  store: FileRecordStore,
  version: LogVersion,
  position: number,
  stop: Stop,
  claimed: number,
  dropTornTail: boolean,
): TailVerdict {
  const length = store.byteLength;
  // Space a file system allocated but never wrote (kind 0 is no kind, and format 2's check of zeros is not zero).
  if (store.isZeroFrom(position)) return { torn: true };
  const endsAtEnd = claimed > 0 && position + claimed === length;
  if (version !== 1) {
    // An intact header (in version 3 also chained to the record before it) (its own check passed) whose record runs past the end, or
    // ends exactly at it with a bad body: the last write never finished. A header
    // cut short (fewer bytes than a header) is one too: a flip never shortens a file.
    if (stop === 'incomplete' || (stop === 'garbled' && endsAtEnd)) return { torn: true };
    return {
      torn: false,
      ambiguous: false,
      reason: stop === 'bad-header' ? 'its header fails its check' : 'its checksum is wrong and records follow it',
    };
  }
  // Format 1. Replay stops at the first record that is not whole, so a damaged
  // record (at least 17 bytes) leaves at least 17 bytes from there: fewer is a torn write.
  if (length - position < V1_SMALLEST_RECORD) return { torn: true };
  const looksTorn = stop === 'incomplete' || endsAtEnd;
  if (!looksTorn) {
    return {
      torn: false,
      ambiguous: false,
      reason: stop === 'bad-header' ? 'its header is one no writer makes' : 'its checksum is wrong and records follow it',
    };
  }
  const what =
    stop === 'incomplete' ? `its header claims ${claimed} bytes, past the end of the file` : 'its checksum is wrong';
  const later = findWholeRecordAfter(store, position);
  if (later !== undefined) {
    return { torn: false, ambiguous: false, reason: `${what}, and a whole record follows it at byte ${later}` };
  }
  if (dropTornTail) return { torn: true };
  return {
    torn: false,
    ambiguous: true,
    reason:
      `${what}: in a version-1 log that is either an unfinished last write or a damaged length, which cannot be told apart ` +
      '(open with dropTornTail: true to drop it as a torn tail)',
  };
}

/** The first offset after `position` where a whole format-1 record starts (the tail searched up to 16 MiB), or undefined. */
function findWholeRecordAfter(store: FileRecordStore, position: number): number | undefined {
  const tailBytes = Math.min(store.byteLength - position, SEARCHED_TAIL_BYTES);
  const tail = readRange(store, position, tailBytes);
  const found = withBytesInWasm(tail, (pointer) => core()._cbw_record_find_whole(pointer, tail.length, 1, 1));
  return found < 0 ? undefined : position + found;
}

/**
 * Where whole records resume after damage at `position`: the first offset
 * after it where a whole record starts (in version 3, one chained to the 8
 * bytes before it, as every record the writer wrote is), searched to the end
 * of the log in windows of 16 MiB, or undefined. A record longer than 1 MiB
 * that straddles two windows is not found (its bytes are then moved aside).
 */
export function findResync(store: FileRecordStore, position: number): number | undefined {
  const length = store.byteLength;
  const format = store.recordFormat;
  // Never resume inside the damaged record itself: its key or value may hold
  // any bytes, a whole chained record among them (8 bytes then a record,
  // chained to them), which would be adopted as genuine — a key set, or a
  // real one deleted, that no writer wrote. So when the damaged record's
  // length can still be read, the search starts where it ends.
  const spanEnd = damagedRecordEnd(store, position);
  const start = spanEnd !== undefined && spanEnd > position ? spanEnd : position + 1;
  for (let from = start; from < length; from += SEARCHED_TAIL_BYTES) {
    const positions = Math.min(SEARCHED_TAIL_BYTES, length - from);
    const window = readWithChain(store, from, Math.min(positions + CHUNK_BYTES, length - from));
    const found = withBytesInWasm(window, (pointer) =>
      core()._cbw_record_find_whole(pointer + 8, window.length - 8, 0, format),
    );
    if (found >= 0 && found < positions) return from + found;
  }
  return undefined;
}

/** Format 2 and 3's record header: u32 key length, u32 value length, u8 kind, u32 header check. */
const CHECKED_HEADER_BYTES = 13;

/**
 * Where the damaged record at `position` ends, when its length is known:
 * its header passes its check (the damage is in the body), or exactly one
 * single-bit change of the header's 13 bytes makes it pass (a flipped bit
 * in the header; a 32-bit check, so a wrong match among 104 tries has odds
 * of about 1 in 40 million). Undefined otherwise (format 1 has no header
 * check; a header damaged more, or a length past the end of the log).
 */
export function damagedRecordEnd(store: FileRecordStore, position: number): number | undefined {
  const format = store.recordFormat;
  const length = store.byteLength;
  if (format === 1 || length - position < CHECKED_HEADER_BYTES) return undefined;
  const module = core();
  const header = readWithChain(store, position, CHECKED_HEADER_BYTES);
  // Wasm memory: [0, 8) the claimed length (a float64), [8, 16) the chain, [16, 29) the header.
  const claimedIf = (bytes: Uint8Array): number | undefined =>
    withBytesInWasm(new Uint8Array(8 + bytes.length), (start) => {
      module.HEAPU8.set(bytes, start + 8);
      const kind = module._cbw_record_scan(start + 16, CHECKED_HEADER_BYTES, start, format);
      const claimed = module.HEAPF64[start / 8]!;
      return kind === 3 || claimed <= 0 ? undefined : claimed;
    });
  const inRange = (claimed: number | undefined): number | undefined =>
    claimed !== undefined && position + claimed <= length ? position + claimed : undefined;
  const asIs = claimedIf(header);
  if (asIs !== undefined) return inRange(asIs);
  let found: number | undefined;
  let matches = 0;
  for (let byte = 8; byte < 8 + CHECKED_HEADER_BYTES; byte++) {
    for (let bit = 0; bit < 8; bit++) {
      const flipped = header.slice();
      flipped[byte]! ^= 1 << bit;
      const claimed = claimedIf(flipped);
      if (claimed !== undefined) {
        matches++;
        found = claimed;
      }
    }
  }
  return matches === 1 ? inRange(found) : undefined;
}

/**
 * Format 3: the 8 bytes the record at `at` was chained to, when they differ
 * from those in the log by exactly one bit — the record before it lost a bit
 * of its checksum, and this record is intact. It is whole against exactly one
 * single-bit change of the 8 bytes before it (its 32-bit header check and
 * 64-bit checksum both agree). Undefined when it is whole as it is, or no
 * (or more than one) change makes it whole. Records up to 1 MiB.
 */
export function chainBeforeDamage(store: FileRecordStore, at: number): Uint8Array | undefined {
  if (store.recordFormat !== 3 || at >= store.byteLength) return undefined;
  const module = core();
  const withChain = readWithChain(store, at, Math.min(CHUNK_BYTES, store.byteLength - at));
  const whole = (bytes: Uint8Array): boolean =>
    withBytesInWasm(new Uint8Array(8 + bytes.length), (start) => {
      module.HEAPU8.set(bytes, start + 8);
      return module._cbw_record_scan(start + 16, bytes.length - 8, start, 3) === 0;
    });
  if (whole(withChain)) return undefined;
  let found: Uint8Array | undefined;
  let matches = 0;
  for (let byte = 0; byte < 8; byte++) {
    for (let bit = 0; bit < 8; bit++) {
      const flipped = withChain.slice();
      flipped[byte]! ^= 1 << bit;
      if (whole(flipped)) {
        matches++;
        found = flipped.slice(0, 8);
      }
    }
  }
  return matches === 1 ? found : undefined;
}

/**
 * Where the whole records of a log (from `start`) end, and how many there are
 * (no index needed). `chain`: the 8 bytes the record at `start` is checked
 * against instead of those before it in the log (chainBeforeDamage). `limit`:
 * scan as if the log ended there (a record crossing it is not whole).
 */
export function scanWholeRecords(
  store: FileRecordStore,
  start = FILE_HEADER_BYTES,
  chain?: Uint8Array,
  limit = store.byteLength,
): { end: number; records: number } {
  const module = core();
  const length = Math.min(limit, store.byteLength);
  const format = store.recordFormat;
  let position = start;
  let records = 0;
  let chunkBytes = CHUNK_BYTES;
  const count = module._malloc(8);
  if (count === 0) throw new FilterError('OUT_OF_MEMORY', 'out of wasm memory reading the index log');
  try {
    while (position < length) {
      const withChain = readWithChain(store, position, Math.min(chunkBytes, length - position));
      if (chain !== undefined && position === start) withChain.set(chain, 0);
      const chunk = withChain.subarray(8);
      const result = withBytesInWasm(withChain, (start) => {
        const pointer = start + 8;
        const whole = module._cbw_records_whole(pointer, chunk.length, format, count);
        const counted = module.HEAPF64[count / 8]!;
        if (whole === chunk.length) return { whole, counted, claimed: 0, kind: 0 };
        const kind = module._cbw_record_scan(pointer + whole, chunk.length - whole, count, format);
        return { whole, counted, claimed: module.HEAPF64[count / 8]!, kind };
      });
      position += result.whole;
      records += result.counted;
      if (result.whole === chunk.length) {
        if (chunk.length === 0) break;
        continue;
      }
      const left = chunk.length - result.whole;
      // A record longer than the rest of the chunk, or a header cut by the chunk's end: read on from it.
      if (result.kind === 1 && result.claimed > left && position + result.claimed <= length) {
        chunkBytes = Math.max(CHUNK_BYTES, result.claimed);
        continue;
      }
      if (result.kind === 1 && result.claimed === 0 && position + left < length) continue;
      break;
    }
    return { end: position, records };
  } finally {
    module._free(count);
  }
}
