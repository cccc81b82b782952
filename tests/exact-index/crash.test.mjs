// Crashes lose nothing committed: a log cut at every byte of its last record,
// a garbled or zero-filled tail, and a writer killed with SIGKILL mid-writes.
// A damaged record with records after it is CORRUPT, never silently dropped.
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FilterError, init } from '../../dist/index.import.cjs';
import { FileCuckooIndex } from '../../dist/index-file.mjs';
import { thrown } from '../helpers/keys.mjs';

let directory;
beforeAll(async () => {
  await init();
  directory = mkdtempSync(join(tmpdir(), 'cbw-index-crash-'));
});
afterAll(() => rmSync(directory, { recursive: true, force: true }));

/** A log of 40 keys (with and without values, some updated, one deleted); returns its path. */
function writeBaseLog(name) {
  const path = join(directory, name);
  const index = FileCuckooIndex.open(path);
  for (let i = 0; i < 40; i++) index.set(`key-${i}`, i % 2 === 0 ? `value-${i}` : undefined);
  index.set('key-4', 'updated');
  index.delete('key-5');
  index.close();
  return path;
}

function expectBase(index) {
  for (let i = 0; i < 40; i++) {
    if (i === 5) expect(index.has('key-5')).toBe(false);
    else if (i === 4) expect(index.getString('key-4')).toBe('updated');
    else expect(index.getString(`key-${i}`)).toBe(i % 2 === 0 ? `value-${i}` : null);
  }
}

// The last record of each kind: a new key with a value, an update, a delete.
const LAST_WRITES = {
  'a new key': (index) => index.set('https://last.example/record', 'its value'),
  'an update': (index) => index.set('key-6', 'changed'),
  'a delete': (index) => index.delete('key-8'),
};

describe.each(Object.entries(LAST_WRITES))('a log cut inside its last record (%s)', (name, lastWrite) => {
  test('at every byte: every earlier record is kept, the torn one is gone, and writing resumes', () => {
    const base = writeBaseLog(`base-${name}.log`);
    const committedLength = statSync(base).size;
    const written = join(directory, `written-${name}.log`);
    copyFileSync(base, written);
    const index = FileCuckooIndex.open(written);
    lastWrite(index);
    // The file as a crash right after the write leaves it: no close marker, no
    // snapshot (either would say the last record was committed).
    const full = join(directory, `full-${name}.log`);
    copyFileSync(written, full);
    index.close();
    const fullLength = statSync(full).size;
    expect(fullLength).toBeGreaterThan(committedLength);
    const cut = join(directory, `cut-${name}.log`);
    for (let length = committedLength; length < fullLength; length++) {
      copyFileSync(full, cut);
      truncateSync(cut, length);
      // The crash image has no snapshot (the previous round's close saved one for its own log).
      rmSync(`${cut}.snapshot`, { force: true });
      const reopened = FileCuckooIndex.open(cut);
      try {
        expect(reopened.openReport.droppedTailBytes).toBe(length - committedLength);
        expect(statSync(cut).size).toBe(committedLength);
        expectBase(reopened);
        expect(reopened.has('https://last.example/record')).toBe(false);
        expect(reopened.size).toBe(39);
        // The log continues cleanly after the cut.
        reopened.set('after-the-cut', 'x');
      } finally {
        reopened.close();
      }
      const again = FileCuckooIndex.open(cut);
      expect(again.openReport.droppedTailBytes).toBe(0);
      expect(again.getString('after-the-cut')).toBe('x');
      expectBase(again);
      again.close();
    }
    // Uncut, the last write is there.
    const whole = FileCuckooIndex.open(full);
    expect(whole.openReport.droppedTailBytes).toBe(0);
    if (name === 'a new key') expect(whole.getString('https://last.example/record')).toBe('its value');
    if (name === 'an update') expect(whole.getString('key-6')).toBe('changed');
    if (name === 'a delete') expect(whole.has('key-8')).toBe(false);
    whole.close();
  });
});

describe('damaged logs', () => {
  test('a garbled last record is dropped after a crash; a garbled earlier one is CORRUPT and the file is left alone', () => {
    const path = writeBaseLog('garbled.log');
    const bytes = readFileSync(path);
    // The log as a crash before close leaves it: without the close marker (21
    // bytes), the snapshot mark after it (61) and the snapshot. Flip one byte
    // in the last record's key (the delete of key-5: 13 + 5 + 8 bytes): its
    // header is intact and it ends at the end of the file, so it is the
    // unfinished last write.
    const tail = Buffer.from(bytes.subarray(0, bytes.length - 21 - 61));
    tail[tail.length - 10] ^= 0x20;
    writeFileSync(path, tail);
    rmSync(`${path}.snapshot`);
    const index = FileCuckooIndex.open(path);
    expect(index.openReport.droppedTailBytes).toBe(26);
    expect(index.has('key-5')).toBe(true); // the delete was the torn record
    index.close();

    const middle = Buffer.from(bytes);
    middle[16 + 12] ^= 0x01; // inside the first record's header (its check)
    writeFileSync(path, middle);
    const error = thrown(() => FileCuckooIndex.open(path));
    expect(error).toBeInstanceOf(FilterError);
    expect(error.code).toBe('CORRUPT');
    expect(error.message).toMatch(/byte 16 is damaged \(its header fails its check\)/);
    expect(error.message).toMatch(/repair/);
    expect(readFileSync(path)).toEqual(middle);
  });

  test('a zero-filled tail (space allocated, never written) is dropped', () => {
    const path = writeBaseLog('zeros.log');
    const length = statSync(path).size;
    appendFileSync(path, Buffer.alloc(4096));
    const index = FileCuckooIndex.open(path);
    expect(index.openReport.droppedTailBytes).toBe(4096);
    expect(statSync(path).size).toBe(length);
    expectBase(index);
    index.close();
  });

  test('a file that is not an index log is CORRUPT; a torn header starts afresh', () => {
    const path = join(directory, 'not-a-log.txt');
    writeFileSync(path, 'hello, this is text\n');
    expect(() => FileCuckooIndex.open(path)).toThrow(expect.objectContaining({ code: 'CORRUPT' }));
    expect(readFileSync(path, 'utf8')).toBe('hello, this is text\n');
    writeFileSync(path, Buffer.from('CBWIL'));
    const index = FileCuckooIndex.open(path);
    expect(index.size).toBe(0);
    index.set('k');
    index.close();
    const reopened = FileCuckooIndex.open(path);
    expect(reopened.size).toBe(1);
    reopened.close();
  });
});

describe('kill -9 during writes', () => {
  test('every record the writer reported before SIGKILL is there after reopening', async () => {
    const path = join(directory, 'killed.log');
    const writer = fileURLToPath(new URL('./lib/writer.mjs', import.meta.url));
    for (const killAfter of [300, 3000]) {
      rmSync(path, { force: true });
      const child = spawn(process.execPath, [writer, path], { stdio: ['ignore', 'pipe', 'inherit'] });
      let output = '';
      // 'close', not 'exit': every line the writer put into the pipe has been read by then.
      const exited = new Promise((resolve) => child.on('close', (code, signal) => resolve(signal)));
      await new Promise((resolve) => {
        child.stdout.on('data', (chunk) => {
          output += chunk;
          if ((output.match(/^set /gm) ?? []).length >= killAfter && !child.killed) {
            child.kill('SIGKILL');
            resolve();
          }
        });
      });
      expect(await exited).toBe('SIGKILL');
      // Everything on stdout was reported after its write returned.
      const sets = [...output.matchAll(/^set (\d+)$/gm)].map((m) => Number(m[1]));
      const deleted = new Set([...output.matchAll(/^deleted (\d+)$/gm)].map((m) => Number(m[1])));
      expect(sets.length).toBeGreaterThanOrEqual(killAfter);
      // The killed writer's lock is still there; the next open takes it over.
      expect(existsSync(`${path}.lock`)).toBe(true);
      const index = FileCuckooIndex.open(path);
      try {
        const last = sets[sets.length - 1];
        for (const i of sets) {
          if (deleted.has(i)) expect(index.has(`key-${i}`)).toBe(false);
          // The kill can land after the last key's delete was written and before it was
          // reported: that key may be there or deleted, nothing else.
          else if (i === last && i % 7 === 0) expect([`value-${i}`, undefined]).toContain(index.getString(`key-${i}`));
          else expect(index.getString(`key-${i}`)).toBe(`value-${i}`);
        }
        // At most the records after the last report (one set, maybe its delete) are extra.
        const unreportedDelete = last % 7 === 0 && !deleted.has(last) ? 1 : 0;
        expect(index.size).toBeGreaterThanOrEqual(sets.length - deleted.size - unreportedDelete);
        expect(index.size).toBeLessThanOrEqual(sets.length - deleted.size + 2);
        for (let i = last + 2; i < last + 50; i++) expect(index.has(`key-${i}`)).toBe(false);
      } finally {
        index.close();
      }
    }
  });
});

describe('kill -9 during compaction', () => {
  test('every record acknowledged before the kill is there, the leftover is removed and the lock recovered', async () => {
    const path = join(directory, 'killed-compacting.log');
    const compactor = fileURLToPath(new URL('./lib/compactor.mjs', import.meta.url));
    const n = 20000;
    // Kill at several points of a compaction: just after it started, and a little later.
    for (const delayMs of [0, 5, 25, 60]) {
      rmSync(path, { force: true });
      const child = spawn(process.execPath, [compactor, path, String(n)], { stdio: ['ignore', 'pipe', 'inherit'] });
      let output = '';
      const exited = new Promise((resolve) => child.on('close', (code, signal) => resolve(signal)));
      const timer = setTimeout(() => child.kill('SIGKILL'), 60000); // a bound, should the child hang
      await new Promise((resolve) => {
        child.stdout.on('data', (chunk) => {
          output += chunk;
          if (/^compacting 1$/m.test(output) && !child.killed) {
            setTimeout(() => {
              child.kill('SIGKILL');
              resolve();
            }, delayMs);
          }
        });
        child.on('close', resolve);
      });
      clearTimeout(timer);
      expect(await exited).toBe('SIGKILL');
      expect(output).toMatch(new RegExp(`^set ${n}$`, 'm'));
      const extras = [...output.matchAll(/^extra (\d+)$/gm)].map((m) => Number(m[1]));
      expect(existsSync(`${path}.lock`)).toBe(true);
      const index = FileCuckooIndex.open(path, { snapshotOnClose: false });
      try {
        expect(existsSync(`${path}.compact`)).toBe(false);
        for (let i = 0; i < n; i++) {
          expect(index.getString(`key-${i}`)).toBe(i % 5 === 0 ? `updated-${i}` : `value-${i}`);
        }
        for (const j of extras) expect(index.getString(`extra-${j}`)).toBe('x');
        // At most the extra set after the last report is more.
        expect(index.size).toBeGreaterThanOrEqual(n + extras.length);
        expect(index.size).toBeLessThanOrEqual(n + extras.length + 1);
      } finally {
        index.close();
      }
    }
  }, 120000);
});
