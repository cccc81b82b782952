// A class's static deserialize and from work detached, as a user passes them around
// (issue #44: `[bytes].map(BloomFilter.deserialize)` threw "this is not a
// constructor", a TypeError, not even a FilterError). Every filter class the package
// exports, found by its shape, so a new type is covered without editing this file.
import * as lib from 'cuckoo-bloom-wasm';

const { init, FilterError } = lib;
await init();

const classes = Object.entries(lib).filter(
  ([name, value]) =>
    // A concrete class names its type as its own static `info`; bases (Filter, GrowingFilter) do not.
    /Filter$/.test(name) && typeof value === 'function' && typeof value.prototype?.serialize === 'function' && Object.hasOwn(value, 'info'),
);

test('every filter class is found (nine or more), and a base class read first binds no subclass to itself', () => {
  expect(classes.length).toBeGreaterThanOrEqual(9);
  // Reading the bases' statics first is what bound subclasses to a base in a first draft.
  for (const base of [lib.Filter, lib.GrowingFilter]) if (base !== undefined) void base.deserialize, void base.from;
});

describe.each(classes)('%s', (_name, Class) => {
  const keys = ['alpha', 'beta', 'gamma'];

  test('deserialize passed to map, destructured, or called off another object: a filter of that class', () => {
    const made = Class.from(keys);
    const bytes = made.serialize();
    const { deserialize } = Class;
    const viaMap = [bytes].map(Class.deserialize);
    const viaDestructuring = deserialize(bytes);
    const viaCall = Class.deserialize.call(undefined, bytes);
    for (const filter of [...viaMap, viaDestructuring, viaCall]) {
      expect(filter).toBeInstanceOf(Class);
      expect(keys.every((key) => filter.has(key))).toBe(true);
      filter.free();
    }
    made.free();
  });

  test('from, destructured: a filter of that class holding the keys', () => {
    const { from } = Class;
    const filter = from(keys);
    expect(filter).toBeInstanceOf(Class);
    expect(keys.every((key) => filter.has(key))).toBe(true);
    filter.free();
  });

  test("detached deserialize of another type's bytes is still WRONG_TYPE", () => {
    const [, Other] = classes.find(([, C]) => C !== Class);
    const foreign = Other.from(keys);
    const { deserialize } = Class;
    let thrown;
    try {
      deserialize(foreign.serialize());
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(FilterError);
    expect(thrown.code).toBe('WRONG_TYPE');
    foreign.free();
  });
});
