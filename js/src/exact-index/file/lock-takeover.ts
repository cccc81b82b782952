/**
 * The lock file's two writes: creating it where there is none, and
 * replacing one whose holder is gone (a takeover) — each with exactly one
 * winner among any number of racing openers, threads or processes.
 *
 * Creating: the record is written whole to a file of the opener's own and
 * hard-linked to `<log>.lock`; link fails when the name exists (as O_EXCL
 * does), so one opener wins and no lock is ever seen half-written.
 *
 * Replacing a stale lock S (the protocol that replaces the old one, which
 * moved S aside by rename and linked it back when it had moved a newer lock:
 * while that lock was aside, a third opener could create its own, and two
 * writers had the log):
 * 1. Claim S: hard-link this opener's record to `<log>.lock.takeover-<h>`,
 *    where h is a hash of S's bytes (every lock's bytes differ: a random
 *    nonce). Link is exclusive, so at most one opener holds the claim on S.
 * 2. Re-read `<log>.lock`. If it is still S, rename this opener's record
 *    over it (atomic) and remove the claim: this opener holds the lock. If
 *    not, S was already replaced: drop the claim, try again from the start.
 * Why one winner: the lock file changes only by creation (only when there is
 * none), removal by its own holder, or replacement by the holder of the
 * claim on what is there. S's holder is gone, so while the lock is S only the
 * one claim holder can change it, and once it is replaced it is never S again
 * (nonce). A late opener that claims S afterwards sees another lock at step 2.
 * A claim left by an opener that died between 1 and 2 would block takeovers
 * of S; it is replaced only where the lock's socket proves its owner gone
 * (writer-lock.ts), and otherwise named in the LOCKED message, for removal by
 * hand.
 */
import { createHash, randomBytes } from 'node:crypto';
import { closeSync, linkSync, openSync, readdirSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { FilterError } from '../../index.js';

/** Writes `text` to a new file of this opener's own beside `lockPath`; returns its path. */
function writeOwn(lockPath: string, text: string): string {
  const own = `${lockPath}.${process.pid}.${randomBytes(8).toString('hex')}`;
  const fd = openSync(own, 'wx');
  try {
    writeSync(fd, text);
  } finally {
    closeSync(fd);
  }
  return own;
}

function unavailable(what: string, lockPath: string, error: unknown): FilterError {
  return new FilterError('UNAVAILABLE', `cannot ${what} the writer's lock ${lockPath}: ${String(error)}`, { cause: error });
}

function readOrNull(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

/** Creates the lock file holding `text`, whole. False when a lock file exists. */
export function createLockFile(lockPath: string, text: string): boolean {
  let own: string | null = null;
  try {
    own = writeOwn(lockPath, text);
    linkSync(own, lockPath);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw unavailable('take', lockPath, error);
  } finally {
    if (own !== null) rmSync(own, { force: true });
  }
}

/** The claim on the lock whose bytes are `staleText`. */
export function claimPathOf(lockPath: string, staleText: string): string {
  return `${lockPath}.takeover-${createHash('sha256').update(staleText).digest('hex').slice(0, 32)}`;
}

/** What a takeover attempt came to. */
export type TakeoverResult =
  | { outcome: 'taken' }
  /** The stale lock was replaced by another opener meanwhile: judge what is there now. */
  | { outcome: 'changed' }
  /** Another opener holds the claim on this stale lock; its record is `claimText` (null: gone meanwhile). */
  | { outcome: 'claimed'; claimPath: string; claimText: string | null };

/**
 * Replaces the stale lock whose bytes were `staleText` with `text`. With
 * `replaceClaim` (given only when the caller knows the claim's owner is
 * gone, and no other opener can know it at the same time), an existing claim
 * with the bytes `replaceClaim` is replaced by this opener's.
 */
export function takeOverLockFile(lockPath: string, staleText: string, text: string, replaceClaim?: string): TakeoverResult {
  const claimPath = claimPathOf(lockPath, staleText);
  let own: string | null = null;
  try {
    own = writeOwn(lockPath, text);
    try {
      linkSync(own, claimPath);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const claimText = readOrNull(claimPath);
      if (replaceClaim === undefined || claimText !== replaceClaim) return { outcome: 'claimed', claimPath, claimText };
      // The dead owner's claim: replaced atomically (a second link of ours, renamed over it), never absent meanwhile.
      const second = `${own}.claim`;
      linkSync(own, second);
      renameSync(second, claimPath);
    }
    // This opener holds the claim on the stale lock.
    if (readOrNull(lockPath) !== staleText) {
      rmSync(claimPath, { force: true });
      return { outcome: 'changed' };
    }
    renameSync(own, lockPath);
    own = null;
    rmSync(claimPath, { force: true });
    return { outcome: 'taken' };
  } catch (error) {
    throw unavailable('take over', lockPath, error);
  } finally {
    if (own !== null) rmSync(own, { force: true });
  }
}

/**
 * Removes claims left beside `lockPath` (by openers that died mid-takeover,
 * after their rename). Called by a new holder: every claim there is on a
 * lock that is no longer in place, so any opener holding one will see a
 * changed lock and give up.
 */
export function removeLeftoverClaims(lockPath: string): void {
  const prefix = `${basename(lockPath)}.takeover-`;
  try {
    for (const name of readdirSync(dirname(lockPath))) {
      if (name.startsWith(prefix)) rmSync(join(dirname(lockPath), name), { force: true });
    }
  } catch {
    // Best effort: a leftover claim only blocks a takeover of a lock that is gone.
  }
}

/**
 * Removes the files of this opener's kind (`<log>.lock.<pid>.<16 hex>`, and
 * a claim's second link `<that>.claim`) left by openers killed between
 * writing their record and removing it (a link or takeover in progress),
 * which nothing else removes. Only a file whose record parses, names the pid
 * in its name, and whose writer `isGone` judges dead (checkable here and not
 * running) is removed: a live opener's file, one being written (not yet
 * parseable), or one from another host or namespace is left alone.
 */
export function removeDeadOpenersFiles(lockPath: string, isGone: (pid: number, text: string) => boolean): void {
  const prefix = `${basename(lockPath)}.`;
  const own = /^(\d+)\.[0-9a-f]{16}(\.claim)?$/;
  try {
    for (const entry of readdirSync(dirname(lockPath))) {
      const match = entry.startsWith(prefix) ? own.exec(entry.slice(prefix.length)) : null;
      if (match === null) continue;
      const pid = Number(match[1]);
      if (pid === process.pid) continue;
      const path = join(dirname(lockPath), entry);
      const text = readOrNull(path);
      if (text !== null && isGone(pid, text)) rmSync(path, { force: true });
    }
  } catch {
    // Best effort: such a file blocks nothing, it only clutters the directory.
  }
}
