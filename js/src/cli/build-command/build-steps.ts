/**
 * The steps every `build` shares, whatever it writes (a filter, or with
 * --exact an index log): checking the output path before reading anything,
 * streaming the input into a sink, refusing input with no key, and the
 * warnings about lines that were not stored.
 */
import { access, constants, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { FilterError } from '../../index.js';
import type { BuildOptions } from './build-options.js';
import { formatCount } from '../describe.js';
import { CliError, fileError, usageError } from '../errors.js';
import type { LineBatch } from '../io/lines.js';
import { refuseOutputThatIsInput } from '../io/output-paths.js';
import { Progress } from '../io/progress.js';
import { FilterFullError, type Sink, type SinkCounts } from '../io/sinks.js';

/** The input's name in messages. */
export function inputName(input: string): string {
  return input === '-' ? 'stdin' : input;
}

/**
 * No key (or no list entry) at all: an empty file, only blank lines or
 * comments, or a list whose every line is unparseable. Building an empty
 * filter (or index) from that is almost always a mistake (the wrong file, a
 * failed download), so it is a usage error unless --force.
 */
export function refuseEmpty(counts: SinkCounts, options: BuildOptions): void {
  if (counts.candidates > 0) return;
  const name = inputName(options.input);
  const what = options.urls ? 'no list entry' : 'no key';
  const found =
    counts.lines === 0
      ? 'it is empty'
      : `its ${formatCount(counts.lines)} line(s) are ${options.urls ? 'blank, comments or headers' : 'empty'}` +
        (counts.errorCount > 0 ? ` or unparseable (${formatCount(counts.errorCount)}; the first at line ${counts.errors[0]!.line}: ${counts.errors[0]!.reason})` : '');
  const made = options.exact ? 'an empty index' : 'an empty filter';
  throw usageError(`${name} has ${what}: ${found}; give --force to build ${made} anyway`, 'build');
}

/**
 * Fails early, before any reading, when the output cannot be written, or is
 * the input: the output itself or one of the `derived` files the build also
 * writes or removes (output-paths.ts). `made` names what is built, for the
 * message.
 */
export async function checkOutputPath(
  output: string,
  input: string,
  made: string,
  derived: ReadonlyArray<{ path: string; role: string }>,
): Promise<void> {
  const dir = dirname(output);
  const dirStats = await stat(dir).catch(() => null);
  if (dirStats === null || !dirStats.isDirectory()) {
    throw new CliError(`cannot write ${output}: directory ${dir} does not exist`);
  }
  try {
    await access(dir, constants.W_OK);
  } catch (error) {
    throw fileError('write', output, error);
  }
  const existing = await stat(output).catch(() => null);
  if (existing?.isDirectory()) throw new CliError(`cannot write ${output}: it is a directory`);
  await refuseOutputThatIsInput(input, output, made, derived);
}

/** Every line of the input into `sink`, with a progress bar on a terminal. */
export async function fillPass(
  batches: AsyncIterable<LineBatch>,
  sink: Sink,
  totalBytes: number,
  options: BuildOptions,
  capacity: number,
): Promise<void> {
  const progress = new Progress({ stream: process.stderr, label: 'building', totalBytes });
  try {
    for await (const batch of batches) {
      sink.addLines(batch.lines);
      progress.update(batch.bytesRead, sink.counts.lines);
    }
  } catch (error) {
    if (error instanceof FilterFullError) {
      const hint =
        options.capacity !== null
          ? `--capacity ${formatCount(capacity)} is too small for this input: give a larger --capacity, or none to size the filter from the input`
          : 'try a larger --capacity or a lower --fpr';
      throw new CliError(
        `the cuckoo filter ran out of room at line ${formatCount(error.line)} after storing ${formatCount(error.stored)} ${options.urls ? 'expressions' : 'keys'}; ${hint}; no output was written`,
      );
    }
    if (error instanceof FilterError) throw new CliError(error.message);
    throw error;
  } finally {
    progress.finish();
  }
}

/**
 * What build prints on stderr about lines it did not store, after its
 * summary: lines that are not UTF-8 always (the summary may be JSON, or on a
 * terminal nobody reads: they usually mean the whole list is in another
 * encoding), and unparseable lines with --quiet (never silent).
 */
export function warnAboutLinesNotStored(counts: SinkCounts, options: BuildOptions): void {
  if (counts.notUtf8 > 0) {
    const more = counts.notUtf8 > counts.notUtf8Lines.length ? ', ...' : '';
    process.stderr.write(
      `cuckoo-bloom-wasm: warning: ${formatCount(counts.notUtf8)} list line(s) are not valid UTF-8 and were not stored ` +
        `(line ${counts.notUtf8Lines.join(', ')}${more}); convert the list to UTF-8, e.g. iconv -f latin1 -t utf-8\n`,
    );
  }
  if (options.quiet && !options.json && counts.errorCount > 0) {
    process.stderr.write(
      `cuckoo-bloom-wasm: warning: ${formatCount(counts.errorCount)} unparseable line(s) not stored\n` +
        `${errorLines(counts, counts.errorCount - counts.errors.length)}\n`,
    );
  }
}

/** The first unparseable lines (or `problems`: lines with warnings), one per line, and how many more. */
export function errorLines(counts: SinkCounts, more: number, problems = counts.errors): string {
  const lines = problems.map((e) => `  line ${e.line}: ${JSON.stringify(e.text)}: ${e.reason}`);
  if (more > 0) lines.push(`  ... and ${formatCount(more)} more`);
  return lines.join('\n');
}

/**
 * Entry lines stored with a warning (a single-label host, matched only whole;
 * a public suffix, which lists every site under it), on stderr whatever the
 * output mode: they are stored, but rarely what the list meant.
 */
export function warnAboutLinesWithWarnings(counts: SinkCounts): void {
  if (counts.warningCount === 0) return;
  process.stderr.write(
    `cuckoo-bloom-wasm: warning: ${formatCount(counts.warningCount)} list line(s) stored with a warning\n` +
      `${errorLines(counts, counts.warningCount - counts.warnings.length, counts.warnings)}\n`,
  );
}

/** First pass over a file: how many keys/expressions to size for. */
export async function countPass(
  batches: AsyncIterable<LineBatch>,
  counter: (line: Uint8Array) => number,
  totalBytes: number,
  label: string,
): Promise<number> {
  const progress = new Progress({ stream: process.stderr, label, totalBytes });
  let lines = 0;
  let candidates = 0;
  try {
    for await (const batch of batches) {
      for (const line of batch.lines) candidates += counter(line);
      lines += batch.lines.length;
      progress.update(batch.bytesRead, lines);
    }
  } finally {
    progress.finish();
  }
  return candidates;
}
