/**
 * `repair <log>`: salvage of a damaged index log, explicitly (never done by
 * opening). Keeps every whole record, before and after the damage, and moves
 * only the damaged bytes, byte for byte, to `<log>.damaged-at-<offset>`
 * beside it (FileCuckooIndex.repair, https://github.com/cuckoo-bloom-wasm/cuckoo-bloom-wasm/blob/main/docs/EXACT-INDEX.md). Exits 0 when the log is
 * whole afterwards, repaired or not: a repair that did its job is a success.
 */
import { init } from '../../index.js';
import { FILE_HEADER_BYTES } from '../../exact-index/file/file-store.js';
import { FileCuckooIndex, type RepairReport } from '../../exact-index/file/index.js';
import { booleanOptions, parseCommand } from '../args.js';
import { formatCount, table } from '../describe.js';
import { EXIT_CLEAR, usageError } from '../errors.js';
import { sniffFile, URL_LOG_MARKER } from './exact-index.js';

export async function runRepair(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommand('repair', argv, booleanOptions('json', 'urls', 'keys'), true);
  if (positionals.length !== 1) {
    throw usageError(
      positionals.length === 0 ? 'repair needs an index log' : `repair takes one index log, got ${positionals.length}`,
      'repair',
    );
  }
  const file = positionals[0]!;
  // Never repair what is not an index log (a filter file, a typo): its bytes are not records.
  if ((await sniffFile(file)) !== 'index-log') {
    throw usageError(`${file} is not an index log (its first bytes are not "CBWILOG1"): nothing was changed`, 'repair');
  }
  if (values.urls === true && values.keys === true) {
    throw usageError('repair takes --urls or --keys, not both', 'repair');
  }
  await init();
  // What a log's keys are (URL expressions or plain lines) is told by one
  // record: the marker `build --exact --urls` writes first (exact-index.ts).
  // When that first record is damaged (a flipped bit in it, or in the log id
  // its chain is checked against), repair moves it aside like any other, and
  // a URL log would then read as a keys log: every listed URL "absent", exit
  // 0 — a silent false negative. The damaged bytes cannot say whether they
  // were the marker, so repair asks: it refuses (nothing changed) unless
  // told with --urls (the marker is written back after the repair) or
  // --keys. Old logs need nothing new: the marker stays where it was.
  const planned = FileCuckooIndex.repair(file, { dryRun: true });
  const firstRecordDamaged = planned.moved.length > 0 && planned.moved[0]!.offset === FILE_HEADER_BYTES;
  if (firstRecordDamaged && values.urls !== true && values.keys !== true) {
    throw usageError(
      `${file}: its first record is damaged, and in a log built with --urls that record marks its keys as URL expressions; ` +
        'repair cannot tell which this log is: run it again with --urls (built with --urls: the marker is written back) ' +
        'or --keys (built without): nothing was changed',
      'repair',
    );
  }
  const report = FileCuckooIndex.repair(file);
  // Only when repair moved the first record aside: --urls on a log whose
  // marker was never in question must not turn a keys log into a URL log.
  if (firstRecordDamaged && values.urls === true) restoreUrlMarker(file);
  process.stdout.write(values.json === true ? `${JSON.stringify({ file, ...report }, null, 2)}\n` : `${repairText(file, report)}\n`);
  return EXIT_CLEAR;
}

/** Writes the URL-log marker back when repair moved it aside (the caller said the log holds URL expressions). */
function restoreUrlMarker(file: string): void {
  const index = FileCuckooIndex.open(file);
  try {
    if (!index.has(URL_LOG_MARKER)) index.set(URL_LOG_MARKER);
  } finally {
    index.close();
  }
}

function repairText(file: string, report: RepairReport): string {
  const rows: Array<[string, string]> = [
    ['file', file],
    ['log version', String(report.logVersion)],
    ['records kept', formatCount(report.recordsKept)],
    ['log size', `${formatCount(report.keptBytes)} bytes`],
  ];
  if (report.headerRechained) {
    rows.push(['header', 'its log id had a flipped bit: the records were re-chained to it, none lost']);
  }
  if (report.movedTo === null) {
    if (!report.headerRechained) rows.push(['result', 'the log is whole: nothing was changed']);
  } else {
    for (const moved of report.moved) {
      rows.push(
        ['moved aside', `${formatCount(moved.bytes)} bytes, from byte ${formatCount(moved.offset)}`],
        ['moved to', moved.file],
      );
    }
  }
  return table(rows);
}
