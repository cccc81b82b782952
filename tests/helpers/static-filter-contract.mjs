// What every static filter type (built once from its keys, then read-only:
// BinaryFuseFilter, RibbonFilter; js/src/core/static-filter.ts) promises alike,
// as tests each type's suite declares: every key found (repeats included), clear
// UNSUPPORTED errors for every change, the same filter through serialize,
// deserialize and clone, damaged bytes refused, and the golden file (shared with
// the C++ suite) rebuilt byte for byte.
import { readFileSync } from 'node:fs';
import { FilterError, UrlBlocklist, deserialize, filterType, serializedType } from 'cuckoo-bloom-wasm';
import { asciiKeys, firstDifference, header, shuffledWithRepeats, thrown, utf8 } from './keys.mjs';
import { expectCode } from './filter-errors.mjs';

/**
 * Declares the shared tests for `Class`.
 * - typeName: its name in the bytes; alias: a name filterType() knows it by.
 * - repeats: the options of the filters built from keys given with repeats, each shape of table the type has.
 * - smallSets: the options of the small sets (a rate low enough that 1000 keys outside the empty set all miss).
 * - roundTrip: the options of the filters serialized, deserialized and cloned.
 * - golden: the type id in the golden file's header, and what else to check of the filter read back.
 */
export function staticFilterContract({ Class, typeName, alias, repeats, smallSets, roundTrip, golden }) {
  const from = new RegExp(`${Class.name}\\.from`);

  test('every key is found, with half of the input repeated and shuffled; the set decides the bytes', () => {
    const distinct = asciiKeys(20000, 'in-');
    const input = shuffledWithRepeats(distinct, 7);
    for (const options of repeats) {
      const filter = Class.from(input, options);
      expect(filter.count).toBe(distinct.length);
      // An option the filter reports among its parameters (a fuse filter's arity) is the one given.
      for (const [name, value] of Object.entries(options)) {
        if (name in filter.parameters) expect(filter.parameters[name]).toBe(value);
      }
      expect(filter.hasMany(distinct).every(Boolean)).toBe(true);
      for (const key of distinct.slice(0, 500)) expect(filter.has(key)).toBe(true);
      // The set decides the bytes, not its order or repeats.
      const again = Class.from(distinct, options);
      expect(firstDifference(again.serialize(), filter.serialize())).toBeNull();
      again.free();
      filter.free();
    }
  });

  test('small sets, the empty set included, find every key', () => {
    for (let n = 0; n <= 40; n++) {
      const keys = asciiKeys(n, 'small-');
      const filter = Class.from(keys, smallSets);
      expect(filter.count).toBe(n);
      expect(filter.hasMany(keys).every(Boolean)).toBe(true);
      if (n === 0) expect(filter.hasMany(asciiKeys(1000, 'out-')).some(Boolean)).toBe(false);
      filter.free();
    }
  });

  test('string and Uint8Array keys are the same keys', () => {
    const keys = asciiKeys(1000, 'bytes-');
    const filter = Class.from(keys.map((key) => utf8.encode(key)), {});
    expect(filter.hasMany(keys).every(Boolean)).toBe(true);
    const fromStrings = Class.from(keys, {});
    expect(firstDifference(fromStrings.serialize(), filter.serialize())).toBeNull();
    filter.free();
    fromStrings.free();
  });

  test('static: no constructor, add or remove, each UNSUPPORTED saying to rebuild', () => {
    expect(expectCode(() => new Class({ capacity: 10 }), 'UNSUPPORTED').message).toMatch(from);
    const filter = Class.from(['a', 'b'], {});
    const before = filter.serialize();
    for (const change of [() => filter.add('c'), () => filter.addMany(['c']), () => filter.addIfNew('c'), () => filter.remove('a')]) {
      expect(expectCode(change, 'UNSUPPORTED').message).toMatch(new RegExp(`static.*${from.source}`));
    }
    expect(firstDifference(filter.serialize(), before)).toBeNull();
    expectCode(() => filterType(alias).create({ capacity: 10 }), 'UNSUPPORTED');
    filter.free();
  });

  test('serialize, deserialize and clone give the same filter', () => {
    const keys = asciiKeys(3000, 'rt-');
    for (const options of roundTrip) {
      const filter = Class.from(keys, options);
      const bytes = filter.serialize();
      expect(serializedType(bytes)).toBe(typeName);
      for (const read of [Class.deserialize(bytes), deserialize(bytes), filter.clone()]) {
        expect(read).toBeInstanceOf(Class);
        expect(firstDifference(read.serialize(), bytes)).toBeNull();
        expect(read.hasMany(keys).every(Boolean)).toBe(true);
        expect(read.parameters).toEqual(filter.parameters);
        expect(read.equals(filter)).toBe(true);
        read.free();
      }
      filter.free();
    }
  });

  test('damaged bytes are rejected, never read as a filter', () => {
    const bytes = Class.from(asciiKeys(500, 'd-'), {}).serialize();
    for (let i = 0; i < bytes.length - 8; i += 7) {
      const damaged = bytes.slice();
      damaged[i] ^= 0x20;
      const caught = thrown(() => Class.deserialize(damaged));
      expect(caught).toBeInstanceOf(FilterError);
      expect(['CORRUPT', 'UNSUPPORTED_VERSION', 'WRONG_TYPE']).toContain(caught.code);
    }
    expectCode(() => Class.deserialize(bytes.subarray(0, bytes.length - 1)), 'CORRUPT');
  });

  test('the golden file: rebuilt byte for byte from "key-0" .. "key-49" (rate 0.01, seed 42), and read back', () => {
    const bytes = new Uint8Array(readFileSync(new URL(`../golden/${typeName}.cbf`, import.meta.url)));
    const keys = asciiKeys(50, 'key-');
    const built = Class.from(keys, { falsePositiveRate: 0.01, seed: 42 });
    expect(firstDifference(built.serialize(), bytes)).toBeNull();
    expect(header(bytes)).toMatchObject({ magic: 'CBWF', version: 2, type: golden.typeId, seed: 42, itemCount: 50, capacity: 50, falsePositiveRate: 0.01 });
    const read = deserialize(bytes);
    expect(read.type).toBe(typeName);
    golden.check(read);
    expect(read.hasMany(keys).every(Boolean)).toBe(true);
    built.free();
    read.free();
  });

  test('a URL blocklist built on it: every entry matches, and it cannot be created empty', () => {
    const list = UrlBlocklist.build('||evil.example^\nbad.example/dl/x.exe\n# comment', { type: alias });
    expect(list.type).toBe(typeName);
    expect(list.entryCount).toBe(2);
    expect(list.match('https://www.evil.example/a')).toBe('evil.example/');
    const read = UrlBlocklist.deserialize(list.serialize());
    expect(read.match('http://bad.example/dl/x.exe?q=1')).toBe('bad.example/dl/x.exe');
    expect(read.match('https://good.example/')).toBeNull();
    expectCode(() => list.addLine('more.example'), 'UNSUPPORTED');
    expectCode(() => UrlBlocklist.create({ type: typeName, capacity: 10 }), 'UNSUPPORTED');
    expectCode(() => UrlBlocklist.build('a.example', { type: typeName, capacity: 10 }), 'INVALID_ARGUMENT');
    list.free();
    read.free();
  });
}
