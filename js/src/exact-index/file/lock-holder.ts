/**
 * The record in a writer lock file (`<log>.lock`): who holds the log, and
 * what an opener needs to judge whether that holder is gone. JSON, one line.
 * Only this file knows its fields; writer-lock.ts decides with them.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync, readlinkSync } from 'node:fs';
import { hostname } from 'node:os';
import { threadId } from 'node:worker_threads';

export interface Holder {
  pid: number;
  host: string;
  /** The holder process's start time (Linux: /proc/<pid>/stat field 22, clock ticks since boot), or null where unknown. */
  processStart: string | null;
  /** ISO time the lock was taken. */
  since: string;
  /** The holder's worker thread (worker_threads.threadId; 0: the main thread). Null in locks written before it was recorded. */
  thread: number | null;
  /** The holder's kernel, this boot (Linux: /proc/sys/kernel/random/boot_id), or null where unknown: namespace ids repeat across machines. */
  boot: string | null;
  /** The holder's network namespace (Linux: the link /proc/self/ns/net, e.g. "net:[4026531840]"), or null where unknown. */
  netns: string | null;
  /** The holder's pid namespace (/proc/self/ns/pid), or null where unknown: its pid means nothing in another one. */
  pidns: string | null;
  /** Whether the holder also holds the lock's socket (lock-socket.ts) in its network namespace. */
  socket: boolean;
  /** Random: no two locks have the same bytes, so a takeover names the one lock it replaces (lock-takeover.ts). */
  nonce: string;
}

function bootId(): string | null {
  try {
    return readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim() || null;
  } catch {
    return null;
  }
}

function namespaceOf(kind: 'net' | 'pid'): string | null {
  try {
    return readlinkSync(`/proc/self/ns/${kind}`);
  } catch {
    return null;
  }
}

/** The start time of process `pid` (Linux), or null where it cannot be read. */
export function processStartOf(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces) are split on spaces; starttime is field 22.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields[19] ?? null;
  } catch {
    return null;
  }
}

/** This thread's record, as it would hold a lock now. */
export function currentHolder(socket: boolean): Holder {
  return {
    pid: process.pid,
    host: hostname(),
    processStart: processStartOf(process.pid),
    since: new Date().toISOString(),
    thread: threadId,
    boot: bootId(),
    netns: namespaceOf('net'),
    pidns: namespaceOf('pid'),
    socket,
    nonce: randomBytes(12).toString('hex'),
  };
}

export function holderText(holder: Holder): string {
  return `${JSON.stringify(holder)}\n`;
}

/** The record in `text`, or null when it is not a lock this library writes (older versions' records, without the later fields, parse). */
export function parseHolder(text: string): Holder | null {
  let parsed: Partial<Holder>;
  try {
    parsed = JSON.parse(text) as Partial<Holder>;
  } catch {
    return null;
  }
  if (typeof parsed !== 'object' || parsed === null) return null;
  if (typeof parsed.pid !== 'number' || typeof parsed.host !== 'string' || typeof parsed.since !== 'string') return null;
  const stringOrNull = (value: unknown): string | null => (typeof value === 'string' ? value : null);
  return {
    pid: parsed.pid,
    host: parsed.host,
    since: parsed.since,
    processStart: stringOrNull(parsed.processStart),
    thread: typeof parsed.thread === 'number' ? parsed.thread : null,
    boot: stringOrNull(parsed.boot),
    netns: stringOrNull(parsed.netns),
    pidns: stringOrNull(parsed.pidns),
    socket: parsed.socket === true,
    nonce: stringOrNull(parsed.nonce) ?? '',
  };
}

/** The file at `path` and its record; null when there is no such file. */
export function readHolderFile(path: string): { text: string; holder: Holder | null } | null {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  return { text, holder: parseHolder(text) };
}

/** Whether `holder` ran on this machine's running kernel: the same boot id where both are known, else the same host name. */
export function sameKernel(holder: Holder, me: Holder): boolean {
  return holder.boot !== null && me.boot !== null ? holder.boot === me.boot : holder.host === me.host;
}

/** Whether `holder` took the lock's socket in the network namespace `me` is in (so a free socket there means it is gone). */
export function heldOurSocket(holder: Holder, me: Holder): boolean {
  return holder.socket && sameKernel(holder, me) && holder.netns !== null && holder.netns === me.netns;
}

/** Whether `holder`'s pid can be checked here: this kernel, and the same pid namespace where both are known. */
export function pidCheckable(holder: Holder, me: Holder): boolean {
  return sameKernel(holder, me) && (holder.pidns === null || me.pidns === null || holder.pidns === me.pidns);
}

/** How LOCKED messages name a holder: `process <pid> on <host>, since <ISO time>`, and its worker thread if not the main one. */
export function describeHolder(holder: Holder): string {
  const thread = holder.thread !== null && holder.thread !== 0 ? ` (worker thread ${holder.thread})` : '';
  return `process ${holder.pid} on ${holder.host}, since ${holder.since}${thread}`;
}

/**
 * Whether `holder`'s process is running (on this host, in this pid
 * namespace): the same pid, and the same start time when both are known (a
 * reused pid is another process). A zombie (killed, not yet reaped by its
 * parent) still counts as running: its pid and start time are still there.
 */
export function processIsAlive(holder: Holder): boolean {
  try {
    process.kill(holder.pid, 0);
  } catch (error) {
    // EPERM: the process exists but belongs to another user.
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const start = processStartOf(holder.pid);
  return holder.processStart === null || start === null || start === holder.processStart;
}
