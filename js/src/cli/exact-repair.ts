/**
 * `repair <log>`: salvage of a damaged index log, explicitly (never done by
 * opening). Keeps every whole record, before and after the damage, and moves
 * only the damaged bytes, byte for byte, to `<log>.damaged-at-<offset>`
 * beside it (FileCuckooIndex.repair, docs/INDEX.md). Exits 0 when the log is
 * whole afterwards, repaired or not: a repair that did its job is a success.
 */
import { init } from '../index.js';
import { FileCuckooIndex, type RepairReport } from '../index-file/index.js';
import { booleanOptions, parseCommand } from './args.js';
import { formatCount, table } from './describe.js';
import { EXIT_CLEAR, usageError } from './errors.js';
import { sniffFile } from './exact-index.js';

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
  return EXIT_CLEAR;
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
    for (const moved of report.moved) {
      rows.push(
        ['moved aside', `${formatCount(moved.bytes)} bytes, from byte ${formatCount(moved.offset)}`],
        ['moved to', moved.file],
      );
    }
  }
  return table(rows);
}
