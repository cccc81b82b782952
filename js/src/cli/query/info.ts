/** `info`: what a filter file (or an index log: exact-info.ts) holds, as text or JSON. */
import { existsSync } from 'node:fs';
import {
  checkConfirmationPart,
  type ConfirmationFacts,
  confirmationPartName,
  describeConfirmationIndex,
  type ExpressionDepth,
  FilterError,
  init,
  UrlBlocklist,
} from '../../index.js';
import { partsFolderOf } from '../build-command/build-confirmation.js';
import { booleanOptions, parseCommand } from '../args.js';
import { type BlocklistRates, blocklistRates, rateRows } from '../build-command/build-rates.js';
import { type FilterFacts, filterFacts, formatBitsPerKey, formatCount, formatRate, table } from '../describe.js';
import { indexLogReport, indexLogText } from '../exact/exact-info.js';
import { CliError, EXIT_CLEAR, usageError } from '../errors.js';
import { inspectInputFile, readCompanionBytes, readFilterBytes } from '../io/filter-input.js';
import { loadFilterFile } from '../io/load.js';

interface InfoReport extends FilterFacts, Partial<Omit<BlocklistRates, 'falsePositiveRate' | 'estimatedFalsePositiveRate'>> {
  file: string;
  /** "filter", or "url-blocklist" (a filter of URL expressions in an envelope). */
  kind: 'filter' | 'url-blocklist';
  /** Size of the file. */
  fileBytes: number;
  /** "ok": the structure and checksum were verified (a bad file is an error instead). */
  checksum: 'ok';
  /** URL blocklists: expressions stored. */
  entries?: number;
  /**
   * URL blocklists: how deep a URL is checked (host suffixes of up to
   * `hostLabels` labels, path prefixes of up to `pathDepth` directories).
   */
  expressionDepth?: ExpressionDepth;
  /**
   * URL blocklists: the exception set (never-match hosts and public suffixes
   * the filter reports, never a hit): how many, and the bytes it adds to the file.
   */
  exceptions?: { count: number; bytes: number };
  // URL blocklists (BlocklistRates): falsePositiveRate and estimatedFalsePositiveRate
  // are per URL, as --fpr was; lookupFalsePositiveRate and
  // estimatedLookupFalsePositiveRate per filter lookup; lookupsPerUrl between them.
}

const PARAMETER_LABELS: Record<string, string> = {
  bitCount: 'bits (m)',
  hashCount: 'hash functions (k)',
  setBitCount: 'bits set',
  blockCount: 'blocks (512-bit)',
  counterCount: 'counters (m)',
  counterBits: 'bits per counter',
  bucketCount: 'buckets',
  bucketSize: 'slots per bucket',
  fingerprintBits: 'fingerprint bits',
  maxKicks: 'max kicks',
  loadFactor: 'load factor',
};

export async function runInfo(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommand('info', argv, booleanOptions('json'), true);
  if (positionals.length !== 1) {
    throw usageError(
      positionals.length === 0 ? 'info needs a filter file or an index log' : `info takes one file, got ${positionals.length}`,
      'info',
    );
  }
  const file = positionals[0]!;
  const kind = await inspectInputFile(file);
  await init();
  if (kind === 'index-log') {
    const report = indexLogReport(file);
    process.stdout.write(values.json === true ? `${JSON.stringify(report, null, 2)}\n` : `${indexLogText(report)}\n`);
    return EXIT_CLEAR;
  }
  const bytes = await readFilterBytes(file);
  if (bytes[6] === SPLIT_INDEX_TYPE) {
    const report = await splitIndexReport(file, bytes);
    process.stdout.write(values.json === true ? `${JSON.stringify(report, null, 2)}\n` : `${splitIndexText(report)}\n`);
    return EXIT_CLEAR;
  }
  if (bytes[6] === COMPANION_TYPE) {
    const report = await companionReport(file, bytes);
    process.stdout.write(values.json === true ? `${JSON.stringify(report, null, 2)}\n` : `${companionText(report)}\n`);
    return EXIT_CLEAR;
  }
  const loaded = await loadFilterFile(file, bytes);
  const info: InfoReport = {
    file,
    kind: loaded.kind,
    fileBytes: loaded.fileBytes,
    checksum: 'ok',
    ...(loaded.kind === 'url-blocklist'
      ? {
          entries: loaded.blocklist.entryCount,
          expressionDepth: { ...loaded.blocklist.expressionDepth },
          exceptions: { count: loaded.blocklist.exceptionCount, bytes: loaded.blocklist.exceptionBytes },
        }
      : {}),
    ...filterFacts(loaded.filter),
    ...(loaded.kind === 'url-blocklist' ? blocklistRates(loaded.blocklist) : {}),
  };
  if (loaded.kind === 'url-blocklist') loaded.blocklist.free();
  else loaded.filter.free();
  process.stdout.write(values.json === true ? `${JSON.stringify(info, null, 2)}\n` : `${infoText(info)}\n`);
  return EXIT_CLEAR;
}

function infoText(info: InfoReport): string {
  const rows: Array<[string, string]> = [['file', info.file]];
  if (info.kind === 'url-blocklist') {
    rows.push(['kind', 'URL blocklist (Safe Browsing host/path expressions)']);
    rows.push(['entries', formatCount(info.entries ?? 0)]);
    if (info.expressionDepth !== undefined) {
      const { hostLabels, pathDepth } = info.expressionDepth;
      rows.push(['checked to', `host suffixes of up to ${hostLabels} labels, paths of up to ${pathDepth} directories`]);
    }
    if (info.exceptions !== undefined) {
      rows.push([
        'exceptions',
        info.exceptions.count === 0
          ? 'none'
          : `${formatCount(info.exceptions.count)} never-match expressions (${formatCount(info.exceptions.bytes)} bytes)`,
      ]);
    }
    rows.push(['filter type', info.type]);
  } else {
    rows.push(['type', info.type]);
  }
  rows.push(
    ['keys stored', formatCount(info.count)],
    ['capacity', formatCount(info.capacity)],
    ['seed', String(info.seed)],
  );
  for (const [name, value] of Object.entries(info.parameters)) {
    const shown = name === 'loadFactor' ? value.toFixed(4) : formatCount(value);
    rows.push([PARAMETER_LABELS[name] ?? name, shown]);
  }
  rows.push(
    ['file size', `${formatCount(info.fileBytes)} bytes`],
    ['table size', `${formatCount(info.tableBytes)} bytes`],
    ['bits/key', formatBitsPerKey(info.bitsPerKey)],
    ...(info.kind === 'url-blocklist' && info.lookupsPerUrl !== undefined
      ? rateRows(info as InfoReport & BlocklistRates)
      : ([
          ['target fpr', formatRate(info.falsePositiveRate)],
          ['estimated fpr', formatRate(info.estimatedFalsePositiveRate)],
        ] as Array<[string, string]>)),
    ['checksum', info.checksum],
  );
  return table(rows);
}

/** The header's type byte of a URL blocklist's exact companion (https://github.com/cuckoo-bloom-wasm/cuckoo-bloom-wasm/blob/main/docs/FORMAT.md, type 33). */
const COMPANION_TYPE = 33;

interface CompanionReport extends ConfirmationFacts {
  file: string;
  kind: 'url-blocklist-companion';
  fileBytes: number;
  checksum: 'ok';
  bitsPerExpression: number;
  /** The filter beside it (`x.filter` for `x.filter.confirm`) when there is one: whether it was built with it. */
  filter?: { file: string; matches: boolean };
}

/**
 * What `describe` reads from `file`'s bytes; a FilterError from it (the bytes
 * are damaged) becomes the CliError "`file`: corrupt `what`: ...".
 */
function describedOrCorrupt<Facts>(file: string, what: string, describe: () => Facts): Facts {
  try {
    return describe();
  } catch (error) {
    if (error instanceof FilterError) throw new CliError(`${file}: corrupt ${what}: ${error.message}`);
    throw error;
  }
}

/**
 * `info` on `<filter>.confirm` (issue #44: it failed "unknown filter type 33"): what
 * the companion holds, and whether the filter beside it is the one it was built
 * with (query refuses any other pair: the companion's "not listed" would be wrong).
 */
async function companionReport(file: string, bytes: Uint8Array): Promise<CompanionReport> {
  const facts = describedOrCorrupt(file, 'companion file', () => UrlBlocklist.describeConfirmation(bytes));
  const report: CompanionReport = {
    file,
    kind: 'url-blocklist-companion',
    fileBytes: bytes.length,
    checksum: 'ok',
    ...facts,
    bitsPerExpression: facts.expressions === 0 ? 0 : Number(((bytes.length * 8) / facts.expressions).toFixed(2)),
  };
  report.filter = await filterBeside(file, '.confirm', facts.builtFor);
  return report;
}

/**
 * The filter a companion file sits beside (its name without `suffix`) and
 * whether its checksum (the blob's last 8 bytes, little-endian) is the one
 * the companion was built for; undefined when there is no such file.
 */
async function filterBeside(file: string, suffix: string, builtFor: string): Promise<{ file: string; matches: boolean } | undefined> {
  const beside = file.endsWith(suffix) ? file.slice(0, -suffix.length) : null;
  if (beside === null || !existsSync(beside)) return undefined;
  const filterBytes = await readFilterBytes(beside);
  const tail = filterBytes.subarray(filterBytes.length - 8);
  const hex = [...tail].reverse().map((byte) => byte.toString(16).padStart(2, '0')).join('');
  return { file: beside, matches: hex === builtFor };
}

function companionText(report: CompanionReport): string {
  const rows: Array<[string, string]> = [
    ['file', report.file],
    ['kind', "URL blocklist companion (the exact set of the list's expressions)"],
    ['expressions', formatCount(report.expressions)],
    ['file size', `${formatCount(report.fileBytes)} bytes`],
    ['bits/expression', String(report.bitsPerExpression)],
    ['built for', `blocklist bytes with checksum ${report.builtFor}`],
  ];
  return table([...rows, ...closingRows(report)]);
}

/** The rows a companion's report and a split index's end with: the filter beside it (when there is one), the checksum. */
function closingRows(report: { filter?: { file: string; matches: boolean }; checksum: 'ok' }): Array<[string, string]> {
  const rows: Array<[string, string]> = [];
  if (report.filter !== undefined) {
    rows.push([
      'its filter',
      report.filter.matches ? `${report.filter.file} (matches)` : `${report.filter.file} is other bytes: query refuses this pair`,
    ]);
  }
  rows.push(['checksum', report.checksum]);
  return rows;
}

/** The header's type byte of a split companion's index (https://github.com/cuckoo-bloom-wasm/cuckoo-bloom-wasm/blob/main/docs/FORMAT.md, type 34). */
const SPLIT_INDEX_TYPE = 34;

interface SplitIndexReport {
  file: string;
  kind: 'url-blocklist-companion-index';
  fileBytes: number;
  checksum: 'ok';
  expressions: number;
  partCount: number;
  /** The folder the parts are read from (`x.confirm.parts` for `x.confirm.index`). */
  partsFolder: string;
  /** Bytes of all parts, as the index records them, and of the largest. */
  partsBytes: number;
  largestPartBytes: number;
  builtFor: string;
  /** Parts in the folder that are exactly the ones the index names; the first one that is not, if any. */
  partsChecked: number;
  firstBadPart?: { part: number; problem: string };
  filter?: { file: string; matches: boolean };
}

/** `info` on `<filter>.confirm.index`: the split, and whether each part beside it is the one the index names. */
async function splitIndexReport(file: string, bytes: Uint8Array): Promise<SplitIndexReport> {
  const facts = describedOrCorrupt(file, 'companion index', () => describeConfirmationIndex(bytes));
  const report: SplitIndexReport = {
    file,
    kind: 'url-blocklist-companion-index',
    fileBytes: bytes.length,
    checksum: 'ok',
    expressions: facts.expressions,
    partCount: facts.partBytes.length,
    partsFolder: partsFolderOf(file),
    partsBytes: facts.partBytes.reduce((sum, size) => sum + size, 0),
    largestPartBytes: Math.max(...facts.partBytes),
    builtFor: facts.builtFor,
    partsChecked: 0,
  };
  for (let part = 0; part < report.partCount; part++) {
    const path = `${report.partsFolder}/${confirmationPartName(part)}`;
    try {
      checkConfirmationPart(bytes, part, await readCompanionBytes(path));
      report.partsChecked++;
    } catch (error) {
      if (!(error instanceof FilterError) && !(error instanceof CliError)) throw error;
      report.firstBadPart = { part, problem: error.message };
      break;
    }
  }
  report.filter = await filterBeside(file, '.confirm.index', report.builtFor);
  return report;
}

function splitIndexText(report: SplitIndexReport): string {
  const rows: Array<[string, string]> = [
    ['file', report.file],
    ['kind', "URL blocklist companion, split by hash prefix: the index of its parts"],
    ['expressions', formatCount(report.expressions)],
    ['parts', `${formatCount(report.partCount)} in ${report.partsFolder}/ (${formatCount(report.partsBytes)} bytes, the largest ${formatCount(report.largestPartBytes)})`],
    ['file size', `${formatCount(report.fileBytes)} bytes`],
    ['built for', `blocklist bytes with checksum ${report.builtFor}`],
    [
      'parts checked',
      report.firstBadPart === undefined
        ? `${formatCount(report.partsChecked)} of ${formatCount(report.partCount)}: each is the part the index names`
        : `part ${report.firstBadPart.part} is not the one the index names: ${report.firstBadPart.problem}`,
    ],
  ];
  return table([...rows, ...closingRows(report)]);
}
