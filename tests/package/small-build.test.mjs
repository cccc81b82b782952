// The size build (`cuckoo-bloom-wasm/small`: dist/small.js over core.small.wasm, the same
// C++ compiled at -Oz with its own glue) must be the same library: for every registered
// type, the same operations give the same answers and the same bytes as the speed build,
// and each reads the other's bytes. The two bundles are separate module graphs, so both
// wasm instances live side by side in this one process.
import { readFileSync } from 'node:fs';
import * as fast from 'cuckoo-bloom-wasm';
import { makeKeys } from '../../bench/keys.mjs';
import { DIST, expectOwnBundle } from './own-bundle.mjs';

const small = await import(new URL('small.js', DIST).href);

const KEYS = makeKeys(3_000, 0x5a11).strings;
const ABSENT = makeKeys(20_000, 0x5a12).strings;
const REMOVED = KEYS.slice(0, 300);
// Options every type takes; the expiring filter's clock is fixed so both builds agree.
const OPTIONS = { falsePositiveRate: 0.01, seed: 0x5eed };
const EXTRA = { 'expiring-bloom': { window: 60, clock: () => 0 } };

beforeAll(async () => {
  await fast.init();
  await small.init({ wasm: readFileSync(new URL('core.small.wasm', DIST)) });
});

function fill(lib, entry) {
  const typeOf = lib.FILTER_TYPES.find((candidate) => candidate.name === entry.name);
  const options = { ...OPTIONS, ...(EXTRA[entry.name] ?? {}) };
  if (entry.isStatic) return typeOf.from(KEYS, options);
  const filter = typeOf.create({ ...options, capacity: KEYS.length });
  filter.addMany(KEYS);
  if (entry.supportsRemove) for (const key of REMOVED) expect(filter.remove(key)).toBe(true);
  return filter;
}

describe('the size build (cuckoo-bloom-wasm/small)', () => {
  test('is its own bundle over core.small.wasm, and smaller on the wire', () => {
    expectOwnBundle('small.js', 'small', 'mjs|wasm');
    const smallBytes = readFileSync(new URL('core.small.wasm', DIST)).length;
    expect(smallBytes).toBeLessThan(readFileSync(new URL('core.wasm', DIST)).length);
  });

  test('lists the same types', () => {
    expect(small.FILTER_TYPES.map((entry) => entry.name)).toEqual(fast.FILTER_TYPES.map((entry) => entry.name));
  });

  describe.each(fast.FILTER_TYPES.map((entry) => [entry.name, entry]))('%s', (_name, entry) => {
    test('the same bytes and answers as the speed build, and each reads the other', () => {
      const a = fill(fast, entry);
      const b = fill(small, entry);
      try {
        const bytes = a.serialize();
        expect(Buffer.from(b.serialize()).equals(Buffer.from(bytes))).toBe(true);
        const probes = [...KEYS, ...ABSENT];
        const answers = a.hasMany(probes, { as: 'Uint8Array' });
        expect(Buffer.from(b.hasMany(probes, { as: 'Uint8Array' })).equals(Buffer.from(answers))).toBe(true);
        // No false negatives in the size build: every key added and not removed is found.
        const kept = entry.supportsRemove ? KEYS.slice(REMOVED.length) : KEYS;
        expect(b.hasMany(kept).every(Boolean)).toBe(true);
        // Some absent keys must answer false, or the comparison above proves little.
        expect(answers.subarray(KEYS.length).includes(0)).toBe(true);
        // The expiring filter reads its clock from the caller, not the bytes.
        const crossRead =
          entry.name === 'expiring-bloom'
            ? small.ExpiringBloomFilter.deserialize(bytes, { clock: () => 0 })
            : small.deserialize(bytes);
        try {
          expect(Buffer.from(crossRead.hasMany(probes, { as: 'Uint8Array' })).equals(Buffer.from(answers))).toBe(true);
        } finally {
          crossRead.free();
        }
      } finally {
        a.free();
        b.free();
      }
    });
  });

  test('errors are FilterErrors of its own module, with the same codes', () => {
    expect(() => small.deserialize(new Uint8Array([1, 2, 3]))).toThrow(small.FilterError);
    let code;
    try {
      small.deserialize(new Uint8Array([1, 2, 3]));
    } catch (error) {
      code = error.code;
    }
    let fastCode;
    try {
      fast.deserialize(new Uint8Array([1, 2, 3]));
    } catch (error) {
      fastCode = error.code;
    }
    expect(code).toBe(fastCode);
  });
});
