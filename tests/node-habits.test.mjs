// What Node users do with any object: print it, JSON.stringify it, clone it,
// pass undefined for an option, get a readable error for a wrong value.
import { inspect } from 'node:util';
import { FILTER_TYPES, FilterError, init } from 'cuckoo-bloom-wasm';

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
    let caught;
    try {
      JSON.stringify({ filter });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(FilterError);
    expect(caught.code).toBe('UNSUPPORTED');
    expect(caught.message).toMatch(/serialize\(\)/);
    filter.free();
  });

  test('structuredClone fails with a message that says to use serialize()', () => {
    const filter = holdingA({});
    expect(() => structuredClone(filter)).toThrow(/useSerializeToCopyAFilterThenDeserialize[^]*could not be cloned/);
    filter.free();
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
  let caught;
  try {
    FILTER_TYPES[0].create(options);
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(FilterError);
  expect(caught.code).toBe('INVALID_ARGUMENT');
  expect(caught.message).toMatch(message);
});
