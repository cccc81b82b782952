// A blocklist must never miss a listed entry, so a type that forgets its keys
// by itself (the registry's `forgets` capability: expiring Bloom) is refused.
import { FILTER_TYPES, init, UrlBlocklist } from 'cuckoo-bloom-wasm';

await init(); // FILTER_TYPES' capabilities are the loaded core's, read below while collecting tests

const forgetting = FILTER_TYPES.filter((entry) => entry.forgets);

test('the registry marks the expiring Bloom filter, and only it, as forgetting', () => {
  expect(forgetting.map((entry) => entry.name)).toEqual(['expiring-bloom']);
});

test.each(forgetting.flatMap((entry) => [entry.name, ...entry.aliases]))('build and create refuse %s with INVALID_ARGUMENT naming why', (type) => {
  const refused = expect.objectContaining({ code: 'INVALID_ARGUMENT', message: expect.stringMatching(/forgets its keys/) });
  expect(() => UrlBlocklist.build('evil.example', { type })).toThrow(refused);
  expect(() => UrlBlocklist.create({ type, capacity: 10 })).toThrow(refused);
});

test.each(FILTER_TYPES.filter((entry) => !entry.forgets).map((entry) => entry.name))('%s is still taken', (type) => {
  const list = UrlBlocklist.build('evil.example', { type });
  try {
    expect(list.match('http://evil.example/')).toBe('evil.example/');
  } finally {
    list.free();
  }
});
