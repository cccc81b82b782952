import { closeSync, existsSync, fsyncSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
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

/** The file's bytes, or undefined when it is absent or unreadable (a cache that is not there). */
export function readFileIfPresent(path: string): Uint8Array | undefined {
  if (!existsSync(path)) return undefined;
  try {
    return readFileSync(path);
  } catch {
    return undefined;
  }
}
