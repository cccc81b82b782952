// A patch's declared sizes are checked against its base and its own length
// before anything is allocated, and diffFilters refuses a damaged filter
// (issue #40). A 49-byte patch declaring a 2 GiB target used to allocate
// 2.1 GB before CORRUPT, and one declaring 4 GiB threw a plain RangeError
// under a memory limit; diffFilters made a patch from a filter whose own
// checksum failed, which applyPatch then vouched for.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { init, applyPatch, diffFilters, BloomFilter, CuckooFilter } from '../../dist/index.js';
import { thrownBy } from '../helpers/keys.mjs';

const GOLDEN = new URL('../golden/', import.meta.url);

beforeAll(async () => {
  await init();
});

function bloomBytes(keys, capacity = 2000) {
  const filter = new BloomFilter({ capacity, falsePositiveRate: 0.01, seed: 3 });
  filter.addMany(keys);
  const bytes = filter.serialize();
  filter.free();
  return bytes;
}

const keys = (n, prefix) => Array.from({ length: n }, (_, i) => `${prefix}${i}`);

/**
 * The first 49 bytes of a real patch (header and one body byte), declaring
 * `targetLength` and `count` changes. The target checksum is all zeros, which
 * is what the last 8 bytes of a target the base does not reach are: a patch
 * checked only after its target was made gets through that check and on to
 * the CRC-32 of the whole (zeroed) target.
 */
function tinyPatch(base, targetLength, count = 0) {
  const patch = diffFilters(base, bloomBytes(keys(101, 'a'))).slice(0, 49);
  const view = new DataView(patch.buffer);
  view.setBigUint64(24, BigInt(targetLength), true);
  patch.fill(0, 32, 40);
  view.setUint32(44, count, true);
  patch[6] = 2; // flipped bits: one parameter byte, then the bit stream
  patch[48] = 0;
  return patch;
}

/**
 * applyPatch(base, patch) in a child process: its error code (or the name
 * of what else it threw), the time it took (the fastest of three), and how
 * much its peak resident memory grew. `memoryLimitKB`: the child runs under
 * that limit of virtual memory (ulimit -v), where allocating a target of
 * gigabytes fails.
 */
function applyInChild(base, patch, memoryLimitKB = null) {
  const script = `
    const m = await import(${JSON.stringify(new URL('../../dist/index.js', import.meta.url).href)});
    const [base, patch] = ${JSON.stringify([Buffer.from(base).toString('base64'), Buffer.from(patch).toString('base64')])}.map((b) => new Uint8Array(Buffer.from(b, 'base64')));
    m.applyPatch(base, m.diffFilters(base, base)); // warm up: the code paths compiled, the tables made
    const rss = process.resourceUsage().maxRSS;
    let code;
    let ms = Infinity;
    // The fastest of three: the work is the same each time; a loaded machine only adds to it.
    for (let i = 0; i < 3; i++) {
      const started = performance.now();
      try { m.applyPatch(base, patch); code = 'applied'; } catch (e) { code = e instanceof m.FilterError ? e.code : e.name; }
      ms = Math.min(ms, performance.now() - started);
    }
    console.log(JSON.stringify({ code, ms, grewMB: (process.resourceUsage().maxRSS - rss) / 1024 }));`;
  const args = ['--input-type=module', '-e', script];
  const output =
    memoryLimitKB === null
      ? execFileSync(process.execPath, args, { encoding: 'utf8', timeout: 120_000 })
      : execFileSync('bash', ['-c', 'ulimit -v "$1" && shift && exec "$@"', 'bash', String(memoryLimitKB), process.execPath, ...args], {
          encoding: 'utf8',
          timeout: 120_000,
        });
  return JSON.parse(output.trim().split('\n').pop());
}

describe('a short patch declaring a huge target', () => {
  let base;
  beforeAll(() => {
    base = bloomBytes(keys(100, 'a'));
  });

  test.each([
    ['4 GiB', 2 ** 32],
    ['2 GiB', 2 ** 31],
    ['1 GiB', 2 ** 30],
  ])('a 49-byte patch declaring %s is CORRUPT in under 100 ms, with under 50 MB of memory growth', (_name, targetLength) => {
    const patch = tinyPatch(base, targetLength);
    expect(patch.length).toBe(49);
    const result = applyInChild(base, patch);
    expect(result.code).toBe('CORRUPT');
    expect(result.ms).toBeLessThan(100);
    expect(result.grewMB).toBeLessThan(50);
  });

  test.each([
    ['4 GiB', 2 ** 32],
    ['1 GiB', 2 ** 30],
  ])('under a 2 GB memory limit, a 49-byte patch declaring %s is CORRUPT, not a RangeError', (_name, targetLength) => {
    expect(applyInChild(base, tinyPatch(base, targetLength), 2_000_000).code).toBe('CORRUPT');
  });

  test('a target over 2 GiB (no filter is longer) is refused by the header, naming the limit', () => {
    expect(thrownBy(() => applyPatch(base, tinyPatch(base, 2 ** 31 + 1)))?.message).toMatch(
      /corrupt filter patch: its target length 2147483649 cannot be a filter's \(64 bytes to 2 GiB\)/,
    );
  });

  test('a count no body of its length can hold is refused before any change is read', () => {
    const error = thrownBy(() => applyPatch(base, tinyPatch(base, base.length, 1000)));
    expect(error?.code).toBe('CORRUPT');
    expect(error.message).toMatch(/it declares 1000 flipped bits, more than the 0 byte\(s\) of its body after the parameters can hold/);
  });

  test('a consistent header whose target would not be a filter of that length is CORRUPT, naming both', () => {
    const error = thrownBy(() => applyPatch(base, tinyPatch(base, base.length + 8)));
    expect(error?.code).toBe('CORRUPT');
    expect(error.message).toMatch(new RegExp(`its target would not be a filter of its declared ${base.length + 8} bytes \\(its header would declare ${base.length}\\)`));
  });
});

test('patches between filters of every golden type and size still apply: what is checked before allocating is what is written', () => {
  const files = readdirSync(GOLDEN).filter((name) => name.endsWith('.cbf'));
  expect(files.length).toBeGreaterThan(5);
  const blobs = files.map((name) => new Uint8Array(readFileSync(new URL(name, GOLDEN))));
  const big = [bloomBytes(keys(5000, 'a'), 50_000), bloomBytes(keys(5100, 'a'), 60_000)];
  for (const [from, to] of [...blobs.map((blob, i) => [blob, blobs[(i + 1) % blobs.length]]), big, [big[1], big[0]]]) {
    expect(Buffer.compare(applyPatch(from, diffFilters(from, to)), to)).toBe(0);
  }
});

describe('diffFilters refuses a damaged filter, on either side', () => {
  let base;
  let target;
  beforeAll(() => {
    base = bloomBytes(keys(1000, 'a'));
    target = bloomBytes(keys(1010, 'a'));
  });

  test.each([
    ['a payload byte', (bytes) => { bytes[200] ^= 0x01; }],
    ['a header byte', (bytes) => { bytes[20] ^= 0x80; }],
    ['the checksum', (bytes) => { bytes[bytes.length - 1] ^= 0x01; }],
  ])('%s changed: CORRUPT naming the side', (_name, damage) => {
    for (const [side, args] of [
      ['base', (bad) => [bad, target]],
      ['target', (bad) => [base, bad]],
    ]) {
      const bad = (side === 'base' ? base : target).slice();
      damage(bad);
      const error = thrownBy(() => diffFilters(...args(bad)));
      expect(error?.code).toBe('CORRUPT');
      expect(error.message).toMatch(new RegExp(`diffFilters: ${side}: corrupt filter: its checksum [0-9a-f]{16} does not match its bytes`));
    }
  });

  test('bytes after the filter, or a filter cut short, are CORRUPT: not the length its header declares', () => {
    const longer = new Uint8Array(target.length + 8);
    longer.set(target);
    expect(thrownBy(() => diffFilters(base, longer))?.message).toMatch(
      new RegExp(`diffFilters: target: corrupt filter: its header declares ${target.length} bytes, but it has ${target.length + 8}`),
    );
    expect(thrownBy(() => diffFilters(base.subarray(0, base.length - 1), target))?.code).toBe('CORRUPT');
  });

  test('the checksum is computed as the core computes it, at every size: every filter the core writes is accepted', () => {
    const filters = [10, 100, 1000, 20_000].flatMap((capacity) => [
      bloomBytes(keys(capacity / 10, 'k'), capacity),
      (() => {
        const filter = new CuckooFilter({ capacity, seed: 9 });
        filter.addMany(keys(capacity / 2, 'c'));
        const bytes = filter.serialize();
        filter.free();
        return bytes;
      })(),
    ]);
    const lengths = new Set(filters.map((bytes) => bytes.length));
    expect(Math.min(...lengths)).toBeLessThan(241); // the mid-size XXH3 path
    expect(Math.max(...lengths)).toBeGreaterThan(1024); // the long path, over a block
    for (const bytes of filters) expect(diffFilters(bytes, bytes).length).toBeGreaterThanOrEqual(48);
  });
});
