/**
 * Salvage, never implicit: FileCuckooIndex.repair (and `cuckoo-bloom-wasm
 * repair`). Keeps every whole record of a log and moves only the damaged
 * bytes aside, to files beside the log; nothing is deleted. Like RocksDB's
 * skip-any-corrupted-records recovery, it resynchronises after damage: the
 * scan resumes at the next offset where a whole record starts, so one flipped
 * bit costs one record, not every record after it. The caller holds the
 * writer lock.
 */
import { existsSync, rmSync } from 'node:fs';
import { FilterError } from '../../index.js';
import { syncDirectory, writeFileAtomically } from './durable-files.js';
import { FILE_HEADER_BYTES, FileRecordStore, type LogVersion } from './file-store.js';
import { chainBeforeDamage, core, damagedRecordEnd, findResync, readWithChain, scanWholeRecords, withBytesInWasm } from './log-tail.js';

/** One damaged stretch of the log that repair moved aside. */
export interface MovedRange {
  /** Where the damaged bytes started in the log before repair. */
  offset: number;
  /** How many bytes were moved. */
  bytes: number;
  /** The file holding them, byte for byte. */
  file: string;
}

/** What {@link FileCuckooIndex.repair} kept of a damaged log, and where it moved the rest. */
export interface RepairReport {
  /** The log's version (unchanged by repair). */
  logVersion: LogVersion;
  /** Whole records kept: every record before the damage and every whole record after it. */
  recordsKept: number;
  /** The log's length after repair. */
  keptBytes: number;
  /** Bytes moved aside, in all (0: the log was whole, nothing changed). */
  movedBytes: number;
  /** The file holding the first damaged stretch, or null when nothing was moved. */
  movedTo: string | null;
  /** Every damaged stretch moved aside, in log order (empty when the log was whole). */
  moved: MovedRange[];
  /**
   * The file header's log id had lost a bit (version 3): the first record,
   * intact, was whole against it with that bit restored, and every record
   * was kept and re-chained to the header as it is.
   */
  headerRechained: boolean;
}

const COPY_BYTES = 1 << 20;

/** A name beside the log that no file has yet. */
function asidePath(path: string, offset: number): string {
  const base = `${path}.damaged-at-${offset}`;
  if (!existsSync(base)) return base;
  for (let n = 2; ; n++) {
    const candidate = `${base}.${n}`;
    if (!existsSync(candidate)) return candidate;
  }
}

/** A stretch of whole records [start, end) to keep, and how many. */
interface Kept {
  start: number;
  end: number;
  records: number;
  /** The 8 bytes the first record is chained to, when not those before it in the log (chainBeforeDamage). */
  chain?: Uint8Array;
}

/** Copies the log bytes [from, to) of `store` to `write`, in megabytes. */
function copyRange(store: FileRecordStore, path: string, from: number, to: number, write: (bytes: Uint8Array) => void): void {
  const chunk = new Uint8Array(COPY_BYTES);
  for (let at = from; at < to; ) {
    const got = store.readInto(at, chunk.subarray(0, Math.min(COPY_BYTES, to - at)));
    if (got <= 0) throw new FilterError('UNAVAILABLE', `${path} ended while it was being copied`);
    write(chunk.subarray(0, got));
    at += got;
  }
}

/**
 * Re-chains the whole records at the start of `withChain` (the log bytes with
 * the 8 before them in front) to follow `last`; returns them, and the length
 * the first record's header claims when none was whole (it needs more bytes).
 */
function rechainChunk(format: LogVersion, withChain: Uint8Array, last: Uint8Array): { out: Uint8Array; claimed: number } {
  const module = core();
  // Wasm memory: [0, 8) the scan's output, [8, 16) the new chain, [16, ...) the bytes.
  return withBytesInWasm(new Uint8Array(withChain.length + 16), (start) => {
    module.HEAPU8.set(last, start + 8);
    module.HEAPU8.set(withChain, start + 16);
    const data = start + 24;
    const length = withChain.length - 8;
    const bytes = module._cbw_records_rechain(data, length, format, start + 8, start);
    let claimed = 0;
    if (bytes === 0) {
      module._cbw_record_scan(data, length, start, format);
      claimed = module.HEAPF64[start / 8]!;
    }
    return { out: module.HEAPU8.slice(data, data + bytes), claimed };
  });
}

/**
 * Copies the whole records [kept.start, kept.end) to `write`, re-chained
 * (version 3) to follow `chain` (the last 8 bytes written); returns the last
 * 8 bytes it wrote. In versions 1 and 2 the records are copied unchanged.
 */
function copyRechained(store: FileRecordStore, kept: Kept, chain: Uint8Array, write: (bytes: Uint8Array) => void): Uint8Array {
  let last: Uint8Array = chain;
  let chunkBytes = COPY_BYTES;
  for (let at = kept.start; at < kept.end; ) {
    const withChain = readWithChain(store, at, Math.min(chunkBytes, kept.end - at));
    if (at === kept.start && kept.chain !== undefined) withChain.set(kept.chain, 0);
    const { out, claimed } = rechainChunk(store.recordFormat, withChain, last);
    if (out.length === 0) {
      // One record longer than the chunk: read it whole.
      if (claimed <= chunkBytes || at + claimed > kept.end) {
        throw new FilterError('CORRUPT', `repair: the record at byte ${at} is no longer whole`);
      }
      chunkBytes = claimed;
      continue;
    }
    chunkBytes = COPY_BYTES;
    write(out);
    last = out.slice(out.length - 8);
    at += out.length;
  }
  return last;
}

/** Options of {@link FileCuckooIndex.repair}. */
export interface RepairOptions {
  /**
   * Only report what repair would move (`moved` names the files it would
   * write; `movedTo` stays null) and change nothing. Lets a caller decide
   * before any byte moves, e.g. when the first record — which may carry a
   * meaning of its own, such as the CLI's URL-log marker — is damaged.
   */
  dryRun?: boolean;
}

export function repairLog(path: string, options: RepairOptions = {}): RepairReport {
  const store = FileRecordStore.open(path);
  try {
    const length = store.byteLength;
    // The stretches of whole records, and the damage between them.
    const kept: Kept[] = [];
    const damaged: Array<{ offset: number; bytes: number }> = [];
    // Version 3 chains the first record to the file header's last 8 bytes
    // (the version and the log id). When the log id lost a bit, the first
    // record is intact but fails against it: when it is whole against
    // exactly one single-bit change of those bytes, every record is kept and
    // re-chained to the header as it is (the log id changed by that bit;
    // nothing of it identifies anything else), none moved aside.
    const headerChain =
      length > FILE_HEADER_BYTES && scanWholeRecords(store, FILE_HEADER_BYTES).end === FILE_HEADER_BYTES
        ? chainBeforeDamage(store, FILE_HEADER_BYTES)
        : undefined;
    let chain: Uint8Array | undefined = headerChain;
    for (let at = FILE_HEADER_BYTES; at < length; ) {
      const { end, records } = scanWholeRecords(store, at, chain);
      if (end > at) kept.push({ start: at, end, records, ...(chain === undefined ? {} : { chain }) });
      if (end >= length) break;
      // A record whose own length is known ends where the next one starts.
      // When only a bit of its checksum was lost, that next record is
      // intact but chained to the checksum as it was: it is checked against
      // those bytes with the bit restored, and kept (only the damaged record
      // moves), instead of being moved aside with it.
      const recordEnd = damagedRecordEnd(store, end);
      chain = recordEnd === undefined ? undefined : chainBeforeDamage(store, recordEnd);
      const resume = chain !== undefined ? recordEnd! : (findResync(store, end) ?? length);
      damaged.push({ offset: end, bytes: resume - end });
      at = resume;
    }
    const report: RepairReport = {
      logVersion: store.recordFormat,
      recordsKept: kept.reduce((sum, stretch) => sum + stretch.records, 0),
      keptBytes: length,
      movedBytes: damaged.reduce((sum, stretch) => sum + stretch.bytes, 0),
      movedTo: null,
      moved: [],
      headerRechained: headerChain !== undefined,
    };
    if (damaged.length === 0 && headerChain === undefined) return report;
    if (options.dryRun === true) {
      report.moved = damaged.map((stretch) => ({ ...stretch, file: asidePath(path, stretch.offset) }));
      return report;
    }
    // First the damaged bytes, each stretch whole and durable in its own file
    // (written, flushed, renamed, the directory flushed); only then is the log
    // changed. A crash in between leaves the log as it was: repair again.
    for (const stretch of damaged) {
      const aside = asidePath(path, stretch.offset);
      writeFileAtomically(aside, (write) => copyRange(store, path, stretch.offset, stretch.offset + stretch.bytes, write));
      report.moved.push({ ...stretch, file: aside });
    }
    report.movedTo = report.moved[0]?.file ?? null;
    // The snapshot describes the damaged log: it would cover bytes no longer there.
    rmSync(`${path}.snapshot`, { force: true });
    syncDirectory(path);
    // With the header's chain restored, the log is rewritten from its first record.
    const firstDamage = headerChain !== undefined ? FILE_HEADER_BYTES : damaged[0]!.offset;
    const after = kept.filter(
      (stretch) => stretch.start > firstDamage || (headerChain !== undefined && stretch.start === FILE_HEADER_BYTES),
    );
    if (after.length === 0) {
      // Damage only at the end: cut the log there (no copy of what stays).
      store.truncate(firstDamage);
      syncDirectory(path);
      report.keptBytes = firstDamage;
      return report;
    }
    // Whole records after the damage: a new log with every kept record, the
    // ones after a damaged stretch re-chained to the records now before them
    // (version 3), written beside the log and renamed over it.
    let written = 0;
    // writeFileAtomically renames the new file over the log: the repaired log
    // whole, or the damaged one as it was (the store reads the old one until then).
    writeFileAtomically(path, (write) => {
      const counted = (bytes: Uint8Array): void => {
        written += bytes.length;
        write(bytes);
      };
      copyRange(store, path, 0, firstDamage, counted);
      let chain: Uint8Array = readWithChain(store, firstDamage, 0).slice(0, 8);
      for (const stretch of after) chain = copyRechained(store, stretch, chain, counted);
    });
    report.keptBytes = written;
    return report;
  } catch (error) {
    throw error instanceof FilterError
      ? error
      : new FilterError('UNAVAILABLE', `repairing ${path} failed (the log is as it was): ${String(error)}`, { cause: error });
  } finally {
    store.close();
  }
}
