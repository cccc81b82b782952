/**
 * Whole-file reads and writes of `update`, `diff` and `patch`: a list read as
 * UTF-8 lines, a patch read whole, and an output written atomically (a
 * temporary `<path>.tmp-<pid>` renamed over it), so a failed command leaves
 * the old file, never half of a new one.
 */
import { readFile, rename, writeFile } from 'node:fs/promises';
import { removePath, trackTemporary } from './cleanup.js';
import { FilterError } from '../index.js';
import { CliError, fileError, usageError } from './errors.js';
import { filterBuildFiles } from './output-paths.js';

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

/** The whole file at `path` (a patch, or a companion). */
export async function readWholeFile(path: string): Promise<Uint8Array> {
  try {
    return new Uint8Array(await readFile(path));
  } catch (error) {
    throw fileError('read', path, error);
  }
}

/** The lines of a list file (UTF-8; "\r\n" or "\n"); not UTF-8 is an error naming the file. */
export async function readListLines(path: string): Promise<string[]> {
  const bytes = await readWholeFile(path);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    throw new CliError(`${path}: a list must be UTF-8 text`);
  }
  return text === '' ? [] : text.replace(/\r?\n$/, '').split(/\r?\n/);
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
