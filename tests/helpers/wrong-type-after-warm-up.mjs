// Run in a child process by tests/core/wrong-type-after-warm-up.test.mjs:
//
//   node tests/helpers/wrong-type-after-warm-up.mjs <entry point> <rounds>
//
// Warms one per-key entry point up on the keys users pass (ASCII and
// non-ASCII strings, Uint8Arrays) until V8 optimizes it, then passes values
// that are neither, round after round. Each must throw FilterError
// INVALID_ARGUMENT. Node 20's optimizing compiler could read a string's
// length before the type check in such code, and a number then crashed the
// process (SIGSEGV): that is why this runs in a process of its own.
//
// Prints one JSON line: { calls, errors: { code: count } }.
const DIST = new URL('../../dist/', import.meta.url);
const full = await import(new URL('index.js', DIST).href);
const { createRequire } = await import('node:module');
const reader = createRequire(import.meta.url)(new URL('reader.cjs', DIST).pathname);

const [entryPoint, roundsArgument] = process.argv.slice(2);
const rounds = Number(roundsArgument ?? 60);

await full.init();
await reader.init();

const ascii = Array.from({ length: 2000 }, (_, i) => `key-${i}-${'x'.repeat(i % 50)}`);
const bytes = Array.from({ length: 200 }, (_, i) => new Uint8Array([0xff, i & 0xff, 0xfe, i >> 8, 0x80]));
const wide = Array.from({ length: 200 }, (_, i) => `ключ-${i}-日本-😀`);
const keys = [...ascii, ...bytes, ...wide];
const WRONG = [42, 1.5, -0, null, undefined, true, {}, [], Symbol('key'), 10n, () => 'key'];

// URLs for the URL lists' warm-up (they take strings only); other values pass as they are.
const asUrl = (key) =>
  typeof key === 'string' ? `https://${encodeURIComponent(key)}.example/p` : key instanceof Uint8Array ? `https://b${key[1]}.example/` : key;

// Each entry point: (a fresh target) => (key) => a call that must accept any valid key.
const ENTRY_POINTS = {
  'Filter#has': () => {
    const filter = full.BloomFilter.from(keys, { falsePositiveRate: 0.01 });
    return (key) => filter.has(key);
  },
  'Filter#add': () => {
    const filter = new full.CountingBloomFilter({ capacity: 100_000, falsePositiveRate: 0.01 });
    return (key) => filter.add(key);
  },
  'Filter#remove': () => {
    const filter = new full.CuckooFilter({ capacity: 10_000, falsePositiveRate: 0.01 });
    return (key) => {
      filter.add(key);
      return filter.remove(key);
    };
  },
  'Filter#addIfNew': () => {
    const filter = new full.BloomFilter({ capacity: 100_000, falsePositiveRate: 0.01 });
    return (key) => filter.addIfNew(key);
  },
  'FilterReader#has': () => {
    const read = reader.FilterReader.deserialize(full.BloomFilter.from(keys, { falsePositiveRate: 0.01 }).serialize());
    return (key) => read.has(key);
  },
  'UrlBlocklist#match': () => {
    const list = full.UrlBlocklist.build(['evil.example', 'bad.example/path']);
    return (key) => list.match(asUrl(key));
  },
  'UrlBlocklistReader#match': () => {
    const list = reader.UrlBlocklistReader.deserialize(full.UrlBlocklist.build(['evil.example']).serialize());
    return (key) => list.match(asUrl(key));
  },
  'CuckooIndex#set': () => {
    const index = new full.CuckooIndex({ capacity: 10_000 });
    return (key) => index.set(key, 'v');
  },
  'Filter#hasMany': () => {
    const filter = full.BloomFilter.from(keys, { falsePositiveRate: 0.01 });
    return (key) => filter.hasMany([keys[0], key, keys[1]]);
  },
  'KeyBatch.from': () => (key) => full.KeyBatch.from([keys[0], key]),
  'CuckooIndex#has': () => {
    const index = new full.CuckooIndex({ capacity: 10_000 });
    return (key) => index.has(key);
  },
};

const makeCall = ENTRY_POINTS[entryPoint];
if (makeCall === undefined) throw new Error(`unknown entry point ${entryPoint}; known: ${Object.keys(ENTRY_POINTS).join(', ')}`);

let calls = 0;
const errors = {};
for (let round = 0; round < rounds; round++) {
  const call = makeCall();
  // Ever longer warm-ups, so that some round meets each stage of optimization.
  for (let i = 0; i < 100 + round * 50; i++) call(keys[(round * 7919 + i) % keys.length]);
  for (const value of WRONG) {
    calls++;
    let code = 'no error';
    try {
      call(value);
    } catch (error) {
      code = error instanceof full.FilterError || error?.name === 'FilterError' ? error.code : `${error?.name}: ${error?.message}`;
    }
    errors[code] = (errors[code] ?? 0) + 1;
  }
}
console.log(JSON.stringify({ calls, errors }));
