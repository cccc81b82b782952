/** `info` on an index log (build --exact): what it holds and costs, as text or JSON. */
import { formatCount, table } from '../describe.js';
import { openIndexLog } from './exact-index.js';

interface IndexLogReport {
  file: string;
  kind: 'exact-index';
  /** What the keys are: lines of input, or URL expressions (built with --urls). */
  keyKind: 'lines' | 'url-expressions';
  /** Records in the log: live keys, dead records and, for URL expressions, the marker. */
  records: number;
  /** Keys the index answers "present" for (the marker of a URL log not counted). */
  liveKeys: number;
  /** Records that answer nothing any more (replaced puts, deletions): what compaction drops. */
  deadRecords: number;
  logBytes: number;
  /** Memory the index's table takes while the log is open (8 bytes a slot, buckets of 4). */
  tableBytes: number;
  bucketCount: number;
  loadFactor: number;
  /** Bytes of an unfinished last record at the end of the file, ignored (0: it ended cleanly). */
  droppedTailBytes: number;
  snapshot: {
    /** `<log>.snapshot` exists. */
    present: boolean;
    /** It matched the log and the table was loaded from it (else the log was replayed). */
    valid: boolean;
    /** Log bytes it covered (records after them were replayed); 0 when not valid. */
    coveredLogBytes: number;
  };
}

/** Opens the log (which replays it or loads its snapshot) and reports on it. */
export function indexLogReport(file: string): IndexLogReport {
  const log = openIndexLog(file);
  try {
    const stats = log.index.stats();
    const covered = log.report.snapshotLogBytes;
    return {
      file,
      kind: 'exact-index',
      keyKind: log.urlExpressions ? 'url-expressions' : 'lines',
      records: stats.size + stats.deadRecords,
      liveKeys: log.keys,
      deadRecords: stats.deadRecords,
      logBytes: stats.logBytes,
      tableBytes: stats.tableBytes,
      bucketCount: stats.bucketCount,
      loadFactor: stats.loadFactor,
      droppedTailBytes: log.report.droppedTailBytes,
      snapshot: { present: log.snapshotPresent, valid: covered > 0, coveredLogBytes: covered },
    };
  } finally {
    log.index.close();
  }
}

export function indexLogText(info: IndexLogReport): string {
  const { snapshot } = info;
  const snapshotText = !snapshot.present
    ? 'none (opening replays the whole log)'
    : snapshot.valid
    ? `valid (covers ${formatCount(snapshot.coveredLogBytes)} of ${formatCount(info.logBytes)} log bytes; opening loads it)`
    : 'present but not used (it does not match this log: the whole log was replayed)';
  const rows: Array<[string, string]> = [
    ['file', info.file],
    ['kind', 'exact index log (FileCuckooIndex: no false positives)'],
    ['keys', info.keyKind === 'url-expressions' ? 'URL expressions (built with --urls)' : 'lines (built without --urls)'],
    [
      'records',
      formatCount(info.records) + (info.keyKind === 'url-expressions' ? ' (one of them marks the keys as URL expressions)' : ''),
    ],
    ['live keys', formatCount(info.liveKeys)],
    ['dead records', `${formatCount(info.deadRecords)} (replaced or deleted keys)`],
    ['log size', `${formatCount(info.logBytes)} bytes`],
    ['table size', `${formatCount(info.tableBytes)} bytes of memory (${formatCount(info.bucketCount)} buckets of 4)`],
    ['load factor', info.loadFactor.toFixed(4)],
    ['snapshot', snapshotText],
  ];
  if (info.droppedTailBytes > 0) {
    rows.push(['torn tail', `${formatCount(info.droppedTailBytes)} bytes of an unfinished last record (ignored; the file is left as it is)`]);
  }
  return table(rows);
}
