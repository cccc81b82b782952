// Shared by the CLI suites: run dist/cli.js as a child process (what
// `npx cuckoo-bloom-wasm` runs), in a private temporary directory.
import { spawn } from 'node:child_process';
import { expect } from '@jest/globals';
import { closeSync, ftruncateSync, mkdtempSync, openSync, readdirSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const CLI = join(ROOT, 'dist', 'cli.js');
export const FIXTURES = join(ROOT, 'tests', 'cli', 'fixtures');
export const URLHAUS = join(ROOT, 'web-demo', 'data', 'urlhaus-filter-online.txt');

/** A fresh directory under the system temp dir; `cleanup()` removes it. */
export function tempDir(prefix = 'cbw-cli-test-') {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * Runs the CLI. `input` (string or Buffer) is written to its stdin, which is
 * then closed; without it stdin is closed at once. Resolves with
 * { code, signal, stdout, stderr } (stdout/stderr as strings).
 */
/**
 * Writes `head` at the start of a new file at `path` and extends it to `size` bytes with a
 * hole: a sparse file that costs no disk and no time, yet reads as `size` bytes.
 */
export function writeSparse(path, head, size) {
  const fd = openSync(path, 'w');
  try {
    if (head.length > 0) writeSync(fd, head);
    ftruncateSync(fd, size);
  } finally {
    closeSync(fd);
  }
}

export function runCli(args, { cwd, input, env, nodeArgs = [] } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...nodeArgs, CLI, ...args], {
      cwd,
      env: { ...process.env, ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const out = [];
    const err = [];
    child.stdout.on('data', (chunk) => out.push(chunk));
    child.stderr.on('data', (chunk) => err.push(chunk));
    child.on('error', reject);
    child.on('close', (code, signal) =>
      resolve({ code, signal, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') }),
    );
    child.stdin.on('error', () => {}); // the CLI may exit before reading all of it
    if (input !== undefined) child.stdin.end(input);
    else child.stdin.end();
  });
}

/** `runCli` that fails the test unless the exit status is `expected`. */
export async function runOk(args, options = {}, expected = 0) {
  const result = await runCli(args, options);
  if (result.code !== expected) {
    throw new Error(
      `cuckoo-bloom-wasm ${args.join(' ')} exited ${result.code} (expected ${expected})\nstdout: ${result.stdout}\nstderr: ${result.stderr}`,
    );
  }
  return result;
}

/** Files in `dir` whose names contain ".tmp-" (what an unfinished build leaves). */
export function tmpFilesIn(dir) {
  return readdirSync(dir).filter((name) => name.includes('.tmp-'));
}

/** Verdict lines of `query` split into fields. */
export function verdicts(stdout) {
  return stdout
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => line.split('\t'));
}

/** Asserts the one-line error contract: exit 2, exactly one stderr line with the prefix, and returns it. */
export function expectOneLineError(result) {
  if (result.code !== 2) throw new Error(`expected exit 2, got ${result.code}: ${result.stderr}`);
  const lines = result.stderr.split('\n').filter((line) => line !== '');
  if (lines.length !== 1 || !lines[0].startsWith('cuckoo-bloom-wasm: ')) {
    throw new Error(`expected one "cuckoo-bloom-wasm: ..." line on stderr, got:\n${result.stderr}`);
  }
  if (/\n\s+at /.test(result.stderr)) throw new Error(`stack trace on stderr:\n${result.stderr}`);
  return lines[0];
}

/**
 * `runCli` with a deadline, for commands that used to hang (reading
 * /dev/zero, a FIFO): the child is killed with SIGKILL after `timeoutMs`, so
 * a regression fails the test instead of hanging it. `stdin` is what the
 * child's stdin is: 'pipe' (closed at once, or fed `input`), or a file
 * descriptor to hand over (a file or device opened by the test). Resolves
 * with runCli's fields plus `elapsedMs` and `timedOut`.
 */
export function runCliTimed(args, { cwd, input, stdin = 'pipe', timeoutMs = 5000 } = {}) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, [CLI, ...args], { cwd, stdio: [stdin, 'pipe', 'pipe'] });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeoutMs);
    const out = [];
    const err = [];
    child.stdout.on('data', (chunk) => out.push(chunk));
    child.stderr.on('data', (chunk) => err.push(chunk));
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({
        code,
        signal,
        timedOut,
        elapsedMs: Number(process.hrtime.bigint() - started) / 1e6,
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
      });
    });
    if (child.stdin !== null) {
      child.stdin.on('error', () => {});
      if (input !== undefined) child.stdin.end(input);
      else child.stdin.end();
    }
  });
}

/**
 * How long the CLI takes to start and exit doing nothing (`--version`): the
 * start-up that any command's time is measured on top of. On a shared,
 * loaded machine it varies from run to run, so measure it beside the
 * command it is compared with.
 */
export async function cliStartupMs(cwd) {
  const result = await runCliTimed(['--version'], { cwd, timeoutMs: 30000 });
  if (result.code !== 0) throw new Error(`--version exited ${result.code}: ${result.stderr}`);
  return result.elapsedMs;
}

/** How much longer than the CLI's start-up a refusal may take, and when a run is killed as hung. */
export const REFUSAL_BOUND_MS = 1000;
export const REFUSAL_DEADLINE_MS = 8000;

/**
 * Runs `args` in `cwd`; asserts it was not killed as hung, exit 2 with one clear line
 * matching `message`, and that it took less than REFUSAL_BOUND_MS more than the CLI's
 * start-up (the slower of two measures: the machine is shared). Returns the error line.
 */
export async function expectFastRefusal(cwd, args, message, options = {}) {
  const result = await runCliTimed(args, { cwd, timeoutMs: REFUSAL_DEADLINE_MS, ...options });
  expect(result.timedOut).toBe(false);
  const line = expectOneLineError(result);
  expect(line).toMatch(message);
  // A run shorter than the bound is within it of any start-up: start-up is measured
  // (twice, after the run: the slower counts) only when the run took longer, which
  // saves two processes per refusal on a machine that is not loaded.
  if (result.elapsedMs >= REFUSAL_BOUND_MS) {
    let elapsedMs = result.elapsedMs;
    let startup = Math.max(await cliStartupMs(cwd), await cliStartupMs(cwd));
    if (elapsedMs >= startup + REFUSAL_BOUND_MS) {
      // A suspicious time is measured again (a loaded machine stalled one run by
      // 0.2-0.7 s past the bound in full-suite runs); the faster run counts. A
      // refusal that really reads its input, or waits, is slow both times.
      const again = await runCliTimed(args, { cwd, timeoutMs: REFUSAL_DEADLINE_MS, ...options });
      expect(again.timedOut).toBe(false);
      expect(expectOneLineError(again)).toBe(line);
      elapsedMs = Math.min(elapsedMs, again.elapsedMs);
      startup = Math.max(startup, await cliStartupMs(cwd));
    }
    expect(elapsedMs).toBeLessThan(startup + REFUSAL_BOUND_MS);
  }
  return line;
}
