// The filter patch (docs/FORMAT.md, "Filter patches"): diffFilters and
// applyPatch on real filter bytes. A patch applies only to its exact base,
// gives exactly its target, and a damaged patch or base never yields bytes
// that differ from the target: it throws instead.
import { init, applyPatch, diffFilters, BloomFilter, CuckooFilter } from '../../dist/index.js';
import { thrownBy } from '../helpers/keys.mjs';

beforeAll(async () => {
  await init();
});

function bloomBytes(keys, capacity = 2000) {
  const filter = new BloomFilter({ capacity, falsePositiveRate: 0.01, seed: 3 });
  for (const key of keys) filter.add(key);
  const bytes = filter.serialize();
  filter.free();
  return bytes;
}

function cuckooBytes(keys, capacity = 2000) {
  const filter = new CuckooFilter({ capacity, falsePositiveRate: 0.001, seed: 3, bucketSize: 8 });
  for (const key of keys) filter.add(key);
  const bytes = filter.serialize();
  filter.free();
  return bytes;
}

const keys = (n, prefix) => Array.from({ length: n }, (_, i) => `${prefix}${i}`);

test('a patch turns its base into its target, byte for byte, in either encoding', () => {
  const cases = [
    [bloomBytes(keys(1000, 'a')), bloomBytes([...keys(1000, 'a'), ...keys(10, 'b')])], // scattered bits
    [cuckooBytes(keys(1000, 'a')), cuckooBytes([...keys(1000, 'a'), ...keys(10, 'b')])], // a few slots
    [bloomBytes(keys(10, 'a')), bloomBytes(keys(10, 'a'))], // no change
  ];
  const encodings = new Set();
  for (const [base, target] of cases) {
    const patch = diffFilters(base, target);
    expect(Buffer.compare(applyPatch(base, patch), target)).toBe(0);
    encodings.add(patch[6]);
  }
  expect([...encodings].sort()).toEqual([1, 2]);
  // No change: the 48-byte header and an empty body.
  expect(diffFilters(cases[2][0], cases[2][1]).length).toBeLessThanOrEqual(50);
});

test('a patch between filters of different lengths (a new capacity) still gives the target', () => {
  const base = bloomBytes(keys(100, 'a'), 2000);
  for (const target of [bloomBytes(keys(100, 'a'), 4000), bloomBytes(keys(100, 'a'), 500)]) {
    expect(target.length).not.toBe(base.length);
    expect(Buffer.compare(applyPatch(base, diffFilters(base, target)), target)).toBe(0);
  }
});

test('the header says what FORMAT.md says: magic, version, encoding, lengths and checksums at their offsets', () => {
  const base = cuckooBytes(keys(100, 'a'));
  const target = cuckooBytes(keys(101, 'a'));
  const patch = diffFilters(base, target);
  const view = new DataView(patch.buffer, patch.byteOffset);
  expect(Buffer.from(patch.subarray(0, 4)).toString('latin1')).toBe('CBWP');
  expect(view.getUint16(4, true)).toBe(1);
  expect([1, 2]).toContain(patch[6]);
  expect(patch[7]).toBe(0);
  expect(Number(view.getBigUint64(8, true))).toBe(base.length);
  expect(Buffer.compare(patch.subarray(16, 24), base.subarray(base.length - 8))).toBe(0);
  expect(Number(view.getBigUint64(24, true))).toBe(target.length);
  expect(Buffer.compare(patch.subarray(32, 40), target.subarray(target.length - 8))).toBe(0);
});

test('a patch applies only to its exact base: other bytes are INVALID_ARGUMENT naming both', () => {
  const base = bloomBytes(keys(100, 'a'));
  const other = bloomBytes(keys(100, 'x'));
  const patch = diffFilters(base, bloomBytes(keys(101, 'a')));
  const error = thrownBy(() => applyPatch(other, patch));
  expect(error?.name).toBe('FilterError');
  expect(error.code).toBe('INVALID_ARGUMENT');
  expect(error.message).toMatch(/applies only to its base filter \(\d+ bytes, checksum [0-9a-f]{16}\), not to these bytes/);
  // The same length and checksum with one byte changed inside: the result fails the target's CRC-32.
  const damagedBase = base.slice();
  damagedBase[100] ^= 0x10;
  expect(thrownBy(() => applyPatch(damagedBase, patch))?.code).toBe('CORRUPT');
});

test('a damaged patch never yields wrong bytes: 400 random byte changes and every truncation throw or give the target', () => {
  const pairs = [
    [cuckooBytes(keys(1000, 'a')), cuckooBytes([...keys(990, 'a'), ...keys(20, 'c')])], // runs
    [bloomBytes(keys(500, 'a')), bloomBytes(keys(520, 'a'))], // flipped bits
  ];
  for (const [from, target] of pairs) {
    const patch = diffFilters(from, target);
    const want = target;
    const codes = new Set();
    let seed = 7;
    for (let i = 0; i < 400; i++) {
      seed = (seed * 1103515245 + 12345) >>> 0;
      const damaged = patch.slice();
      damaged[seed % damaged.length] ^= 1 + (seed >>> 24) % 255;
      const error = thrownBy(() => {
        const got = applyPatch(from, damaged);
        if (Buffer.compare(got, want) !== 0) throw new Error('wrong bytes from a damaged patch');
      });
      if (error !== undefined) {
        expect(error.name).toBe('FilterError');
        codes.add(error.code);
      }
    }
    for (const cut of [0, 3, 47, 48, patch.length - 1]) {
      expect(['CORRUPT']).toContain(thrownBy(() => applyPatch(from, patch.subarray(0, cut)))?.code);
    }
    expect([...codes].every((code) => ['CORRUPT', 'INVALID_ARGUMENT', 'UNSUPPORTED_VERSION'].includes(code))).toBe(true);
  }
});

test('bad arguments: not bytes, not a filter, not a patch, a later version, bytes after the last change', () => {
  const base = bloomBytes(keys(10, 'a'));
  const patch = diffFilters(base, bloomBytes(keys(11, 'a')));
  expect(thrownBy(() => diffFilters('x', base))?.code).toBe('INVALID_ARGUMENT');
  expect(thrownBy(() => diffFilters(new Uint8Array(100), base))?.message).toMatch(/diffFilters: base is not a filter file/);
  expect(thrownBy(() => diffFilters(base, base.subarray(0, 60)))?.message).toMatch(/diffFilters: target is not a filter file/);
  expect(thrownBy(() => applyPatch(base, base))?.message).toMatch(/not a filter patch/);
  const later = patch.slice();
  later[4] = 2;
  expect(thrownBy(() => applyPatch(base, later))?.code).toBe('UNSUPPORTED_VERSION');
  const longer = new Uint8Array(patch.length + 1);
  longer.set(patch);
  expect(thrownBy(() => applyPatch(base, longer))?.code).toBe('CORRUPT');
  expect(thrownBy(() => applyPatch(base, null))?.code).toBe('INVALID_ARGUMENT');
  // ArrayBuffers are bytes too.
  const copy = base.slice();
  expect(applyPatch(copy.buffer, patch.slice().buffer).length).toBe(base.length);
});
