/**
 * Line streaming: input is read in chunks and split into lines chunk by
 * chunk, so memory holds one chunk's lines at a time, never the whole input.
 * Lines are bytes, exactly as in the input (no decoding: a key is stored as
 * the bytes of its line, and a line that is not UTF-8 is not changed into
 * replacement characters). Lines end at "\n"; one trailing "\r" is removed
 * ("\r\n" files); a UTF-8 byte-order mark at the very start is dropped. A
 * last line without a newline still counts; an empty input has no lines.
 */
import { open, stat } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { refuseBinary, SNIFF_BYTES } from './binary-input.js';
import { CliError, fileError } from '../errors.js';

/** Bytes per read: big enough that per-chunk work is negligible, small enough to bound memory. */
const CHUNK_BYTES = 256 * 1024;

/**
 * The longest line read: a key or list line longer than this is an error
 * that names it, not a silent multi-gigabyte string (a binary file or a
 * list with its newlines lost).
 */
const MAX_LINE_BYTES = 64 * 1024 * 1024;

const NEWLINE = 0x0a;

/**
 * Splits a byte stream into lines incrementally, in time linear in the input:
 * each chunk is searched for newlines once, and the bytes of an unfinished
 * line are kept as a list of pieces, joined once when its newline arrives
 * (re-joining a growing string at every chunk made one long line quadratic).
 */
class LineSplitter {
  #pieces: Uint8Array[] = [];
  #pendingBytes = 0;
  #lineNumber = 0;
  #atStart = true;

  /**
   * The lines completed by `chunk` (the unfinished tail is kept for the next
   * call); a line may be a view into `chunk`.
   */
  push(chunk: Uint8Array | string): Uint8Array[] {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    const lines: Uint8Array[] = [];
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
  end(): Uint8Array[] {
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
  #takeLine(): Uint8Array {
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
    return bytes.subarray(start, end);
  }
}

export interface LineBatch {
  /** The lines' bytes (views: valid until the next batch is asked for). */
  lines: Uint8Array[];
  /** Bytes of input consumed so far (including this batch). */
  bytesRead: number;
}

interface LineOptions {
  /**
   * Refuse input that looks binary (binary-input.ts), naming it as this in
   * the error; null reads any bytes (`--force`, or `query`'s keys).
   */
  refuseBinaryAs?: string | null;
}

/**
 * The lines of `stream` in batches (one per chunk read). With
 * `refuseBinaryAs`, the first SNIFF_BYTES are held back until they are
 * judged, so no line of a binary input reaches the caller.
 */
export async function* lineBatches(
  stream: AsyncIterable<Uint8Array | string>,
  { refuseBinaryAs = null }: LineOptions = {},
): AsyncGenerator<LineBatch> {
  const splitter = new LineSplitter();
  let bytesRead = 0;
  let held: Uint8Array[] | null = refuseBinaryAs === null ? null : [];
  let heldBytes = 0;
  const judge = function* (): Generator<LineBatch> {
    const head = Buffer.concat(held!, heldBytes);
    held = null;
    refuseBinary(head.subarray(0, SNIFF_BYTES), refuseBinaryAs!);
    const lines = splitter.push(head);
    if (lines.length > 0) yield { lines, bytesRead };
  };
  for await (const chunk of stream) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    bytesRead += bytes.length;
    if (held !== null) {
      // Copied: a stream may reuse its chunk's memory.
      held.push(Uint8Array.prototype.slice.call(bytes));
      heldBytes += bytes.length;
      if (heldBytes >= SNIFF_BYTES) yield* judge();
      continue;
    }
    const lines = splitter.push(bytes);
    if (lines.length > 0) yield { lines, bytesRead };
  }
  if (held !== null) yield* judge();
  const last = splitter.end();
  if (last.length > 0) yield { lines: last, bytesRead };
}

/**
 * Whether `input` can be read only once, its size unknown: stdin (`-`), or a
 * path that is a FIFO or a device (`/dev/stdin`, a named pipe fed by
 * another process). Such input gets one pass: opening a FIFO a second time
 * would wait for a writer that never comes.
 */
export async function readsOnce(input: string): Promise<boolean> {
  if (input === '-') return true;
  const stats = await stat(input).catch(() => null);
  return stats !== null && !stats.isFile() && !stats.isDirectory();
}

interface InputFile {
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
export async function* fileLineBatches(path: string, stream: Readable, options: LineOptions = {}): AsyncGenerator<LineBatch> {
  try {
    yield* lineBatches(stream, options);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== undefined) throw fileError('read', path, error);
    throw error;
  }
}
