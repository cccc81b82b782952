// `cuckoo-bloom-wasm/reader` (dist/reader.* over core.reader.wasm, bindings/reader.cpp):
// it must read everything the full package writes, every type and URL blocklists, and
// answer exactly as the filter that wrote the bytes (false positives included: it is the
// same filter, not a similar one), refuse what the full package refuses with the same
// FilterError code, and stay a separate, smaller module.
import { readFileSync } from 'node:fs';
import { brotliCompressSync } from 'node:zlib';
import * as full from 'cuckoo-bloom-wasm';
import { makeKeys } from '../../bench/keys.mjs';
import { expectOwnBundle } from '../package/own-bundle.mjs';
import { codeOf } from '../helpers/filter-errors.mjs';

const DIST = new URL('../../dist/', import.meta.url);
const reader = await import(new URL('reader.import.cjs', DIST).href);

const KEYS = makeKeys(2_000, 0x7ead).strings;
const ABSENT = makeKeys(20_000, 0x7eae).strings;
// Byte keys that are not UTF-8, and non-ASCII strings: keys are their bytes everywhere.
const BYTE_KEYS = Array.from({ length: 200 }, (_, i) => new Uint8Array([0xff, i & 0xff, 0xfe, i >> 8, 0x80]));
const NON_ASCII = Array.from({ length: 200 }, (_, i) => `ключ-${i}-日本-😀`);
const OPTIONS = { falsePositiveRate: 0.05, seed: 0x5eed };
const EXTRA = { 'expiring-bloom': { window: 60, clock: () => 0 } };

function fill(entry, keys) {
  const options = { ...OPTIONS, ...(EXTRA[entry.name] ?? {}) };
  if (entry.isStatic) return entry.from(keys, options);
  const filter = entry.create({ ...options, capacity: keys.length });
  filter.addMany(keys);
  return filter;
}


test('before init(), reading is NOT_INITIALIZED', () => {
  expect(codeOf(() => reader.FilterReader.deserialize(new Uint8Array(64)))).toBe('NOT_INITIALIZED');
});

describe('with the module loaded', () => {
  beforeAll(async () => {
    await full.init();
    await reader.init();
  });

  describe.each(full.FILTER_TYPES.map((entry) => [entry.name, entry]))('%s', (_name, entry) => {
    test('reads the bytes and answers exactly as the filter that wrote them', () => {
      const keys = [...KEYS, ...BYTE_KEYS, ...NON_ASCII];
      const filter = fill(entry, keys);
      const bytes = filter.serialize();
      const read = reader.FilterReader.deserialize(bytes);
      try {
        expect(read.type).toBe(entry.name);
        expect(read.count).toBe(filter.count);
        expect(read.falsePositiveRate).toBe(filter.falsePositiveRate);
        expect(read.byteLength).toBe(bytes.length);
        // No false negatives: every key, string or bytes, is found.
        for (const key of keys) if (!read.has(key)) throw new Error(`false negative for ${String(key)}`);
        // Absent keys: the same answers, the filter's false positives included.
        const expected = filter.hasMany(ABSENT, { as: 'Uint8Array' });
        const answers = Uint8Array.from(ABSENT, (key) => (read.has(key) ? 1 : 0));
        expect(Buffer.from(answers).equals(Buffer.from(expected))).toBe(true);
        const falsePositives = answers.reduce((sum, bit) => sum + bit, 0);
        expect(falsePositives).toBeGreaterThan(0); // at 5%, some: the comparison above saw both answers
        // An ArrayBuffer reads the same.
        const again = reader.FilterReader.deserialize(bytes.slice().buffer);
        expect(again.has(KEYS[0])).toBe(true);
        again.free();
      } finally {
        read.free();
        filter.free();
      }
    });

    test('refuses damaged bytes with the code the full package gives', () => {
      const filter = fill(entry, KEYS.slice(0, 30));
      const bytes = filter.serialize();
      filter.free();
      const cases = [];
      for (let length = 0; length < bytes.length; length += Math.max(1, bytes.length >> 6)) cases.push(bytes.slice(0, length));
      for (let at = 0; at < bytes.length; at += Math.max(1, bytes.length >> 6)) {
        const flipped = bytes.slice();
        flipped[at] ^= 0x04;
        cases.push(flipped);
      }
      for (const damaged of cases) {
        const expected = codeOf(() => full.deserialize(damaged).free());
        const got = codeOf(() => reader.FilterReader.deserialize(damaged).free());
        expect(got).toBe(expected);
      }
      expect(cases.some((damaged) => codeOf(() => reader.FilterReader.deserialize(damaged)) === 'CORRUPT')).toBe(true);
    });
  });

  describe('URL blocklists', () => {
    const LIST = [
      '# test list',
      'evil.example',
      '||ads.tracker.example^',
      'http://bad.example/dl/payload.exe',
      'https://deep.example/a/b/c/d/e/',
      'http://10.1.2.3/x',
      ...Array.from({ length: 400 }, (_, i) => `host${i}.listed${i % 7}.example`),
      ...Array.from({ length: 200 }, (_, i) => `http://files${i}.example/p${i}/mal${i}.bin`),
    ].join('\n');
    const URLS = [
      'https://www.evil.example/login',
      'http://evil.example',
      'https://a.b.ads.tracker.example/x?y=1',
      'http://bad.example/dl/payload.exe',
      'http://bad.example/dl/other.exe',
      'https://deep.example/a/b/c/d/e/f/g.html',
      'http://10.1.2.3/x',
      'http://10.1.2.3/y',
      'https://example.org/',
      ...Array.from({ length: 400 }, (_, i) => `https://sub.host${i}.listed${i % 7}.example/page${i}`),
      ...Array.from({ length: 200 }, (_, i) => `http://files${i}.example/p${i}/mal${i}.bin?q=${i}`),
      ...Array.from({ length: 3000 }, (_, i) => `https://unlisted${i}.example.net/${i}/index.html`),
    ];

    test.each(['binary-fuse', 'bloom', 'cuckoo', 'blocked-bloom'])('%s: the same check() as UrlBlocklist for every URL', (type) => {
      const list = full.UrlBlocklist.build(LIST, { type, falsePositiveRate: 0.01 });
      const read = reader.UrlBlocklistReader.deserialize(list.serialize());
      try {
        expect(read.entryCount).toBe(list.entryCount);
        expect(read.expressionDepth).toEqual(list.expressionDepth);
        expect(read.type).toBe(list.type);
        for (const url of URLS) expect(read.check(url)).toEqual(list.check(url));
        // Listed hosts are found under any subdomain (no false negatives).
        expect(read.match('https://x.y.host17.listed3.example/')).toBe('host17.listed3.example/');
      } finally {
        read.free();
        list.free();
      }
    });

    test('a list and a filter are not each other', () => {
      const list = full.UrlBlocklist.build('evil.example');
      const filter = full.BloomFilter.from(['a'], { falsePositiveRate: 0.01 });
      expect(codeOf(() => reader.FilterReader.deserialize(list.serialize()))).toBe('WRONG_TYPE');
      expect(codeOf(() => reader.UrlBlocklistReader.deserialize(filter.serialize()))).toBe('WRONG_TYPE');
      list.free();
      filter.free();
    });

    test('a URL that cannot be parsed, or not a string, is INVALID_ARGUMENT', () => {
      const read = reader.UrlBlocklistReader.deserialize(full.UrlBlocklist.build('evil.example').serialize());
      expect(codeOf(() => read.match('not a url'))).toBe('INVALID_ARGUMENT');
      expect(codeOf(() => read.match(42))).toBe('INVALID_ARGUMENT');
      read.free();
      expect(codeOf(() => read.match('https://evil.example/'))).toBe('FREED');
    });
  });

  test('bad arguments and use after free are typed errors', () => {
    expect(codeOf(() => reader.FilterReader.deserialize('bytes'))).toBe('INVALID_ARGUMENT');
    expect(codeOf(() => reader.FilterReader.deserialize(null))).toBe('INVALID_ARGUMENT');
    const filter = full.BloomFilter.from(['a'], { falsePositiveRate: 0.01 });
    const bytes = filter.serialize();
    filter.free();
    const detached = bytes.slice();
    structuredClone(detached.buffer, { transfer: [detached.buffer] });
    expect(codeOf(() => reader.FilterReader.deserialize(detached))).toBe('INVALID_ARGUMENT');
    const read = reader.FilterReader.deserialize(bytes);
    expect(codeOf(() => read.has(42))).toBe('INVALID_ARGUMENT');
    expect(read.has('a')).toBe(true);
    read.free();
    read.free(); // twice is fine
    expect(codeOf(() => read.has('a'))).toBe('FREED');
    expect(codeOf(() => read.type)).toBe('FREED');
  });

  test('bytes too large for wasm memory are OUT_OF_MEMORY, never a wrapped size', () => {
    // A length past 2^31 would wrap in _malloc's 32-bit size; the check must come first
    // (a plain object with a huge length stands in: no 2 GiB buffer is allocated).
    const huge = new Uint8Array(16);
    Object.defineProperty(huge, 'length', { value: 2 ** 32 + 16 });
    expect(codeOf(() => reader.FilterReader.deserialize(huge))).toBe('OUT_OF_MEMORY');
  });

  test('thousands of readers opened and freed leave the module usable', () => {
    const filter = fill(full.FILTER_TYPES.find((entry) => entry.name === 'bloom'), KEYS);
    const bytes = filter.serialize();
    filter.free();
    for (let i = 0; i < 5_000; i++) reader.FilterReader.deserialize(bytes).free();
    const read = reader.FilterReader.deserialize(bytes);
    for (const key of KEYS) expect(read.has(key)).toBe(true);
    read.free();
  });
});

describe('the bundle', () => {
  test('is its own module over core.reader.wasm, with no embind and no node: import in the browser file', () => {
    const bundle = expectOwnBundle('reader.js', 'reader', 'mjs|wasm|small\\.mjs|small\\.wasm');
    expect(bundle).not.toMatch(/["']node:/);
    expect(readFileSync(new URL('core.reader.mjs', DIST), 'utf8')).not.toMatch(/embind|registerType/);
  });

  test('its wasm is smaller on the wire than the size build', () => {
    const brotli = (name) => brotliCompressSync(readFileSync(new URL(name, DIST))).length;
    expect(brotli('core.reader.wasm')).toBeLessThan(brotli('core.small.wasm'));
  });
});
