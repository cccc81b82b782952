// `info`: text and JSON, checked against the options the filter was built
// with and the textbook sizing formulas (m = -n ln ε / (ln 2)², k = (m/n) ln 2), not against the CLI's own
// earlier output.
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { asciiKeys } from '../helpers/keys.mjs';
import { expectOneLineError, runCli, runOk, tempDir } from './helpers.mjs';

const KEYS = asciiKeys(500, 'info-');
let work;
beforeAll(() => {
  work = tempDir();
  writeFileSync(join(work.dir, 'keys.txt'), KEYS.join('\n'));
});
afterAll(() => work.cleanup());

const build = (type, output) =>
  runOk(['build', '--type', type, '--capacity', '1000', '--fpr', '0.01', '--seed', '7', '--input', 'keys.txt', '--output', output, '--quiet'], {
    cwd: work.dir,
  });

describe.each([
  ['bloom', 'bloom'],
  ['blocked', 'blocked-bloom'],
  ['counting', 'counting-bloom'],
  ['cuckoo', 'cuckoo'],
])('info on a %s filter', (cliType, type) => {
  const file = `info-${cliType}.filter`;
  let info;
  beforeAll(async () => {
    await build(cliType, file);
    info = JSON.parse((await runOk(['info', file, '--json'], { cwd: work.dir })).stdout);
  });

  test('--json: the options it was built with, sizes and rates', () => {
    expect(info).toMatchObject({ file, kind: 'filter', type, capacity: 1000, seed: 7, falsePositiveRate: 0.01, checksum: 'ok' });
    expect(info.entries).toBeUndefined();
    expect(info.fileBytes).toBe(statSync(join(work.dir, file)).size);
    expect(info.fileBytes).toBeGreaterThan(info.tableBytes);
    // Keys added: the CLI skips keys a Bloom-type filter already reports present (repeats and
    // false positives), so at most the 500 keys, nearly all of them.
    expect(info.count).toBeLessThanOrEqual(500);
    expect(info.count).toBeGreaterThan(490);
    expect(info.bitsPerKey).toBeCloseTo((info.tableBytes * 8) / info.count, 9);
    // Half full: the estimate is well under the target.
    expect(info.estimatedFalsePositiveRate).toBeGreaterThan(0);
    expect(info.estimatedFalsePositiveRate).toBeLessThan(0.01);
  });

  test('--json: the type\'s own parameters', () => {
    const p = info.parameters;
    const optimalBits = (-1000 * Math.log(0.01)) / Math.LN2 ** 2; // 9585
    switch (type) {
      case 'bloom':
        expect(Math.abs(p.bitCount - optimalBits)).toBeLessThan(64);
        expect(p.hashCount).toBe(7);
        expect(p.setBitCount).toBeGreaterThan(0);
        expect(info.tableBytes).toBe(Math.ceil(p.bitCount / 64) * 8);
        break;
      case 'blocked-bloom':
        expect(p.bitCount).toBe(p.blockCount * 512);
        expect(p.bitCount).toBeGreaterThanOrEqual(optimalBits);
        expect(info.tableBytes).toBe(p.blockCount * 64);
        break;
      case 'counting-bloom':
        expect(Math.abs(p.counterCount - optimalBits)).toBeLessThan(64);
        expect(p.hashCount).toBe(7);
        expect(p.counterBits).toBe(4);
        expect(info.count).toBe(500);
        break;
      case 'cuckoo':
        expect(p.bucketSize).toBe(4);
        expect(p.bucketCount % 2).toBe(0);
        expect(p.bucketCount * p.bucketSize).toBeGreaterThanOrEqual(1000);
        expect(p.fingerprintBits).toBeGreaterThanOrEqual(Math.ceil(Math.log2((2 * 4) / 0.01)));
        expect(p.loadFactor).toBeCloseTo(500 / (p.bucketCount * p.bucketSize), 9);
        expect(info.count).toBe(500);
        break;
    }
  });

  test('text output shows the same facts, one per line', async () => {
    const { stdout } = await runOk(['info', file], { cwd: work.dir });
    expect(stdout).toMatch(new RegExp(`^type\\s+${type}$`, 'm'));
    expect(stdout).toMatch(/^capacity\s+1,000$/m);
    expect(stdout).toMatch(/^seed\s+7$/m);
    expect(stdout).toMatch(/^target fpr\s+0\.01$/m);
    expect(stdout).toMatch(/^checksum\s+ok$/m);
    expect(stdout).toMatch(new RegExp(`^file size\\s+${info.fileBytes.toLocaleString('en-US')} bytes$`, 'm'));
    expect(stdout).toMatch(/^estimated fpr\s+\S+$/m);
    expect(stdout).toMatch(/^bits\/key\s+\d+\.\d\d$/m);
  });
});

describe('damaged files: exit 2, one line naming the problem', () => {
  let good;
  beforeAll(async () => {
    await build('bloom', 'good.filter');
    good = readFileSync(join(work.dir, 'good.filter'));
  });

  test.each([
    ['a flipped byte', (bytes) => { const b = Buffer.from(bytes); b[b.length >> 1] ^= 0x10; return b; }, /checksum/],
    ['a truncated file', (bytes) => bytes.subarray(0, bytes.length - 10), /truncated/],
    // Told from its first bytes, which are shown (bounded-input.test.mjs: a 97 MB one as fast).
    ['a text file', () => Buffer.from('evil.example\nbad.example\n'.repeat(10)), /is not a filter file or an index log: its first 8 bytes are 65 76 69 6c 2e 65 78 61/],
    ['an empty file', () => Buffer.alloc(0), /is not a filter file or an index log: it is empty/],
  ])('%s', async (_name, damage, problem) => {
    writeFileSync(join(work.dir, 'bad.filter'), damage(good));
    for (const args of [['info', 'bad.filter'], ['info', 'bad.filter', '--json'], ['query', 'bad.filter', 'key']]) {
      const result = await runCli(args, { cwd: work.dir });
      const line = expectOneLineError(result);
      expect(line).toContain('bad.filter');
      expect(line).toMatch(problem);
      expect(result.stdout).toBe('');
    }
  });
});
