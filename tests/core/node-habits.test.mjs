// What Node users do with any object: print it, JSON.stringify it, clone it,
// pass undefined for an option, get a readable error for a wrong value.
import { inspect } from 'node:util';
import { MessageChannel } from 'node:worker_threads';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CuckooIndex, FILTER_TYPES, FilterError, init, UrlBlocklist } from 'cuckoo-bloom-wasm';
import { FileCuckooIndex } from '../../dist/index-file.mjs';
import { thrown } from '../helpers/keys.mjs';

const reader = await import(new URL('../../dist/reader.import.cjs', import.meta.url).href);

function postToAPort(value) {
  const { port1, port2 } = new MessageChannel();
  try {
    port1.postMessage(value);
  } finally {
    port1.close();
    port2.close();
  }
}

beforeAll(async () => {
  await init();
});

describe.each(FILTER_TYPES.map((entry) => [entry.name, entry]))('%s', (_name, entry) => {
  // A filter holding 'a' (a static type is built from it; its capacity is its key count).
  const holdingA = (options) => {
    if (entry.isStatic) return entry.from(['a'], options);
    const filter = entry.create({ capacity: 1000, ...options });
    filter.add('a');
    return filter;
  };

  test('console.log / util.inspect show a one-line summary with the real class name', () => {
    const filter = holdingA({ falsePositiveRate: 0.01 });
    const capacity = entry.isStatic ? 1 : 1000;
    const shown = inspect(filter);
    expect(shown).toMatch(new RegExp(`^${filter.constructor.name} \\{ count: 1, capacity: ${capacity}, falsePositiveRate: 0\\.01, `));
    expect(shown).not.toContain('\n');
    expect(shown.length).toBeLessThan(200);
    expect(filter.constructor.name).not.toMatch(/^_/);
    filter.free();
    expect(inspect(filter)).toBe(`${filter.constructor.name} { freed }`);
  });

  test('JSON.stringify throws a FilterError pointing to serialize()', () => {
    const filter = holdingA({});
    const caught = thrown(() => JSON.stringify({ filter }));
    expect(caught).toBeInstanceOf(FilterError);
    expect(caught.code).toBe('UNSUPPORTED');
    expect(caught.message).toMatch(/serialize\(\)/);
    filter.free();
  });

  test('structuredClone and postMessage fail with a FilterError that says to use serialize()', () => {
    const filter = holdingA({});
    for (const copy of [(value) => structuredClone(value), postToAPort]) {
      const caught = thrown(() => copy(filter));
      expect(caught).toBeInstanceOf(FilterError);
      expect(caught.code).toBe('UNSUPPORTED');
      expect(caught.message).toMatch(/cannot copy it; serialize\(\) it and deserialize\(\) the bytes$/);
    }
    filter.free();
  });

  test('String(filter) is the one-line summary, and no internal is an enumerable key', () => {
    const filter = holdingA({});
    expect(String(filter)).toBe(inspect(filter));
    expect(`${filter}`).toMatch(new RegExp(`^${filter.constructor.name} \\{ count: 1, `));
    // One key only: the accessor that makes structuredClone throw (the rest are private fields).
    expect(Object.keys(filter)).toEqual(['cannotBeCloned']);
    filter.free();
    expect(String(filter)).toBe(`${filter.constructor.name} { freed }`);
  });

  test('options given as undefined take their defaults', () => {
    const filter = holdingA({ falsePositiveRate: undefined, seed: undefined });
    expect(filter.falsePositiveRate).toBe(0.01);
    expect(filter.seed).toBe(0);
    filter.free();
  });
});

test.each([
  [{ capacity: 100, falsePositiveRate: '0.01' }, /falsePositiveRate must be a number in \(0, 1\), got a string \("0\.01"\)$/],
  [{ capacity: undefined }, /capacity must be an integer in \[1, \d+\], got undefined$/],
  [{ capacity: {} }, /capacity must be an integer .* got an Object$/],
])('option errors name the value as it is: %o', (options, message) => {
  const caught = thrown(() => FILTER_TYPES[0].create(options));
  expect(caught).toBeInstanceOf(FilterError);
  expect(caught.code).toBe('INVALID_ARGUMENT');
  expect(caught.message).toMatch(message);
});

describe('URL blocklists and readers print, stringify and refuse to clone like filters', () => {
  beforeAll(() => reader.init());

  test('UrlBlocklist, UrlBlocklistReader and FilterReader', () => {
    const list = UrlBlocklist.build(['bad.example/', 'worse.example/x/'], { type: 'bloom', falsePositiveRate: 0.001 });
    const bytes = list.serialize();
    const filterBytes = list.filter.serialize();
    const listReader = reader.UrlBlocklistReader.deserialize(bytes);
    const filterReader = reader.FilterReader.deserialize(filterBytes);
    const cases = [
      [list, new RegExp(`^UrlBlocklist \\{ type: 'bloom', entries: 2, falsePositiveRate: 0\\.001, byteLength: ${list.byteLength} \\}$`), FilterError],
      [listReader, new RegExp(`^UrlBlocklistReader \\{ type: 'bloom', entries: 2, falsePositiveRate: 0\\.001, byteLength: ${listReader.byteLength} \\}$`), reader.FilterError],
      // The filter inside is sized per lookup, so that a URL's lookups together meet the list's rate.
      [filterReader, new RegExp(`^FilterReader \\{ type: 'bloom', count: 2, capacity: 2, falsePositiveRate: (?<rate>[\\d.e-]+), byteLength: ${filterBytes.length} \\}$`), reader.FilterError],
    ];
    // The shown rate of the filter inside is its own, per lookup (rounded for display).
    const shownRate = Number(cases[2][1].exec(inspect(filterReader)).groups.rate);
    expect(Math.abs(shownRate - list.lookupFalsePositiveRate) / list.lookupFalsePositiveRate).toBeLessThan(0.01);
    for (const [object, shown, ErrorClass] of cases) {
      expect(inspect(object)).toMatch(shown);
      expect(String(object)).toBe(inspect(object));
      expect(Object.keys(object).filter((key) => key !== 'report')).toEqual(['cannotBeCloned']);
      const caught = thrown(() => structuredClone(object));
      expect(caught).toBeInstanceOf(ErrorClass);
      expect(caught.code).toBe('UNSUPPORTED');
      object.free();
      expect(inspect(object)).toMatch(/^\w+ \{ freed \}$/);
    }
  });
});

describe('CuckooIndex and FileCuckooIndex print their size and where the log lives', () => {
  test('in memory: inspect, String, Object.keys, structuredClone', () => {
    const index = new CuckooIndex();
    index.set('a');
    index.set('b', 'value');
    index.delete('a');
    const shown = inspect(index);
    expect(shown).toMatch(/^CuckooIndex \{ size: 1, deadRecords: 2, log: 'memory', logBytes: \d+, tableBytes: \d+ \}$/);
    expect(String(index)).toBe(shown);
    expect(Object.keys(index)).toEqual(['cannotBeCloned']);
    const caught = thrown(() => structuredClone(index));
    expect(caught).toBeInstanceOf(FilterError);
    expect(caught.code).toBe('UNSUPPORTED');
    expect(caught.message).toMatch(/copy its entries/);
    index.free();
    expect(inspect(index)).toBe('CuckooIndex { freed }');
  });

  test('over a file: the path is shown', async () => {
    // /index-file shares the main entry's CommonJS build (what Node's import of the package loads).
    await (await import('../../dist/index.import.cjs')).init();
    const dir = mkdtempSync(join(tmpdir(), 'cbw-habits-'));
    try {
      const path = join(dir, 'seen.log');
      const index = FileCuckooIndex.open(path);
      index.set('x');
      expect(inspect(index)).toMatch(new RegExp(`^FileCuckooIndex \\{ size: 1, deadRecords: 0, log: ${JSON.stringify(JSON.stringify(path)).slice(1, -1).replace(/[.]/g, '\\.')}, logBytes: \\d+, tableBytes: \\d+ \\}$`));
      index.close();
      expect(String(index)).toBe('FileCuckooIndex { freed }');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
