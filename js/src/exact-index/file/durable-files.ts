import { closeSync, constants, fstatSync, fsyncSync, openSync, readSync, renameSync, rmSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';

/** A rename is durable once the directory entry is flushed too (POSIX; a no-op where not allowed). */
export function syncDirectory(path: string): void {
  let fd = -1;
  try {
    fd = openSync(dirname(path), 'r');
    fsyncSync(fd);
  } catch {
    // Some platforms cannot open a directory; the rename itself is still atomic.
  } finally {
    if (fd >= 0) closeSync(fd);
  }
}

/**
 * Writes a file whole or not at all: the parts `fill` hands to `write` go to
 * `path.tmp`, which is flushed and renamed over `path` (a crash leaves the old
 * file or the new one, never a mix). Throws what the file system threw; the
 * temporary file is removed then.
 */
export function writeFileAtomically(path: string, fill: (write: (bytes: Uint8Array) => void) => void): void {
  const temporary = `${path}.tmp`;
  let fd = -1;
  try {
    fd = openSync(temporary, 'w');
    let position = 0;
    fill((bytes) => {
      for (let done = 0; done < bytes.length; ) {
        const n = writeSync(fd, bytes, done, bytes.length - done, position);
        done += n;
        position += n;
      }
    });
    fsyncSync(fd);
    closeSync(fd);
    fd = -1;
    renameSync(temporary, path);
    syncDirectory(path);
  } catch (error) {
    if (fd >= 0) closeSync(fd);
    rmSync(temporary, { force: true });
    throw error;
  }
}

/** The first bytes of a blob in the package's byte format (https://github.com/cuckoo-bloom-wasm/cuckoo-bloom-wasm/blob/main/docs/FORMAT.md): magic "CBWF", then the header. */
const BLOB_HEADER_BYTES = 64;
const BLOB_MAGIC = [0x43, 0x42, 0x57, 0x46];

/**
 * A snapshot file's bytes (a blob in the package's byte format), or
 * undefined when it is absent, unreadable, or cannot be one: then the log is
 * replayed, as for any bad snapshot (it is a cache). Checked before anything
 * is read beyond its 64-byte header, since a snapshot is read on every open,
 * read-only ones included, and whatever sits at `<log>.snapshot` must not
 * hang or exhaust an opener: a FIFO would block a plain open until a writer
 * came (the open is non-blocking, and only a regular file is read), and
 * /dev/zero or a huge sparse file would be read whole into memory (the file
 * must be exactly as long as its header declares: 64 + P + L bytes).
 */
export function readSnapshotFile(path: string): Uint8Array | undefined {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch {
    return undefined;
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile() || stats.size < BLOB_HEADER_BYTES) return undefined;
    const header = new Uint8Array(BLOB_HEADER_BYTES);
    if (readSync(fd, header, 0, BLOB_HEADER_BYTES, 0) !== BLOB_HEADER_BYTES) return undefined;
    if (!BLOB_MAGIC.every((byte, i) => header[i] === byte)) return undefined;
    const view = new DataView(header.buffer);
    const declared = BLOB_HEADER_BYTES + view.getUint32(12, true) + Number(view.getBigUint64(48, true));
    // Node reads at most 2 GiB into one buffer; no table this index can load is that large.
    if (declared !== stats.size || declared > MAX_SNAPSHOT_BYTES) return undefined;
    const bytes = new Uint8Array(declared);
    for (let at = 0; at < declared; ) {
      const got = readSync(fd, bytes, at, declared - at, at);
      if (got <= 0) return undefined; // cut short meanwhile
      at += got;
    }
    return bytes;
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/** Just under 2 GiB: the most Node reads into one buffer. */
const MAX_SNAPSHOT_BYTES = 2 ** 31 - 1;
