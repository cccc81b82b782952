// What the docs say of the Ribbon filter, held against the package (found by an outside
// attack, ADVERSARY.md point 5): its size per key at every rate, the README's "fewest bits
// per key", and the reference tables that list every type (FORMAT.md's nested types of a
// URL blocklist, SECURITY.md's per-type loader checks, GUIDE.md's classes, the golden
// files' README).
import { readFileSync } from 'node:fs';
import { beforeAll, expect, test } from '@jest/globals';
import { BinaryFuseFilter, init, RibbonFilter, UrlBlocklist } from 'cuckoo-bloom-wasm';

const read = (path) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');
const KEY_COUNT = 1_000_000;
let keys;

beforeAll(async () => {
  await init();
  keys = Array.from({ length: KEY_COUNT }, (_, i) => `m${i}`);
});

/** Bits per key of a filter built from `keys`, over the information bound log2(1/rate). */
function overBound(filter, rate, count = KEY_COUNT) {
  return (filter.byteLength * 8) / count / Math.log2(1 / rate);
}

// ribbon.ts, the README's table and ARCHITECTURE.md: 1.04-1.06x the bound at rates of 1% and
// below, up to 1.11x over 10% (mixing r- and (r + 1)-bit columns moves the rate, not its
// logarithm, linearly: between powers of two a large rate pays more).
test.each([
  [0.01, 1.06],
  [0.001, 1.06],
  [3.3e-5, 1.06],
  [0.1, 1.11],
  [0.2, 1.11],
  [0.375, 1.11],
  [0.4, 1.11],
])('rate %p: at most %px log2(1/rate) bits per key over 1M keys, the rate met', (rate, bound) => {
  const filter = RibbonFilter.from(keys, { falsePositiveRate: rate });
  try {
    expect(filter.estimatedFalsePositiveRate).toBeLessThanOrEqual(rate * (1 + 1e-9));
    expect(overBound(filter, rate)).toBeLessThanOrEqual(bound);
  } finally {
    filter.free();
  }
});

test("README: the type whose row says 'the fewest bits per key' is the smallest of the static types at 2^-8 and 0.001", () => {
  const rows = read('README.md').split('\n').filter((line) => /^\| `[a-z-]+` \|/.test(line));
  const fewest = rows.filter((line) => line.includes('the fewest bits per key'));
  expect(fewest).toHaveLength(1);
  expect(fewest[0]).toMatch(/^\| `ribbon` \|/);
  const some = keys.slice(0, 200_000);
  for (const rate of [2 ** -8, 0.001]) {
    const ribbon = RibbonFilter.from(some, { falsePositiveRate: rate });
    for (const arity of [3, 4]) {
      const fuse = BinaryFuseFilter.from(some, { falsePositiveRate: rate, arity });
      expect(ribbon.estimatedFalsePositiveRate).toBeLessThanOrEqual(rate * (1 + 1e-9));
      expect([rate, arity, ribbon.byteLength < fuse.byteLength]).toEqual([rate, arity, true]);
      fuse.free();
    }
    ribbon.free();
  }
});

/** The type ids of a list such as "1–7, 17, 18, 19". */
function typeIds(text) {
  const ids = new Set();
  for (const part of text.split(',')) {
    const [from, to = from] = part.trim().split(/[–-]/).map(Number);
    for (let id = from; id <= to; id++) ids.add(id);
  }
  return ids;
}

test("FORMAT.md's type-16 row lists the nested type of a ribbon blocklist", () => {
  const blocklist = UrlBlocklist.build('||evil.example^\nbad.example/dl/x.exe', { type: 'ribbon' });
  const bytes = blocklist.serialize();
  blocklist.free?.();
  // The envelope: 56 header bytes and 8 of parameters, then the nested blob, whose type is its byte 6.
  const nestedType = bytes[56 + 8 + 6];
  expect(nestedType).toBe(7);
  const row = read('docs/FORMAT.md').split('\n').find((line) => line.startsWith('| 16 | `url-blocklist`'));
  const listed = /nested filter blob of a filter type \(([^)]*)\)/.exec(row)[1];
  expect([...typeIds(listed)]).toContain(nestedType);
});

test('the golden files, SECURITY.md step 8 and GUIDE.md each name the Ribbon filter', () => {
  expect(read('tests/golden/README.md')).toMatch(/`ribbon\.cbf`/);
  const security = read('docs/SECURITY.md');
  expect(security.slice(security.indexOf('Step 8, per type'))).toMatch(/\*\*Ribbon\*\* \(`RibbonFilter::fromBlob`/);
  expect(read('docs/GUIDE.md')).toMatch(/^\| `RibbonFilter` \|/m);
});
