// A write that fails for lack of space loses nothing acknowledged and leaves a
// log that opens. Honest space: a 256 KiB tmpfs mounted for the test (as
// root); where mounting is not allowed, the writer runs under a file-size
// limit (ulimit -f, SIGXFSZ ignored), so its write fails with EFBIG instead
// of ENOSPC — the same partial-write path in the store.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { init } from '../../dist/index.import.cjs';
import { FileCuckooIndex } from '../../dist/index-file.mjs';

const child = fileURLToPath(new URL('./lib/fill-until-full.mjs', import.meta.url));
let directory;
let mount = null;
beforeAll(async () => {
  await init();
  directory = mkdtempSync(join(tmpdir(), 'cbw-index-nospace-'));
  const point = join(directory, 'tmpfs');
  mkdirSync(point);
  // CBW_TEST_NO_TMPFS=1 runs the fallback even where mounting works.
  const mounted =
    process.env.CBW_TEST_NO_TMPFS === '1'
      ? { status: 1 }
      : spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=256k', 'tmpfs', point], { stdio: 'ignore', timeout: 10000 });
  if (mounted.status === 0) mount = point;
  else console.warn('out-of-space test: cannot mount a tmpfs here; using a file-size limit (EFBIG) instead');
});
afterAll(() => {
  if (mount !== null) spawnSync('umount', [mount], { stdio: 'ignore', timeout: 10000 });
  rmSync(directory, { recursive: true, force: true });
});

/** Runs the child writer on `path` until it stops (bounded: 60 s); returns its stdout. */
function runWriter(path, mode) {
  const command =
    mount !== null
      ? spawn(process.execPath, [child, path, mode], { stdio: ['ignore', 'pipe', 'inherit'] })
      : spawn('bash', ['-c', 'trap "" XFSZ; ulimit -f 192; exec "$0" "$@"', process.execPath, child, path, mode], {
          stdio: ['ignore', 'pipe', 'inherit'],
        });
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => {
      command.kill('SIGKILL');
      reject(new Error(`the writer did not stop: ${output.slice(-500)}`));
    }, 60000);
    command.stdout.on('data', (chunk) => (output += chunk));
    command.on('close', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve(output);
      else reject(new Error(`the writer exited with ${code}: ${output.slice(-500)}`));
    });
  });
}

describe.each(['unbuffered', 'buffered'])('out of space (%s writes)', (mode) => {
  test('every acknowledged record is kept and the log opens', async () => {
    const place = mount ?? directory;
    const path = join(place, `${mode}.log`);
    // In the tmpfs, a filler leaves the log room for a few hundred records; removed afterwards to reopen for writing.
    const filler = join(place, 'filler');
    if (mount !== null) writeFileSync(filler, Buffer.alloc(64 * 1024));
    const output = await runWriter(path, mode);
    const failure = /^failed (\S+) (.*)$/m.exec(output);
    expect(failure).not.toBeNull();
    expect(failure[1]).toBe('UNAVAILABLE');
    expect(failure[2]).toMatch(mount !== null ? /ENOSPC|no space/i : /EFBIG|too large/i);
    const acknowledged = [...output.matchAll(mode === 'buffered' ? /^synced (\d+)$/gm : /^set (\d+)$/gm)].map((m) => Number(m[1]));
    const last = acknowledged.length === 0 ? -1 : acknowledged[acknowledged.length - 1];
    expect(last).toBeGreaterThan(50);
    if (mode === 'unbuffered') expect(output).toMatch(/^still-has true$/m);
    rmSync(filler, { force: true });
    // The log opens, read-only and for writing, with every acknowledged record.
    for (const options of [{ readOnly: true }, { snapshotOnClose: false }]) {
      const index = FileCuckooIndex.open(path, options);
      try {
        for (let i = 0; i <= last; i++) expect(index.has(`key-${i}`)).toBe(true);
        // Unbuffered: the failed set took back its partial write, nothing is past the last acknowledged record.
        if (mode === 'unbuffered') {
          expect(index.openReport.droppedTailBytes).toBe(0);
          expect(index.size).toBe(last + 1);
        } else {
          expect(index.size).toBeGreaterThanOrEqual(last + 1);
        }
        if (options.readOnly !== true) {
          index.set('after-space-was-freed', 'x');
          expect(index.getString('after-space-was-freed')).toBe('x');
        }
      } finally {
        index.close();
      }
    }
    expect(statSync(path).size).toBeGreaterThan(0);
    // The next case gets the whole tmpfs.
    rmSync(path, { force: true });
  }, 90000);
});
