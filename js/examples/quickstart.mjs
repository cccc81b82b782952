// Node quick start (ESM). In your project: import from 'cuckoo-bloom-wasm'.
import { init, BloomFilter, CuckooFilter, deserialize, FilterError } from '../../dist/index.js';

await init();

// "Seen this URL?" for a crawler: 1M URLs at 0.1% false positives.
const seen = new BloomFilter({ capacity: 1_000_000, falsePositiveRate: 0.001 });
const urls = Array.from({ length: 100_000 }, (_, i) => `https://example.com/page/${i}`);
seen.addMany(urls);
console.log('seen page/42:', seen.has('https://example.com/page/42'));
console.log('seen elsewhere:', seen.has('https://elsewhere.example/'));
console.log(`bloom: ${seen.byteLength} bytes, ${seen.bitCount} bits, k=${seen.hashCount}`);

// Ship it as bytes; read it back anywhere (Node, browser, C++).
const bytes = seen.serialize();
const again = deserialize(bytes);
console.log(`round trip: ${bytes.length} bytes -> ${again.type}, has page/7: ${again.has('https://example.com/page/7')}`);

// Cuckoo filters support deletion, and say so when they are full.
const blocklist = new CuckooFilter({ capacity: 8, falsePositiveRate: 0.01 });
blocklist.add('evil.example/');
console.log('blocked:', blocklist.has('evil.example/'), '-> removed:', blocklist.remove('evil.example/'));
try {
  for (let i = 0; ; i++) blocklist.add(`host-${i}.example/`);
} catch (error) {
  if (!(error instanceof FilterError)) throw error;
  console.log(`${error.code}: ${error.message}`);
}

seen.free();
again.free();
blocklist.free();
