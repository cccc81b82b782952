// Where a new user meets more than one entry of the package, or the same idea
// through two doors (the CLI's --type and UrlBlocklist's type): the rules are
// the same, and when they cannot be, the message says exactly why.
import { readFileSync } from 'node:fs';
import * as full from 'cuckoo-bloom-wasm';
import { thrown } from '../helpers/keys.mjs';

const DIST = new URL('../../dist/', import.meta.url);
const reader = await import(new URL('reader.import.cjs', DIST).href);
const inline = await import(new URL('inline.js', DIST).href);

describe('NOT_INITIALIZED names the entry that needs init()', () => {
  test('the reader, after only the main entry was initialized', async () => {
    await full.init();
    const bytes = full.BloomFilter.from(['a'], { falsePositiveRate: 0.01 }).serialize();
    expect(reader.isInitialized()).toBe(false);
    const error = thrown(() => reader.FilterReader.deserialize(bytes));
    expect(error).toBeInstanceOf(reader.FilterError);
    expect(error.code).toBe('NOT_INITIALIZED');
    expect(error.message).toMatch(/^cuckoo-bloom-wasm\/reader is not initialized: `await init\(\)` imported from 'cuckoo-bloom-wasm\/reader'/);
    expect(error.message).toMatch(/init\(\) of one does not initialize another/);
  });

  test('the inline entry names itself, the main entry itself', () => {
    expect(inline.isInitialized()).toBe(false);
    const error = thrown(() => new inline.BloomFilter({ capacity: 10 }));
    expect(error.code).toBe('NOT_INITIALIZED');
    expect(error.message).toMatch(/^cuckoo-bloom-wasm\/inline is not initialized/);
    // The bundles say who they are: each main-entry build names the main entry.
    for (const file of ['index.js', 'index.cjs', 'browser.js']) {
      expect(readFileSync(new URL(file, DIST), 'utf8')).toContain('"cuckoo-bloom-wasm"');
    }
    expect(readFileSync(new URL('small.js', DIST), 'utf8')).toContain('"cuckoo-bloom-wasm/small"');
  });
});

describe('FilterError is one class to instanceof, whichever entry threw it', () => {
  test('an error of the reader, shared or inline bundle is a FilterError of the main entry, and the other way round', async () => {
    const shared = await import(new URL('shared.import.cjs', DIST).href);
    const fromReader = thrown(() => reader.FilterReader.deserialize(new Uint8Array(3)));
    const fromShared = thrown(() => new shared.SharedBloomFilter({ capacity: -1 }));
    const fromInline = thrown(() => new inline.BloomFilter({ capacity: 10 }));
    await full.init();
    const fromMain = thrown(() => full.BloomFilter.deserialize(new Uint8Array(3)));
    // Each bundle has its own copy of the class (the reader must stay small): not one object.
    expect(new Set([full.FilterError, reader.FilterError, shared.FilterError, inline.FilterError]).size).toBeGreaterThan(1);
    for (const error of [fromReader, fromShared, fromInline, fromMain]) {
      for (const FilterErrorOfEntry of [full.FilterError, reader.FilterError, shared.FilterError, inline.FilterError]) {
        expect(error instanceof FilterErrorOfEntry).toBe(true);
      }
      expect(error instanceof Error).toBe(true);
    }
    // Nothing else passes for one: an Error with the same name and code, or a look-alike object.
    const lookAlike = Object.assign(new Error('x'), { name: 'FilterError', code: 'CORRUPT' });
    for (const other of [lookAlike, { code: 'CORRUPT' }, null, 'FilterError']) {
      expect(other instanceof full.FilterError).toBe(false);
      expect(other instanceof reader.FilterError).toBe(false);
    }
  });
});

describe('filters of two entries in one process', () => {
  beforeAll(async () => {
    await full.init();
    await inline.init();
  });

  test.each(['BloomFilter', 'BlockedBloomFilter', 'ScalableBloomFilter'])('%s.union of a filter from /inline says why not, and how', (name) => {
    const options = name === 'ScalableBloomFilter' ? { initialCapacity: 10 } : { capacity: 10 };
    const mine = new full[name](options);
    const theirs = new inline[name](options);
    theirs.add('only-there');
    const error = thrown(() => mine.union(theirs));
    expect(error).toBeInstanceOf(full.FilterError);
    expect(error.code).toBe('INVALID_ARGUMENT');
    expect(error.message).toMatch(/made by another entry \(\/inline, \/small, the main one\)/);
    expect(error.message).toMatch(/deserialize\(other\.serialize\(\)\)/);
    // The recipe in the message works.
    mine.union(full.deserialize(theirs.serialize()));
    expect(mine.has('only-there')).toBe(true);
    mine.free();
    theirs.free();
  });

  test('union with a filter of another type names both types', () => {
    const bloom = new full.BloomFilter({ capacity: 10 });
    const blocked = new full.BlockedBloomFilter({ capacity: 10 });
    expect(thrown(() => bloom.union(blocked)).message).toBe('union needs another bloom filter, got a blocked-bloom filter');
    expect(thrown(() => bloom.union({})).message).toBe('union needs another bloom filter, got an Object');
    bloom.free();
    blocked.free();
  });
});

describe('UrlBlocklist takes the names the CLI takes', () => {
  beforeAll(() => full.init());

  test.each(Object.entries(full.FILTER_TYPE_ALIASES))("type: '%s' builds a %s blocklist (or is refused as one, if it forgets)", (alias, name) => {
    const entry = full.filterType(name);
    if (entry.forgets) {
      expect(thrown(() => full.UrlBlocklist.create({ type: alias, capacity: 10 })).message).toMatch(`the ${name} type forgets its keys`);
      return;
    }
    const list = entry.isStatic
      ? full.UrlBlocklist.build(['bad.example/'], { type: alias })
      : full.UrlBlocklist.create({ type: alias, capacity: 10 });
    expect(list.type).toBe(name);
    list.free();
  });

  test('every alias in FILTER_TYPES is in FILTER_TYPE_ALIASES and back', () => {
    const fromEntries = full.FILTER_TYPES.flatMap((entry) => entry.aliases.map((alias) => [alias, entry.name]));
    expect(Object.fromEntries(fromEntries)).toEqual(full.FILTER_TYPE_ALIASES);
  });

  test("a static blocklist's addLine points to UrlBlocklist.build, not the filter class (each static type, and build's default)", () => {
    const statics = full.FILTER_TYPES.filter((entry) => entry.isStatic).map((entry) => entry.name);
    for (const type of [undefined, ...statics]) {
      const list = full.UrlBlocklist.build(['bad.example/'], { type });
      expect(statics).toContain(list.type);
      if (type !== undefined) expect(list.type).toBe(type);
      const error = thrown(() => list.addLine('worse.example/'));
      expect(error.code).toBe('UNSUPPORTED');
      expect(error.message).toMatch(/UrlBlocklist\.build\(list\)/);
      expect(error.message).not.toMatch(/Filter\.from/);
      expect(list.match('http://worse.example/')).toBeNull();
      list.free();
    }
  });
});

describe('report.skipped counts lines that were skipped, as the CLI does', () => {
  beforeAll(() => full.init());

  test.each([
    ['', 0, 0],
    ['a.example/', 1, 0],
    ['a.example/\n', 1, 0],
    ['a.example/\r\n', 1, 0],
    ['a.example/\n\n', 1, 1],
    ['# comment\na.example/\n', 1, 1],
    ['\n', 0, 1],
  ])('%j: %i entries, %i skipped', (text, entries, skipped) => {
    const list = full.UrlBlocklist.build(text, { type: 'bloom' });
    expect(list.report.entries).toBe(entries);
    expect(list.report.skipped).toBe(skipped);
    list.free();
  });
});

test('every entry exports an init(); /index-file and /redis export the main entry\'s own', async () => {
  const cjsMain = await import(new URL('index.import.cjs', DIST).href);
  const indexFile = await import(new URL('index-file.mjs', DIST).href);
  const redis = await import(new URL('redis.mjs', DIST).href);
  for (const entry of [full, reader, inline, indexFile, redis]) expect(typeof entry.init).toBe('function');
  expect(indexFile.init).toBe(cjsMain.init);
  expect(redis.init).toBe(cjsMain.init);
  await indexFile.init();
  expect(cjsMain.isInitialized()).toBe(true);
});
