/**
 * Line streaming: input is read in chunks and split into lines chunk by
 * chunk, so memory holds one chunk's lines at a time, never the whole input.
 * Lines end at "\n"; one trailing "\r" is removed ("\r\n" files); a UTF-8
 * byte-order mark at the very start is dropped. A last line without a
 * newline still counts; an empty input has no lines.
 */
import { open } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { CliError, fileError } from './errors.js';

/** Bytes per read: big enough that per-chunk work is negligible, small enough to bound memory. */
export const CHUNK_BYTES = 256 * 1024;

/**
 * The longest line read: a key or list line longer than this is an error
 * that names it, not a silent multi-gigabyte string (a binary file or a
 * list with its newlines lost).
 */
export const MAX_LINE_BYTES = 64 * 1024 * 1024;

const NEWLINE = 0x0a;
const utf8 = new TextDecoder('utf-8');

/**
 * Splits a byte stream into lines incrementally, in time linear in the input:
 * each chunk is searched for newlines once, and the bytes of an unfinished
 * line are kept as a list of pieces, joined once when its newline arrives
 * (re-joining a growing string at every chunk made one long line quadratic).
 */
export class LineSplitter {
  #pieces: Uint8Array[] = [];
  #pendingBytes = 0;
  #lineNumber = 0;
  #atStart = true;

  /** The lines completed by `chunk` (the unfinished tail is kept for the next call). */
  push(chunk: Buffer | string): string[] {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    const lines: string[] = [];
    let from = 0;
    for (let newline = bytes.indexOf(NEWLINE, from); newline !== -1; newline = bytes.indexOf(NEWLINE, from)) {
      this.#keep(bytes.subarray(from, newline));
      lines.push(this.#takeLine());
      from = newline + 1;
    }
    // Copied: a stream may reuse its chunk's memory.
    if (from < bytes.length) this.#keep(Uint8Array.prototype.slice.call(bytes, from));
    return lines;
  }

  /** The last line, if the input did not end with a newline. */
  end(): string[] {
    if (this.#pendingBytes === 0 && this.#pieces.length === 0) return [];
    return [this.#takeLine()];
  }

  #keep(piece: Uint8Array): void {
    if (this.#pendingBytes + piece.length > MAX_LINE_BYTES) {
      throw new CliError(
        `line ${this.#lineNumber + 1} is longer than ${MAX_LINE_BYTES / (1024 * 1024)} MiB: is the input a binary file, ` +
          'or a list whose line breaks were lost? Each key or list entry must be on its own line',
      );
    }
    this.#pieces.push(piece);
    this.#pendingBytes += piece.length;
  }

  /** The pending pieces as one line: "\r\n" endings and a leading byte-order mark removed. */
  #takeLine(): string {
    let bytes: Uint8Array;
    if (this.#pieces.length === 1) bytes = this.#pieces[0]!;
    else {
      bytes = new Uint8Array(this.#pendingBytes);
      let offset = 0;
      for (const piece of this.#pieces) {
        bytes.set(piece, offset);
        offset += piece.length;
      }
    }
    this.#pieces = [];
    this.#pendingBytes = 0;
    this.#lineNumber++;
    let start = 0;
    let end = bytes.length;
    if (this.#atStart) {
      this.#atStart = false;
      if (end >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) start = 3;
    }
    if (end > start && bytes[end - 1] === 0x0d) end--;
    return utf8.decode(bytes.subarray(start, end));
  }
}

export interface LineBatch {
  lines: string[];
  /** Bytes of input consumed so far (including this batch). */
  bytesRead: number;
}

/** The lines of `stream` in batches (one per chunk read). */
export async function* lineBatches(stream: AsyncIterable<Buffer | string>): AsyncGenerator<LineBatch> {
  const splitter = new LineSplitter();
  let bytesRead = 0;
  for await (const chunk of stream) {
    bytesRead += chunk.length;
    const lines = splitter.push(chunk);
    if (lines.length > 0) yield { lines, bytesRead };
  }
  const last = splitter.end();
  if (last.length > 0) yield { lines: last, bytesRead };
}

export interface InputFile {
  stream: Readable;
  size: number;
}

/**
 * Opens `path` for streaming; a missing, unreadable or non-regular file is a
 * CliError naming it.
 */
export async function openInputFile(path: string): Promise<InputFile> {
  let handle;
  try {
    handle = await open(path, 'r');
  } catch (error) {
    throw fileError('read', path, error);
  }
  try {
    const stats = await handle.stat();
    if (stats.isDirectory()) throw Object.assign(new Error('is a directory'), { code: 'EISDIR' });
    const stream = handle.createReadStream({ highWaterMark: CHUNK_BYTES });
    return { stream, size: stats.isFile() ? stats.size : 0 };
  } catch (error) {
    await handle.close();
    throw fileError('read', path, error);
  }
}

/** `lineBatches` of an input file, with read errors reported as CliErrors naming the file. */
export async function* fileLineBatches(path: string, stream: Readable): AsyncGenerator<LineBatch> {
  try {
    yield* lineBatches(stream);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== undefined) throw fileError('read', path, error);
    throw error;
  }
}
