// The caller's bytes are theirs: no API writes into them, keeps a view of them
// that later changes would reach, on success or on failure. Node's fs hands
// out Buffers, whose slice() is a view (Uint8Array's is a copy), so each call
// is made with a Buffer: applyPatch used to reverse 8 bytes of a Buffer base
// in place (its checksum), after which the same good patch was refused; a
// blocklist read from a Buffer kept a view of its exception set.
import { applyPatch, BloomFilter, CuckooFilter, deserialize, diffFilters, init, UrlBlocklist } from 'cuckoo-bloom-wasm';
import { init as initReader, UrlBlocklistReader } from 'cuckoo-bloom-wasm/reader';
import { thrownBy } from '../helpers/keys.mjs';

// Top-level: the describe blocks below build their filters as they are collected.
await init();
await initReader();

const keys = (prefix, count) => Array.from({ length: count }, (_, i) => `${prefix}-${i}`);

/** `bytes` as fs.readFileSync returns them: a Buffer inside a larger pool, at a nonzero offset. */
function asFileBuffer(bytes) {
  const pool = Buffer.alloc(bytes.length + 64);
  const view = pool.subarray(16, 16 + bytes.length);
  view.set(bytes);
  return view;
}

describe('patches', () => {
  const before = CuckooFilter.from(keys('old', 300), { capacity: 1000, seed: 9 });
  const after = before.clone();
  after.addMany(keys('new', 20));
  const baseBytes = before.serialize();
  const targetBytes = after.serialize();
  const patch = diffFilters(baseBytes, targetBytes);

  test('applyPatch leaves a Buffer base as it was, and the same patch applies again', () => {
    const base = asFileBuffer(baseBytes);
    expect(Buffer.from(applyPatch(base, patch)).equals(Buffer.from(targetBytes))).toBe(true);
    expect(base.equals(Buffer.from(baseBytes))).toBe(true);
    expect(Buffer.from(applyPatch(base, patch)).equals(Buffer.from(targetBytes))).toBe(true);
  });

  test('a damaged patch is refused and the Buffer base is unchanged', () => {
    const base = asFileBuffer(baseBytes);
    const damaged = asFileBuffer(patch);
    damaged[damaged.length - 20] ^= 1;
    const damagedCopy = Buffer.from(damaged);
    expect(thrownBy(() => applyPatch(base, damaged)).code).toMatch(/^(CORRUPT|INVALID_ARGUMENT)$/);
    expect(base.equals(Buffer.from(baseBytes))).toBe(true);
    expect(damaged.equals(damagedCopy)).toBe(true);
    expect(Buffer.from(applyPatch(base, patch)).equals(Buffer.from(targetBytes))).toBe(true);
  });

  test('diffFilters and deserialize leave Buffer inputs as they were', () => {
    const base = asFileBuffer(baseBytes);
    const target = asFileBuffer(targetBytes);
    diffFilters(base, target);
    const read = deserialize(target);
    expect(base.equals(Buffer.from(baseBytes))).toBe(true);
    expect(target.equals(Buffer.from(targetBytes))).toBe(true);
    // And the filter read owns its table: zeroing the caller's bytes changes nothing in it.
    target.fill(0);
    expect(read.hasMany(keys('new', 20)).every(Boolean)).toBe(true);
    read.free();
  });
});

describe('a blocklist with an exception set (neverMatch), read from a Buffer', () => {
  const NEVER = keys('quiet', 400).map((label) => `${label}.example`);
  const built = UrlBlocklist.build(keys('evil', 200).map((label) => `${label}.example`).join('\n'), {
    type: 'bloom',
    falsePositiveRate: 0.2,
    neverMatch: NEVER,
  });
  const bytes = built.serialize();
  const urls = [...NEVER, 'evil-7.example'].map((host) => `http://${host}/`);
  const verdicts = (list) => urls.map((url) => list.match(url));
  const expected = verdicts(built);

  test.each([
    ['UrlBlocklist', (input) => UrlBlocklist.deserialize(input)],
    ['UrlBlocklistReader', (input) => UrlBlocklistReader.deserialize(input)],
  ])('%s answers the same after the caller zeroes the bytes it was read from', (_, read) => {
    expect(expected.at(-1)).toBe('evil-7.example/');
    const input = asFileBuffer(bytes);
    const list = read(input);
    expect(verdicts(list)).toEqual(expected);
    input.fill(0);
    expect(verdicts(list)).toEqual(expected);
    if (typeof list.serialize === 'function') expect(Buffer.from(list.serialize()).equals(Buffer.from(bytes))).toBe(true);
    list.free();
  });
});

test('BloomFilter.deserialize of a Buffer leaves it unchanged', () => {
  const bytes = BloomFilter.from(keys('k', 100), { seed: 3 }).serialize();
  const input = asFileBuffer(bytes);
  BloomFilter.deserialize(input).free();
  expect(input.equals(Buffer.from(bytes))).toBe(true);
});
