// Issue #41: the four wasm modules report a failure one way (bindings/handle_status.h,
// read by js/src/core/wasm-status.ts), so a user sees the same FilterError, code and
// message, whichever module met it: the same bad bytes read by the full package
// (core.wasm, an embind handle) and by `cuckoo-bloom-wasm/reader` (core.reader.wasm,
// plain C exports) fail alike, and core.shared.wasm's refusal carries the core's code.
import * as full from 'cuckoo-bloom-wasm';
import { asciiKeys } from '../helpers/keys.mjs';

const ROOT = new URL('../../', import.meta.url);
const reader = await import(new URL('dist/reader.import.cjs', ROOT).href);
const shared = await import(new URL('dist/shared.import.cjs', ROOT).href);

/** The FilterError `run` throws, as { code, message } (null when it does not throw). */
function failure(run) {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(full.FilterError);
    return { code: error.code, message: error.message };
  }
  return null;
}

let bytes;
beforeAll(async () => {
  await full.init();
  await reader.init();
  await shared.init({ maximumMemory: 8 * 2 ** 20 });
  const filter = new full.BloomFilter({ capacity: 100 });
  filter.addMany(asciiKeys(50));
  bytes = filter.serialize();
  filter.free();
});

test.each([
  ['a wrong magic', (copy) => (copy[0] ^= 0xff), 'CORRUPT'],
  ['a format version from the future', (copy) => (copy[4] = 0x7f), 'UNSUPPORTED_VERSION'],
  ['a flipped table byte', (copy) => (copy[copy.length - 20] ^= 0x01), 'CORRUPT'],
  ['a cut tail', null, 'CORRUPT'],
])('%s: the full package and the reader throw the same FilterError', (_what, damage, code) => {
  const damaged = damage === null ? bytes.subarray(0, bytes.length - 3) : bytes.slice();
  if (damage !== null) damage(damaged);
  const fromCore = failure(() => full.deserialize(damaged));
  const fromReader = failure(() => reader.FilterReader.deserialize(damaged));
  expect(fromCore).toEqual({ code, message: expect.any(String) });
  expect(fromCore.message.length).toBeGreaterThan(10);
  expect(fromReader).toEqual(fromCore);
});

test('the shared module: a filter larger than its memory is OUT_OF_MEMORY with the core\'s message, after the class', () => {
  const error = failure(() => new shared.SharedBloomFilter({ capacity: 100_000_000 }));
  expect(error.code).toBe('OUT_OF_MEMORY');
  expect(error.message).toMatch(/^SharedBloomFilter: \S/);
});

test('an embind handle that was not made is thrown as its status: a filter and a blocklist envelope alike', () => {
  const fromFilter = failure(() => full.BloomFilter.deserialize(bytes.subarray(0, 10)));
  expect(fromFilter.code).toBe('CORRUPT');
  const fromCompanion = failure(() => full.UrlBlocklist.deserialize(bytes));
  expect(fromCompanion.code).toBe('WRONG_TYPE');
});
