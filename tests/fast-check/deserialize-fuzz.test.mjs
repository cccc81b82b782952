// deserialize never crashes and never returns garbage, whatever the bytes:
// random bytes, random header-shaped blobs, and valid blobs of every type
// (and URL-blocklist envelopes) with random field-aware mutations, usually
// with the checksum recomputed so that the damage reaches the semantic checks
// behind it. Every reader (deserialize, each Class.deserialize,
// UrlBlocklist.deserialize, serializedType) must either throw a FilterError
// with a format code (CORRUPT, UNSUPPORTED_VERSION, WRONG_TYPE,
// INVALID_ARGUMENT) or return a working object whose serialize() gives back
// exactly the input bytes. After every run, long-lived filters created before
// the fuzzing still hold their keys and their exact bytes, and new filters
// work: the module's memory was not damaged.
import fc from 'fast-check';
import {
  init, deserialize, serializedType, BloomFilter, BlockedBloomFilter, CountingBloomFilter,
  CuckooFilter, BinaryFuseFilter, ScalableBloomFilter, ScalableCuckooFilter, ExpiringBloomFilter,
  FILTER_TYPES, UrlBlocklist, FilterError,
} from 'cuckoo-bloom-wasm';
import { fail, sameBytes } from '../helpers/keys.mjs';
import { xxh3 } from '../helpers/xxh3.mjs';

const RUNS = Number(process.env.FC_RUNS ?? 500);

beforeAll(async () => {
  await init();
});

// ---------------------------------------------------------------------------
// XXH3-64 (seed 0, default secret), the format's checksum, in plain JS (../helpers/xxh3.mjs),
// so that mutated blobs can carry a valid checksum; checked below against the library's.

// ---------------------------------------------------------------------------
// Layout (docs/FORMAT.md): 56-byte header, P parameter bytes, L payload bytes, 8-byte checksum.

const ALLOWED_CODES = ['CORRUPT', 'UNSUPPORTED_VERSION', 'WRONG_TYPE', 'INVALID_ARGUMENT'];
// Every registered type, by its type byte, read from the registry (a new type is fuzzed
// with no edit here): its class, and its name as serializedType says it. The classes
// imported above are the ones whose options and parameter fields this file knows.
const CLASSES = {};
const TYPE_NAMES = { 16: 'url-blocklist' };
/** Type bytes of the single-part types (below 16), which filterBlobArb makes. */
const SINGLE_PART = [];
/** The classes of the static types (the registry's isStatic): built from their keys, they have no add. */
const STATIC_CLASSES = new Set();

beforeAll(() => {
  for (const entry of FILTER_TYPES) {
    const filter = entry.from(['type-byte'], {});
    const id = filter.serialize()[6];
    filter.free();
    CLASSES[id] = filter.constructor;
    TYPE_NAMES[id] = entry.name;
    if (id < 16) SINGLE_PART.push(id);
    if (entry.isStatic) STATIC_CLASSES.add(filter.constructor);
  }
});

test('the fuzzing tables hold every registered type, each at its own type byte', () => {
  expect(Object.keys(CLASSES)).toHaveLength(FILTER_TYPES.length);
  expect(Object.values(TYPE_NAMES).sort()).toEqual([...FILTER_TYPES.map((entry) => entry.name), 'url-blocklist'].sort());
  // The classes whose options this file spells out are at the bytes FORMAT.md gives them.
  expect([CLASSES[1], CLASSES[2], CLASSES[3], CLASSES[4], CLASSES[5]]).toEqual([
    BloomFilter, BlockedBloomFilter, CountingBloomFilter, CuckooFilter, BinaryFuseFilter,
  ]);
  expect([CLASSES[17], CLASSES[18], CLASSES[19]]).toEqual([ScalableBloomFilter, ScalableCuckooFilter, ExpiringBloomFilter]);
});

/** A filter of `Class` holding `keys` (a static type, such as BinaryFuseFilter, is built from them; it has no add). */
function filterOf(Class, options, keys) {
  if (STATIC_CLASSES.has(Class)) {
    const { capacity: _capacity, ...rest } = options;
    return Class.from(keys, rest);
  }
  const filter = new Class(options);
  for (const key of keys) {
    if (filter instanceof CuckooFilter) filter.tryAdd(key);
    else filter.add(key);
  }
  return filter;
}

/** The bytes of a filter or URL blocklist, which is freed. */
function bytesThenFree(made) {
  try {
    return made.serialize();
  } finally {
    made.free();
  }
}

/** [offset (from the start of the blob), size in bytes] of every field, by type id. */
const HEADER_FIELDS = [
  [0, 4], // magic
  [4, 2], // version
  [6, 1], // type
  [7, 1], // hash algorithm
  [8, 4], // flags
  [12, 4], // P
  [16, 8], // seed
  [24, 8], // item count
  [32, 8], // capacity
  [40, 8], // rate (f64)
  [48, 8], // L
];
const HEADER_FIELD_NAMES = ['magic', 'version', 'type', 'hash', 'flags', 'P', 'seed', 'item count', 'capacity', 'rate', 'L'];
const PARAM_FIELDS = {
  1: [[56, 8], [64, 4], [68, 4]], // bitCount, hashCount, reserved
  2: [[56, 8]], // blockCount
  3: [[56, 8], [64, 4], [68, 1], [69, 1], [70, 2]], // counterCount, hashCount, counterBits, reserved
  4: [[56, 8], [64, 8], [72, 4], [76, 1], [77, 1], [78, 2]], // bucketCount, rngState, maxKicks, bucketSize, fingerprintBits, reserved
  16: [[56, 4], [60, 4]], // expressionScheme, reserved
};

const view = (bytes) => new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/** Rewrites the trailing checksum over everything before it (no-op when too short). */
function fixChecksum(bytes) {
  if (bytes.length < 8) return;
  view(bytes).setBigUint64(bytes.length - 8, xxh3(bytes.subarray(0, bytes.length - 8)), true);
}

/**
 * [offset, length] of each nested blob of a composite (types 16-31: a
 * blocklist's filter, a chain's links), end to end after the parameters,
 * each length from its own header.
 */
function nestedBlobs(bytes) {
  const out = [];
  if (bytes.length < 64 || bytes[6] < 16 || bytes[6] > 31) return out;
  const v = view(bytes);
  const end = bytes.length - 8;
  let at = 56 + v.getUint32(12, true);
  while (at + 64 <= end) {
    const length = 64n + BigInt(v.getUint32(at + 12, true)) + v.getBigUint64(at + 48, true);
    if (length > BigInt(end - at)) break;
    out.push([at, Number(length)]);
    at += Number(length);
  }
  return out;
}

/** The nested blobs' checksums first (a blocklist's whole payload if its own lengths are off), then the outer one. */
function fixChecksums(bytes) {
  const nested = nestedBlobs(bytes);
  for (const [at, length] of nested) fixChecksum(bytes.subarray(at, at + length));
  if (nested.length === 0 && bytes.length >= 64 + 64 + 8 && bytes[6] === 16) fixChecksum(bytes.subarray(64, bytes.length - 8));
  fixChecksum(bytes);
}

function writeField(bytes, [offset, size], value) {
  if (offset + size > bytes.length) return;
  const v = view(bytes);
  const n = BigInt.asUintN(size * 8, value);
  if (size === 8) v.setBigUint64(offset, n, true);
  else if (size === 4) v.setUint32(offset, Number(n), true);
  else if (size === 2) v.setUint16(offset, Number(n), true);
  else v.setUint8(offset, Number(n));
}

function readField(bytes, [offset, size]) {
  if (offset + size > bytes.length) return 0n;
  const v = view(bytes);
  if (size === 8) return v.getBigUint64(offset, true);
  if (size === 4) return BigInt(v.getUint32(offset, true));
  if (size === 2) return BigInt(v.getUint16(offset, true));
  return BigInt(v.getUint8(offset));
}

// ---------------------------------------------------------------------------
// Checking one candidate blob through every reader.

const stats = { returned: 0, codes: {} };

function expectFormatError(error, where) {
  if (!(error instanceof FilterError)) fail(`${where}: threw a non-FilterError: ${error?.stack ?? error}`);
  if (!ALLOWED_CODES.includes(error.code)) fail(`${where}: threw code ${error.code}: ${error.message}`);
  stats.codes[error.code] = (stats.codes[error.code] ?? 0) + 1;
}

// A format version 1 blob (a blocklist: envelope and nested filter alike,
// since a nested blob must be in its envelope's version): read and written
// back as a whole as version 2. A version-2 blob holding a version-1 nested
// blob is no such input: accepted, it would be written back otherwise.
function hasVersion1Header(bytes) {
  return bytes.length > 6 && bytes[4] === 1 && bytes[5] === 0;
}

/**
 * The object is a working filter or blocklist, and gives back exactly
 * `bytes` — or, for version 1 input, version 2 bytes that then round-trip
 * exactly.
 */
function checkAccepted(object, bytes, where) {
  stats.returned++;
  let out = object.serialize();
  if (!sameBytes(out, bytes) && hasVersion1Header(bytes)) {
    if (out[4] !== 2) fail(`${where}: version 1 bytes were written back as version ${out[4]}`);
    const reread = object.constructor.deserialize(out);
    const again = reread.serialize();
    reread.free();
    if (!sameBytes(again, out)) fail(`${where}: version 1 bytes rewritten as version 2 do not round-trip`);
    bytes = out;
    out = again;
  }
  if (!sameBytes(out, bytes)) {
    let at = 0;
    while (at < Math.min(out.length, bytes.length) && out[at] === bytes[at]) at++;
    const field = HEADER_FIELD_NAMES[HEADER_FIELDS.findIndex(([o, n]) => at >= o && at < o + n)] ?? 'parameters/payload/checksum';
    fail(
      `${where}: accepted the bytes but serializes to different bytes ` +
        `(${bytes.length} in, ${out.length} out; first difference at byte ${at}, in the header's ${field} field)`,
    );
  }
  if (object instanceof UrlBlocklist) {
    const m = object.match('http://example.com/a/b');
    if (m !== null && typeof m !== 'string') fail(`${where}: match returned ${m}`);
    const inner = object.filter;
    if (!Number.isFinite(inner.count) || inner.count < 0) fail(`${where}: inner count ${inner.count}`);
    return;
  }
  if (object.type !== TYPE_NAMES[bytes[6]]) fail(`${where}: type ${object.type} for type byte ${bytes[6]}`);
  for (const getter of ['count', 'capacity', 'byteLength', 'falsePositiveRate', 'estimatedFalsePositiveRate']) {
    if (typeof object[getter] !== 'number' || Number.isNaN(object[getter])) fail(`${where}: ${getter} = ${object[getter]}`);
  }
  if (typeof object.has('probe') !== 'boolean') fail(`${where}: has() is not a boolean`);
  // A static filter has no add: it says so (UNSUPPORTED) and keeps its bytes.
  if (STATIC_CLASSES.has(object.constructor)) {
    let caught;
    try {
      object.add('fuzz-new-key');
    } catch (error) {
      caught = error;
    }
    if (!(caught instanceof FilterError) || caught.code !== 'UNSUPPORTED') fail(`${where}: add on a static filter: ${caught}`);
    if (!sameBytes(object.serialize(), out)) fail(`${where}: a refused add changed the bytes`);
    return;
  }
  // Still a working filter: a new key is found, and the result reads back.
  // (A chain read at a count of 2^64 - 1 refuses the add that would wrap
  // it: FULL, nothing changed.)
  let stored = true;
  if (object instanceof CuckooFilter) stored = object.tryAdd('fuzz-new-key');
  else {
    try {
      object.add('fuzz-new-key');
    } catch (error) {
      if (!(error instanceof FilterError && error.code === 'FULL' && bytes[6] >= 17)) throw error;
      if (!sameBytes(object.serialize(), out)) fail(`${where}: a refused add changed the bytes`);
      stored = false;
    }
  }
  if (stored && !object.has('fuzz-new-key')) fail(`${where}: a key added to the accepted filter is not found`);
  if (object instanceof CountingBloomFilter || object instanceof CuckooFilter) {
    if (stored && !object.remove('fuzz-new-key')) fail(`${where}: remove of the new key failed`);
  }
  const again = deserialize(object.serialize());
  again.free();
}

function checkBlob(bytes) {
  // serializedType reads without validating: a known name or null, never a throw.
  const named = serializedType(bytes);
  if (named !== null && !Object.values(TYPE_NAMES).includes(named)) fail(`serializedType returned ${named}`);

  const accepted = {};
  const readers = [
    ['deserialize', deserialize],
    ...Object.entries(CLASSES).map(([id, Class]) => [`${Class.name}.deserialize`, (b) => Class.deserialize(b), Number(id)]),
    ['UrlBlocklist.deserialize', (b) => UrlBlocklist.deserialize(b), 16],
  ];
  for (const [name, read] of readers) {
    const input = bytes.slice(); // a reader must not depend on (or change) the caller's copy
    let object;
    try {
      object = read(input);
    } catch (error) {
      expectFormatError(error, name);
      continue;
    }
    try {
      accepted[name] = true;
      if (!sameBytes(input, bytes)) fail(`${name} changed its input`);
      checkAccepted(object, bytes, name);
    } finally {
      object.free();
    }
  }
  // The generic reader and the reader of the named type agree.
  const typeId = bytes.length > 6 ? bytes[6] : -1;
  const own = CLASSES[typeId] ? `${CLASSES[typeId].name}.deserialize` : null;
  if (accepted.deserialize && !(own && accepted[own])) fail('deserialize accepted bytes its type reader rejects');
  if (own && accepted[own] && !accepted.deserialize) fail(`${own} accepted bytes deserialize rejects`);
  for (const [id, Class] of Object.entries(CLASSES)) {
    if (accepted[`${Class.name}.deserialize`] && Number(id) !== typeId) fail(`${Class.name}.deserialize accepted type ${typeId}`);
  }
  if (accepted['UrlBlocklist.deserialize'] && typeId !== 16) fail(`UrlBlocklist.deserialize accepted type ${typeId}`);
}

// ---------------------------------------------------------------------------
// The module still works: canaries made before any fuzzing.

let canaries;

beforeAll(() => {
  const keys = Array.from({ length: 200 }, (_, i) => `canary-${i}-\u00e9`);
  canaries = Object.values(CLASSES).map((Class) => {
    const filter = filterOf(Class, { capacity: 300, falsePositiveRate: 0.01, seed: 7 }, keys);
    return { filter, keys, bytes: filter.serialize() };
  });
});

afterAll(() => {
  for (const { filter } of canaries) filter.free();
  console.log('deserialize fuzzing outcomes:', JSON.stringify(stats));
});

function checkModuleStillWorks() {
  for (const { filter, keys, bytes } of canaries) {
    if (!filter.hasMany(keys).every(Boolean)) fail(`canary ${filter.type} lost keys`);
    if (!sameBytes(filter.serialize(), bytes)) fail(`canary ${filter.type} bytes changed`);
  }
  const fresh = new BloomFilter({ capacity: 10 });
  fresh.add('after');
  const ok = fresh.has('after');
  fresh.free();
  if (!ok) fail('a new filter does not work');
}

// ---------------------------------------------------------------------------
// Valid blobs to start from.

const keyArb = fc.oneof(fc.string({ maxLength: 8 }), fc.uint8Array({ maxLength: 8 }));

const filterBlobArb = fc
  .record({
    typeIndex: fc.nat(),
    capacity: fc.integer({ min: 1, max: 60 }),
    falsePositiveRate: fc.constantFrom(0.3, 0.01, 0.001),
    seed: fc.oneof(fc.constant(0), fc.nat()),
    bucketSize: fc.constantFrom(2, 4, 8),
    fingerprintBits: fc.integer({ min: 4, max: 32 }),
    keys: fc.array(keyArb, { maxLength: 40 }),
  })
  .map(({ typeIndex, capacity, falsePositiveRate, seed, bucketSize, fingerprintBits, keys }) => {
    const typeId = SINGLE_PART[typeIndex % SINGLE_PART.length];
    const Class = CLASSES[typeId];
    const options =
      typeId === 4
        ? { capacity, seed, bucketSize, fingerprintBits }
        : typeId === 5
          ? { seed, fingerprintBits, arity: bucketSize === 8 ? 4 : 3 }
          : { capacity, falsePositiveRate, seed };
    return bytesThenFree(filterOf(Class, options, keys));
  });

const blocklistBlobArb = fc
  .record({
    hosts: fc.array(fc.stringMatching(/^[a-z]{1,6}\.[a-z]{2,4}$/), { maxLength: 10 }),
    type: fc.constantFrom('bloom', 'blocked-bloom', 'counting-bloom', 'cuckoo', 'binary-fuse', 'ribbon'),
  })
  .map(({ hosts, type }) => bytesThenFree(UrlBlocklist.build(hosts, { type })));


// Chains with several links (scalable Bloom, scalable cuckoo) and generations
// (expiring Bloom), whose nested blobs the mutations below reach.
const chainBlobArb = fc
  .record({
    typeId: fc.constantFrom(17, 18, 19),
    capacity: fc.integer({ min: 1, max: 8 }),
    falsePositiveRate: fc.constantFrom(0.1, 0.01),
    seed: fc.nat(),
    keys: fc.array(keyArb, { maxLength: 40 }),
  })
  .map(({ typeId, capacity, falsePositiveRate, seed, keys }) => {
    const options =
      typeId === 19
        ? // A window far beyond Date.now(), the clock a deserialized copy reads: no generation expires under the test.
          { capacity, falsePositiveRate, seed, window: 1e15, generations: 3, clock: () => 0 }
        : { capacity, falsePositiveRate, seed };
    return bytesThenFree(filterOf(CLASSES[typeId], options, keys));
  });

// ---------------------------------------------------------------------------
// Mutations.

const U64 = (n) => BigInt.asUintN(64, BigInt(n));
const interestingInts = [
  0n, 1n, 2n, 3n, 4n, 5n, 7n, 8n, 9n, 15n, 16n, 17n, 31n, 32n, 33n, 63n, 64n, 65n, 127n, 128n, 255n, 256n,
  (1n << 20n) - 1n, 1n << 20n, (1n << 20n) + 1n, (1n << 31n), (1n << 32n) - 1n, 1n << 32n,
  (1n << 40n) - 1n, 1n << 40n, (1n << 40n) + 1n, 1n << 48n, (1n << 48n) + 1n, 1n << 53n,
  1n << 56n, 1n << 58n, 1n << 61n, 1n << 63n, (1n << 64n) - 1n, (1n << 64n) - 64n,
];
const doubleBits = (x) => {
  const b = new DataView(new ArrayBuffer(8));
  b.setFloat64(0, x, true);
  return b.getBigUint64(0, true);
};
const interestingRates = [NaN, -0, 0, 1, -0.5, 1.5, Infinity, -Infinity, Number.MIN_VALUE, 1 - 2 ** -53, 0.5, 1e-300, 2].map(doubleBits);

const fieldValueArb = fc.oneof(
  fc.constantFrom(...interestingInts),
  fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }),
  fc.record({ delta: fc.integer({ min: -3, max: 3 }) }), // relative to the current value
  fc.constantFrom(...interestingRates),
);

const mutationArb = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('field'), field: fc.nat(), value: fieldValueArb }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('flip'), at: fc.nat(), bit: fc.nat({ max: 7 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('byte'), at: fc.nat(), value: fc.integer({ min: 0, max: 255 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('truncate'), cut: fc.nat({ max: 80 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('append'), extra: fc.uint8Array({ minLength: 1, maxLength: 24 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('splice'), at: fc.nat(), remove: fc.nat({ max: 16 }), insert: fc.uint8Array({ maxLength: 16 }) }) },
  // Keep the declared lengths consistent with the actual size after a size change.
  { weight: 1, arbitrary: fc.constant({ kind: 'fixLengths' }) },
);

// Mutations of a composite's nested blobs: a header field of one link (its
// version, its count...), or link 0's count raised to 2^64 - 1 with the outer
// count set to the links' sum modulo 2^64 (a wrapped sum, which is CORRUPT).
const nestedMutationArb = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('nested'), link: fc.nat(), field: fc.nat(), value: fieldValueArb }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('nestedVersion'), link: fc.nat(), version: fc.constantFrom(0, 1, 3) }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'wrapLinkCount' }) },
);
const compositeMutationArb = fc.oneof({ weight: 1, arbitrary: mutationArb }, { weight: 2, arbitrary: nestedMutationArb });

function applyMutation(bytes, m) {
  const fields = [...HEADER_FIELDS, ...(PARAM_FIELDS[bytes[6]] ?? [])];
  const nested = nestedBlobs(bytes);
  switch (m.kind) {
    case 'nested': {
      if (nested.length === 0) return bytes;
      const [at] = nested[m.link % nested.length];
      const [offset, size] = HEADER_FIELDS[m.field % HEADER_FIELDS.length];
      let value = m.value;
      if (typeof value === 'object') value = readField(bytes, [at + offset, size]) + BigInt(value.delta);
      writeField(bytes, [at + offset, size], value);
      return bytes;
    }
    case 'nestedVersion':
      if (nested.length > 0) view(bytes).setUint16(nested[m.link % nested.length][0] + 4, m.version, true);
      return bytes;
    case 'wrapLinkCount': {
      if (nested.length === 0) return bytes;
      const at = nested[0][0];
      const before = readField(bytes, [at + 24, 8]);
      writeField(bytes, [at + 24, 8], (1n << 64n) - 1n);
      writeField(bytes, [24, 8], readField(bytes, [24, 8]) - before - 1n);
      return bytes;
    }
    case 'field': {
      const field = fields[m.field % fields.length];
      let value = m.value;
      if (typeof value === 'object') value = readField(bytes, field) + BigInt(value.delta);
      writeField(bytes, field, value);
      return bytes;
    }
    case 'flip':
      if (bytes.length > 0) bytes[m.at % bytes.length] ^= 1 << m.bit;
      return bytes;
    case 'byte':
      if (bytes.length > 0) bytes[m.at % bytes.length] = m.value;
      return bytes;
    case 'truncate':
      return bytes.slice(0, Math.max(0, bytes.length - 1 - m.cut));
    case 'append': {
      const out = new Uint8Array(bytes.length + m.extra.length);
      out.set(bytes);
      out.set(m.extra, bytes.length);
      return out;
    }
    case 'splice': {
      const at = bytes.length === 0 ? 0 : m.at % bytes.length;
      const parts = [bytes.subarray(0, at), m.insert, bytes.subarray(Math.min(bytes.length, at + m.remove))];
      const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
      let o = 0;
      for (const p of parts) {
        out.set(p, o);
        o += p.length;
      }
      return out;
    }
    case 'fixLengths': {
      if (bytes.length < 64) return bytes;
      const p = view(bytes).getUint32(12, true);
      const l = bytes.length - 64 - p;
      if (l >= 0) view(bytes).setBigUint64(48, U64(l), true);
      return bytes;
    }
    default:
      throw new Error(m.kind);
  }
}

// ---------------------------------------------------------------------------

test('the JS XXH3 used to fix checksums matches the checksums the library writes', () => {
  // Blob lengths from 88 bytes to several KiB cover XXH3's 17-128, 129-240 and long paths.
  const lengths = new Set();
  for (const Class of Object.values(CLASSES)) {
    for (const capacity of [1, 2, 3, 5, 8, 13, 40, 100, 400, 2000]) {
      const filter = filterOf(Class, { capacity }, Array.from({ length: capacity }, (_, i) => `x${i}`));
      const bytes = filter.serialize();
      filter.free();
      lengths.add(bytes.length);
      expect(xxh3(bytes.subarray(0, bytes.length - 8))).toBe(view(bytes).getBigUint64(bytes.length - 8, true));
    }
  }
  expect(Math.min(...lengths)).toBeLessThanOrEqual(128);
  expect([...lengths].some((n) => n > 128 && n <= 240)).toBe(true);
  expect(Math.max(...lengths)).toBeGreaterThan(2048);
});

test(`arbitrary bytes: a format error or an identical round trip (${RUNS} runs)`, () => {
  const headerShaped = fc
    .record({
      type: fc.constantFrom(0, 1, 2, 3, 4, 5, 15, 16, 17, 255),
      version: fc.oneof(fc.constant(1), fc.integer({ min: 0, max: 0xffff })),
      p: fc.oneof(fc.constantFrom(8, 16, 20, 24), fc.nat({ max: 40 })),
      words: fc.nat({ max: 24 }),
      body: fc.uint8Array({ minLength: 48, maxLength: 48 }),
      rest: fc.uint8Array({ maxLength: 300 }),
      checksum: fc.boolean(),
      sparse: fc.boolean(),
    })
    .map(({ type, version, p, words, body, rest, checksum, sparse }) => {
      const bytes = new Uint8Array(64 + p + 8 * words);
      bytes.set([0x43, 0x42, 0x57, 0x46]);
      view(bytes).setUint16(4, version, true);
      bytes[6] = type;
      bytes.set(body.subarray(0, 48), 8);
      bytes[7] = 1; // hash algorithm
      view(bytes).setUint32(8, 0, true); // flags
      view(bytes).setUint32(12, p, true);
      view(bytes).setBigUint64(48, BigInt(8 * words), true);
      // Parameters and payload: random, or mostly zero (which is closer to valid).
      for (let i = 56; i < bytes.length - 8; i++) bytes[i] = sparse ? (rest[i % Math.max(1, rest.length)] ?? 0) & 1 : rest[i - 56] ?? 0;
      if (checksum) fixChecksum(bytes);
      return bytes;
    });
  fc.assert(
    fc.property(fc.oneof(fc.uint8Array({ maxLength: 200 }), headerShaped), (bytes) => {
      checkBlob(bytes);
      checkModuleStillWorks();
    }),
    { seed: 0xf022, numRuns: RUNS },
  );
});

function mutatedBlobProperty(validArb, mutations = mutationArb) {
  return fc.property(
    validArb,
    fc.array(mutations, { minLength: 1, maxLength: 4 }),
    fc.nat({ max: 9 }),
    (valid, mutations, checksumChoice) => {
      // Every valid blob reads back identically before any mutation.
      checkBlob(valid);
      let bytes = valid.slice();
      for (const m of mutations) bytes = applyMutation(bytes, m);
      // Mostly with the checksum recomputed (nested blob first): the damage
      // then reaches the checks behind the checksum. 0 = keep it stale.
      if (checksumChoice > 0) fixChecksums(bytes);
      checkBlob(bytes);
      checkModuleStillWorks();
    },
  );
}

test(`mutated valid filter blobs: a format error or an identical round trip (${RUNS * 3} runs)`, () => {
  stats.returned = 0;
  stats.codes = {};
  fc.assert(mutatedBlobProperty(filterBlobArb), { seed: 0xf023, numRuns: RUNS * 3 });
  // Some mutated blobs must be accepted (a changed seed, rate, count, bits...),
  // and some rejected for each reason reachable from valid bytes.
  expect(stats.returned).toBeGreaterThan(RUNS);
  expect(stats.codes.CORRUPT).toBeGreaterThan(RUNS);
  expect(stats.codes.WRONG_TYPE).toBeGreaterThan(0);
  expect(stats.codes.UNSUPPORTED_VERSION).toBeGreaterThan(0);
});

// A nested blob in another format version than its envelope, or link counts
// that wrap modulo 2^64, must be refused: accepted, they would not read back
// identically (docs/SECURITY.md, canonical bytes).
test(`mutated chains and their links: a format error or an identical round trip (${RUNS} runs)`, () => {
  stats.returned = 0;
  stats.codes = {};
  fc.assert(mutatedBlobProperty(chainBlobArb, compositeMutationArb), { seed: 0xf026, numRuns: RUNS });
  expect(stats.returned).toBeGreaterThan(RUNS / 4);
  expect(stats.codes.CORRUPT).toBeGreaterThan(RUNS / 4);
});

test(`mutated URL blocklists around chains, links included: a format error or an identical round trip (${RUNS} runs)`, () => {
  const blocklistOfChainArb = fc.record({ hosts: fc.array(fc.stringMatching(/^[a-z]{1,6}\.[a-z]{2,4}$/), { maxLength: 10 }), type: fc.constantFrom('scalable-bloom', 'scalable-cuckoo', 'bloom') })
    .map(({ hosts, type }) => {
      const list = UrlBlocklist.build(hosts, { type });
      try {
        return list.serialize();
      } finally {
        list.free();
      }
    });
  fc.assert(mutatedBlobProperty(blocklistOfChainArb, compositeMutationArb), { seed: 0xf027, numRuns: RUNS });
});

test(`mutated valid URL-blocklist blobs: a format error or an identical round trip (${RUNS} runs)`, () => {
  fc.assert(mutatedBlobProperty(blocklistBlobArb), { seed: 0xf024, numRuns: RUNS });
});

// The envelope's own header (docs/FORMAT.md, type 16): "seed 0; item count =
// entries stored; capacity and target rate copied from the nested filter".
// Bytes that break those rules must be rejected, or they would not read back
// identically; any entry count that is accepted must survive the round trip.
test(`URL-blocklist envelope header fields: rejected or identical (${RUNS} runs)`, () => {
  const fieldArb = fc.oneof(
    fc.record({ offset: fc.constant(16), value: fc.oneof(fc.constant(0n), fc.bigInt({ min: 1n, max: (1n << 64n) - 1n })) }), // seed
    fc.record({ offset: fc.constant(24), value: fc.oneof(fc.bigInt({ min: 0n, max: 1000n }), fc.constantFrom(...interestingInts)) }), // entries
    fc.record({ offset: fc.constant(32), value: fc.oneof(fc.bigInt({ min: 1n, max: 5000n }), fc.constantFrom(...interestingInts)) }), // capacity
    fc.record({ offset: fc.constant(40), value: fc.oneof(fc.double({ min: 1e-9, max: 0.9, noNaN: true }).map(doubleBits), fc.constantFrom(...interestingRates)) }), // rate
  );
  fc.assert(
    fc.property(blocklistBlobArb, fieldArb, (valid, { offset, value }) => {
      const bytes = valid.slice();
      view(bytes).setBigUint64(offset, value, true);
      fixChecksum(bytes);
      checkBlob(bytes);
      checkModuleStillWorks();
    }),
    { seed: 0xf025, numRuns: RUNS },
  );
});

// A scheme-1 blocklist (Safe Browsing's fixed depths, written before lists
// recorded their own) reads and writes back as the same bytes; an entry deeper
// than Safe Browsing's limits makes it scheme 2, which then round-trips too.
test('a scheme-1 URL blocklist writes back its own bytes until it needs scheme 2', () => {
  const made = UrlBlocklist.create({ type: 'bloom', capacity: 50, falsePositiveRate: 0.01 });
  made.addLine('evil.example');
  const scheme2 = made.serialize();
  made.free();
  expect(view(scheme2).getUint32(56, true)).toBe(2);
  const scheme1 = scheme2.slice();
  view(scheme1).setUint32(56, 1, true);
  view(scheme1).setUint32(60, 0, true);
  fixChecksum(scheme1);
  const read = UrlBlocklist.deserialize(scheme1);
  try {
    expect(sameBytes(read.serialize(), scheme1)).toBe(true);
    read.addLine('other.example/a/'); // within Safe Browsing's depths: still scheme 1
    expect(view(read.serialize()).getUint32(56, true)).toBe(1);
    read.addLine('a.b.c.d.e.f.example/'); // 7 host labels: deeper than 5
    const deeper = read.serialize();
    expect(view(deeper).getUint32(56, true)).toBe(2);
    const again = UrlBlocklist.deserialize(deeper);
    expect(sameBytes(again.serialize(), deeper)).toBe(true);
    expect(again.match('http://a.b.c.d.e.f.example/x')).toBe('a.b.c.d.e.f.example/');
    again.free();
  } finally {
    read.free();
  }
});
