/**
 * Every file a `build` writes, renames over or removes, named once, and the
 * check that none of them is the input. Writing the output over its own
 * input would replace the list with what was built from it, or, for a file
 * the build only derives (`<log>.snapshot`, a temporary it clears first),
 * destroy the input without a word: `build --exact --input list.snapshot
 * --output list` did, and so did `build --input - --output f < f`.
 */
import type { Stats } from 'node:fs';
import { fstatSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { usageError } from '../errors.js';

/** The files of a filter build: the filter, written through a temporary and renamed. */
export function filterBuildFiles(output: string): { output: string; temporary: string } {
  return { output, temporary: `${output}.tmp-${process.pid}` };
}

export interface ExactBuildFiles {
  output: string;
  /** `<output>.snapshot`: the index's table beside the log (FileCuckooIndex). */
  snapshot: string;
  /** The log while it is built, renamed to `output` at the end. */
  temporary: string;
  /** Its snapshot, renamed to `snapshot` at the end. */
  temporarySnapshot: string;
  /** Every temporary the build makes (saveSnapshot writes `<snapshot>.tmp` and renames it: durable-files.ts). */
  temporaries: string[];
}

/** The files of `build --exact`: a log and its snapshot, both built under temporary names. */
export function exactBuildFiles(output: string): ExactBuildFiles {
  const temporary = `${output}.tmp-${process.pid}`;
  const temporarySnapshot = `${temporary}.snapshot`;
  return {
    output,
    snapshot: `${output}.snapshot`,
    temporary,
    temporarySnapshot,
    // The writer's lock (exact-index/file/writer-lock.ts) sits beside the log it opens.
    temporaries: [temporary, temporarySnapshot, `${temporarySnapshot}.tmp`, `${temporary}.lock`],
  };
}

/**
 * What the input is, to compare with what the build writes: the file at
 * `input` (through any symlink), or for `-` whatever stdin is (a file
 * redirected into it is a file like any other). Null when there is nothing
 * to compare (a missing input is reported when it is read).
 */
async function inputStats(input: string): Promise<Stats | null> {
  if (input === '-') {
    try {
      return fstatSync(0);
    } catch {
      return null;
    }
  }
  return stat(input).catch(() => null);
}

function sameFile(a: Stats, b: Stats): boolean {
  return a.dev === b.dev && a.ino === b.ino;
}

/**
 * Refuses (a usage error, exit 2, nothing written) a build whose input is
 * one of the files it writes or removes: the output (`made`: "filter" or
 * "index log") or one of `derived`, each with what it is for the message.
 * Files are compared by device and inode, so a symlink, a hard link, another
 * spelling of the path or stdin redirected from the file are all caught.
 */
export async function refuseOutputThatIsInput(
  input: string,
  output: string,
  made: string,
  derived: ReadonlyArray<{ path: string; role: string }>,
): Promise<void> {
  const source = await inputStats(input);
  if (source === null) return;
  const outputStats = await stat(output).catch(() => null);
  if (outputStats !== null && sameFile(outputStats, source)) {
    const what = input === '-' ? `is the file stdin is read from (--input - < ${output})` : 'is the input file';
    throw usageError(
      `--output ${output} ${what}: choose another output path (the input would be replaced by its ${made})`,
      'build',
    );
  }
  for (const { path, role } of derived) {
    const stats = await stat(path).catch(() => null);
    if (stats !== null && sameFile(stats, source)) {
      const source = input === '-' ? `stdin is read from ${path}` : `--input ${input} is ${path}`;
      throw usageError(
        `the input would be lost: ${source}, ${role}, which building --output ${output} replaces or removes; ` +
          'choose another output path (or copy the input elsewhere first)',
        'build',
      );
    }
  }
}
