// The TypeScript registry of filter types (FILTER_TYPES) against the C++ one
// behind the wasm module: every entry is created and read back under its own
// name, does what it claims (remove, union), and unknown names are errors.
import {
  FILTER_TYPES, UrlBlocklist, deserialize, filterType, filterTypeNames, init, internalRuntime, serializedType,
} from 'cuckoo-bloom-wasm';
import { asciiKeys } from '../helpers/keys.mjs';
import { expectCode } from '../helpers/filter-errors.mjs';

beforeAll(async () => {
  await init();
});

test('the registry lists every type of the core, each once, in the order the docs list them', () => {
  const core = internalRuntime().module.filterTypes().map((type) => type.name);
  expect([...filterTypeNames()].sort()).toEqual([...core].sort());
  expect(filterTypeNames().slice(0, 9)).toEqual(['bloom', 'blocked-bloom', 'counting-bloom', 'cuckoo', 'binary-fuse', 'ribbon', 'scalable-bloom', 'scalable-cuckoo', 'expiring-bloom']);
  expect(new Set(filterTypeNames(true)).size).toBe(filterTypeNames(true).length);
});

// Every per-type fact of an entry is the core's (declared once in its C++ class,
// core/type_facts.h), read through filterTypes(): none is restated in TypeScript.
test("each FILTER_TYPES entry's facts are the ones the core reports for its type", () => {
  const core = new Map(internalRuntime().module.filterTypes().map((type) => [type.name, type]));
  for (const entry of FILTER_TYPES) {
    const type = core.get(entry.name);
    expect({
      name: entry.name,
      supportsRemove: entry.supportsRemove,
      supportsUnion: entry.supportsUnion,
      isStatic: entry.isStatic,
      forgets: entry.forgets,
      growth: entry.growth,
      growingStandIn: entry.growingStandIn,
      estimateSource: entry.estimateSource,
      defaultCapacity: entry.defaultCapacity ?? 0,
      optionLimits: entry.optionLimits,
    }).toEqual({
      name: type.name,
      supportsRemove: type.supportsRemove,
      supportsUnion: type.supportsUnion,
      isStatic: type.isStatic,
      forgets: type.forgets,
      growth: type.growth,
      growingStandIn: type.growingStandIn,
      estimateSource: type.estimateSource,
      defaultCapacity: type.defaultCapacity,
      optionLimits: type.optionLimits,
    });
  }
});

test('the facts fit together: a stand-in grows (with removal for a type with removal), a growing type stands in for itself', () => {
  for (const entry of FILTER_TYPES) {
    expect(['none', 'chaining', 'in-place']).toContain(entry.growth);
    expect(entry.estimateSource.phrase).toMatch(/^from /);
    if (entry.growth !== 'none') {
      expect(entry.growingStandIn).toBe(entry.name);
      expect(entry.defaultCapacity).toBeGreaterThan(0);
    } else {
      expect(entry.defaultCapacity).toBeNull();
    }
    if (entry.isStatic || entry.forgets) expect(entry.growingStandIn).toBeNull();
    if (entry.growingStandIn !== null) {
      const standIn = filterType(entry.growingStandIn);
      expect(standIn.growth).not.toBe('none');
      if (entry.supportsRemove) expect(standIn.supportsRemove).toBe(true);
    }
  }
});

// Issue #41's cases, by name: what the reviewer found restated wrongly outside the registry.
test('expandable grows in place, stands in for itself, removes, and estimates from its entries, not from bits', () => {
  const expandable = filterType('expandable');
  expect(expandable.growth).toBe('in-place');
  expect(expandable.growingStandIn).toBe('expandable');
  expect(expandable.supportsRemove).toBe(true);
  expect(expandable.estimateSource.name).not.toBe('bits-set');
  expect(filterType('scalable-bloom').growth).toBe('chaining');
  expect(filterType('cuckoo').growingStandIn).toBe('scalable-cuckoo');
  expect(filterType('counting-bloom').growingStandIn).toBe('scalable-cuckoo');
  expect(filterType('blocked-bloom').growingStandIn).toBe('scalable-bloom');
  expect(filterType('binary-fuse').growingStandIn).toBeNull();
  expect(filterType('expiring-bloom').growingStandIn).toBeNull();
});

test('a growing type made with no capacity starts at its default capacity and takes keys past it', () => {
  for (const entry of FILTER_TYPES.filter((type) => type.growth !== 'none')) {
    const filter = entry.create({});
    try {
      expect(filter.capacity).toBeLessThanOrEqual(entry.defaultCapacity * 2);
      const keys = asciiKeys(entry.defaultCapacity * 3, `${entry.name}-grow-`);
      filter.addMany(keys);
      expect(filter.hasMany(keys).every(Boolean)).toBe(true);
    } finally {
      filter.free();
    }
  }
});

// The limits the core declares are the ones the TypeScript classes check (no copy of them).
test('each option limit the core declares is the range the TypeScript classes check', () => {
  const checked = [];
  for (const entry of FILTER_TYPES) {
    for (const [option, limit] of Object.entries(entry.optionLimits)) {
      checked.push(`${entry.name} ${option}`);
      const make = (value) => entry.create({ capacity: 100, [option]: value }).free();
      const outside = [];
      if (Number.isFinite(limit.min)) outside.push(limit.minInclusive ? (limit.integer ? limit.min - 1 : limit.min - Math.max(1e-9, Math.abs(limit.min) * 1e-9)) : limit.min);
      if (Number.isFinite(limit.max)) outside.push(limit.maxInclusive ? (limit.integer ? limit.max + 1 : limit.max * (1 + 1e-9) + 1e-9) : limit.max);
      for (const value of outside) expectCode(() => make(value), 'INVALID_ARGUMENT');
      if (limit.default !== null) expect(() => make(limit.default)).not.toThrow();
      if (limit.minInclusive && Number.isFinite(limit.min)) expect(() => make(limit.min)).not.toThrow();
      if (limit.maxInclusive && Number.isFinite(limit.max)) expect(() => make(limit.max)).not.toThrow();
    }
  }
  expect(checked).toEqual(expect.arrayContaining(['scalable-bloom growth', 'scalable-cuckoo tightening', 'expiring-bloom generations', 'expiring-bloom window']));
});

// Each class's parameters fixed for its lifetime, read once (Filter.defineSizingGetters).
const SIZING_GETTERS = {
  bloom: ['bitCount', 'hashCount'],
  'blocked-bloom': ['blockCount'],
  'counting-bloom': ['counterCount', 'hashCount'],
  cuckoo: ['bucketCount', 'bucketSize', 'fingerprintBits', 'maxKicks'],
  'binary-fuse': ['fingerprintBits', 'slotCount'],
  ribbon: ['lowerColumns', 'upperStartBlock', 'slotCount'],
  'scalable-bloom': ['initialCapacity', 'growth', 'tightening'],
  'scalable-cuckoo': ['initialCapacity', 'growth', 'tightening', 'bucketSize'],
  'expiring-bloom': ['window', 'generations', 'generationLength'],
  expandable: ['expectedCapacity'],
};

describe.each(FILTER_TYPES.map((entry) => [entry.name, entry]))('%s', (name, entry) => {
  // A filter of the type holding `keys`: a dynamic type is created and filled
  // with addMany; a static one (binary fuse) is built from them, as it must be.
  function holding(keys, options) {
    if (entry.isStatic) return entry.from(keys, options);
    const filter = entry.create({ capacity: 1000, ...options });
    filter.addMany(keys);
    return filter;
  }

  test('is created (or, static, built) through the core under its own name and read back as itself', () => {
    const keys = asciiKeys(500, `${name}-`);
    const filter = holding(keys, { falsePositiveRate: 0.01, seed: 3 });
    expect(filter.type).toBe(name);
    const bytes = filter.serialize();
    expect(serializedType(bytes)).toBe(name);
    for (const read of [deserialize(bytes), entry.deserialize(bytes)]) {
      expect(read.type).toBe(name);
      expect(read.hasMany(keys).every(Boolean)).toBe(true);
      expect(read.parameters).toEqual(filter.parameters);
      read.free();
    }
    filter.free();
  });

  test('its class reads its own bytes as itself, clones as itself, and refuses every other type by name', () => {
    const filter = holding(asciiKeys(50, `${name}-class-`), { seed: 5 });
    const Class = filter.constructor;
    const bytes = filter.serialize();
    for (const read of [Class.deserialize(bytes), Class.deserialize(bytes.slice().buffer), filter.clone()]) {
      expect(read).toBeInstanceOf(Class);
      expect(read.type).toBe(name);
      expect(read.serialize()).toEqual(bytes);
      read.free();
    }
    for (const other of FILTER_TYPES.filter((e) => e.name !== name)) {
      const made = other.from(['k'], {});
      const OtherClass = made.constructor;
      made.free();
      const error = expectCode(() => OtherClass.deserialize(bytes), 'WRONG_TYPE');
      expect(error.message).toBe(`expected a ${other.name} filter, got a ${name} filter`);
    }
    filter.free();
  });

  test('its fixed parameters are read-only getters that agree with parameters, and FREED after free()', () => {
    const filter = holding(asciiKeys(200, `${name}-sizing-`), { seed: 9 });
    const parameters = filter.parameters;
    for (const getter of SIZING_GETTERS[name] ?? []) {
      expect([getter, filter[getter]]).toEqual([getter, parameters[getter]]);
      expect(typeof filter[getter]).toBe('number');
      expect(() => {
        filter[getter] = 1;
      }).toThrow(TypeError);
      expect(filter[getter]).toBe(parameters[getter]);
    }
    filter.free();
    for (const getter of SIZING_GETTERS[name] ?? []) expectCode(() => filter[getter], 'FREED');
  });

  test('has exactly the operations it claims', () => {
    const a = holding([], {});
    const b = holding(['x'], {});
    expect(typeof a.union === 'function').toBe(entry.supportsUnion);
    if (entry.isStatic) {
      // Static: no create, and add / remove say so (UNSUPPORTED) without changing anything.
      expectCode(() => entry.create({ capacity: 100 }), 'UNSUPPORTED');
      const before = b.serialize();
      for (const change of [() => b.add('y'), () => b.addMany(['y']), () => b.remove('x'), () => b.addIfNew('y')]) {
        expectCode(change, 'UNSUPPORTED');
      }
      expect(b.serialize()).toEqual(before);
    } else {
      expect(typeof a.remove === 'function').toBe(entry.supportsRemove);
    }
    if (entry.supportsRemove) expect(a.remove('x')).toBe(false);
    if (entry.supportsUnion) {
      a.union(b);
      expect(a.has('x')).toBe(true);
    }
    a.free();
    b.free();
  });

  test('is found by its name and aliases, and takes only its own options', () => {
    for (const alias of [name, ...entry.aliases]) expect(filterType(alias)).toBe(entry);
    const other = FILTER_TYPES.flatMap((e) => e.extraOptions).find((option) => !entry.extraOptions.includes(option));
    if (other !== undefined) expectCode(() => holding(['k'], { [other]: 4 }), 'INVALID_ARGUMENT');
    // `from` works for every type (a dynamic type is sized for the keys).
    const built = entry.from(['k1', 'k2'], {});
    expect(built.hasMany(['k1', 'k2'])).toEqual([true, true]);
    built.free();
  });

  test('a URL blocklist can use it, unless it forgets its keys', () => {
    if (entry.forgets) {
      expectCode(() => UrlBlocklist.build('||evil.example^', { type: name }), 'INVALID_ARGUMENT');
      return;
    }
    const list = UrlBlocklist.build('||evil.example^\nbad.example/dl/x.exe', { type: name });
    expect(list.type).toBe(name);
    expect(list.match('https://www.evil.example/a')).toBe('evil.example/');
    expect(UrlBlocklist.deserialize(list.serialize()).match('http://bad.example/dl/x.exe?q=1')).toBe('bad.example/dl/x.exe');
    list.free();
  });
});

const EXPECTED_REMOVAL = {
  bloom: false, 'blocked-bloom': false, 'counting-bloom': true, cuckoo: true,
  'binary-fuse': false, ribbon: false, 'scalable-bloom': false, 'scalable-cuckoo': true, 'expiring-bloom': false,
};

test('capabilities and options are the core\'s, in the package\'s spelling', () => {
  const byName = Object.fromEntries(FILTER_TYPES.map((entry) => [entry.name, entry]));
  // Detected in C++ (advance(now), kIsStatic), not by name: of these types,
  // only the expiring filter forgets and only binary fuse and Ribbon are static.
  for (const [name, entry] of Object.entries(byName).filter(([name]) => name in EXPECTED_REMOVAL)) {
    expect([name, entry.forgets]).toEqual([name, name === 'expiring-bloom']);
    expect([name, entry.isStatic]).toEqual([name, name === 'binary-fuse' || name === 'ribbon']);
    expect([name, entry.supportsRemove]).toEqual([name, EXPECTED_REMOVAL[name]]);
  }
  // The core's startTime is the package's clock; a growing filter also takes initialCapacity.
  expect(byName['expiring-bloom'].extraOptions).toEqual(['window', 'generations', 'clock']);
  expect(byName['scalable-bloom'].extraOptions).toEqual(['initialCapacity', 'growth', 'tightening']);
  expect(byName['scalable-cuckoo'].extraOptions).toEqual(['initialCapacity', 'growth', 'tightening', 'bucketSize']);
  expect(byName.cuckoo.extraOptions).toEqual(['bucketSize', 'fingerprintBits', 'maxKicks', 'semiSorted']);
  expect(byName['binary-fuse'].extraOptions).toEqual(['fingerprintBits', 'arity']);
  expect(byName.ribbon.extraOptions).toEqual([]);
  for (const name of ['bloom', 'blocked-bloom', 'counting-bloom']) expect(byName[name].extraOptions).toEqual([]);
  // Every option an entry lists is one its class takes: given a value of the
  // wrong kind, the class (or the core) names that option, never "unknown".
  for (const entry of FILTER_TYPES) {
    for (const option of entry.extraOptions) {
      const options = { [option]: 'not-a-value', ...(entry.isStatic ? {} : { capacity: 10 }) };
      let message = '';
      try {
        const filter = entry.isStatic ? entry.from(['k'], options) : entry.create(options);
        filter.free();
      } catch (error) {
        expect(error.code).toBe('INVALID_ARGUMENT');
        message = error.message;
      }
      expect(message).toContain(option);
      expect(message).not.toMatch(/unknown option/);
    }
  }
});

test('an unknown type name is an error everywhere, never a default', () => {
  for (const name of ['bloomfilter', 'Bloom', '', 'url-blocklist', undefined, 4]) {
    expectCode(() => filterType(name), 'INVALID_ARGUMENT');
  }
  expectCode(() => UrlBlocklist.build('evil.example', { type: 'cuckoo-filter' }), 'INVALID_ARGUMENT');
});
