/**
 * One writer per index log: `<log>.lock` holds the writer's pid, host,
 * process start time and when it took the lock. It is written whole to a
 * file of the writer's own and then linked to `<log>.lock` (link, like
 * O_EXCL, fails when the name exists), so a lock file is never seen
 * half-written, even after a crash while taking it.
 *
 * The rules (docs/INDEX.md, "One writer"):
 * - A writing open takes the lock; close() releases it; compaction keeps it
 *   (the lock is beside the log, which compaction renames over).
 * - A second writing open of the same log, from this process (a registry of
 *   the logs this process holds, keyed by the log's real path) or another,
 *   is `LOCKED`, naming the holder. Read-only opens take no lock.
 * - A holder on this host whose process is gone (the pid is not alive, or
 *   is alive but started at another time: a reused pid) left a stale lock:
 *   the next writing open takes it over at once, without waiting. The
 *   takeover moves the stale file aside by rename and checks that what it
 *   moved is the stale lock it read; two openers racing for one stale lock
 *   cannot both win (only one links the new lock in place).
 * - The limit: liveness is checked with process.kill(pid, 0) on this host. A
 *   lock held from another host (a log on a network file system) is never
 *   taken over; remove it by hand once that writer is known to be gone. On
 *   file systems where link is not atomic (old NFS) the lock is advisory.
 */
import { closeSync, linkSync, openSync, readFileSync, realpathSync, renameSync, rmSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { FilterError } from '../index.js';

interface Holder {
  pid: number;
  host: string;
  /** The holder process's start time (Linux: /proc/<pid>/stat field 22, clock ticks since boot), or null where unknown. */
  processStart: string | null;
  /** ISO time the lock was taken. */
  since: string;
}

/** Logs this process holds, by lock path: a second open in this process is refused without touching the file. */
const REGISTRY_KEY = Symbol.for('cuckoo-bloom-wasm/index-file/held-locks');
type Registry = Map<string, Holder>;
const held: Registry = ((globalThis as Record<symbol, unknown>)[REGISTRY_KEY] as Registry | undefined) ??
  ((globalThis as Record<symbol, unknown>)[REGISTRY_KEY] = new Map<string, Holder>()) as Registry;

let exitHookInstalled = false;

/** The start time of process `pid` (Linux), or null where it cannot be read. */
function processStartOf(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces) are split on spaces; starttime is field 22.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields[19] ?? null;
  } catch {
    return null;
  }
}

/** Whether `holder` (on this host) is a live process: the same pid, and the same start time when both are known. */
function isAlive(holder: Holder): boolean {
  try {
    process.kill(holder.pid, 0);
  } catch (error) {
    // EPERM: the process exists but belongs to another user.
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const start = processStartOf(holder.pid);
  return holder.processStart === null || start === null || start === holder.processStart;
}

/** The lock file of the log at `path`: beside the log's real path (a symlink and its target share one lock). */
function lockPathOf(path: string): string {
  let real: string;
  try {
    real = realpathSync(path);
  } catch {
    const absolute = resolve(path);
    let directory = dirname(absolute);
    try {
      directory = realpathSync(directory);
    } catch {
      // A missing directory: opening the log reports it.
    }
    real = join(directory, basename(absolute));
  }
  return `${real}.lock`;
}

function describe(holder: Holder): string {
  return `process ${holder.pid} on ${holder.host}, since ${holder.since}`;
}

function readHolder(lockPath: string): { text: string; holder: Holder | null } | null {
  let text: string;
  try {
    text = readFileSync(lockPath, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  try {
    const parsed = JSON.parse(text) as Partial<Holder>;
    if (typeof parsed.pid === 'number' && typeof parsed.host === 'string' && typeof parsed.since === 'string') {
      return { text, holder: { pid: parsed.pid, host: parsed.host, since: parsed.since, processStart: parsed.processStart ?? null } };
    }
  } catch {
    // Below: unreadable.
  }
  return { text, holder: null };
}

/** A writer's hold on a log; release() (idempotent) removes the lock file. */
export class WriterLock {
  #released = false;

  private constructor(
    readonly lockPath: string,
    private readonly text: string,
  ) {}

  /**
   * Takes the lock of the log at `logPath`.
   * @throws FilterError `LOCKED` (held by a live writer, or by one on another host, named), `UNAVAILABLE` (I/O).
   */
  static acquire(logPath: string): WriterLock {
    const lockPath = lockPathOf(logPath);
    const mine = held.get(lockPath);
    if (mine !== undefined) {
      throw new FilterError('LOCKED', `${logPath} is already open for writing in this process (${describe(mine)}); close it first, or open with readOnly: true`);
    }
    const me: Holder = {
      pid: process.pid,
      host: hostname(),
      processStart: processStartOf(process.pid),
      since: new Date().toISOString(),
    };
    const text = `${JSON.stringify(me)}\n`;
    for (let attempt = 0; attempt < 8; attempt++) {
      if (tryCreate(lockPath, text, logPath)) {
        held.set(lockPath, me);
        installExitHook();
        return new WriterLock(lockPath, text);
      }
      const found = readHolder(lockPath);
      if (found === null) continue; // released meanwhile: try again
      const { holder } = found;
      if (holder === null) {
        throw new FilterError(
          'LOCKED',
          `${logPath} is locked by ${lockPath}, which is not a lock this library writes; remove it by hand if no writer has the log open`,
        );
      }
      if (holder.host !== me.host) {
        throw new FilterError(
          'LOCKED',
          `${logPath} is open for writing by ${describe(holder)} (another host: its liveness cannot be checked here; ` +
            `remove ${lockPath} by hand once that writer is gone)`,
        );
      }
      if (holder.pid === process.pid || isAlive(holder)) {
        throw new FilterError(
          'LOCKED',
          `${logPath} is open for writing by ${describe(holder)}; one writer per log (open with readOnly: true to read beside it)`,
        );
      }
      takeOverStale(lockPath, found.text);
    }
    throw new FilterError('LOCKED', `${logPath}: could not take ${lockPath} (other processes kept taking it)`);
  }

  /** Removes the lock file (only when it is still this writer's). Idempotent. */
  release(): void {
    if (this.#released) return;
    this.#released = true;
    held.delete(this.lockPath);
    try {
      if (readFileSync(this.lockPath, 'utf8') === this.text) rmSync(this.lockPath, { force: true });
    } catch {
      // Already gone.
    }
  }
}

/**
 * Creates the lock file holding `text`, whole: written to a file of this
 * writer's own, then linked to `lockPath` (atomic; fails when it exists).
 * False when the lock exists.
 */
function tryCreate(lockPath: string, text: string, logPath: string): boolean {
  const own = `${lockPath}.${process.pid}.${Math.random().toString(36).slice(2)}`;
  try {
    const fd = openSync(own, 'wx');
    try {
      writeSync(fd, text);
    } finally {
      closeSync(fd);
    }
    linkSync(own, lockPath);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw new FilterError('UNAVAILABLE', `cannot take the writer's lock of ${logPath} (${lockPath}): ${String(error)}`, { cause: error });
  } finally {
    rmSync(own, { force: true });
  }
}

/**
 * Moves a dead holder's lock (whose bytes were `staleText`) out of the way.
 * The rename is atomic; if what it moved is not the stale lock (another
 * opener took over and made its own meanwhile), that lock is linked back
 * (link fails rather than replace a newer one) and the caller tries again.
 */
function takeOverStale(lockPath: string, staleText: string): void {
  const aside = `${lockPath}.stale-${process.pid}-${Date.now()}`;
  try {
    renameSync(lockPath, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return; // someone else moved it
    throw new FilterError('UNAVAILABLE', `cannot take over the stale lock ${lockPath}: ${String(error)}`, { cause: error });
  }
  let moved = '';
  try {
    moved = readFileSync(aside, 'utf8');
  } catch {
    // Unreadable: treated as not the stale one.
  }
  if (moved !== staleText) {
    try {
      linkSync(aside, lockPath);
    } catch {
      // A newer lock is in place already: the live holder's file is the one there.
    }
  }
  rmSync(aside, { force: true });
}

/** On exit, a process removes the locks it still holds (a close() that never came); a crash leaves them to be taken over. */
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const [lockPath, holder] of held) {
      try {
        const found = readHolder(lockPath);
        if (found?.holder?.pid === holder.pid && found.holder.since === holder.since) rmSync(lockPath, { force: true });
      } catch {
        // Best effort: a leftover lock of a dead pid is taken over by the next open.
      }
    }
    held.clear();
  });
}
