/**
 * The file `query` and `info` are given, read only as far as it can be a
 * filter or an index log:
 *
 * - it must be a regular file (regular-file.ts: a device, FIFO, directory
 *   or socket is refused before anything is read from it);
 * - its first bytes say what it is: "CBWF" a filter (https://github.com/cuckoo-bloom-wasm/cuckoo-bloom-wasm/blob/main/docs/FORMAT.md),
 *   "CBWILOG1" an index log (https://github.com/cuckoo-bloom-wasm/cuckoo-bloom-wasm/blob/main/docs/EXACT-INDEX.md); anything else is refused after
 *   reading at most FILTER_HEAD_BYTES;
 * - a filter's header declares its length, 64 + P + L (parameter length at
 *   offset 12, payload length at 48). A file of any other size is refused
 *   before its body is read, and the body read is bounded by the declared
 *   length plus one byte (a file that grew meanwhile is refused, not read on).
 *
 * `-` is stdin, for a filter only (an index log is opened as a file, so it
 * needs its path): a pipe or a redirected file is read as far as the header
 * says and no further; a terminal or a character device on stdin is refused.
 */
import { fstatSync } from 'node:fs';
import type { Readable } from 'node:stream';
import { isatty } from 'node:tty';
import { CliError, fileError, usageError } from '../errors.js';
import { nonRegularKind, notRegularError, readFully, readOpenedFile } from './regular-file.js';

type FileKind = 'index-log' | 'filter' | 'other';

/** "CBWF": a filter file's first 4 bytes. */
const FILTER_MAGIC = new Uint8Array([0x43, 0x42, 0x57, 0x46]);
/** "CBWILOG1": an index log's first 8 bytes (its 16-byte header then holds a version and a reserved word). */
const LOG_MAGIC = new Uint8Array([0x43, 0x42, 0x57, 0x49, 0x4c, 0x4f, 0x47, 0x31]);

/** A filter header up to its payload length: magic .. payload length (https://github.com/cuckoo-bloom-wasm/cuckoo-bloom-wasm/blob/main/docs/FORMAT.md). */
const FILTER_HEAD_BYTES = 56;
/** The header (56) and the checksum (8): every filter file is 64 + P + L bytes. */
const FIXED_BYTES = 64;
const PARAMETER_LENGTH_OFFSET = 12;
const PAYLOAD_LENGTH_OFFSET = 48;
/**
 * The largest filter file read: the bytes are copied into wasm memory, which
 * stops at 2 GiB, so a longer declared length cannot be a filter we can read
 * (and, on stdin, must not make us read on).
 */
const MAX_FILTER_FILE_BYTES = 2 ** 31;

/** What query and info accept, for messages. */
const WANTED = 'a filter file or an index log (a regular file)';

function startsWith(head: Uint8Array, length: number, magic: Uint8Array): boolean {
  return length >= magic.length && magic.every((byte, i) => head[i] === byte);
}

function kindOf(head: Uint8Array, length: number): FileKind {
  if (startsWith(head, length, LOG_MAGIC)) return 'index-log';
  return startsWith(head, length, FILTER_MAGIC) ? 'filter' : 'other';
}

function firstBytes(head: Uint8Array, length: number): string {
  if (length === 0) return 'it is empty';
  const shown = Math.min(length, 8);
  const hex = Array.from(head.subarray(0, shown), (byte) => byte.toString(16).padStart(2, '0')).join(' ');
  return `its first ${shown === 1 ? 'byte is' : `${shown} bytes are`} ${hex}`;
}

function notAFilterError(name: string, head: Uint8Array, length: number, wanted?: string): CliError {
  if (wanted !== undefined) return new CliError(`${name} is not ${wanted}: ${firstBytes(head, length)} (one starts with "CBWF", as the filter it was built with)`);
  return new CliError(
    `${name} is not a filter file or an index log: ${firstBytes(head, length)} ` +
      '(a filter starts with "CBWF", an index log made by build --exact with "CBWILOG1")',
  );
}

/**
 * A filter's declared file length from its first `length` bytes (at least
 * FILTER_HEAD_BYTES, else a CliError: truncated). A length that cannot be
 * read into memory is a CliError too.
 */
function declaredLength(name: string, head: Uint8Array, length: number, actual: string): number {
  if (length < FILTER_HEAD_BYTES) {
    throw new CliError(
      `${name}: truncated filter file: ${actual} ${length} byte(s), shorter than the ${FIXED_BYTES}-byte header and checksum of any filter`,
    );
  }
  const view = new DataView(head.buffer, head.byteOffset, FILTER_HEAD_BYTES);
  const parameters = view.getUint32(PARAMETER_LENGTH_OFFSET, true);
  const payload = view.getBigUint64(PAYLOAD_LENGTH_OFFSET, true);
  const declared = BigInt(FIXED_BYTES + parameters) + payload;
  if (declared > BigInt(MAX_FILTER_FILE_BYTES)) {
    throw new CliError(
      `${name}: corrupt filter file: its header declares ${declared} bytes (${parameters} of parameters, ${payload} of payload), ` +
        `more than the ${MAX_FILTER_FILE_BYTES / 2 ** 30} GiB of wasm memory a filter is read into`,
    );
  }
  return Number(declared);
}

/**
 * A filter `actual` bytes long where `declared` were declared; `exact`: the
 * whole length is known (a file's size), not only that more bytes followed.
 */
function lengthMismatchError(name: string, declared: number, actual: number, exact: boolean): CliError {
  if (actual < declared) {
    return new CliError(
      `${name}: truncated filter file: its header declares ${declared} bytes, but it has ${actual} (${declared - actual} missing)`,
    );
  }
  const more = exact ? `it has ${actual} (${actual - declared} after the filter's checksum)` : "more bytes follow the filter's checksum";
  return new CliError(`${name}: not a filter file as written: its header declares ${declared} bytes, but ${more}`);
}

/**
 * What `path` holds, from its first bytes (FileKind). A path that is not a
 * regular file, or cannot be read, is a CliError naming it. Read before
 * opening anything else: FileCuckooIndex.open would create a missing log,
 * and query and info must never do that.
 */
export async function inspectInputFile(path: string): Promise<FileKind> {
  if (path === '-') {
    const { kind } = await stdinInput();
    if (kind === 'index-log') throw logOnStdinError();
    return kind;
  }
  return readOpenedFile(path, WANTED, async ({ handle }) => {
    const head = new Uint8Array(LOG_MAGIC.length);
    return kindOf(head, await readFully(handle, head, 0));
  });
}

/**
 * The bytes of the filter file at `path` (`-`: stdin), exactly as long as
 * its header declares; not yet validated beyond that (deserialize does).
 */
export async function readFilterBytes(path: string): Promise<Uint8Array> {
  if (path === '-') {
    const input = await stdinInput();
    if (input.kind === 'index-log') throw logOnStdinError();
    if (input.kind === 'other') throw notAFilterError('stdin', input.bytes, input.bytes.length);
    return input.bytes;
  }
  return readDeclaredFile(path, WANTED);
}

/**
 * The bytes of a URL blocklist's companion (`<filter>.confirm`, `query
 * --confirm FILE`, update's companion): a "CBWF" blob like a filter
 * (https://github.com/cuckoo-bloom-wasm/cuckoo-bloom-wasm/blob/main/docs/FORMAT.md type 33), so it gets a filter's checks. It used to be read
 * with a plain readFile: `--confirm /dev/zero` grew without bound, a FIFO
 * blocked forever, and a 1.5 GB sparse file was read whole before its header
 * was looked at. Now a device or FIFO is refused before any read, and no
 * more than the header's declared length (itself at most 2 GiB) is read.
 */
export async function readCompanionBytes(path: string): Promise<Uint8Array> {
  return readDeclaredFile(path, 'a blocklist companion (.confirm, a regular file)');
}

/** A "CBWF" blob from the regular file at `path`, exactly as long as its header declares. */
async function readDeclaredFile(path: string, wanted: string): Promise<Uint8Array> {
  return readOpenedFile(path, wanted, async ({ handle, size }) => {
    const head = new Uint8Array(FILTER_HEAD_BYTES);
    const got = await readFully(handle, head, 0);
    if (kindOf(head, got) !== 'filter') throw notAFilterError(path, head, got, wanted === WANTED ? undefined : wanted);
    const declared = declaredLength(path, head, got, 'the file has');
    if (size !== declared) throw lengthMismatchError(path, declared, size, true);
    // One byte more than declared: a file that grew since the fstat is refused, not read on.
    const bytes = new Uint8Array(declared + 1);
    const read = await readFully(handle, bytes, 0);
    if (read !== declared) throw lengthMismatchError(path, declared, read, false);
    return bytes.subarray(0, declared);
  });
}

/** `-` named for an index log, which is only read from a path. */
export function logOnStdinError(): CliError {
  return usageError('an index log cannot be read from stdin: give its path (it is opened as a file, with its snapshot beside it)');
}

interface StdinInput {
  kind: FileKind;
  /** A filter: its declared bytes; otherwise the first bytes read (at most FILTER_HEAD_BYTES). */
  bytes: Uint8Array;
}

let stdinRead: Promise<StdinInput> | null = null;

/** Stdin read once (inspect and read share it), as far as it can be a filter. */
function stdinInput(): Promise<StdinInput> {
  stdinRead ??= readStdin();
  return stdinRead;
}

async function readStdin(): Promise<StdinInput> {
  let stats;
  try {
    stats = fstatSync(0);
  } catch (error) {
    throw fileError('read', 'stdin', error);
  }
  // isatty(0), not process.stdin.isTTY: making a terminal's stream for the question could hold the process open.
  if (isatty(0)) {
    throw usageError('stdin is a terminal: pipe a filter into it (query/info - < file), or give the filter file\'s path');
  }
  // A pipe or a socket streams; a redirected regular file is read as one.
  const kind = stats.isFIFO() || stats.isSocket() ? null : nonRegularKind(stats);
  if (kind !== null) throw notRegularError('stdin', kind, 'a filter (pipe one in, or redirect a filter file)');
  return readBoundedStream(process.stdin);
}

/**
 * A filter from `stream`: the header first, then up to its declared length;
 * one byte past it is an error. Stops reading as soon as the answer is known.
 */
async function readBoundedStream(stream: Readable): Promise<StdinInput> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  let declared: number | null = null;
  try {
    for await (const chunk of stream) {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : (chunk as Uint8Array);
      chunks.push(bytes);
      total += bytes.length;
      if (declared === null && total >= FILTER_HEAD_BYTES) {
        const head = Buffer.concat(chunks, total);
        if (kindOf(head, total) !== 'filter') return { kind: kindOf(head, total), bytes: head.subarray(0, FILTER_HEAD_BYTES) };
        declared = declaredLength('stdin', head, total, 'it has');
      }
      if (declared !== null && total > declared) throw lengthMismatchError('stdin', declared, total, false);
    }
  } catch (error) {
    if (error instanceof CliError) throw error;
    throw fileError('read', 'stdin', error);
  } finally {
    stream.destroy();
  }
  const all = Buffer.concat(chunks, total);
  if (declared === null) {
    const kind = kindOf(all, total);
    if (kind !== 'filter') return { kind, bytes: all };
    declared = declaredLength('stdin', all, total, 'it has');
  }
  if (total !== declared) throw lengthMismatchError('stdin', declared, total, false);
  return { kind: 'filter', bytes: all };
}
