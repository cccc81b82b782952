// query and info read only what can be a filter or an index log: a device, a
// FIFO, a directory or a file that is not one ends in well under a second
// with exit 2 and one clear line, and a filter file is read no further than
// its header declares. (query /dev/zero used to grow to gigabytes and never
// end; a FIFO blocked; a 97 MB text file was read whole before "bad magic".)
// Every child is killed after a deadline, so a regression fails, not hangs.
import { execFileSync } from 'node:child_process';
import { closeSync, ftruncateSync, mkdirSync, openSync, readFileSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { expectFastRefusal, REFUSAL_DEADLINE_MS, runCliTimed, runOk, tempDir } from './helpers.mjs';

/** "97 MB-ish": the size of the text file that used to be read whole. */
const HUGE_BYTES = 97 * 2 ** 20;

let work;
let filter;
const at = (name) => join(work.dir, name);

/** A file of `bytes` followed by zeros up to `size` (sparse: nothing is written but the start). */
function sparseFile(name, bytes, size) {
  const fd = openSync(at(name), 'w');
  try {
    writeSync(fd, bytes);
    ftruncateSync(fd, size);
  } finally {
    closeSync(fd);
  }
}

/** A filter header (docs/FORMAT.md) declaring `parameters` and `payload` bytes, and nothing after it. */
function headerDeclaring(parameters, payload) {
  const header = Buffer.alloc(56);
  header.write('CBWF', 0, 'latin1');
  header.writeUInt16LE(2, 4);
  header.writeUInt8(1, 6);
  header.writeUInt8(1, 7);
  header.writeUInt32LE(parameters, 12);
  header.writeBigUInt64LE(BigInt(payload), 48);
  return header;
}

beforeAll(async () => {
  work = tempDir('cbw-cli-bounded-');
  writeFileSync(at('keys.txt'), 'apple\nbanana\ncherry\n');
  await runOk(['build', '--input', 'keys.txt', '--output', 'fruit.filter', '--quiet'], { cwd: work.dir });
  await runOk(['build', '--exact', '--input', 'keys.txt', '--output', 'fruit.log', '--quiet'], { cwd: work.dir });
  filter = readFileSync(at('fruit.filter'));
  execFileSync('mkfifo', [at('no-writer.fifo')]);
  mkdirSync(at('a-directory'));
  sparseFile('huge.txt', Buffer.from('https://example.com/ a list of text, then nothing but more of it\n'.repeat(100)), HUGE_BYTES);
  sparseFile('huge-after-filter.filter', filter, HUGE_BYTES);
  writeFileSync(at('truncated.filter'), filter.subarray(0, filter.length - 10));
  writeFileSync(at('header-only.filter'), filter.subarray(0, 30));
  writeFileSync(at('one-byte-more.filter'), Buffer.concat([filter, Buffer.from([0])]));
  writeFileSync(at('declares-a-gigabyte.filter'), Buffer.concat([headerDeclaring(16, 2 ** 30), Buffer.alloc(8)]));
  writeFileSync(at('declares-too-much.filter'), Buffer.concat([headerDeclaring(16, 2n ** 62n), Buffer.alloc(8)]));
});
afterAll(() => work.cleanup());

const filterDeclared = () => new RegExp(`its header declares ${filter.length} bytes`);

const FILES = [
  ['/dev/zero', () => '/dev/zero', () => /cannot read \/dev\/zero: it is a character device/],
  ['/dev/urandom', () => '/dev/urandom', () => /cannot read \/dev\/urandom: it is a character device/],
  ['a FIFO with no writer', () => 'no-writer.fifo', () => /cannot read no-writer\.fifo: it is a FIFO \(named pipe\)/],
  ['a directory', () => 'a-directory', () => /cannot read a-directory: it is a directory/],
  [
    'a 97 MB text file',
    () => 'huge.txt',
    () => /huge\.txt is not a filter file or an index log: its first 8 bytes are 68 74 74 70 73 3a 2f 2f .*"CBWF".*"CBWILOG1"/,
  ],
  [
    'a filter followed by 97 MB',
    () => 'huge-after-filter.filter',
    () => new RegExp(`not a filter file as written: its header declares ${filter.length} bytes, but it has ${HUGE_BYTES} \\(${HUGE_BYTES - filter.length} after`),
  ],
  [
    'a truncated filter',
    () => 'truncated.filter',
    () => new RegExp(`truncated filter file: its header declares ${filter.length} bytes, but it has ${filter.length - 10} \\(10 missing\\)`),
  ],
  ['a filter cut inside its header', () => 'header-only.filter', () => /truncated filter file: the file has 30 byte\(s\), shorter than the 64-byte header/],
  ['a filter with one byte more', () => 'one-byte-more.filter', () => /not a filter file as written: .* \(1 after the filter's checksum\)/],
  [
    'a 64-byte file declaring a gigabyte',
    () => 'declares-a-gigabyte.filter',
    () => new RegExp(`truncated filter file: its header declares ${80 + 2 ** 30} bytes, but it has 64`),
  ],
  ['a header declaring 2^62 bytes', () => 'declares-too-much.filter', () => /declares \d+ bytes .*more than the 2 GiB of wasm memory/],
];

describe.each([
  ['query', (file) => ['query', file, 'apple']],
  ['info', (file) => ['info', file]],
])('%s', (_command, argsFor) => {
  test.each(FILES)('%s: exit 2 with a clear message, within 1 s of start-up', async (_name, file, message) => {
    await expectFastRefusal(work.dir, argsFor(file()), message());
  });

  test('the untouched filter and index log still answer', async () => {
    for (const file of ['fruit.filter', 'fruit.log']) {
      const result = await runCliTimed(argsFor(file), { cwd: work.dir, timeoutMs: REFUSAL_DEADLINE_MS * 2 });
      expect([0, 1]).toContain(result.code);
      expect(result.stdout).toMatch(/present\tapple|keys stored|live keys/);
    }
  });
});

test('the declared length is checked against a file at its full size too', () => {
  // The fixtures above are what they claim: the filter file is exactly its declared length.
  expect(filter.readUInt32LE(12) + Number(filter.readBigUInt64LE(48)) + 64).toBe(filter.length);
});

/** [a file that is not a regular file, what refusing it says] for the commands that read a second file. */
const UNREADABLE_FILES = [
  ['/dev/zero', /cannot read \/dev\/zero: it is a character device/],
  ['no-writer.fifo', /cannot read no-writer\.fifo: it is a FIFO/],
  ['a-directory', /cannot read a-directory: it is a directory/],
];

describe('build --urls --never-match', () => {
  // It read the file whole with readFile: /dev/zero grew to 542 MB in 21 s, a FIFO blocked forever.
  test.each(UNREADABLE_FILES)('a never-match list that is %s is refused before anything is read', async (list, message) => {
    writeFileSync(join(work.dir, 'two-hosts.txt'), 'evil.example\nbad.example\n');
    const args = ['build', '--urls', '--input', 'two-hosts.txt', '--never-match', list, '--output', 'never.filter'];
    await expectFastRefusal(work.dir, args, message);
  });
});

describe('query --index', () => {
  test.each(UNREADABLE_FILES)('a log that is %s is refused before anything is read', async (log, message) => {
    await expectFastRefusal(work.dir, ['query', 'fruit.filter', '--index', log, 'apple'], message);
  });

  test('a log on stdin (-) is refused: a log is opened by its path', async () => {
    await expectFastRefusal(work.dir, ['query', 'fruit.filter', '--index', '-', 'apple'], /an index log cannot be read from stdin/);
  });
});

describe('a filter on stdin (-)', () => {
  test('piped: info describes it and query answers from it', async () => {
    const info = await runCliTimed(['info', '-', '--json'], { cwd: work.dir, input: filter, timeoutMs: REFUSAL_DEADLINE_MS * 2 });
    expect(info.code).toBe(0);
    expect(JSON.parse(info.stdout)).toMatchObject({ file: '-', type: 'bloom', count: 3, fileBytes: filter.length });
    const query = await runCliTimed(['query', '-', 'apple', 'grape'], { cwd: work.dir, input: filter, timeoutMs: REFUSAL_DEADLINE_MS * 2 });
    expect(query.code).toBe(1);
    expect(query.stdout).toBe('present\tapple\nabsent\tgrape\n');
  });

  test('redirected from a filter file: read like the file', async () => {
    const fd = openSync(at('fruit.filter'), 'r');
    try {
      const result = await runCliTimed(['query', '-', 'banana'], { cwd: work.dir, stdin: fd, timeoutMs: REFUSAL_DEADLINE_MS * 2 });
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('present\tbanana\n');
    } finally {
      closeSync(fd);
    }
  });

  test.each([
    ['/dev/zero', /cannot read stdin: it is a character device/],
    ['/dev/urandom', /cannot read stdin: it is a character device/],
  ])('redirected from %s: refused before reading', async (device, message) => {
    const fd = openSync(device, 'r');
    try {
      await expectFastRefusal(work.dir, ['info', '-'], message, { stdin: fd });
      await expectFastRefusal(work.dir, ['query', '-', 'apple'], message, { stdin: fd });
    } finally {
      closeSync(fd);
    }
  });

  test.each([
    ['4 MiB of zeros', () => Buffer.alloc(4 * 2 ** 20), () => /stdin is not a filter file or an index log: its first 8 bytes are 00 00 00 00 00 00 00 00/],
    ['a filter and more', () => Buffer.concat([filter, Buffer.alloc(4 * 2 ** 20)]), () => new RegExp(`stdin: not a filter file as written: its header declares ${filter.length} bytes, but more bytes follow`)],
    ['a truncated filter', () => filter.subarray(0, filter.length - 1), () => new RegExp(`stdin: truncated filter file: .* it has ${filter.length - 1} \\(1 missing\\)`)],
    ['a header declaring 2^62 bytes', () => Buffer.concat([headerDeclaring(16, 2n ** 62n), Buffer.alloc(4 * 2 ** 20)]), () => /more than the 2 GiB/],
    ['an index log', () => readFileSync(at('fruit.log')), () => /an index log cannot be read from stdin/],
  ])('piped %s: refused after reading no more than it must', async (_name, input, message) => {
    await expectFastRefusal(work.dir, ['info', '-'], message(), { input: input() });
  });

  test('query - without keys is a usage error: stdin holds the filter', async () => {
    await expectFastRefusal(work.dir, ['query', '-'], /the filter is read from stdin \(-\), so the keys cannot be: give them as arguments/, { input: filter });
  });
});
