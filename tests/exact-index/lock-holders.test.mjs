// The writer lock's holders beyond one thread per process: a worker thread
// holding a log is named and never taken over while it runs; terminated, its
// lock goes to the next opener at once; racing openers (threads and
// processes) take over each killed holder's lock, exactly one at a time; an
// opener killed in the middle of a takeover leaves nothing that blocks the
// next one where the lock's socket can tell it is gone.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { basename, dirname } from 'node:path';
import { FileCuckooIndex } from '../../dist/index-file.mjs';
import { ask, startAgent } from './lib/lock-agents.mjs';
import { codeOf, logDirectory } from './lib/log-files.mjs';

const freshPath = logDirectory('cbw-lock-holders-');
const started = new Set();
async function agent(kind, env) {
  const started_ = await startAgent(kind, env);
  started.add(started_);
  return started_;
}
afterEach(async () => {
  for (const each of started) await each.kill();
  started.clear();
});

test('a worker thread holding a log: LOCKED naming its thread, for threads and processes; terminated, the next open takes the lock at once', async () => {
  const path = freshPath();
  const holder = await agent('thread');
  expect((await ask(holder, { op: 'open', path })).result).toBe('won');
  const lock = JSON.parse(readFileSync(`${path}.lock`, 'utf8'));
  let message = '';
  try {
    FileCuckooIndex.open(path);
  } catch (error) {
    expect(error.code).toBe('LOCKED');
    message = error.message;
  }
  expect(message).toContain(`process ${process.pid} on ${hostname()}, since ${lock.since} (worker thread ${holder.thread})`);
  const other = await agent('process');
  const refused = await ask(other, { op: 'open', path });
  expect(refused.result).toBe('LOCKED');
  expect(refused.message).toContain(`(worker thread ${holder.thread})`);
  // Terminated while holding (no close()): its lock file stays, its socket is closed with the thread.
  await holder.kill();
  expect(existsSync(`${path}.lock`)).toBe(true);
  const before = Date.now();
  const next = FileCuckooIndex.open(path);
  expect(Date.now() - before).toBeLessThan(1000);
  expect(JSON.parse(readFileSync(`${path}.lock`, 'utf8'))).toEqual(expect.objectContaining({ pid: process.pid, thread: 0 }));
  expect((await ask(other, { op: 'open', path })).result).toBe('LOCKED');
  next.close();
  expect(existsSync(`${path}.lock`)).toBe(false);
}, 60000);

test('racing openers, threads and processes: each killed holder (SIGKILL, or a terminated thread) is replaced by exactly one of them, at once', async () => {
  const path = freshPath();
  FileCuckooIndex.open(path).close();
  const kinds = ['thread', 'thread', 'process', 'process'];
  const racers = await Promise.all(kinds.map((kind) => agent(kind)));
  const rounds = [];
  for (let round = 0; round < 8; round++) {
    // The holder this round: a thread on even rounds, a process on odd ones; it takes the log, then is killed while holding.
    const holderKind = round % 2 === 0 ? 'thread' : 'process';
    const holder = await agent(holderKind);
    expect((await ask(holder, { op: 'open', path })).result).toBe('won');
    await holder.kill();
    started.delete(holder);
    for (const racer of racers) racer.send({ op: 'open', path });
    const results = await Promise.all(racers.map((racer) => racer.next()));
    const winners = racers.filter((_racer, i) => results[i].result === 'won');
    rounds.push({ holderKind, winners: winners.length, others: results.filter((r) => r.result !== 'won').map((r) => r.result) });
    for (const winner of winners) await ask(winner, { op: 'close' });
  }
  expect(rounds).toEqual(rounds.map(({ holderKind }) => ({ holderKind, winners: 1, others: ['LOCKED', 'LOCKED', 'LOCKED'] })));
}, 120000);

test.each([
  ['the socket', 'taken over', {}],
  ['the lock file alone', 'LOCKED', { CUCKOO_BLOOM_WASM_LOCK_SOCKET: 'off' }],
])('an opener killed mid-takeover (its claim made, the lock not yet replaced), with %s: the next open gets %s', async (_mode, expected, env) => {
  const path = freshPath();
  const dead = await agent('process', env);
  expect((await ask(dead, { op: 'open', path })).result).toBe('won');
  await dead.kill();
  started.delete(dead);
  const taker = await agent('process', env);
  // Stopped just before it renames its record over the lock: its claim beside the lock is made.
  const paused = await ask(taker, { op: 'open', path, pauseOn: `^renameSync \\S+ ${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\.lock$` });
  expect(paused.paused).toEqual(expect.any(Number));
  const claims = () => readdirSync(dirname(path)).filter((name) => name.startsWith(`${basename(path)}.lock.takeover-`));
  expect(claims()).toHaveLength(1);
  await taker.kill();
  started.delete(taker);
  // This process opens next, in the same mode.
  const saved = process.env.CUCKOO_BLOOM_WASM_LOCK_SOCKET;
  Object.assign(process.env, env);
  try {
    nextOpen(path, expected, claims);
  } finally {
    if (saved === undefined) delete process.env.CUCKOO_BLOOM_WASM_LOCK_SOCKET;
    else process.env.CUCKOO_BLOOM_WASM_LOCK_SOCKET = saved;
  }
}, 60000);

function nextOpen(path, expected, claims) {
  if (expected === 'taken over') {
    const next = FileCuckooIndex.open(path);
    expect(JSON.parse(readFileSync(`${path}.lock`, 'utf8')).pid).toBe(process.pid);
    // Its claim is gone with the takeover.
    expect(claims()).toEqual([]);
    next.close();
  } else {
    // Without the socket nothing can tell whether the claim's maker is still at work: named for removal by hand.
    let message = '';
    expect(codeOf(() => {
      try {
        FileCuckooIndex.open(path);
      } catch (error) {
        message = error.message;
        throw error;
      }
    })).toBe('LOCKED');
    expect(message).toContain(`remove ${dirname(path)}/${claims()[0]} by hand`);
  }
}

test("a writing open removes the record files of openers killed mid-open whose pid is dead, never a live opener's", async () => {
  const { spawn, spawnSync } = await import('node:child_process');
  const { writeFileSync } = await import('node:fs');
  const path = freshPath('leftover-openers.log');
  const lockPath = `${path}.lock`;
  // A genuine record of this library, to write others' from.
  const first = FileCuckooIndex.open(path);
  const record = JSON.parse(readFileSync(lockPath, 'utf8'));
  first.close();
  const recordOf = (pid) => `${JSON.stringify({ ...record, pid, processStart: null })}\n`;
  const dead = spawnSync(process.execPath, ['-e', '']).pid; // exited and reaped: no such process
  const live = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
  try {
    const files = {
      dead: [`${lockPath}.${dead}.0123456789abcdef`, recordOf(dead)],
      deadClaim: [`${lockPath}.${dead}.0123456789abcdee.claim`, recordOf(dead)],
      live: [`${lockPath}.${live.pid}.fedcba9876543210`, recordOf(live.pid)],
      beingWritten: [`${lockPath}.${dead}.aaaaaaaaaaaaaaaa`, ''],
      otherPidInside: [`${lockPath}.${dead}.bbbbbbbbbbbbbbbb`, recordOf(live.pid)],
      otherHost: [`${lockPath}.${dead}.cccccccccccccccc`, `${JSON.stringify({ ...record, pid: dead, host: 'elsewhere', boot: 'another-boot' })}\n`],
    };
    for (const [file, text] of Object.values(files)) writeFileSync(file, text);
    const index = FileCuckooIndex.open(path);
    index.close();
    const left = (name) => existsSync(files[name][0]);
    expect(left('dead')).toBe(false);
    expect(left('deadClaim')).toBe(false);
    expect(left('live')).toBe(true);
    expect(left('beingWritten')).toBe(true);
    expect(left('otherPidInside')).toBe(true);
    expect(left('otherHost')).toBe(true);
  } finally {
    live.kill('SIGKILL');
  }
});
