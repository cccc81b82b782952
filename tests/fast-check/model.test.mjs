// Model-based property tests (fast-check): every filter type runs random
// sequences of add / tryAdd / remove / has / hasMany / addMany / clear /
// serialize→deserialize steps over a random pool of keys (unicode strings,
// lone surrogates, long strings, raw bytes), each key handed over as a string
// or as bytes in several shapes, and is compared after every step with a
// multiset model:
//
// - present in the model ⇒ has() is true (no false negatives, ever);
// - has(string) ≡ has(its UTF-8 bytes), whatever shape the bytes come in;
// - hasMany(keys)[i] ≡ has(keys[i]);
// - count: cuckoo = stored fingerprints, counting = adds − successful removes
//   (both exactly the model's size); Bloom / blocked Bloom = keys added,
//   i.e. +1 for every add, a repeat included;
// - cuckoo with tiny tables: FULL leaves the model, the count and the table
//   bytes unchanged; addMany stops at FULL with exactly a prefix stored.
//
// Fixed seeds: a failure reproduces with the same seed (fast-check prints the
// seed, the path and the shrunk counterexample).
import fc from 'fast-check';
import {
  init, deserialize, BloomFilter, BlockedBloomFilter, CountingBloomFilter, CuckooFilter, FilterError,
} from 'cuckoo-bloom-wasm';
import { fail, payloadOf, sameBytes } from '../helpers/keys.mjs';
import { consistentCuckooOptions } from '../helpers/cuckoo-options.mjs';

const RUNS = Number(process.env.FC_RUNS ?? 300);

const encoder = new TextEncoder();
const strictDecoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

beforeAll(async () => {
  await init();
});

// ---------------------------------------------------------------------------
// Keys. A key is its bytes (what gets hashed) plus, when the bytes are valid
// UTF-8, a string that encodes to exactly those bytes. A string holding lone
// surrogates encodes them as U+FFFD, so it is kept as typed (the library must
// hash it the way TextEncoder encodes it) with its bytes from TextEncoder.

function keyFromString(str) {
  return { str, bytes: encoder.encode(str) };
}

function keyFromBytes(bytes) {
  let str = null;
  try {
    str = strictDecoder.decode(bytes);
  } catch {
    str = null;
  }
  if (str !== null && !sameBytes(encoder.encode(str), bytes)) str = null;
  return { str, bytes };
}

const idOf = (key) => Buffer.from(key.bytes).toString('hex');

const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c));
const oneCodePoint = fc.string({ unit: 'binary', minLength: 1, maxLength: 1 });

const keyArb = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 6 }).map(keyFromString),
  fc.string({ unit: 'binary', maxLength: 10 }).map(keyFromString),
  fc.string({ unit: fc.oneof(fc.constantFrom('a', 'é', '\u0000'), loneSurrogate, oneCodePoint), maxLength: 8 }).map(keyFromString),
  // Around the 32-unit ASCII fast path of the key encoder, and past it.
  fc.string({ unit: 'grapheme-ascii', minLength: 28, maxLength: 70 }).map(keyFromString),
  fc.string({ unit: 'grapheme', minLength: 20, maxLength: 40 }).map(keyFromString),
  fc.constantFrom('', 'a', 'A', 'é', 'e\u0301', '\uFFFD', '\uD800', '😀').map(keyFromString),
  fc.uint8Array({ maxLength: 40 }).map(keyFromBytes),
);

/**
 * The key in one of several shapes: 0 = string (when there is one), 1 = a
 * fresh Uint8Array, 2 = a subarray in the middle of a larger buffer with junk
 * around it, 3 = a Node Buffer. All must hash the same bytes.
 */
function shape(key, form) {
  switch (form % 4) {
    case 0:
      return key.str ?? key.bytes.slice();
    case 1:
      return key.bytes.slice();
    case 2: {
      const big = new Uint8Array(key.bytes.length + 11).fill(0xa5);
      big.set(key.bytes, 5);
      return big.subarray(5, 5 + key.bytes.length);
    }
    default:
      return Buffer.from(key.bytes);
  }
}

// ---------------------------------------------------------------------------
// Operations, referring to keys by index into the run's pool.

const ix = fc.nat({ max: 1000 });
const form = fc.nat({ max: 3 });
const forms = (n) => fc.array(fc.tuple(ix, form), { maxLength: n, size: 'max' });

function opArb({ removable, cuckoo }) {
  const ops = [
    { weight: 6, arbitrary: fc.record({ op: fc.constant('add'), k: ix, form }) },
    { weight: 3, arbitrary: fc.record({ op: fc.constant('has'), k: ix, form }) },
    { weight: 2, arbitrary: fc.record({ op: fc.constant('addMany'), keys: forms(12) }) },
    { weight: 2, arbitrary: fc.record({ op: fc.constant('hasMany'), keys: forms(16) }) },
    { weight: 1, arbitrary: fc.record({ op: fc.constant('roundTrip'), generic: fc.boolean() }) },
    { weight: 1, arbitrary: fc.constant({ op: 'clear' }) },
  ];
  if (removable) ops.push({ weight: 4, arbitrary: fc.record({ op: fc.constant('remove'), k: ix, form }) });
  if (cuckoo) ops.push({ weight: 3, arbitrary: fc.record({ op: fc.constant('tryAdd'), k: ix, form }) });
  return fc.oneof(...ops);
}

const seedArb = fc.oneof(fc.constant(0), fc.nat(), fc.maxSafeNat());

const bloomOptions = fc.record({
  capacity: fc.integer({ min: 1, max: 64 }),
  falsePositiveRate: fc.constantFrom(0.5, 0.1, 0.01, 0.001),
  seed: seedArb,
});

// Tiny cuckoo tables (4 to 16 slots) against pools of up to 40 keys: FULL is common.
const cuckooOptions = fc
  .record(
    {
      capacity: fc.integer({ min: 1, max: 12 }),
      falsePositiveRate: fc.constantFrom(0.3, 0.05, 0.01),
      seed: seedArb,
      bucketSize: fc.constantFrom(2, 4, 8),
      fingerprintBits: fc.integer({ min: 4, max: 32 }),
      maxKicks: fc.integer({ min: 0, max: 30 }),
    },
    { requiredKeys: ['capacity', 'seed'] },
  )
  .map(consistentCuckooOptions);

const TYPES = [
  { name: 'bloom', Class: BloomFilter, options: bloomOptions, countRule: 'adds', seed: 0x5eed0001 },
  { name: 'blocked-bloom', Class: BlockedBloomFilter, options: bloomOptions, countRule: 'adds', seed: 0x5eed0002 },
  { name: 'counting-bloom', Class: CountingBloomFilter, options: bloomOptions, countRule: 'model', removable: true, seed: 0x5eed0003 },
  { name: 'cuckoo', Class: CuckooFilter, options: cuckooOptions, countRule: 'model', removable: true, cuckoo: true, seed: 0x5eed0004 },
];

// ---------------------------------------------------------------------------

class Model {
  counts = new Map();
  size = 0;
  add(key) {
    const id = idOf(key);
    this.counts.set(id, (this.counts.get(id) ?? 0) + 1);
    this.size++;
  }
  remove(key) {
    const id = idOf(key);
    const n = this.counts.get(id) ?? 0;
    if (n <= 1) this.counts.delete(id);
    else this.counts.set(id, n - 1);
    this.size--;
  }
  has(key) {
    return this.counts.has(idOf(key));
  }
  clear() {
    this.counts.clear();
    this.size = 0;
  }
}

function isFull(error) {
  return error instanceof FilterError && error.code === 'FULL';
}

const stats = {};

function runScenario(type, options, pool, ops) {
  const { Class, countRule, removable, cuckoo } = type;
  const s = (stats[type.name] ??= { runs: 0, steps: 0, full: 0, fullMany: 0, removes: 0, roundTrips: 0 });
  s.runs++;
  let filter = new Class(options);
  const model = new Model();
  const keyAt = (i) => pool[i % pool.length];

  const checkInvariants = (where) => {
    // Present ⇒ has(), in every shape; string ≡ bytes.
    for (const key of pool) {
      const answers = [0, 1, 2, 3].map((f) => filter.has(shape(key, f)));
      if (answers.some((a) => a !== answers[0])) {
        fail(`${where}: has() differs between key shapes for ${JSON.stringify(key.str)} [${key.bytes}]: ${answers}`);
      }
      if (model.has(key) && !answers[0]) {
        fail(`${where}: false negative for ${JSON.stringify(key.str)} [${key.bytes}]`);
      }
    }
    if (countRule === 'model' && filter.count !== model.size) {
      fail(`${where}: count ${filter.count}, model ${model.size}`);
    }
    if (cuckoo && filter.count > filter.slotCount) fail(`${where}: count ${filter.count} > slots ${filter.slotCount}`);
  };

  try {
    for (const [step, op] of ops.entries()) {
      s.steps++;
      const where = `step ${step} (${op.op})`;
      switch (op.op) {
        case 'add':
        case 'tryAdd': {
          const key = keyAt(op.k);
          const before = filter.count;
          const hadIt = filter.has(key.bytes);
          const tableBefore = cuckoo ? payloadOf(filter.serialize()) : null;
          let stored = true;
          if (op.op === 'tryAdd') {
            stored = filter.tryAdd(shape(key, op.form));
            if (typeof stored !== 'boolean') fail(`${where}: tryAdd returned ${stored}`);
          } else {
            try {
              const returned = filter.add(shape(key, op.form));
              if (returned !== filter) fail(`${where}: add() did not return the filter`);
            } catch (error) {
              if (!cuckoo || !isFull(error)) throw error;
              stored = false;
            }
          }
          if (stored) {
            model.add(key);
            if (countRule === 'adds' && filter.count !== before + 1) {
              fail(`${where}: count ${before} -> ${filter.count} after one add (has() before: ${hadIt})`);
            }
          } else {
            s.full++;
            if (filter.count !== before) fail(`${where}: FULL changed count ${before} -> ${filter.count}`);
            if (!sameBytes(payloadOf(filter.serialize()), tableBefore)) fail(`${where}: FULL changed the table`);
          }
          break;
        }
        case 'remove': {
          const key = keyAt(op.k);
          // Removing a key that was never added may delete another key's
          // fingerprint or counts (documented): only remove what the model holds.
          if (!model.has(key)) break;
          s.removes++;
          if (filter.remove(shape(key, op.form)) !== true) fail(`${where}: remove of a present key returned false`);
          model.remove(key);
          break;
        }
        case 'has': {
          const key = keyAt(op.k);
          const answer = filter.has(shape(key, op.form));
          if (typeof answer !== 'boolean') fail(`${where}: has returned ${answer}`);
          if (model.has(key) && !answer) fail(`${where}: false negative`);
          break;
        }
        case 'hasMany': {
          const keys = op.keys.map(([k]) => keyAt(k));
          const answers = filter.hasMany(op.keys.map(([k, f]) => shape(keyAt(k), f)));
          if (!Array.isArray(answers) || answers.length !== keys.length) fail(`${where}: hasMany length`);
          keys.forEach((key, i) => {
            if (answers[i] !== filter.has(key.bytes)) fail(`${where}: hasMany[${i}] = ${answers[i]} differs from has()`);
            if (model.has(key) && !answers[i]) fail(`${where}: hasMany false negative at ${i}`);
          });
          break;
        }
        case 'addMany': {
          const keys = op.keys.map(([k]) => keyAt(k));
          const before = filter.count;
          let storedPrefix = keys.length;
          try {
            filter.addMany(op.keys.map(([k, f]) => shape(keyAt(k), f)));
          } catch (error) {
            if (!cuckoo || !isFull(error)) throw error;
            s.fullMany++;
            // Each stored key is one fingerprint: the count says how long the stored prefix is.
            storedPrefix = filter.count - before;
            if (!(storedPrefix >= 0 && storedPrefix < keys.length)) {
              fail(`${where}: addMany threw FULL after storing ${storedPrefix} of ${keys.length}`);
            }
          }
          for (const key of keys.slice(0, storedPrefix)) model.add(key);
          if (countRule === 'adds' && filter.count - before !== keys.length) {
            fail(`${where}: count grew by ${filter.count - before} after adding ${keys.length} keys`);
          }
          break;
        }
        case 'roundTrip': {
          s.roundTrips++;
          const bytes = filter.serialize();
          const again = op.generic ? deserialize(bytes) : Class.deserialize(bytes);
          if (!(again instanceof Class)) fail(`${where}: deserialize gave ${again?.constructor?.name}`);
          if (!sameBytes(again.serialize(), bytes)) fail(`${where}: serialize∘deserialize changed the bytes`);
          if (again.count !== filter.count) fail(`${where}: count ${filter.count} -> ${again.count}`);
          filter.free();
          let threw = null;
          try {
            filter.has('x');
          } catch (error) {
            threw = error;
          }
          if (!(threw instanceof FilterError && threw.code === 'FREED')) fail(`${where}: use after free did not throw FREED`);
          filter = again;
          break;
        }
        case 'clear':
          filter.clear();
          model.clear();
          if (filter.count !== 0) fail(`${where}: count after clear ${filter.count}`);
          break;
        default:
          fail(`unknown op ${op.op}`);
      }
      checkInvariants(where);
    }
  } finally {
    filter.free();
  }
}

describe.each(TYPES)('$name agrees with a multiset model', (type) => {
  test(`random operation sequences (${RUNS} runs)`, () => {
    fc.assert(
      fc.property(
        type.options,
        fc.array(keyArb, { minLength: 1, maxLength: 40, size: 'medium' }),
        fc.array(opArb(type), { minLength: 1, maxLength: 80, size: 'max' }),
        (options, pool, ops) => runScenario(type, options, pool, ops),
      ),
      { seed: type.seed, numRuns: RUNS },
    );
    const s = stats[type.name];
    // The runs must actually exercise what they claim to.
    expect(s.roundTrips).toBeGreaterThan(0);
    if (type.removable) expect(s.removes).toBeGreaterThan(0);
    if (type.cuckoo) {
      expect(s.full).toBeGreaterThan(0);
      expect(s.fullMany).toBeGreaterThan(0);
    }
  });
});

// The same key as a string and as its UTF-8 bytes is the same key, in any
// filter, whether added as one and queried as the other.
test('has(bytes) ≡ has(string): added in one form, found in the other', () => {
  const classes = [BloomFilter, BlockedBloomFilter, CountingBloomFilter, CuckooFilter];
  fc.assert(
    fc.property(
      fc.array(fc.string({ unit: fc.oneof(oneCodePoint, loneSurrogate, fc.constant('a')), maxLength: 40 }), {
        minLength: 1,
        maxLength: 30,
      }),
      fc.nat({ max: 3 }),
      fc.boolean(),
      (strings, which, addBytes) => {
        const filter = new classes[which]({ capacity: 64, falsePositiveRate: 0.0001 });
        try {
          for (const str of strings) filter.add(addBytes ? encoder.encode(str) : str);
          for (const str of strings) {
            if (!filter.has(str) || !filter.has(encoder.encode(str))) {
              fail(`${filter.type}: ${JSON.stringify(str)} added as ${addBytes ? 'bytes' : 'string'} not found`);
            }
          }
          const asStrings = filter.hasMany(strings);
          const asBytes = filter.hasMany(strings.map((str) => encoder.encode(str)));
          if (!asStrings.every(Boolean) || !asBytes.every(Boolean)) fail(`${filter.type}: hasMany false negative`);
        } finally {
          filter.free();
        }
      },
    ),
    { seed: 0x5eed0005, numRuns: 500 },
  );
});
