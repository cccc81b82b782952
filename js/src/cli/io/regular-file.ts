/**
 * Opening a file that must be a regular file: the filter file or index log
 * of `query`, `info`, `diff` and `patch`, a patch, and the lists and
 * companion of `update`. Anything else cannot be one, and reading it is how
 * the CLI used to hang: /dev/zero and /dev/urandom never end (`query
 * /dev/zero key` grew to 6 GB), and opening a FIFO for reading blocks until
 * some writer appears. So the path is stat'ed before it is opened, the open
 * is non-blocking (a FIFO swapped in after the stat does not block it), and
 * the open file is fstat'ed again: what is read is what was checked.
 */
import type { Stats } from 'node:fs';
import { constants } from 'node:fs';
import { type FileHandle, open, stat } from 'node:fs/promises';
import { CliError, fileError } from '../errors.js';

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
    throw readError(path, error);
  }
}

/**
 * The error reading `path` ends in: a CliError as it is (it already says
 * what is wrong), anything else the CLI's "cannot read" error for `path`.
 */
function readError(path: string, error: unknown): CliError {
  return error instanceof CliError ? error : fileError('read', path, error);
}

/**
 * Opens the regular file at `path` (openRegularFile), runs `read` on it and
 * closes it, however `read` ends; what `read` throws is a readError.
 */
export async function readOpenedFile<T>(path: string, wanted: string, read: (file: RegularFile) => Promise<T>): Promise<T> {
  const file = await openRegularFile(path, wanted);
  try {
    return await read(file);
  } catch (error) {
    throw readError(path, error);
  } finally {
    await file.handle.close();
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

/**
 * The whole regular file at `path`, refused (a CliError, nothing read) when
 * it is not a regular file or is larger than `maxBytes` (`limit` says why,
 * for the message). Exactly the size the open file had is read, plus one
 * byte to see whether it grew meanwhile: a file that changed while read is
 * refused, never read on.
 */
export async function readRegularFile(path: string, wanted: string, maxBytes: number, limit: string): Promise<Uint8Array> {
  return readOpenedFile(path, wanted, async ({ handle, size }) => {
    if (size > maxBytes) throw new CliError(`cannot read ${path}: it is ${size} bytes, more than ${limit}`);
    const bytes = new Uint8Array(size + 1);
    const read = await readFully(handle, bytes, 0);
    if (read !== size) throw changedWhileReadError(path, size, read);
    return bytes.subarray(0, size);
  });
}

/**
 * The regular file at `path` in chunks of at most `chunkBytes`, for a file
 * of any size read as a stream (a list of hundreds of MB): no more than its
 * size when opened is read, and a file that grew or shrank meanwhile is a
 * CliError. A device or FIFO is refused before anything is read.
 */
export async function* regularFileChunks(path: string, wanted: string, chunkBytes: number): AsyncGenerator<Uint8Array> {
  const { handle, size } = await openRegularFile(path, wanted);
  try {
    let position = 0;
    while (position < size) {
      const chunk = new Uint8Array(Math.min(chunkBytes, size - position));
      const read = await readFully(handle, chunk, position);
      if (read !== chunk.length) throw changedWhileReadError(path, size, position + read);
      position += read;
      yield chunk;
    }
    // One byte past the size it had: a file that grew is refused, not read on.
    if ((await readFully(handle, new Uint8Array(1), size)) !== 0) throw changedWhileReadError(path, size, size + 1);
  } catch (error) {
    throw readError(path, error);
  } finally {
    await handle.close();
  }
}

function changedWhileReadError(path: string, size: number, read: number): CliError {
  const how = read < size ? `only ${read} could be read` : 'more bytes followed';
  return new CliError(`cannot read ${path}: it changed while it was read (it was ${size} bytes when opened; ${how})`);
}
