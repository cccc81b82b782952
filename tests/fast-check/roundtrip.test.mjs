// serialize ∘ deserialize is the identity on bytes, for every filter type, for
// random options (capacity, falsePositiveRate, seed; cuckoo bucketSize,
// fingerprintBits, maxKicks) and random contents (adds, and for counting and
// cuckoo filters removes of present keys). The filter read back is the same
// filter: same getters, same answers, and it continues identically (the same
// further adds give the same bytes; for cuckoo this includes the eviction
// walk's random state and which adds fail with FULL).
import fc from 'fast-check';
import {
  init, deserialize, serializedType, BloomFilter, BlockedBloomFilter, CountingBloomFilter,
  CuckooFilter, UrlBlocklist, FilterError,
} from 'cuckoo-bloom-wasm';
import { fail, sameBytes } from '../helpers/keys.mjs';
import { consistentCuckooOptions } from '../helpers/cuckoo-options.mjs';

const RUNS = Number(process.env.FC_RUNS ?? 300);

beforeAll(async () => {
  await init();
});

const keyArb = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 10 }),
  fc.string({ unit: 'binary', maxLength: 10 }),
  fc.uint8Array({ maxLength: 24 }),
);

// Rates across (0, 1): tiny ones make large tables, so capacity is kept
// moderate when the rate is extreme.
// (A blocked Bloom filter refuses the extreme ones as too large: INVALID_ARGUMENT, run skipped.)
const rateArb = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(0.5, 0.1, 0.01, 0.001, 1e-6) },
  { weight: 4, arbitrary: fc.double({ min: 1e-9, max: 0.999, noNaN: true, noDefaultInfinity: true }) },
  { weight: 1, arbitrary: fc.double({ min: Number.MIN_VALUE, max: 1e-300, noNaN: true }) },
  { weight: 1, arbitrary: fc.constant(1 - 2 ** -53) },
);
const seedArb = fc.oneof(fc.constant(0), fc.nat(), fc.maxSafeNat(), fc.constant(Number.MAX_SAFE_INTEGER));
const capacityArb = fc.oneof(fc.integer({ min: 1, max: 40 }), fc.integer({ min: 1, max: 1500 }));

const plainOptions = fc.record(
  { capacity: capacityArb, falsePositiveRate: rateArb, seed: seedArb },
  { requiredKeys: ['capacity'] },
);
const cuckooOptions = fc.record(
  {
    capacity: capacityArb,
    falsePositiveRate: rateArb,
    seed: seedArb,
    bucketSize: fc.constantFrom(2, 4, 8),
    fingerprintBits: fc.integer({ min: 4, max: 32 }),
    maxKicks: fc.oneof(fc.integer({ min: 0, max: 50 }), fc.constant(500)),
  },
  { requiredKeys: ['capacity'] },
).map(consistentCuckooOptions);

const TYPES = [
  { name: 'bloom', Class: BloomFilter, options: plainOptions, typeId: 1, seed: 0xb10b01 },
  { name: 'blocked-bloom', Class: BlockedBloomFilter, options: plainOptions, typeId: 2, seed: 0xb10b02 },
  { name: 'counting-bloom', Class: CountingBloomFilter, options: plainOptions, typeId: 3, removable: true, seed: 0xb10b03 },
  { name: 'cuckoo', Class: CuckooFilter, options: cuckooOptions, typeId: 4, removable: true, seed: 0xb10b04 },
];

const ALL_CLASSES = TYPES.map((t) => t.Class);

/** Creating may legitimately refuse options that make a table too large: then the run is skipped. */
function tryCreate(Class, options) {
  try {
    return new Class(options);
  } catch (error) {
    if (error instanceof FilterError && error.code === 'INVALID_ARGUMENT') return null;
    throw error;
  }
}

/** add that tolerates FULL (cuckoo); returns whether the key was stored. */
function addTolerant(filter, key) {
  if (filter instanceof CuckooFilter) return filter.tryAdd(key);
  filter.add(key);
  return true;
}

const GETTERS = ['type', 'count', 'capacity', 'seed', 'byteLength', 'falsePositiveRate', 'estimatedFalsePositiveRate'];
const CUCKOO_GETTERS = ['bucketCount', 'bucketSize', 'fingerprintBits', 'maxKicks', 'slotCount', 'loadFactor'];

const skipped = {};

describe.each(TYPES)('$name', (type) => {
  test(`deserialize(serialize(f)) serializes to the same bytes, reads the same and continues the same (${RUNS} runs)`, () => {
    let tried = 0;
    fc.assert(
      fc.property(
        type.options,
        fc.array(keyArb, { maxLength: 120 }),
        fc.array(fc.nat(), { maxLength: 40 }),
        fc.array(keyArb, { maxLength: 30 }),
        fc.array(keyArb, { minLength: 1, maxLength: 30 }),
        fc.boolean(),
        (options, keys, removals, moreKeys, probes, generic) => {
          const filter = tryCreate(type.Class, options);
          if (filter === null) {
            skipped[type.name] = (skipped[type.name] ?? 0) + 1;
            return;
          }
          tried++;
          let again = null;
          let third = null;
          try {
            const stored = keys.filter((key) => addTolerant(filter, key));
            if (type.removable) {
              for (const r of removals) {
                if (stored.length === 0) break;
                const [key] = stored.splice(r % stored.length, 1);
                if (!filter.remove(key)) fail('remove of a stored key returned false');
              }
            }
            const bytes = filter.serialize();
            if (!sameBytes(filter.serialize(), bytes)) fail('serialize is not deterministic');
            if (serializedType(bytes) !== type.name) fail(`serializedType says ${serializedType(bytes)}`);

            again = generic ? deserialize(bytes) : type.Class.deserialize(bytes);
            if (!(again instanceof type.Class)) fail(`read back as ${again?.constructor?.name}`);
            const bytes2 = again.serialize();
            if (!sameBytes(bytes2, bytes)) fail('serialize(deserialize(bytes)) differs from bytes');

            // A third generation, through the other reader, is still the same.
            third = generic ? type.Class.deserialize(bytes2) : deserialize(bytes2);
            if (!sameBytes(third.serialize(), bytes)) fail('second round trip differs');

            // Only the reader of the right type accepts the bytes.
            for (const Other of ALL_CLASSES) {
              if (Other === type.Class) continue;
              try {
                Other.deserialize(bytes).free();
                fail(`${Other.name}.deserialize accepted ${type.name} bytes`);
              } catch (error) {
                if (!(error instanceof FilterError) || error.code !== 'WRONG_TYPE') throw error;
              }
            }

            // Same filter: getters, and answers for stored and random keys.
            const getters = type.name === 'cuckoo' ? [...GETTERS, ...CUCKOO_GETTERS] : GETTERS;
            for (const g of getters) {
              if (!Object.is(again[g], filter[g])) fail(`${g}: ${filter[g]} -> ${again[g]}`);
            }
            if (options.seed !== undefined && again.seed !== options.seed) fail(`seed ${options.seed} read back as ${again.seed}`);
            const askAll = [...stored, ...probes];
            const a1 = filter.hasMany(askAll);
            const a2 = again.hasMany(askAll);
            if (a1.some((x, i) => x !== a2[i])) fail('answers differ after the round trip');
            if (a1.slice(0, stored.length).some((x) => !x)) fail('false negative');

            // Continues the same: the same further adds give the same bytes
            // (and the same FULL outcomes for cuckoo).
            for (const key of moreKeys) {
              const r1 = addTolerant(filter, key);
              const r2 = addTolerant(again, key);
              if (r1 !== r2) fail(`add outcome differs after the round trip: ${r1} vs ${r2}`);
            }
            if (!sameBytes(again.serialize(), filter.serialize())) fail('the two filters diverged after further adds');
          } finally {
            filter.free();
            again?.free();
            third?.free();
          }
        },
      ),
      { seed: type.seed, numRuns: RUNS },
    );
    // Options that are too large to allocate are skipped; most runs must count.
    expect(tried).toBeGreaterThan(RUNS * 0.8);
  });
});

test(`UrlBlocklist: deserialize(serialize(b)) serializes to the same bytes (${RUNS} runs)`, () => {
  // Domain names; the last label is alphabetic (a numeric last label makes
  // WHATWG read the host as an IPv4 address).
  const hostArb = fc
    .tuple(
      fc.array(fc.stringMatching(/^[a-z0-9](?:[a-z0-9-]{0,8}[a-z0-9])?$/), { minLength: 1, maxLength: 3 }),
      fc.stringMatching(/^[a-z]{2,6}$/),
    )
    .map(([labels, tld]) => [...labels, tld].join('.'));
  const lineArb = fc.oneof(
    hostArb,
    fc.tuple(hostArb, fc.webPath()).map(([h, p]) => h + p),
    hostArb.map((h) => `||${h}^`),
    hostArb.map((h) => `0.0.0.0 ${h}`),
    fc.constantFrom('# comment', '', '! adblock comment'),
  );
  fc.assert(
    fc.property(
      fc.array(lineArb, { maxLength: 40 }),
      fc.constantFrom('bloom', 'blocked-bloom', 'counting-bloom', 'cuckoo'),
      fc.constantFrom(0.01, 0.001, 1e-5),
      seedArb,
      (lines, filterType, rate, seed) => {
        const list = UrlBlocklist.build(lines, { type: filterType, falsePositiveRate: rate, seed });
        let again = null;
        try {
          const bytes = list.serialize();
          again = UrlBlocklist.deserialize(bytes);
          if (!sameBytes(again.serialize(), bytes)) fail('blocklist bytes changed on the round trip');
          if (again.entryCount !== list.entryCount || again.type !== list.type) fail('entryCount/type changed');
          if (serializedType(bytes) !== 'url-blocklist') fail(`serializedType ${serializedType(bytes)}`);
          if (list.report.errors.length > 0) fail(`list line rejected: ${JSON.stringify(list.report.errors[0])}`);
        } finally {
          list.free();
          again?.free();
        }
      },
    ),
    { seed: 0xb10b16, numRuns: RUNS },
  );
});

afterAll(() => {
  if (Object.keys(skipped).length > 0) console.log('runs skipped (options too large to allocate):', skipped);
});
