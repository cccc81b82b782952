// CuckooIndex's API: values and their absence, iteration, errors with codes,
// free/close, and the store reads an absent key costs.
import { CuckooIndex } from '../../dist/index.import.cjs';
import { FileCuckooIndex } from '../../dist/index-file.mjs';
import { codeOf, logDirectory } from './lib/log-files.mjs';

const logPath = logDirectory('cbw-index-api-');

test('values: bytes, strings, none (null) and absent (undefined)', () => {
  const index = new CuckooIndex();
  expect(index.set('text', 'héllo')).toBe(true);
  expect(index.set('bytes', new Uint8Array([0, 255, 7]))).toBe(true);
  expect(index.set('empty', '')).toBe(true);
  expect(index.set('member')).toBe(true);
  expect(index.getString('text')).toBe('héllo');
  expect(index.get('bytes')).toEqual(new Uint8Array([0, 255, 7]));
  expect(index.get('empty')).toEqual(new Uint8Array(0));
  expect(index.get('member')).toBeNull();
  expect(index.get('nothing')).toBeUndefined();
  // A string key and its UTF-8 bytes are one key.
  expect(index.has(new TextEncoder().encode('text'))).toBe(true);
  expect(index.set(new TextEncoder().encode('member'), 'now valued')).toBe(false);
  expect(index.getString('member')).toBe('now valued');
  expect(index.size).toBe(4);
  index.free();
});

test('iteration lists live records in log order, and refuses to continue after a change', () => {
  const index = new CuckooIndex();
  for (const key of ['a', 'b', 'c', 'd']) index.set(key, key.toUpperCase());
  index.delete('b');
  index.set('a', 'A2'); // moves a to the end of the log
  const decoder = new TextDecoder();
  expect([...index.keys()].map((k) => decoder.decode(k))).toEqual(['c', 'd', 'a']);
  expect([...index].map(([k, v]) => `${decoder.decode(k)}=${decoder.decode(v)}`)).toEqual(['c=C', 'd=D', 'a=A2']);
  const iterator = index.keys();
  iterator.next();
  index.set('e');
  expect(codeOf(() => iterator.next())).toBe('INVALID_ARGUMENT');
  index.free();
});

test('bad options, keys and values are INVALID_ARGUMENT; a freed index is FREED', () => {
  expect(codeOf(() => new CuckooIndex({ tagBits: 0 }))).toBe('INVALID_ARGUMENT');
  expect(codeOf(() => new CuckooIndex({ tagBits: 25 }))).toBe('INVALID_ARGUMENT');
  expect(codeOf(() => new CuckooIndex({ capacity: 0 }))).toBe('INVALID_ARGUMENT');
  expect(codeOf(() => new CuckooIndex({ capacty: 10 }))).toBe('INVALID_ARGUMENT');
  expect(codeOf(() => new CuckooIndex('big'))).toBe('INVALID_ARGUMENT');
  const index = new CuckooIndex();
  expect(codeOf(() => index.set(42))).toBe('INVALID_ARGUMENT');
  expect(codeOf(() => index.has(null))).toBe('INVALID_ARGUMENT');
  expect(codeOf(() => index.set('k', 42))).toBe('INVALID_ARGUMENT');
  expect(codeOf(() => index.set('x'.repeat((1 << 20) + 1)))).toBe('INVALID_ARGUMENT');
  expect(index.size).toBe(0);
  index.free();
  index.free();
  expect(codeOf(() => index.has('k'))).toBe('FREED');
  expect(codeOf(() => index.size)).toBe('FREED');
});

test('a file index: open, close, FREED after close, INVALID_ARGUMENT without a path', () => {
  const path = logPath('api.log');
  const index = FileCuckooIndex.open(path, { syncEveryWrite: true });
  index.set('k', 'v');
  index.sync();
  expect(index.path).toBe(path);
  index.close();
  index.close();
  expect(codeOf(() => index.has('k'))).toBe('FREED');
  expect(codeOf(() => FileCuckooIndex.open(''))).toBe('INVALID_ARGUMENT');
  expect(codeOf(() => FileCuckooIndex.open(path, { tagBits: 99 }))).toBe('INVALID_ARGUMENT');
  expect(codeOf(() => FileCuckooIndex.open(logPath('no-such-dir/x.log')))).toBe('UNAVAILABLE');
  const again = FileCuckooIndex.open(path);
  expect(again.getString('k')).toBe('v');
  again.close();
});
