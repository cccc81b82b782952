// A URL blocklist's companion (`query --confirm FILE`, the auto-loaded
// <filter>.confirm of query and update) is read as a filter is: a device or
// FIFO is refused before any read, and no more than its header's declared
// length is read. It used to be a plain readFile: `--confirm /dev/zero` grew
// without bound, a FIFO blocked forever, a 1.5 GB sparse .confirm was read
// whole before its header was checked (adversarial report, item 6).
// Every child is killed after a deadline, so a regression fails, not hangs.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expectFastRefusal, REFUSAL_DEADLINE_MS, runCliTimed, runOk, tempDir, writeSparse } from './helpers.mjs';

/** Larger than anything that should ever be read whole for one companion. */
const HUGE_BYTES = 1500 * 2 ** 20;

let work;
const at = (name) => join(work.dir, name);

/** `dir`/f.filter (a copy of the blocklist) with `make(path)` creating dir/f.filter.confirm. */
function besideFilter(dir, make) {
  mkdirSync(at(dir));
  copyFileSync(at('f.filter'), at(`${dir}/f.filter`));
  make(at(`${dir}/f.filter.confirm`));
}

beforeAll(async () => {
  work = tempDir('cbw-cli-bounded-companion-');
  writeFileSync(at('list.txt'), 'evil.example\n');
  writeFileSync(at('add.txt'), 'x.example\n');
  writeFileSync(at('empty.confirm'), '');
  await runOk(['build', '--urls', '--type', 'bloom', '--input', 'list.txt', '--output', 'f.filter', '--quiet'], { cwd: work.dir });
  execFileSync('mkfifo', [at('no-writer.fifo')]);
  besideFilter('fifo', (path) => execFileSync('mkfifo', [path]));
  besideFilter('zero', (path) => symlinkSync('/dev/zero', path));
  besideFilter('sparse', (path) => writeSparse(path, Buffer.alloc(0), HUGE_BYTES));
  // A real companion followed by a sparse gigabyte: refused from its header's declared length, not read.
  besideFilter('trailing', (path) => writeSparse(path, readFileSync(at('f.filter.confirm')), HUGE_BYTES));
});
afterAll(() => work.cleanup());

const URL = 'http://evil.example/';

test.each([
  ['query --confirm /dev/zero', ['query', 'f.filter', '--urls', '--confirm', '/dev/zero', URL], /cannot read \/dev\/zero: it is a character device/],
  // Named as what it should be, a companion (it said "not a filter file or an index log").
  ['query --confirm an empty file', ['query', 'f.filter', '--urls', '--confirm', 'empty.confirm', URL], /empty\.confirm is not a blocklist companion/],
  ['query --confirm FIFO', ['query', 'f.filter', '--urls', '--confirm', 'no-writer.fifo', URL], /cannot read no-writer\.fifo: it is a FIFO/],
  ['query, <filter>.confirm a FIFO', ['query', 'fifo/f.filter', '--urls', URL], /cannot read fifo\/f\.filter\.confirm: it is a FIFO/],
  [
    'update, <filter>.confirm a FIFO',
    ['update', 'fifo/f.filter', '--list', 'list.txt', '--add', 'add.txt', '--output', 'fifo/g.filter'],
    /cannot read fifo\/f\.filter\.confirm: it is a FIFO/,
  ],
  ['query, <filter>.confirm -> /dev/zero', ['query', 'zero/f.filter', '--urls', URL], /cannot read zero\/f\.filter\.confirm: it is a character device/],
  [
    'update, <filter>.confirm -> /dev/zero',
    ['update', 'zero/f.filter', '--list', 'list.txt', '--add', 'add.txt', '--output', 'zero/g.filter'],
    /cannot read zero\/f\.filter\.confirm: it is a character device/,
  ],
  ['query, a 1.5 GB sparse <filter>.confirm', ['query', 'sparse/f.filter', '--urls', URL], /sparse\/f\.filter\.confirm is not a blocklist companion.*its first 8 bytes are 00/],
  [
    'query, a companion followed by 1.5 GB',
    ['query', 'trailing/f.filter', '--urls', URL],
    /trailing\/f\.filter\.confirm: not a filter file as written: its header declares \d+ bytes, but it has 1572864000/,
  ],
  [
    'update, a companion followed by 1.5 GB',
    ['update', 'trailing/f.filter', '--list', 'list.txt', '--add', 'add.txt', '--output', 'trailing/g.filter'],
    /trailing\/f\.filter\.confirm: not a filter file as written/,
  ],
])('%s: exit 2, one line, within 1 s of start-up', async (_name, args, message) => {
  await expectFastRefusal(work.dir, args, message);
});

test('the real companion is still read: query confirms, update rewrites it', async () => {
  const query = await runCliTimed(['query', 'f.filter', '--urls', URL], { cwd: work.dir, timeoutMs: REFUSAL_DEADLINE_MS * 2 });
  expect(query.stdout).toMatch(/^listed\t/);
  const update = await runCliTimed(['update', 'f.filter', '--list', 'list.txt', '--add', 'add.txt', '--output', 'g.filter'], {
    cwd: work.dir,
    timeoutMs: REFUSAL_DEADLINE_MS * 2,
  });
  expect(update.code).toBe(0);
  expect(update.stdout).toMatch(/g\.filter\.confirm rewritten/);
});
