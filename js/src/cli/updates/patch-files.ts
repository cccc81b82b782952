/**
 * Whole-file reads and writes of `update`, `diff` and `patch`: a list read as
 * UTF-8 lines, a patch read whole (each from a regular file only, bounded by
 * its size: regular-file.ts), and an output written atomically (a
 * temporary `<path>.tmp-<pid>` renamed over it), so a failed command leaves
 * the old file, never half of a new one.
 */
import { rename, writeFile } from 'node:fs/promises';
import { removePath, trackTemporary } from '../io/cleanup.js';
import { FilterError } from '../../index.js';
import { CliError, fileError, usageError } from '../errors.js';
import { filterBuildFiles } from '../io/output-paths.js';
import { readRegularFile, regularFileChunks } from '../io/regular-file.js';

/** Writes `bytes` to `<path>.tmp-<pid>`, then renames it over `path`; on failure removes the temporary. */
export async function writeFileAtomically(path: string, bytes: Uint8Array): Promise<void> {
  const { temporary } = filterBuildFiles(path);
  trackTemporary(temporary);
  try {
    await writeFile(temporary, bytes, { flag: 'wx' });
    await rename(temporary, path);
    removePath(temporary);
  } catch (error) {
    removePath(temporary);
    throw fileError('write', path, error);
  }
}

/**
 * The largest patch read whole: twice the largest filter (2 GiB, the wasm
 * memory a filter is read into). A patch from diffFilters is about the size
 * of the bytes that changed, so at most about its target's size. (A
 * companion is read as a filter is, to its header-declared length:
 * filter-input.ts readCompanionBytes.)
 */
const MAX_WHOLE_FILE_BYTES = 2 ** 32;
/** A list is read in chunks of this many bytes, never whole: a list of any size fits. */
const LIST_CHUNK_BYTES = 16 * 2 ** 20;

/**
 * The whole file at `path` (a patch): a regular file only
 * (a device or FIFO would be read forever or block: refused before any
 * read), at most MAX_WHOLE_FILE_BYTES, read no further than its size.
 */
export async function readWholeFile(path: string): Promise<Uint8Array> {
  return readRegularFile(path, 'a regular file', MAX_WHOLE_FILE_BYTES, `the ${MAX_WHOLE_FILE_BYTES / 2 ** 30} GiB a patch can be`);
}

/**
 * The lines of a list file (UTF-8; "\r\n" or "\n"; a leading BOM is
 * dropped); not UTF-8 is an error naming the file. Only a regular file is
 * read (a device or FIFO is refused before any read), in chunks and no
 * further than its size: a list of hundreds of MB is read as it is, never
 * as one string (which V8 caps at about 512 MB).
 */
export async function readListLines(path: string): Promise<string[]> {
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });
  const lines: string[] = [];
  let pending = '';
  const take = (text: string): void => {
    const parts = (pending + text).split('\n');
    pending = parts.pop()!;
    for (const part of parts) lines.push(part.endsWith('\r') ? part.slice(0, -1) : part);
  };
  try {
    for await (const chunk of regularFileChunks(path, 'a list file (a regular file)', LIST_CHUNK_BYTES)) {
      take(decoder.decode(chunk, { stream: true }));
    }
    take(decoder.decode());
  } catch (error) {
    if (error instanceof CliError) throw error;
    if (error instanceof TypeError) throw new CliError(`${path}: a list must be UTF-8 text`);
    // A single line too long for one string (RangeError: Invalid string length).
    if (error instanceof RangeError) throw new CliError(`${path}: a line of the list is too long to read (${error.message})`);
    throw error;
  }
  // A last line without a newline is a line; the empty rest after a final newline is not.
  if (pending !== '') lines.push(pending);
  return lines;
}

/** `diff` and `patch`: two file arguments (`what` names them in the usage error) and a required --output. */
export function twoFilesAndOutput(
  command: string,
  positionals: string[],
  output: string | boolean | undefined,
  what: string,
): { first: string; second: string; output: string } {
  if (positionals.length !== 2) throw usageError(`${command} takes ${what}, got ${positionals.length} file(s)`, command);
  if (typeof output !== 'string') throw usageError(`${command} needs --output FILE`, command);
  return { first: positionals[0]!, second: positionals[1]!, output };
}

/** Runs `run`; a FilterError it throws becomes a CliError (exit 2) prefixed with `where`. */
export function asCliError<T>(where: string, run: () => T): T {
  try {
    return run();
  } catch (error) {
    if (error instanceof FilterError) throw new CliError(`${where}: ${error.message}`);
    throw error;
  }
}
