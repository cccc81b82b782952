/**
 * One writer per index log (https://github.com/cuckoo-bloom-wasm/cuckoo-bloom-wasm/blob/main/docs/EXACT-INDEX.md, "One writer per log").
 *
 * Two parts, each with one job:
 * - The lock's socket (lock-socket.ts, Linux): an abstract Unix socket name
 *   per log, bound by the writer. The kernel lets one socket per network
 *   namespace bind it and frees it when the holder closes it or dies
 *   (SIGKILL included) or its worker thread is terminated. Whoever binds it
 *   knows that no writer in this namespace holds the log, and that a lock
 *   file left by a holder in this namespace (same boot id and network
 *   namespace) that also held the socket is stale, whatever its pid. A bound socket is the answer to "is it held?" — nothing to race.
 * - The lock file `<log>.lock` (lock-holder.ts: the record; lock-takeover.ts:
 *   creating and replacing it, one winner each): who holds the log, for the
 *   LOCKED message and for openers the socket cannot speak for (another
 *   network namespace, hosts without abstract sockets). Without the socket,
 *   a holder is judged by its pid as before (on this kernel and pid
 *   namespace: running, with the same start time, or gone).
 *
 * The rules:
 * - A writing open takes the lock; close() releases it (file first, then
 *   the socket); compaction keeps it (both are beside the log, which
 *   compaction renames over). Read-only opens take no lock.
 * - A second writing open of the same log, from this thread (a registry),
 *   another thread or another process, is `LOCKED`, naming the holder.
 * - A dead holder's lock (SIGKILL, a terminated worker thread, power loss)
 *   is taken over by the next writing open at once, by exactly one opener.
 * - Never taken over: a lock from another host, or from another pid
 *   namespace that the socket cannot speak for (liveness cannot be checked
 *   there: remove it by hand once that writer is gone); without the socket,
 *   a lock of another thread of this process, even a terminated one (its
 *   pid is alive).
 */
import { readFileSync, realpathSync, rmSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { FilterError } from '../../index.js';
import {
  currentHolder,
  describeHolder,
  heldOurSocket,
  type Holder,
  holderText,
  parseHolder,
  pidCheckable,
  processIsAlive,
  readHolderFile,
  sameKernel,
} from './lock-holder.js';
import { type LockSocket, takeLockSocket } from './lock-socket.js';
import { createLockFile, removeDeadOpenersFiles, removeLeftoverClaims, takeOverLockFile } from './lock-takeover.js';

/** Logs this thread holds, by lock path: a second open here is refused without touching the file. */
const REGISTRY_KEY = Symbol.for('cuckoo-bloom-wasm/index-file/held-locks');
type Registry = Map<string, { holder: Holder; text: string }>;
const held: Registry = ((globalThis as Record<symbol, unknown>)[REGISTRY_KEY] as Registry | undefined) ??
  ((globalThis as Record<symbol, unknown>)[REGISTRY_KEY] = new Map()) as Registry;

let exitHookInstalled = false;

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

function locked(logPath: string, holder: Holder, why = 'one writer per log (open with readOnly: true to read beside it)'): FilterError {
  return new FilterError('LOCKED', `${logPath} is open for writing by ${describeHolder(holder)}; ${why}`);
}

/** LOCKED when the socket is taken: a live writer in this network namespace holds the log (or is taking it); the file names it. */
function lockedBySocket(logPath: string, lockPath: string): FilterError {
  let found: ReturnType<typeof readHolderFile> = null;
  try {
    found = readHolderFile(lockPath);
  } catch {
    // Unreadable: named generically below.
  }
  const holder = found?.holder ?? null;
  if (holder !== null) {
    const me = currentHolder(true);
    // The file still names a holder that is gone: the socket's holder is replacing it right now.
    if (pidCheckable(holder, me) && holder.pid !== process.pid && !processIsAlive(holder)) {
      return new FilterError(
        'LOCKED',
        `${logPath} is being taken over by another writer on this host (the lock of ${describeHolder(holder)}, which is gone); one writer per log`,
      );
    }
    return locked(logPath, holder);
  }
  return new FilterError(
    'LOCKED',
    `${logPath} is open for writing by another writer on this host (it is taking the lock now: ${lockPath}); one writer per log`,
  );
}

/**
 * Returns when `holder`'s lock is stale (its writer is gone); throws LOCKED
 * when it is held, or when that cannot be known here.
 */
function judge(holder: Holder | null, me: Holder, socketHeld: boolean, logPath: string, lockPath: string): void {
  if (holder === null) {
    throw new FilterError(
      'LOCKED',
      `${logPath} is locked by ${lockPath}, which is not a lock this library writes; remove it by hand if no writer has the log open`,
    );
  }
  // We hold the socket: a holder that held it in this namespace has closed it, so it is gone (a live one removes its file first).
  if (socketHeld && heldOurSocket(holder, me)) return;
  if (!sameKernel(holder, me)) {
    throw locked(logPath, holder, `another host: its liveness cannot be checked here; remove ${lockPath} by hand once that writer is gone`);
  }
  if (!pidCheckable(holder, me)) {
    throw locked(logPath, holder, `another pid and network namespace (a container?): its liveness cannot be checked here; remove ${lockPath} by hand once that writer is gone`);
  }
  if (holder.pid === process.pid || processIsAlive(holder)) throw locked(logPath, holder);
}

/**
 * Whether the opener whose own record file (named after `pid`) holds
 * `record` is gone: its record parses and names that pid, its pid can be
 * checked here (this kernel and pid namespace), and no such process runs
 * (or another process has that pid now). Unknown is never gone.
 */
function openerIsGone(pid: number, record: string, me: Holder): boolean {
  const holder = parseHolder(record);
  return holder !== null && holder.pid === pid && pidCheckable(holder, me) && !processIsAlive(holder);
}

/** Creates or takes over the lock file for `me`; returns its bytes. */
function acquireFile(logPath: string, lockPath: string, me: Holder, socketHeld: boolean): string {
  const text = holderText(me);
  for (let attempt = 0; attempt < 8; attempt++) {
    if (createLockFile(lockPath, text)) {
      removeDeadOpenersFiles(lockPath, (pid, record) => openerIsGone(pid, record, me));
      return text;
    }
    const found = readHolderFile(lockPath);
    if (found === null) continue; // released meanwhile: try again
    judge(found.holder, me, socketHeld, logPath, lockPath);
    let result = takeOverLockFile(lockPath, found.text, text);
    if (result.outcome === 'claimed') {
      if (result.claimText === null) continue; // the claim went meanwhile: judge again
      const claimer = parseHolder(result.claimText);
      // A claim made by a socket holder of this namespace, while we hold the socket: its maker is gone (died mid-takeover).
      if (socketHeld && claimer !== null && heldOurSocket(claimer, me)) {
        result = takeOverLockFile(lockPath, found.text, text, result.claimText);
      }
    }
    if (result.outcome === 'taken') {
      removeLeftoverClaims(lockPath);
      removeDeadOpenersFiles(lockPath, (pid, record) => openerIsGone(pid, record, me));
      return text;
    }
    if (result.outcome === 'claimed') {
      const claimer = result.claimText === null ? null : parseHolder(result.claimText);
      if (result.claimText === null) continue;
      throw new FilterError(
        'LOCKED',
        `${logPath}: its writer ${found.holder === null ? '' : `(${describeHolder(found.holder)}) `}is gone, and ` +
          `${claimer === null ? 'another opener' : describeHolder(claimer)} is taking the lock over; ` +
          `if that opener is gone too, remove ${result.claimPath} by hand`,
      );
    }
    // 'changed': another opener replaced it first; judge the new holder.
  }
  throw new FilterError('LOCKED', `${logPath}: could not take ${lockPath} (other writers kept taking it)`);
}

/** A writer's hold on a log; release() (idempotent) removes the lock file and frees the socket. */
export class WriterLock {
  #released = false;

  private constructor(
    readonly lockPath: string,
    private readonly text: string,
    private readonly socket: LockSocket | null,
  ) {}

  /**
   * Takes the lock of the log at `logPath`.
   * @throws FilterError `LOCKED` (held by a live writer, or one whose liveness cannot be checked here; named), `UNAVAILABLE` (I/O).
   */
  static acquire(logPath: string): WriterLock {
    const lockPath = lockPathOf(logPath);
    const mine = held.get(lockPath);
    if (mine !== undefined) {
      throw new FilterError(
        'LOCKED',
        `${logPath} is already open for writing in this process (${describeHolder(mine.holder)}); close it first, or open with readOnly: true`,
      );
    }
    const socket = takeLockSocket(lockPath);
    if (socket === 'taken') throw lockedBySocket(logPath, lockPath);
    try {
      const me = currentHolder(socket !== null);
      const text = acquireFile(logPath, lockPath, me, socket !== null);
      held.set(lockPath, { holder: me, text });
      installExitHook();
      return new WriterLock(lockPath, text, socket);
    } catch (error) {
      socket?.close();
      throw error;
    }
  }

  /** Removes the lock file (only when it is still this writer's), then frees the socket. Idempotent. */
  release(): void {
    if (this.#released) return;
    this.#released = true;
    held.delete(this.lockPath);
    try {
      if (readFileSync(this.lockPath, 'utf8') === this.text) rmSync(this.lockPath, { force: true });
    } catch {
      // Already gone.
    } finally {
      // After the file: an opener that binds the socket then finds no file of ours (or, if we died before, a stale one).
      this.socket?.close();
    }
  }
}

/** On exit, a process removes the lock files it still holds (a close() that never came); a crash leaves them to be taken over. */
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const [lockPath, { text }] of held) {
      try {
        if (readFileSync(lockPath, 'utf8') === text) rmSync(lockPath, { force: true });
      } catch {
        // Best effort: a leftover lock of a dead holder is taken over by the next open.
      }
    }
    held.clear();
  });
}
