/**
 * `repair <log>`: salvage of a damaged index log, explicitly (never done by
 * opening). Keeps every whole record before the damage and moves the rest of
 * the file, byte for byte, to `<log>.damaged-at-<offset>` beside it
 * (FileCuckooIndex.repair, docs/INDEX.md).
 */
import { init } from '../index.js';
import { FileCuckooIndex, type RepairReport } from '../index-file/index.js';
import { booleanOptions, parseCommand } from './args.js';
import { formatCount, table } from './describe.js';
import { EXIT_CLEAR, usageError } from './errors.js';
import { sniffFile } from './exact-index.js';

/** Exit status when repair moved bytes aside (the log had damage or a torn tail); 0 when it was whole. */
const EXIT_REPAIRED = 1;

export async function runRepair(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommand('repair', argv, booleanOptions('json'), true);
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
  await init();
  const report = FileCuckooIndex.repair(file);
  process.stdout.write(values.json === true ? `${JSON.stringify({ file, ...report }, null, 2)}\n` : `${repairText(file, report)}\n`);
  return report.movedBytes > 0 ? EXIT_REPAIRED : EXIT_CLEAR;
}

function repairText(file: string, report: RepairReport): string {
  const rows: Array<[string, string]> = [
    ['file', file],
    ['log version', String(report.logVersion)],
    ['records kept', formatCount(report.recordsKept)],
    ['log size', `${formatCount(report.keptBytes)} bytes`],
  ];
  if (report.movedTo === null) {
    rows.push(['result', 'the log is whole: nothing was changed']);
  } else {
    rows.push(
      ['moved aside', `${formatCount(report.movedBytes)} bytes, from byte ${formatCount(report.keptBytes)} on`],
      ['moved to', report.movedTo],
    );
  }
  return table(rows);
}
