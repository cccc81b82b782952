// patch, update and diff read only what can be their input (issue #40): a
// device, a FIFO or a directory given as a patch, a base, a list or a
// companion ends in well under a second with exit 2 and one clear line
// (patch BASE /dev/zero and update --add /dev/zero used to grow to gigabytes
// and never end; a FIFO blocked). A 49-byte patch declaring a 4 GiB target
// is CORRUPT at once; a damaged filter is refused by diff, on either side.
// Every child is killed after a deadline, so a regression fails, not hangs.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { crc32 as zlibCrc32 } from 'node:zlib';
import { expectFastRefusal, runOk, tempDir } from './helpers.mjs';


let work;
const at = (name) => join(work.dir, name);
const HOSTS = Array.from({ length: 200 }, (_, i) => `host${i}.example`);
const lines = (list) => `${list.join('\n')}\n`;

beforeAll(async () => {
  work = tempDir('cbw-cli-bounded-patch-');
  writeFileSync(at('base.txt'), lines(HOSTS));
  writeFileSync(at('more.txt'), lines([...HOSTS, 'added.example']));
  writeFileSync(at('add.txt'), lines(['added.example']));
  writeFileSync(at('remove.txt'), lines(HOSTS.slice(0, 3)));
  await runOk(['build', '--urls', '--type', 'cuckoo', '--input', 'base.txt', '--output', 'list.filter', '-q'], { cwd: work.dir });
  await runOk(['build', '--type', 'bloom', '--input', 'base.txt', '--output', 'old.filter', '-q'], { cwd: work.dir });
  await runOk(['build', '--type', 'bloom', '--input', 'more.txt', '--output', 'new.filter', '-q'], { cwd: work.dir });
  await runOk(['diff', 'old.filter', 'new.filter', '--output', 'good.patch', '-q'], { cwd: work.dir });
  // A filter whose companion path is a FIFO: update reads the companion when it exists.
  await runOk(['build', '--urls', '--type', 'cuckoo', '--input', 'base.txt', '--output', 'fifo-companion.filter', '-q'], { cwd: work.dir });
  rmSync(at('fifo-companion.filter.confirm'), { force: true }); // build --urls wrote one: a FIFO takes its place
  execFileSync('mkfifo', [at('no-writer.fifo'), at('fifo-companion.filter.confirm')]);
  mkdirSync(at('a-directory'));
});
afterAll(() => work.cleanup());

const NOT_REGULAR = [
  ['/dev/zero', '/dev/zero', /cannot read \/dev\/zero: it is a character device/],
  ['/dev/urandom', '/dev/urandom', /cannot read \/dev\/urandom: it is a character device/],
  ['a FIFO with no writer', 'no-writer.fifo', /cannot read no-writer\.fifo: it is a FIFO \(named pipe\)/],
  ['a directory', 'a-directory', /cannot read a-directory: it is a directory/],
];

describe('patch', () => {
  test.each(NOT_REGULAR)('a PATCH that is %s: exit 2 within 1 s of start-up, nothing written', async (_name, file, message) => {
    await expectFastRefusal(work.dir, ['patch', 'old.filter', file, '--output', 'out.filter'], message);
    expect(existsSync(at('out.filter'))).toBe(false);
  });

  test.each(NOT_REGULAR)('a BASE that is %s: exit 2 within 1 s of start-up, nothing written', async (_name, file, message) => {
    await expectFastRefusal(work.dir, ['patch', file, 'good.patch', '--output', 'out.filter'], message);
    expect(existsSync(at('out.filter'))).toBe(false);
  });

  test('a 49-byte patch declaring a 4 GiB target is CORRUPT at once, nothing written', async () => {
    const patch = Buffer.from(readFileSync(at('good.patch')).subarray(0, 49));
    patch.writeBigUInt64LE(2n ** 32n, 24);
    writeFileSync(at('four-gib.patch'), patch);
    await expectFastRefusal(work.dir, ['patch', 'old.filter', 'four-gib.patch', '--output', 'out.filter'], /four-gib\.patch: corrupt filter patch: its target length 4294967296 cannot be a filter's/);
    expect(existsSync(at('out.filter'))).toBe(false);
  });

  test('a 49-byte patch declaring a 2 GiB target is CORRUPT at once (its target would not be a filter of that length)', async () => {
    const patch = Buffer.from(readFileSync(at('good.patch')).subarray(0, 49));
    patch.writeBigUInt64LE(2n ** 31n, 24);
    patch.writeUInt32LE(0, 44); // no changes: flipped bits, whose body is one Rice parameter byte
    patch[6] = 2;
    patch[48] = 0;
    writeFileSync(at('two-gib.patch'), patch);
    await expectFastRefusal(work.dir, ['patch', 'old.filter', 'two-gib.patch', '--output', 'out.filter'], /two-gib\.patch: corrupt filter patch: its target would not be a filter of its declared 2147483648 bytes/);
    expect(existsSync(at('out.filter'))).toBe(false);
  });

  test('the untouched inputs still patch', async () => {
    await runOk(['patch', 'old.filter', 'good.patch', '--output', 'patched.filter', '-q'], { cwd: work.dir });
    expect(Buffer.compare(readFileSync(at('patched.filter')), readFileSync(at('new.filter')))).toBe(0);
  });
});

describe('update', () => {
  const ARGS = {
    'the filter': (file) => ['update', file, '--add', 'add.txt', '--output', 'out.filter'],
    '--add': (file) => ['update', 'list.filter', '--list', 'base.txt', '--add', file, '--output', 'out.filter'],
    '--remove': (file) => ['update', 'list.filter', '--list', 'base.txt', '--remove', file, '--output', 'out.filter'],
    '--list': (file) => ['update', 'list.filter', '--list', file, '--remove', 'remove.txt', '--output', 'out.filter'],
  };
  const cases = Object.keys(ARGS).flatMap((role) => NOT_REGULAR.map(([name, file, message]) => [role, name, file, message]));

  test.each(cases)('%s is %s: exit 2 within 1 s of start-up, nothing written', async (role, _name, file, message) => {
    await expectFastRefusal(work.dir, ARGS[role](file), message);
    expect(existsSync(at('out.filter'))).toBe(false);
  });

  test('a companion (<filter>.confirm) that is a FIFO: exit 2 within 1 s of start-up, nothing written', async () => {
    await expectFastRefusal(work.dir, 
      ['update', 'fifo-companion.filter', '--list', 'base.txt', '--add', 'add.txt', '--output', 'out.filter'],
      /cannot read fifo-companion\.filter\.confirm: it is a FIFO/,
    );
    expect(existsSync(at('out.filter'))).toBe(false);
  });

  /** Runs update with `list` as --add; the updated filter's bytes. */
  async function updatedWith(name, list) {
    writeFileSync(at(name), list);
    await runOk(['update', 'list.filter', '--list', 'base.txt', '--add', name, '--output', `${name}.filter`, '-q'], { cwd: work.dir });
    return readFileSync(at(`${name}.filter`));
  }

  test('a regular list still updates, its lines read as before: CRLF, a BOM, no final newline', async () => {
    const plain = await updatedWith('plain.txt', 'one.example\ntwo.example\nlast.example\n');
    const crlf = await updatedWith('crlf.txt', '\ufeffone.example\r\ntwo.example\r\n\r\nlast.example');
    expect(Buffer.compare(crlf, plain)).toBe(0);
  });

  // Lists are read in 16 MiB chunks (a list of any size, never one string):
  // a CRLF or a UTF-8 character split by a chunk's end is still one line end
  // or one character. Padded with a comment line (not an entry).
  test.each([
    ['"\\r" | "\\n"', '\r\n', 1],
    ['a 2-byte UTF-8 character', '\u00e9\n', 1],
  ])('a list over 16 MiB with %s across the chunk boundary reads as the same list without the padding', async (_name, straddling, before) => {
    const CHUNK = 2 ** 24;
    const lines = 'one.example\ntwo.example\nlast.example\n';
    const plain = await updatedWith('unpadded.txt', lines);
    const head = Buffer.from(`! ${'x'.repeat(CHUNK - 2 - before)}`, 'latin1');
    const list = Buffer.concat([head, Buffer.from(straddling, 'utf8'), Buffer.from(lines)]);
    expect(list.length).toBeGreaterThan(CHUNK);
    // The split: the straddling sequence starts `before` byte(s) before the boundary.
    expect(head.length + before).toBe(CHUNK);
    expect(Buffer.compare(await updatedWith('padded.txt', list), plain)).toBe(0);
  });
});

describe('diff refuses a damaged filter, on either side', () => {
  /** new.filter with one payload byte changed: its length is right, its checksum is not. */
  function damaged() {
    const bytes = Buffer.from(readFileSync(at('new.filter')));
    bytes[bytes.length - 20] ^= 0x10;
    writeFileSync(at('damaged.filter'), bytes);
  }

  test.each([
    ['OLD', ['diff', 'damaged.filter', 'new.filter', '--output', 'bad.patch']],
    ['NEW', ['diff', 'old.filter', 'damaged.filter', '--output', 'bad.patch']],
  ])('a damaged %s: exit 2 naming it corrupt, no patch written', async (_side, args) => {
    damaged();
    await expectFastRefusal(work.dir, args, /diff: diffFilters: (base|target): corrupt filter: its checksum [0-9a-f]{16} does not match its bytes/);
    expect(existsSync(at('bad.patch'))).toBe(false);
  });
});

/**
 * A byte-runs patch (docs/FORMAT.md) from `base` to `target` as one run of
 * every target byte, with no check of either: what another tool, or diff
 * before it refused damaged filters, could write.
 */
function wholeTargetPatch(base, target) {
  const bits = [];
  const put = (value, count) => {
    for (let i = 0; i < count; i++, value = Math.floor(value / 2)) bits.push(value % 2);
  };
  put(0, 1); // gap 0, Rice k = 0: one 0 bit
  put(0, 1); // length - 1, Rice k = 40: quotient 0 ...
  put(target.length - 1, 40); // ... and 40 low bits
  for (const byte of target) put(byte, 8);
  const body = Buffer.alloc(2 + Math.ceil(bits.length / 8));
  body[0] = 0;
  body[1] = 40;
  bits.forEach((bit, i) => {
    body[2 + (i >> 3)] |= bit << (i & 7);
  });
  const header = Buffer.alloc(48);
  header.write('CBWP', 0, 'latin1');
  header.writeUInt16LE(1, 4);
  header[6] = 1;
  header.writeBigUInt64LE(BigInt(base.length), 8);
  base.copy(header, 16, base.length - 8);
  header.writeBigUInt64LE(BigInt(target.length), 24);
  target.copy(header, 32, target.length - 8);
  header.writeUInt32LE(zlibCrc32(target), 40);
  header.writeUInt32LE(1, 44);
  return Buffer.concat([header, body]);
}

test('patch refuses a patch whose target is itself damaged: "checksum ok" means the written filter is whole', async () => {
  const old = readFileSync(at('old.filter'));
  const target = Buffer.from(readFileSync(at('new.filter')));
  // The control: the same encoder's patch to the undamaged target applies.
  writeFileSync(at('whole.patch'), wholeTargetPatch(old, target));
  await runOk(['patch', 'old.filter', 'whole.patch', '--output', 'whole.filter', '-q'], { cwd: work.dir });
  expect(Buffer.compare(readFileSync(at('whole.filter')), target)).toBe(0);
  target[target.length - 20] ^= 0x10;
  writeFileSync(at('to-damaged.patch'), wholeTargetPatch(old, target));
  await expectFastRefusal(work.dir, 
    ['patch', 'old.filter', 'to-damaged.patch', '--output', 'damaged-out.filter'],
    /to-damaged\.patch: the patched filter: corrupt filter: its checksum [0-9a-f]{16} does not match its bytes/,
  );
  expect(existsSync(at('damaged-out.filter'))).toBe(false);
});
