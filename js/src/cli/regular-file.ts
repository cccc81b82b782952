/**
 * Opening a file that must be a regular file: the filter file or index log
 * of `query` and `info`. Anything else cannot be one, and reading it is how
 * the CLI used to hang: /dev/zero and /dev/urandom never end (`query
 * /dev/zero key` grew to 6 GB), and opening a FIFO for reading blocks until
 * some writer appears. So the path is stat'ed before it is opened, the open
 * is non-blocking (a FIFO swapped in after the stat does not block it), and
 * the open file is fstat'ed again: what is read is what was checked.
 */
import type { Stats } from 'node:fs';
import { constants } from 'node:fs';
import { type FileHandle, open, stat } from 'node:fs/promises';
import { CliError, fileError } from './errors.js';

/** What a path that is not a regular file is, for messages; null for a regular file. */
export function nonRegularKind(stats: Stats): string | null {
  if (stats.isFile()) return null;
  if (stats.isDirectory()) return 'a directory';
  if (stats.isFIFO()) return 'a FIFO (named pipe)';
  if (stats.isCharacterDevice()) return 'a character device (such as /dev/zero, /dev/urandom or a terminal)';
  if (stats.isBlockDevice()) return 'a block device';
  if (stats.isSocket()) return 'a socket';
  return 'not a regular file';
}

/**
 * The CliError for `path`, which is `kind` (nonRegularKind) where `wanted`
 * (e.g. "a filter file or an index log", each a regular file) was expected.
 */
export function notRegularError(path: string, kind: string, wanted: string): CliError {
  return new CliError(`cannot read ${path}: it is ${kind}, not ${wanted}`);
}

interface RegularFile {
  handle: FileHandle;
  /** Its size when opened. */
  size: number;
}

/**
 * Opens `path` for reading if it is a regular file; otherwise a CliError
 * naming it and what it is, without reading from it or waiting on it.
 */
export async function openRegularFile(path: string, wanted: string): Promise<RegularFile> {
  let before: Stats;
  try {
    before = await stat(path);
  } catch (error) {
    throw fileError('read', path, error);
  }
  const kind = nonRegularKind(before);
  if (kind !== null) throw notRegularError(path, kind, wanted);
  let handle: FileHandle;
  try {
    handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    throw fileError('read', path, error);
  }
  try {
    const opened = await handle.stat();
    const openedKind = nonRegularKind(opened);
    if (openedKind !== null) throw notRegularError(path, openedKind, wanted);
    return { handle, size: opened.size };
  } catch (error) {
    await handle.close();
    if (error instanceof CliError) throw error;
    throw fileError('read', path, error);
  }
}

/**
 * Reads from `handle` at `position` until `buffer` is full or the file
 * ends; returns the bytes read.
 */
export async function readFully(handle: FileHandle, buffer: Uint8Array, position: number): Promise<number> {
  let got = 0;
  while (got < buffer.length) {
    const { bytesRead } = await handle.read(buffer, got, buffer.length - got, position + got);
    if (bytesRead === 0) break;
    got += bytesRead;
  }
  return got;
}
