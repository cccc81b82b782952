// A string key is hashed as the UTF-8 that TextEncoder writes for it alone,
// whichever route it takes into wasm: the short ASCII copy loop, the
// JavaScript encoder for short strings that are not ASCII, TextEncoder, or
// (in Node) UTF-16 units that the core encodes; alone or in a batch, and
// whatever keys came before it (the routes keep state between calls). Any
// difference would be a false negative between has(string) and has(bytes),
// or between this package and the reader, or another language.
import fc from 'fast-check';
import { init, BloomFilter, KeyBatch } from 'cuckoo-bloom-wasm';
import { sameBytes } from '../helpers/keys.mjs';

const DIST = new URL('../../dist/', import.meta.url);
const reader = await import(new URL('reader.import.cjs', DIST).href);
const RUNS = Number(process.env.FC_RUNS ?? 300);
const utf8 = new TextEncoder();

beforeAll(async () => {
  await init();
  await reader.init();
});

const unitOf = (min, max) => fc.integer({ min, max }).map((code) => String.fromCharCode(code));
// Every kind of UTF-16 unit: 1-, 2- and 3-byte characters, surrogate pairs,
// and lone high and low surrogates (TextEncoder writes U+FFFD for each).
const unitArb = fc.oneof(
  { weight: 4, arbitrary: unitOf(0x00, 0x7f) },
  { weight: 2, arbitrary: unitOf(0x80, 0x7ff) },
  { weight: 2, arbitrary: fc.oneof(unitOf(0x800, 0xd7ff), unitOf(0xe000, 0xffff)) },
  { weight: 1, arbitrary: fc.constantFrom('😀', '𝄞', '👩‍👩‍👧') },
  { weight: 1, arbitrary: unitOf(0xd800, 0xdbff) },
  { weight: 1, arbitrary: unitOf(0xdc00, 0xdfff) },
);
// Lengths on both sides of every route's limit (16 and 32 units, the batch's 32 Ki).
const keyArb = fc.oneof(
  { weight: 4, arbitrary: fc.string({ unit: unitArb, maxLength: 20 }) },
  { weight: 2, arbitrary: fc.string({ unit: unitArb, minLength: 14, maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: unitArb, minLength: 30, maxLength: 300 }) },
);

test('every string key hashes as its TextEncoder bytes: alone, in batches, after any other keys, and in the reader', () => {
  fc.assert(
    fc.property(fc.array(keyArb, { minLength: 1, maxLength: 30 }), (keys) => {
      const asStrings = new BloomFilter({ capacity: 100, falsePositiveRate: 0.01, seed: 3 });
      const asBytes = new BloomFilter({ capacity: 100, falsePositiveRate: 0.01, seed: 3 });
      const asBatch = new BloomFilter({ capacity: 100, falsePositiveRate: 0.01, seed: 3 });
      try {
        for (const key of keys) asStrings.add(key);
        for (const key of keys) asBytes.add(utf8.encode(key));
        asBatch.addMany(keys);
        const bytes = asStrings.serialize();
        // The same bits, byte for byte: every key reached the same hash.
        if (!sameBytes(bytes, asBytes.serialize()) || !sameBytes(bytes, asBatch.serialize())) return false;
        const read = reader.FilterReader.deserialize(bytes);
        try {
          for (const key of keys) {
            if (!asBytes.has(key) || !read.has(key)) return false;
          }
          return asBytes.hasMany(KeyBatch.from(keys), { as: 'Uint8Array' }).every((answer) => answer === 1);
        } finally {
          read.free();
        }
      } finally {
        asStrings.free();
        asBytes.free();
        asBatch.free();
      }
    }),
    { numRuns: RUNS, seed: 0x57ab1e },
  );
});
