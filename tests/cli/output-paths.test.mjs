// build never writes over its own input: not through another spelling of
// the path, a symlink or a hard link, not when the input is a file the
// build only derives from its output (`<log>.snapshot` for --exact), and not
// when stdin is redirected from one of them. Each refusal is exit 2 with
// one clear line, before anything is written: the input's bytes are
// unchanged and no output or temporary file appears. Streaming inputs (a
// pipe, a FIFO) keep working.
import { spawn } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import { closeSync, createWriteStream, existsSync, linkSync, openSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI, expectOneLineError, runCliTimed, runOk, tempDir, tmpFilesIn } from './helpers.mjs';

const DEADLINE_MS = 30000;
const KEYS = 'apple\nbanana\ncherry\n';

let work;
const at = (name) => join(work.dir, name);

beforeEach(() => {
  work = tempDir('cbw-cli-outputs-');
  writeFileSync(at('list.txt'), KEYS);
});
afterEach(() => work.cleanup());

/**
 * Runs build `args` (stdin from the file `stdinFrom` when given), expects
 * the refusal `message`, and checks that `input` is byte for byte as before
 * and that the directory holds exactly the files it held before.
 */
async function expectRefused(args, message, { input, stdinFrom } = {}) {
  const before = readFileSync(at(input));
  const filesBefore = readdirSync(work.dir).sort();
  const fd = stdinFrom === undefined ? undefined : openSync(at(stdinFrom), 'r');
  try {
    const result = await runCliTimed(args, { cwd: work.dir, timeoutMs: DEADLINE_MS, ...(fd === undefined ? {} : { stdin: fd }) });
    expect(result.timedOut).toBe(false);
    expect(expectOneLineError(result)).toMatch(message);
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
  expect(readFileSync(at(input)).equals(before)).toBe(true);
  expect(readdirSync(work.dir).sort()).toEqual(filesBefore);
}

/** `build --exact` of list.txt into `list`: list and list.snapshot exist afterwards. */
async function buildExactList() {
  await runOk(['build', '--exact', '--input', 'list.txt', '--output', 'list', '--quiet'], { cwd: work.dir });
  expect(existsSync(at('list.snapshot'))).toBe(true);
}

describe('build --exact', () => {
  test('--input <log>.snapshot --output <log>: the snapshot it would write over is refused', async () => {
    await buildExactList();
    await expectRefused(['build', '--exact', '--force', '--input', 'list.snapshot', '--output', 'list'], /the input would be lost: --input list\.snapshot is list\.snapshot, the log's snapshot \(its table\), which building --output list replaces/, {
      input: 'list.snapshot',
    });
  });

  test('an input hard-linked or symlinked to <output>.snapshot is refused', async () => {
    await buildExactList();
    linkSync(at('list.snapshot'), at('hard-link'));
    symlinkSync('list.snapshot', at('sym-link'));
    for (const input of ['hard-link', 'sym-link', './list.snapshot', at('list.snapshot')]) {
      await expectRefused(['build', '--exact', '--force', '--input', input, '--output', 'list'], /the log's snapshot/, {
        input: 'list.snapshot',
      });
    }
  });

  test('--input - with stdin redirected from <output>.snapshot is refused', async () => {
    await buildExactList();
    await expectRefused(['build', '--exact', '--force', '--input', '-', '--output', 'list'], /the input would be lost: stdin is read from list\.snapshot, the log's snapshot/, {
      input: 'list.snapshot',
      stdinFrom: 'list.snapshot',
    });
  });

  test('--input <log> --output <log> and stdin redirected from the output are refused', async () => {
    await buildExactList();
    await expectRefused(['build', '--exact', '--force', '--input', 'list', '--output', 'list'], /--output list is the input file/, { input: 'list' });
    await expectRefused(['build', '--exact', '--force', '--input', '-', '--output', 'list'], /--output list is the file stdin is read from/, {
      input: 'list',
      stdinFrom: 'list',
    });
  });
});

describe('build (a filter)', () => {
  test('--input - --output f < f is refused and f is untouched', async () => {
    await expectRefused(['build', '--input', '-', '--output', 'list.txt'], /--output list\.txt is the file stdin is read from \(--input - < list\.txt\)/, {
      input: 'list.txt',
      stdinFrom: 'list.txt',
    });
  });

  test('stdin redirected from a hard link or a symlink to the output is refused', async () => {
    linkSync(at('list.txt'), at('hard.txt'));
    symlinkSync('list.txt', at('sym.txt'));
    for (const stdinFrom of ['hard.txt', 'sym.txt']) {
      await expectRefused(['build', '--input', '-', '--output', 'list.txt'], /is the file stdin is read from/, { input: 'list.txt', stdinFrom });
    }
  });

  test('an input that is the output by a hard link or a symlink is refused', async () => {
    linkSync(at('list.txt'), at('hard.txt'));
    symlinkSync('list.txt', at('sym.txt'));
    await expectRefused(['build', '--input', 'hard.txt', '--output', 'list.txt'], /--output list\.txt is the input file/, { input: 'list.txt' });
    await expectRefused(['build', '--input', 'list.txt', '--output', 'sym.txt'], /--output sym\.txt is the input file/, { input: 'list.txt' });
  });
});

describe('what must keep working', () => {
  test('stdin redirected from an unrelated file, with --exact and without', async () => {
    for (const args of [['--output', 'from-stdin.filter'], ['--exact', '--output', 'from-stdin.log']]) {
      // A descriptor of its own for each: a shared one would be at the end of the file.
      const fd = openSync(at('list.txt'), 'r');
      try {
        const result = await runCliTimed(['build', '--input', '-', '--quiet', ...args], { cwd: work.dir, stdin: fd, timeoutMs: DEADLINE_MS });
        expect(result.stderr).toBe('');
        expect(result.code).toBe(0);
      } finally {
        closeSync(fd);
      }
    }
    const query = await runCliTimed(['query', 'from-stdin.log', 'banana', 'grape'], { cwd: work.dir, timeoutMs: DEADLINE_MS });
    expect(query.stdout).toBe('present\tbanana\nabsent\tgrape\n');
  });

  test('--exact --output list over an existing list and list.snapshot, from another input, replaces both', async () => {
    await buildExactList();
    writeFileSync(at('other.txt'), 'grape\n');
    await runOk(['build', '--exact', '--input', 'other.txt', '--output', 'list', '--quiet'], { cwd: work.dir });
    const query = await runCliTimed(['query', 'list', 'grape', 'apple'], { cwd: work.dir, timeoutMs: DEADLINE_MS });
    expect(query.stdout).toBe('present\tgrape\nabsent\tapple\n');
    expect(tmpFilesIn(work.dir)).toEqual([]);
  });

  test.each([
    ['a filter', []],
    ['an index log', ['--exact']],
  ])('build --input <FIFO> streams %s from a writer (one pass: a second open would wait for ever)', async (_name, extra) => {
    execFileSync('mkfifo', [at('keys.fifo')]);
    const child = spawn(process.execPath, [CLI, 'build', '--input', 'keys.fifo', '--output', 'fifo.out', '--quiet', ...extra], {
      cwd: work.dir,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), DEADLINE_MS);
    try {
      const writer = createWriteStream(at('keys.fifo'));
      writer.end(KEYS);
      const code = await new Promise((resolve) => child.on('close', resolve));
      expect(stderr).toBe('');
      expect(code).toBe(0);
    } finally {
      clearTimeout(timer);
      child.kill('SIGKILL');
    }
    const query = await runCliTimed(['query', 'fifo.out', 'cherry'], { cwd: work.dir, timeoutMs: DEADLINE_MS });
    expect(query.stdout).toBe('present\tcherry\n');
  });
});
