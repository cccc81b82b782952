// build --urls: the hosts whose expressions must never be a hit (docs/CLI.md,
// "build"; https://github.com/cuckoo-bloom-wasm/cuckoo-bloom-wasm/blob/main/docs/URL-BLOCKLISTS.md, "Never-match hosts"): every public suffix
// of the Public Suffix List, and the hosts and URLs of each --never-match FILE.
import type { NeverMatchReport } from '../../url/never-match.js';
import { publicSuffixes } from './build-public-suffix.js';
import { formatCount } from '../describe.js';
import { CliError } from '../errors.js';
import { readRegularFile } from '../io/regular-file.js';

/** The never-match hosts of one build, and where they came from. */
export interface NeverMatchInput {
  hosts: string[];
  publicSuffixes: number;
  /** Hosts and URLs read from the --never-match files. */
  fromFiles: number;
}

/** Never-match lists are hosts a page's traffic hits most: far smaller than this. */
const MAX_NEVER_MATCH_BYTES = 256 * 1024 * 1024;

/**
 * The PSL's suffixes, then each file's lines: one host or URL a line; blank
 * lines and `#` comments skipped (a bad line is the build's INVALID_ARGUMENT,
 * named by its number among all never-match entries).
 */
export async function readNeverMatch(files: readonly string[]): Promise<NeverMatchInput> {
  const suffixes = publicSuffixes();
  const hosts = [...suffixes];
  for (const file of files) {
    // A regular file only (/dev/zero or a FIFO here used to hang the build, growing without bound).
    const bytes = await readRegularFile(file, 'a never-match list (a text file of hosts and URLs)', MAX_NEVER_MATCH_BYTES, 'the 256 MB a never-match list may be');
    const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes);
    if (text.includes('\0')) throw new CliError(`cannot read ${file}: it holds NUL bytes, so it is not a text list of hosts and URLs`);
    for (const line of text.split(/\r?\n/)) {
      const entry = line.trim();
      if (entry !== '' && !entry.startsWith('#')) hosts.push(entry);
    }
  }
  return { hosts, publicSuffixes: suffixes.length, fromFiles: hosts.length - suffixes.length };
}

/** The build summary's `neverMatch` (JSON). */
export function neverMatchSummary(report: NeverMatchReport, input: NeverMatchInput): Record<string, unknown> {
  return {
    publicSuffixes: input.publicSuffixes,
    fromFiles: input.fromFiles,
    expressions: report.expressions,
    exceptions: report.exceptions,
    exceptionBytes: report.exceptionBytes,
    listed: { count: report.listed.length, first: report.listed.slice(0, 10) },
  };
}

/** The text summary's row. */
export function neverMatchRow(report: NeverMatchReport, input: NeverMatchInput): [string, string] {
  return [
    'never-match',
    `${formatCount(input.publicSuffixes)} public suffixes + ${formatCount(input.fromFiles)} from --never-match: ` +
      `${formatCount(report.expressions)} expressions checked, ${formatCount(report.exceptions)} exceptions ` +
      `(${formatCount(report.exceptionBytes)} bytes in the file)` +
      (report.listed.length > 0 ? `, ${formatCount(report.listed.length)} listed (still hits)` : ''),
  ];
}

/** On stderr: never-match expressions the list itself holds (the list wins: they stay hits). */
export function warnAboutListedNeverMatch(report: NeverMatchReport): void {
  if (report.listed.length === 0) return;
  const shown = report.listed
    .slice(0, 10)
    .map(({ entry, expression }) => `  ${expression} (never-match ${entry})`)
    .join('\n');
  const more = report.listed.length > 10 ? `\n  ... and ${formatCount(report.listed.length - 10)} more` : '';
  process.stderr.write(
    `cuckoo-bloom-wasm: warning: ${formatCount(report.listed.length)} never-match expression(s) are listed, so they stay hits (the list wins):\n${shown}${more}\n`,
  );
}
