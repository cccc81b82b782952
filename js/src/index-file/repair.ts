/**
 * Salvage, never implicit: FileCuckooIndex.repair (and `cuckoo-bloom-wasm
 * repair`). Keeps the whole records at the start of a log and moves every
 * byte after them aside, to a file beside the log; nothing is deleted.
 * The caller holds the writer lock.
 */
import { existsSync } from 'node:fs';
import { FilterError } from '../index.js';
import { syncDirectory, writeFileAtomically } from './durable-files.js';
import { FileRecordStore, type LogVersion } from './file-store.js';
import { scanWholeRecords } from './log-tail.js';

/** What {@link FileCuckooIndex.repair} kept of a damaged log, and where it moved the rest. */
export interface RepairReport {
  /** The log's version (unchanged by repair). */
  logVersion: LogVersion;
  /** Whole records kept (every record before the damage). */
  recordsKept: number;
  /** The log's length after repair: where its whole records end (and where the damage began). */
  keptBytes: number;
  /** Bytes moved aside (0: the log was whole, nothing changed). */
  movedBytes: number;
  /** The file holding the moved bytes, or null when nothing was moved. */
  movedTo: string | null;
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

export function repairLog(path: string): RepairReport {
  const store = FileRecordStore.open(path);
  try {
    const length = store.byteLength;
    const { end, records } = scanWholeRecords(store);
    const report: RepairReport = {
      logVersion: store.recordFormat,
      recordsKept: records,
      keptBytes: end,
      movedBytes: length - end,
      movedTo: null,
    };
    if (end === length) return report;
    const aside = asidePath(path, end);
    // First the moved bytes, whole and durable (written, flushed, renamed, the
    // directory flushed); only then is the log cut. A crash in between leaves
    // the log as it was (and a copy of its tail): repair again.
    const chunk = new Uint8Array(COPY_BYTES);
    writeFileAtomically(aside, (write) => {
      for (let at = end; at < length; ) {
        const got = store.readInto(at, chunk.subarray(0, Math.min(COPY_BYTES, length - at)));
        if (got <= 0) throw new FilterError('UNAVAILABLE', `${path} ended while its tail was being copied`);
        write(chunk.subarray(0, got));
        at += got;
      }
    });
    store.truncate(end);
    syncDirectory(path);
    report.movedTo = aside;
    return report;
  } catch (error) {
    throw error instanceof FilterError
      ? error
      : new FilterError('UNAVAILABLE', `repairing ${path} failed (the log is as it was): ${String(error)}`, { cause: error });
  } finally {
    store.close();
  }
}
