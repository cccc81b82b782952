// Keys are bytes: `build` stores each line's bytes exactly (no replacement
// characters), URL lists must be UTF-8 (other lines reported, never stored),
// and binary or empty input is refused (exit 2) unless --force.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deserialize, init } from 'cuckoo-bloom-wasm';
import { CLI, expectOneLineError, runCli, runOk, tempDir, verdicts } from './helpers.mjs';

const latin1 = (text) => Buffer.from(text, 'latin1');

let work;
beforeAll(async () => {
  await init();
  work = tempDir();
});
afterAll(() => work.cleanup());

const readFilter = (name) => deserialize(readFileSync(join(work.dir, name)));

describe('keys are the bytes of their lines', () => {
  // Four Latin-1 lines that one lossy decoding would all turn into "caf\uFFFD"
  // (three of them then "already present"), one UTF-8 line, and bytes that are
  // no text at all.
  const keyLines = [latin1('caf\xe9'), latin1('caf\xe8'), latin1('caf\xe0'), latin1('caf\xff'), Buffer.from('café'), Buffer.from([0xc3, 0x28, 0xa0, 0xa1])];
  const input = Buffer.concat(keyLines.flatMap((key) => [key, Buffer.from('\r\n')]));

  test.each(['bloom', 'cuckoo', 'counting', 'fuse'])('--type %s: every distinct byte line is a distinct key, found by its raw bytes', async (type) => {
    writeFileSync(join(work.dir, 'latin1.txt'), input);
    const { stdout } = await runOk(['build', '--type', type, '--fpr', '0.0001', '--input', 'latin1.txt', '--output', `latin1-${type}.filter`, '--json'], { cwd: work.dir });
    expect(JSON.parse(stdout)).toMatchObject({ lines: keyLines.length, keys: keyLines.length, added: keyLines.length, alreadyPresent: 0 });
    const filter = readFilter(`latin1-${type}.filter`);
    try {
      for (const key of keyLines) expect(filter.has(new Uint8Array(key))).toBe(true);
      // What a lossy decoding would have stored instead.
      expect(filter.has('caf\uFFFD')).toBe(false);
    } finally {
      filter.free();
    }
  });

  test('query reads stdin keys as bytes and echoes them unchanged; argument keys are UTF-8 text', async () => {
    writeFileSync(join(work.dir, 'latin1.txt'), input);
    await runOk(['build', '--fpr', '0.0001', '--input', 'latin1.txt', '--output', 'q.filter', '--quiet'], { cwd: work.dir });
    const stdin = Buffer.concat([latin1('caf\xe9\n'), latin1('caf\xe1\n'), Buffer.from([0xc3, 0x28, 0xa0, 0xa1, 0x0a])]);
    const raw = await runRaw(['query', 'q.filter'], stdin);
    expect(raw.code).toBe(1);
    expect(raw.stdout.equals(Buffer.concat([latin1('present\tcaf\xe9\n'), latin1('absent\tcaf\xe1\n'), Buffer.from('present\t'), Buffer.from([0xc3, 0x28, 0xa0, 0xa1, 0x0a])]))).toBe(true);
    // On the command line a key is a string: "café" is its UTF-8 bytes, which were a line too.
    const args = await runCli(['query', 'q.filter', 'café', 'caf\u00e1'], { cwd: work.dir });
    expect(verdicts(args.stdout)).toEqual([['present', 'café'], ['absent', 'caf\u00e1']]);
  });
});

/** runCli with stdout kept as bytes. */
function runRaw(args, input) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: work.dir, stdio: ['pipe', 'pipe', 'pipe'] });
    const out = [];
    const err = [];
    child.stdout.on('data', (chunk) => out.push(chunk));
    child.stderr.on('data', (chunk) => err.push(chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString('utf8') }));
    child.stdin.end(input);
  });
}

describe('--urls needs UTF-8 text', () => {
  const list = Buffer.concat([
    latin1('# Liste f\xfcr Tests (a Latin-1 comment: skipped like any comment)\n'),
    Buffer.from('evil.example\n'),
    latin1('caf\xe9.example\n'),
    Buffer.from('good.example/path\n'),
    latin1('http://bad.example/caf\xe9\n'),
    Buffer.from('http://ok.example/caf\u00e9\n'),
  ]);

  test.each(['fuse', 'bloom'])('--type %s: entry lines that are not UTF-8 are reported on stderr with their line numbers and not stored', async (type) => {
    writeFileSync(join(work.dir, 'list.txt'), list);
    const result = await runOk(['build', '--urls', '--type', type, '--input', 'list.txt', '--output', `list-${type}.filter`, '--json'], { cwd: work.dir });
    const summary = JSON.parse(result.stdout);
    expect(summary).toMatchObject({ lines: 6, entries: 3, skipped: 1, notUtf8: { count: 2, firstLines: [3, 5] } });
    expect(summary.unparseable.count).toBe(2);
    expect(summary.unparseable.first.map((error) => error.line)).toEqual([3, 5]);
    expect(summary.unparseable.first[0].reason).toMatch(/not valid UTF-8 \(byte 0xE9 at byte 4\)/);
    expect(result.stderr).toMatch(/warning: 2 list line\(s\) are not valid UTF-8 and were not stored \(line 3, 5\)/);
    const query = await runCli(['query', `list-${type}.filter`, 'http://evil.example/', 'http://ok.example/café', 'http://good.example/path'], { cwd: work.dir });
    expect(verdicts(query.stdout).map(([verdict]) => verdict)).toEqual(['listed', 'listed', 'listed']);
  });

  test('query --urls: a stdin line that is not UTF-8 is an invalid verdict (exit 1: the listed line wins)', async () => {
    writeFileSync(join(work.dir, 'list.txt'), list);
    await runOk(['build', '--urls', '--input', 'list.txt', '--output', 'list-q.filter', '--quiet'], { cwd: work.dir });
    const raw = await runRaw(['query', 'list-q.filter', '--urls'], Buffer.concat([Buffer.from('http://evil.example/\n'), latin1('http://caf\xe9.example/\n')]));
    expect(raw.code).toBe(1);
    const lines = raw.stdout.toString('latin1').split('\n');
    expect(lines[0]).toBe('listed\thttp://evil.example/\tevil.example/');
    expect(lines[1]).toBe('invalid\thttp://caf\xe9.example/\tnot valid UTF-8: a URL must be UTF-8 text');
  });
});

describe('binary input is refused unless --force', () => {
  test.each([
    ['a NUL byte', Buffer.from('alpha\nbe\0ta\ngamma\n'), /a NUL byte at offset 8/],
    ['UTF-16 text', Buffer.from('\ufeffalpha\nbeta\n', 'utf16le'), /a NUL byte at offset 3/],
    ['control bytes without NUL', Buffer.from(Array.from({ length: 4000 }, (_, i) => (i % 10 === 0 ? 0x01 : 0x61 + (i % 26)))), /control bytes in its first 4000 bytes/],
  ])('%s: exit 2 naming the file, no output written; --force builds', async (_name, bytes, reason) => {
    writeFileSync(join(work.dir, 'binary.bin'), bytes);
    rmSync(join(work.dir, 'binary.filter'), { force: true });
    const refused = await runCli(['build', '--input', 'binary.bin', '--output', 'binary.filter'], { cwd: work.dir });
    const line = expectOneLineError(refused);
    expect(line).toMatch(/binary\.bin looks like a binary file/);
    expect(line).toMatch(reason);
    expect(line).toMatch(/--force/);
    expect(existsSync(join(work.dir, 'binary.filter'))).toBe(false);
    await runOk(['build', '--input', 'binary.bin', '--output', 'binary.filter', '--quiet', '--force'], { cwd: work.dir });
    expect(existsSync(join(work.dir, 'binary.filter'))).toBe(true);
  });

  test('stdin and --urls are checked too', async () => {
    const stdin = await runCli(['build', '--input', '-', '--output', 'binary.filter', '--capacity', '10'], { cwd: work.dir, input: Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0x61, 0x0a]) });
    expect(expectOneLineError(stdin)).toMatch(/stdin looks like a binary file \(a NUL byte at offset 3\)/);
    writeFileSync(join(work.dir, 'binary-list.bin'), Buffer.from('evil.example\n\0\0\0\n'));
    const urls = await runCli(['build', '--urls', '--input', 'binary-list.bin', '--output', 'binary.filter'], { cwd: work.dir });
    expect(expectOneLineError(urls)).toMatch(/binary-list\.bin looks like a binary file/);
  });

  test('text with tabs, CR, form feeds and ANSI colour escapes is text', async () => {
    writeFileSync(join(work.dir, 'text.txt'), '\x1b[31mred\x1b[0m\r\nwith\ttab\n\fpage\n'.repeat(100));
    const { stdout } = await runOk(['build', '--input', 'text.txt', '--output', 'text.filter', '--json'], { cwd: work.dir });
    expect(JSON.parse(stdout)).toMatchObject({ keys: 300, added: 3 });
  });
});

describe('empty input is refused unless --force', () => {
  test.each([
    ['an empty file', '', [], /empty\.txt has no key: it is empty/],
    ['only blank lines', '\n\r\n\n', [], /empty\.txt has no key: its 3 line\(s\) are empty/],
    ['--urls: only comments', '# a comment\n! another\n\n', ['--urls'], /empty\.txt has no list entry: its 3 line\(s\) are blank, comments or headers/],
    ['--urls: only unparseable lines', 'http://a b/\nnot a url\n', ['--urls'], /has no list entry: .* unparseable \(2; the first at line 1: /],
  ])('%s: exit 2 naming the file; --force builds an empty filter', async (name, text, extra, message) => {
    const output = `empty-${name.replace(/\W+/g, '-')}.filter`;
    writeFileSync(join(work.dir, 'empty.txt'), text);
    const refused = await runCli(['build', ...extra, '--input', 'empty.txt', '--output', output], { cwd: work.dir });
    expect(expectOneLineError(refused)).toMatch(message);
    expect(existsSync(join(work.dir, output))).toBe(false);
    const forced = await runOk(['build', ...extra, '--type', 'bloom', '--input', 'empty.txt', '--output', output, '--json', '--force'], { cwd: work.dir });
    expect(JSON.parse(forced.stdout)).toMatchObject({ added: 0 });
    const query = await runCli(['query', output, 'anything'], { cwd: work.dir });
    expect(query.code).toBe(0);
  });
});
