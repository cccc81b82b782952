import { init, BloomFilter } from 'cuckoo-bloom-wasm';

test('a Bloom filter built through the package finds what was added', async () => {
  await init();
  const filter = new BloomFilter({ capacity: 1000, falsePositiveRate: 0.01 });
  filter.add('https://example.com/a');
  expect(filter.has('https://example.com/a')).toBe(true);
  expect(filter.has(new TextEncoder().encode('https://example.com/a'))).toBe(true);
  filter.free();
});
