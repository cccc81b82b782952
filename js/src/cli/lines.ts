/**
 * Line streaming: input is read in chunks and split into lines chunk by
 * chunk, so memory holds one chunk's lines at a time, never the whole input.
 * Lines end at "\n"; one trailing "\r" is removed ("\r\n" files); a UTF-8
 * byte-order mark at the very start is dropped. A last line without a
 * newline still counts; an empty input has no lines.
 */
import { open } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { fileError } from './errors.js';

/** Bytes per read: big enough that per-chunk work is negligible, small enough to bound memory. */
export const CHUNK_BYTES = 256 * 1024;

/** Splits a byte stream into lines incrementally. */
export class LineSplitter {
  readonly #decoder = new StringDecoder('utf8');
  #partial = '';
  #atStart = true;

  /** The lines completed by `chunk` (the unfinished tail is kept for the next call). */
  push(chunk: Buffer | string): string[] {
    let text = this.#partial + (typeof chunk === 'string' ? chunk : this.#decoder.write(chunk));
    if (this.#atStart && text !== '') {
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      this.#atStart = false;
    }
    const lines = text.split('\n');
    this.#partial = lines.pop() ?? '';
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i]!;
      if (line.endsWith('\r')) lines[i] = line.slice(0, -1);
    }
    return lines;
  }

  /** The last line, if the input did not end with a newline. */
  end(): string[] {
    let rest = this.#partial + this.#decoder.end();
    this.#partial = '';
    if (this.#atStart && rest.charCodeAt(0) === 0xfeff) rest = rest.slice(1);
    if (rest === '') return [];
    return [rest.endsWith('\r') ? rest.slice(0, -1) : rest];
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
