import { randomBytes } from 'node:crypto';
import { closeSync, constants, fdatasyncSync, ftruncateSync, fstatSync, openSync, readSync, type Stats, writeSync } from 'node:fs';
import { FilterError } from '../../index.js';
import type { IndexRecordStore } from '../record-store.js';

/** "CBWILOG1": the first 8 bytes of every index log. */
export const LOG_MAGIC = new Uint8Array([0x43, 0x42, 0x57, 0x49, 0x4c, 0x4f, 0x47, 0x31]);
/** Bytes of the file header; records start there. */
export const FILE_HEADER_BYTES = 16;
/**
 * The log versions this build reads. The version is the record layout
 * (record_store.h): 1, records without a header check (logs written before
 * version 2); 2, each record header carries its own check, so a damaged
 * header is told from an unfinished last write; 3, version 2's layout with
 * every record's checks chained to the bytes before it and to the log's
 * random id (the header's last 4 bytes), so a record cut out, moved, or
 * copied in from another log is damage, and a clean close appends a close
 * marker. New logs are version 3; an older log keeps getting records of its
 * own layout (one file, one layout) until compact() rewrites it as version 3.
 * Opening never rewrites a file.
 */
export type LogVersion = 1 | 2 | 3;
const CURRENT_LOG_VERSION: LogVersion = 3;

/**
 * A file header: magic "CBWILOG1", u32 version, u32 (little-endian): 0 in
 * versions 1 and 2, the log's random id (never 0) in version 3.
 */
function fileHeader(version: LogVersion): Uint8Array {
  const header = new Uint8Array(FILE_HEADER_BYTES);
  header.set(LOG_MAGIC);
  header[8] = version;
  if (version === 3) {
    // The first record's checks are seeded with bytes 8-15: two logs with
    // different ids share no valid record. Never 0, so the id is never "reserved".
    do header.set(randomBytes(4), 12);
    while (header[12] === 0 && header[13] === 0 && header[14] === 0 && header[15] === 0);
  }
  return header;
}

/** How the log file is opened and written: read-only, flushed after every write, or buffered. */
export interface FileStoreOptions {
  /**
   * fdatasync after every append, so a record is on the disk (not only in the
   * OS's cache) when set/delete returns: survives power loss, costs a disk
   * flush per write. Default false: a record survives the process being killed
   * (kill -9, a crash) as soon as set/delete returns, but a power loss or OS
   * crash may lose the writes of the last few seconds (never a record before
   * the lost ones: the log is append-only and a torn tail is dropped on open).
   */
  syncEveryWrite?: boolean | undefined;
  /**
   * Open for reading only: the file must exist, is opened read-only and is
   * never written, truncated or created (another process may be appending to
   * it), and no writer's lock is taken. A torn last record is left in the
   * file and only ignored. Writes (set, delete, compact, saveSnapshot) throw
   * `UNSUPPORTED`. Default false.
   */
  readOnly?: boolean | undefined;
  /**
   * Collect appends in memory (1 MiB) and write them when the buffer fills and
   * at sync(), close() and saveSnapshot(): one system call per megabyte instead
   * of one per record, for bulk loads (the CLI's `build --exact` uses it). The
   * price: a crash loses the records still in the buffer (never one written
   * before them: the log stays a prefix of what was set), and an I/O error
   * while writing the buffer is thrown by the call that wrote it, after which
   * the index refuses every call but close(). Contradicts `syncEveryWrite`.
   * Default false.
   */
  bufferWrites?: boolean | undefined;
}

/** What `bufferWrites` collects before writing. */
const WRITE_BUFFER_BYTES = 1 << 20;

function readOnlyError(what: string): FilterError {
  return new FilterError('UNSUPPORTED', `cannot ${what} an index log opened with readOnly: true`);
}

function ioError(what: string, error: unknown): FilterError {
  return new FilterError('UNAVAILABLE', `${what}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
}

/** An append-only log file, read and written synchronously at explicit positions. */
export class FileRecordStore implements IndexRecordStore {
  #fd: number;
  #length: number;
  /** The log's version: the layout of its records (1, 2 or 3). */
  readonly #version: LogVersion;
  #syncEveryWrite: boolean;
  readonly #readOnly: boolean;
  /** With bufferWrites: appended records not yet written, the last `#buffered` bytes of the log. */
  #buffer: Uint8Array | null = null;
  #buffered = 0;
  /** A failed write of the buffer: the store refuses every call but close(). */
  #failure: FilterError | null = null;
  /**
   * The file held less than a header when opened (absent, or a creation that
   * never finished): a new log, which no snapshot beside it can describe.
   */
  #fresh = false;

  private constructor(fd: number, length: number, syncEveryWrite: boolean, readOnly: boolean, version: LogVersion) {
    this.#fd = fd;
    this.#version = version;
    this.#length = length;
    this.#syncEveryWrite = syncEveryWrite;
    this.#readOnly = readOnly;
  }

  /**
   * Opens (creating when absent, as version 3) the log at `path`. A file
   * shorter than the header that is a prefix of a header (a crash while
   * creating) is started afresh as version 3 (read-only: read as empty).
   * @throws FilterError `CORRUPT` for a file that is not an index log,
   * `UNSUPPORTED_VERSION` for a version this build does not read, `UNAVAILABLE` for I/O errors.
   */
  static open(path: string, options: FileStoreOptions = {}): FileRecordStore {
    const readOnly = options.readOnly === true;
    if (options.bufferWrites === true && (options.syncEveryWrite === true || readOnly)) {
      throw new FilterError(
        'INVALID_ARGUMENT',
        `bufferWrites contradicts ${readOnly ? 'readOnly' : 'syncEveryWrite'}: choose one`,
      );
    }
    let fd: number;
    try {
      // Non-blocking: a FIFO at `path` would block a plain open until a
      // writer appeared; this way it is opened at once and refused below.
      // (On a regular file O_NONBLOCK changes nothing.) Read-write without
      // O_APPEND: records are written at the positions the store tracks.
      fd = readOnly
        ? openSync(path, constants.O_RDONLY | constants.O_NONBLOCK)
        : openSync(path, constants.O_RDWR | constants.O_CREAT | constants.O_NONBLOCK, 0o666);
    } catch (error) {
      throw ioError(`cannot open the index log ${path}`, error);
    }
    try {
      const stats = fstatSync(fd);
      // Only a regular file is a log: a FIFO or a device (/dev/zero) never
      // ends, and reading one hung or grew without bound.
      if (!stats.isFile()) {
        throw new FilterError('CORRUPT', `${path} is not a cuckoo-bloom-wasm index log (it is not a regular file: ${fileKind(stats)})`);
      }
      // One writer per log is a lock beside the log's name (<log>.lock, and
      // a socket named after the directory and that name). A second hard link
      // is the same file under a name with its own lock, so two writers could
      // both append, each overwriting the other's records. The lock cannot be
      // keyed on the inode instead: compaction and repair rename a new file
      // over the log while its writer holds the lock, giving it a new inode.
      // So a log with more than one link is refused for writing (whichever
      // name is opened: both see the count); reading it is safe.
      if (!readOnly && stats.nlink > 1) {
        throw new FilterError(
          'INVALID_ARGUMENT',
          `${path} has ${stats.nlink} hard links: a writer's lock covers one name only, so a log is opened for writing ` +
            'only with one link (remove the other names, or copy the file; readOnly: true reads it)',
        );
      }
      const length = stats.size;
      const head = new Uint8Array(Math.min(length, FILE_HEADER_BYTES));
      if (head.length > 0) readSync(fd, head, 0, head.length, 0);
      const version = length < FILE_HEADER_BYTES ? CURRENT_LOG_VERSION : readVersion(path, head);
      if (length < FILE_HEADER_BYTES && !isHeaderPrefix(head)) {
        throw new FilterError('CORRUPT', `${path} is not a cuckoo-bloom-wasm index log (its first bytes are not "CBWILOG1")`);
      }
      const store = new FileRecordStore(fd, length, options.syncEveryWrite === true, readOnly, version);
      store.#fresh = length < FILE_HEADER_BYTES;
      if (options.bufferWrites === true) store.#buffer = new Uint8Array(WRITE_BUFFER_BYTES);
      if (length < FILE_HEADER_BYTES && readOnly) {
        // A log whose creation never finished holds no record: read it as empty.
        store.#length = FILE_HEADER_BYTES;
      } else if (length < FILE_HEADER_BYTES) {
        const header = fileHeader(CURRENT_LOG_VERSION);
        ftruncateSync(fd, 0);
        writeSync(fd, header, 0, header.length, 0);
        fdatasyncSync(fd);
        store.#length = FILE_HEADER_BYTES;
      }
      return store;
    } catch (error) {
      closeSync(fd);
      throw error instanceof FilterError ? error : ioError(`cannot read the index log ${path}`, error);
    }
  }

  get byteLength(): number {
    return this.#length;
  }

  /** Whether the file held less than a header when opened: a new log (a snapshot beside it is another log's). */
  get fresh(): boolean {
    return this.#fresh;
  }

  /** The log's version (1, 2 or 3), which is the layout of its records: the core encodes and checks them in it. */
  get recordFormat(): LogVersion {
    return this.#version;
  }

  append(record: Uint8Array): number {
    if (this.#readOnly) throw readOnlyError('append to');
    this.#checkUsable();
    const buffer = this.#buffer;
    if (buffer !== null && record.length <= buffer.length) {
      if (this.#buffered + record.length > buffer.length) this.flush();
      buffer.set(record, this.#buffered);
      this.#buffered += record.length;
      const offset = this.#length;
      this.#length += record.length;
      return offset;
    }
    this.flush();
    const offset = this.#length;
    try {
      let written = 0;
      while (written < record.length) {
        written += writeSync(this.#fd, record, written, record.length - written, offset + written);
      }
      if (this.#syncEveryWrite) fdatasyncSync(this.#fd);
    } catch (error) {
      // Take back a partial write, so the next record does not follow garbage.
      try {
        ftruncateSync(this.#fd, offset);
      } catch {
        // The torn bytes are then at the tail, where opening drops them.
      }
      throw ioError('cannot append to the index log', error);
    }
    this.#length = offset + record.length;
    return offset;
  }

  readInto(offset: number, target: Uint8Array): number {
    this.#checkUsable();
    const want = Math.max(0, Math.min(target.length, this.#length - offset));
    // Bytes past what is on the file are still in the buffer.
    const onFile = this.#length - this.#buffered;
    if (offset + want > onFile && this.#buffer !== null) {
      const fromFile = Math.max(0, onFile - offset);
      const got = fromFile > 0 ? this.readInto(offset, target.subarray(0, fromFile)) : 0;
      if (got < fromFile) return got;
      const start = offset + fromFile - onFile;
      target.set(this.#buffer.subarray(start, start + want - fromFile), fromFile);
      return want;
    }
    let got = 0;
    try {
      while (got < want) {
        const n = readSync(this.#fd, target, got, want - got, offset + got);
        if (n === 0) break;
        got += n;
      }
    } catch (error) {
      throw ioError('cannot read the index log', error);
    }
    return got;
  }

  /**
   * Cuts the log at `length` (dropping a torn tail) and flushes. Read-only:
   * the file is left as it is and only the bytes past `length` are ignored.
   */
  truncate(length: number): void {
    if (this.#readOnly) {
      this.#length = Math.min(this.#length, length);
      return;
    }
    this.flush();
    try {
      ftruncateSync(this.#fd, length);
      fdatasyncSync(this.#fd);
    } catch (error) {
      throw ioError('cannot truncate the index log', error);
    }
    this.#length = length;
  }

  /** Whether the bytes [from, end of log) are all zero (space a file system allocated but a crash never filled). */
  isZeroFrom(from: number): boolean {
    const chunk = new Uint8Array(65536);
    for (let at = from; at < this.#length; at += chunk.length) {
      const got = this.readInto(at, chunk);
      for (let i = 0; i < got; i++) if (chunk[i] !== 0) return false;
    }
    return true;
  }

  setSyncEveryWrite(on: boolean): void {
    this.#syncEveryWrite = on;
  }

  /** Turns bufferWrites on or off (off writes what the buffer holds first). */
  setBufferWrites(on: boolean): void {
    if (on && this.#buffer === null && !this.#readOnly) this.#buffer = new Uint8Array(WRITE_BUFFER_BYTES);
    if (!on && this.#buffer !== null) {
      this.flush();
      this.#buffer = null;
    }
  }

  /** Writes the buffered records to the file (not flushed to the disk: see sync()). */
  flush(): void {
    this.#checkUsable();
    if (this.#buffer === null || this.#buffered === 0) return;
    const start = this.#length - this.#buffered;
    try {
      let written = 0;
      while (written < this.#buffered) {
        written += writeSync(this.#fd, this.#buffer, written, this.#buffered - written, start + written);
      }
    } catch (error) {
      try {
        ftruncateSync(this.#fd, start);
      } catch {
        // The torn bytes are then at the tail, where opening drops them.
      }
      // The table points at records the file does not have: nothing more may be answered.
      this.#failure = ioError('cannot write the buffered records to the index log (reopen it: the records before them are kept)', error);
      throw this.#failure;
    }
    this.#buffered = 0;
  }

  #checkUsable(): void {
    if (this.#failure !== null) throw this.#failure;
  }

  sync(): void {
    if (this.#readOnly) return;
    this.flush();
    try {
      fdatasyncSync(this.#fd);
    } catch (error) {
      throw ioError('cannot flush the index log', error);
    }
  }

  /** Writes what the buffer holds, then closes the file (closed even when that write fails, which is then thrown). */
  close(): void {
    if (this.#fd < 0) return;
    try {
      if (this.#failure === null) this.flush();
    } finally {
      closeSync(this.#fd);
      this.#fd = -1;
    }
  }
}

/** Whether `head` (shorter than a header) is the start of a header of a version this build writes or reads. */
function isHeaderPrefix(head: Uint8Array): boolean {
  // Version 3's last 4 bytes are a random id: any bytes there.
  return ([1, 2, 3] as const).some((version) => {
    const header = fileHeader(version);
    return head.every((byte, i) => (version === 3 && i >= 12) || byte === header[i]);
  });
}

/** The version in a whole file header; CORRUPT or UNSUPPORTED_VERSION for one this build does not read. */
function readVersion(path: string, head: Uint8Array): LogVersion {
  if (!LOG_MAGIC.every((byte, i) => head[i] === byte)) {
    throw new FilterError('CORRUPT', `${path} is not a cuckoo-bloom-wasm index log (its first bytes are not "CBWILOG1")`);
  }
  const view = new DataView(head.buffer, head.byteOffset, head.length);
  const version = view.getUint32(8, true);
  const reserved = view.getUint32(12, true);
  // Bytes 12-15: 0 in versions 1 and 2, the log id in version 3 (never 0).
  if (version === 0 || (version <= 2 && reserved !== 0) || (version === 3 && reserved === 0)) {
    throw new FilterError('CORRUPT', `${path}: the index log's header is damaged (version ${version}, bytes 12-15 ${reserved})`);
  }
  if (version !== 1 && version !== 2 && version !== 3) {
    throw new FilterError(
      'UNSUPPORTED_VERSION',
      `${path} is an index log of version ${version}; this build reads versions 1, 2 and 3`,
    );
  }
  return version;
}

/** What a file that is not a regular file is, for messages. */
function fileKind(stats: Stats): string {
  if (stats.isDirectory()) return 'a directory';
  if (stats.isFIFO()) return 'a FIFO';
  if (stats.isCharacterDevice()) return 'a character device';
  if (stats.isBlockDevice()) return 'a block device';
  return stats.isSocket() ? 'a socket' : 'not a regular file';
}
