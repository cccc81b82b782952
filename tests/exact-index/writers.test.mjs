// One writer per log: a second writing open, from this process or another, is
// LOCKED and names the holder; readers beside a writer keep working; a
// SIGKILLed writer's lock is taken over by the next open at once; close()
// releases the lock and compaction keeps it.
import { spawn } from 'node:child_process';
import { existsSync, linkSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { fileURLToPath } from 'node:url';
import { FilterError } from '../../dist/index.import.cjs';
import { FileCuckooIndex } from '../../dist/index-file.mjs';
import { codeOf, logDirectory } from './lib/log-files.mjs';

const freshPath = logDirectory('cbw-index-writers-');
const holderScript = fileURLToPath(new URL('./lib/holder.mjs', import.meta.url));
const children = new Set();
afterEach(() => {
  for (const child of children) child.kill('SIGKILL');
  children.clear();
});

function lockedError(run) {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(FilterError);
    return error;
  }
  throw new Error('expected LOCKED, but it opened');
}

/** Starts a child writer on `path`; resolves with { child, pid } once it holds the log (bounded: 20 s). */
function startHolder(path) {
  const child = spawn(process.execPath, [holderScript, path], { stdio: ['pipe', 'pipe', 'inherit'] });
  children.add(child);
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`the child writer did not start: ${output}`)), 20000);
    child.stdout.on('data', (chunk) => {
      output += chunk;
      const ready = /^ready (\d+)$/m.exec(output);
      if (ready) {
        clearTimeout(timer);
        resolve({ child, pid: Number(ready[1]) });
      } else if (/^failed/m.test(output)) {
        clearTimeout(timer);
        reject(new Error(output));
      }
    });
  });
}

function exited(child) {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve(child.signalCode ?? child.exitCode);
    else child.on('exit', (code, signal) => resolve(signal ?? code));
  });
}

test('a second writer in this process is LOCKED, naming the holder; readers work beside it; close releases', () => {
  const path = freshPath();
  const first = FileCuckooIndex.open(path);
  first.set('a1', 'from the first writer');
  const error = lockedError(() => FileCuckooIndex.open(path));
  expect(error.code).toBe('LOCKED');
  expect(error.message).toContain(`process ${process.pid} on ${hostname()}, since `);
  // Through a symlink it is the same log, and the same lock.
  const link = `${path}.link`;
  symlinkSync(path, link);
  expect(codeOf(() => FileCuckooIndex.open(link))).toBe('LOCKED');
  // The first writer's record is still there (the second open wrote nothing).
  expect(first.getString('a1')).toBe('from the first writer');
  const reader = FileCuckooIndex.open(path, { readOnly: true });
  expect(reader.getString('a1')).toBe('from the first writer');
  first.set('a2');
  expect(first.has('a2')).toBe(true);
  reader.close();
  // Compaction keeps the lock.
  first.compact();
  expect(codeOf(() => FileCuckooIndex.open(path))).toBe('LOCKED');
  expect(existsSync(`${path}.lock`)).toBe(true);
  first.close();
  expect(existsSync(`${path}.lock`)).toBe(false);
  const second = FileCuckooIndex.open(path);
  expect(second.getString('a1')).toBe('from the first writer');
  expect(second.has('a2')).toBe(true);
  second.close();
});

// A hard link is the same file under a name with its own lock: two writers
// through two links both appended, losing acknowledged writes.
test('a log with a second hard link is refused for writing (INVALID_ARGUMENT), by either name, in this process or another; read-only works', async () => {
  const path = freshPath();
  const first = FileCuckooIndex.open(path);
  first.set('seed');
  const other = `${path}.other-name`;
  linkSync(path, other);
  const refused = lockedError(() => FileCuckooIndex.open(other));
  expect(refused.code).toBe('INVALID_ARGUMENT');
  expect(refused.message).toMatch(/has 2 hard links: .*opened for writing only with one link/);
  await expect(startHolder(other)).rejects.toThrow(/INVALID_ARGUMENT|hard links/);
  first.set('after');
  first.close();
  expect(codeOf(() => FileCuckooIndex.open(path))).toBe('INVALID_ARGUMENT');
  expect(existsSync(`${other}.lock`)).toBe(false);
  const reader = FileCuckooIndex.open(other, { readOnly: true });
  expect([reader.has('seed'), reader.has('after')]).toEqual([true, true]);
  reader.close();
  rmSync(other);
  const again = FileCuckooIndex.open(path);
  expect(again.has('after')).toBe(true);
  again.close();
});

test('a writer in another process: LOCKED naming its pid; readers work; after SIGKILL the next open takes the lock at once', async () => {
  const path = freshPath();
  const { child, pid } = await startHolder(path);
  const lock = JSON.parse(readFileSync(`${path}.lock`, 'utf8'));
  expect(lock).toEqual(expect.objectContaining({ pid, host: hostname() }));
  const error = lockedError(() => FileCuckooIndex.open(path));
  expect(error.code).toBe('LOCKED');
  expect(error.message).toContain(`process ${pid} on ${hostname()}, since ${lock.since}`);
  const reader = FileCuckooIndex.open(path, { readOnly: true });
  expect(reader.getString('held-by-child')).toBe('yes');
  reader.close();
  child.kill('SIGKILL');
  expect(await exited(child)).toBe('SIGKILL');
  // The dead writer's lock file is still there: the next open takes it over, without waiting.
  expect(existsSync(`${path}.lock`)).toBe(true);
  const started = Date.now();
  const next = FileCuckooIndex.open(path);
  expect(Date.now() - started).toBeLessThan(1000);
  expect(next.getString('held-by-child')).toBe('yes');
  expect(JSON.parse(readFileSync(`${path}.lock`, 'utf8')).pid).toBe(process.pid);
  // And now the child is the one refused.
  await expect(startHolder(path)).rejects.toThrow(/failed LOCKED: .*process \d+ on /);
  next.close();
});

test('a child writer that closes releases the lock', async () => {
  const path = freshPath();
  const { child } = await startHolder(path);
  expect(codeOf(() => FileCuckooIndex.open(path))).toBe('LOCKED');
  child.stdin.end();
  expect(await exited(child)).toBe(0);
  expect(existsSync(`${path}.lock`)).toBe(false);
  FileCuckooIndex.open(path).close();
});

test('a lock from another host is never taken over; one from a dead pid on this host is', () => {
  const path = freshPath();
  FileCuckooIndex.open(path).close();
  const since = '2020-01-01T00:00:00.000Z';
  writeFileSync(`${path}.lock`, JSON.stringify({ pid: 1, host: 'some-other-host', processStart: null, since }));
  const error = lockedError(() => FileCuckooIndex.open(path));
  expect(error.message).toContain(`process 1 on some-other-host, since ${since}`);
  expect(error.message).toContain('another host');
  // A pid that is not running here (pid_max is at most 2^22 on Linux).
  writeFileSync(`${path}.lock`, JSON.stringify({ pid: 2 ** 22 + 7, host: hostname(), processStart: null, since }));
  const index = FileCuckooIndex.open(path);
  index.close();
  expect(existsSync(`${path}.lock`)).toBe(false);
});

test('open before init() throws NOT_INITIALIZED and creates no file (a fresh process)', async () => {
  const path = freshPath();
  const script = `
    const { FileCuckooIndex } = await import(${JSON.stringify(new URL('../../dist/index-file.mjs', import.meta.url).href)});
    try { FileCuckooIndex.open(${JSON.stringify(path)}); console.log('opened'); }
    catch (error) { console.log(error.code); }
  `;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  children.add(child);
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  expect(await exited(child)).toBe(0);
  expect(output.trim()).toBe('NOT_INITIALIZED');
  expect(existsSync(path)).toBe(false);
  expect(existsSync(`${path}.lock`)).toBe(false);
});

test.each([
  ['a free log', false],
  ['a stale lock (dead pid)', true],
])('six processes racing to open %s for writing: exactly one wins, the others are LOCKED', async (_label, stale) => {
  const path = freshPath();
  FileCuckooIndex.open(path).close();
  if (stale) {
    writeFileSync(`${path}.lock`, JSON.stringify({ pid: 2 ** 22 + 11, host: hostname(), processStart: null, since: new Date().toISOString() }));
  }
  const results = await Promise.allSettled(Array.from({ length: 6 }, () => startHolder(path)));
  const winners = results.filter((result) => result.status === 'fulfilled');
  const losers = results.filter((result) => result.status === 'rejected');
  expect(winners).toHaveLength(1);
  for (const loser of losers) expect(loser.reason.message).toMatch(/^failed LOCKED: /);
  const lock = JSON.parse(readFileSync(`${path}.lock`, 'utf8'));
  expect(lock.pid).toBe(winners[0].value.pid);
}, 60000);
