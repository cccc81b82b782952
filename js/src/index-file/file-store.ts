import { closeSync, fdatasyncSync, ftruncateSync, fstatSync, openSync, readSync, writeSync } from 'node:fs';
import { FilterError } from '../index.js';
import type { IndexRecordStore } from '../index-store/record-store.js';

/**
 * The file's first 16 bytes: magic "CBWILOG1", u32 format version 1, u32
 * reserved 0 (little-endian). Records follow, back to back (record_store.h).
 */
export const FILE_HEADER = new Uint8Array([0x43, 0x42, 0x57, 0x49, 0x4c, 0x4f, 0x47, 0x31, 1, 0, 0, 0, 0, 0, 0, 0]);

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
   * it). A torn last record is left in the file and only ignored. Writes
   * (set, delete, compact, saveSnapshot) throw `UNSUPPORTED`. Default false.
   */
  readOnly?: boolean | undefined;
}

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
  #syncEveryWrite: boolean;
  readonly #readOnly: boolean;

  private constructor(fd: number, length: number, syncEveryWrite: boolean, readOnly: boolean) {
    this.#fd = fd;
    this.#length = length;
    this.#syncEveryWrite = syncEveryWrite;
    this.#readOnly = readOnly;
  }

  /** Opened with `readOnly`: nothing is ever written to the file. */
  get readOnly(): boolean {
    return this.#readOnly;
  }

  /**
   * Opens (creating when absent) the log at `path`. A file shorter than the
   * header that is a prefix of it (a crash while creating) is started afresh.
   * @throws FilterError `CORRUPT` for a file that is not an index log, `UNAVAILABLE` for I/O errors.
   */
  static open(path: string, options: FileStoreOptions = {}): FileRecordStore {
    const readOnly = options.readOnly === true;
    let fd: number;
    try {
      if (readOnly) {
        fd = openSync(path, 'r');
      } else {
        fd = openSync(path, 'a+');
        closeSync(fd);
        fd = openSync(path, 'r+');
      }
    } catch (error) {
      throw ioError(`cannot open the index log ${path}`, error);
    }
    try {
      const length = fstatSync(fd).size;
      const head = new Uint8Array(Math.min(length, FILE_HEADER.length));
      if (head.length > 0) readSync(fd, head, 0, head.length, 0);
      const isHeaderPrefix = head.every((byte, i) => byte === FILE_HEADER[i]);
      if (!isHeaderPrefix) {
        throw new FilterError('CORRUPT', `${path} is not a cuckoo-bloom-wasm index log (its first bytes are not "CBWILOG1", version 1)`);
      }
      const store = new FileRecordStore(fd, length, options.syncEveryWrite === true, readOnly);
      if (length < FILE_HEADER.length && readOnly) {
        // A log whose creation never finished holds no record: read it as empty.
        store.#length = FILE_HEADER.length;
      } else if (length < FILE_HEADER.length) {
        ftruncateSync(fd, 0);
        writeSync(fd, FILE_HEADER, 0, FILE_HEADER.length, 0);
        fdatasyncSync(fd);
        store.#length = FILE_HEADER.length;
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

  append(record: Uint8Array): number {
    if (this.#readOnly) throw readOnlyError('append to');
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
    const want = Math.max(0, Math.min(target.length, this.#length - offset));
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

  sync(): void {
    if (this.#readOnly) return;
    try {
      fdatasyncSync(this.#fd);
    } catch (error) {
      throw ioError('cannot flush the index log', error);
    }
  }

  close(): void {
    if (this.#fd < 0) return;
    closeSync(this.#fd);
    this.#fd = -1;
  }
}
