// CuckooIndex against a JS Map: every answer exact, nothing lost, through
// sets, updates, deletes, compaction, reopening a file and table growth.
// Seeded random runs (hundreds of thousands of operations) and fast-check
// sequences (shrunk to a minimal failing sequence if one ever fails).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
// Node's import entry, not dist/index.js: the file entry shares index.cjs's wasm instance.
import { CuckooIndex, init } from '../../dist/index.import.cjs';
import { FileCuckooIndex } from '../../dist/index-file.mjs';
import { prng } from '../helpers/keys.mjs';

const decoder = new TextDecoder();
let directory;
beforeAll(async () => {
  await init();
  directory = mkdtempSync(join(tmpdir(), 'cbw-index-model-'));
});
afterAll(() => rmSync(directory, { recursive: true, force: true }));

const keyOf = (i) => (i % 3 === 0 ? new TextEncoder().encode(`bytes-key/${i}`) : `https://host${i % 97}.example/p/${i}`);
// The model keys by the key's text (a string key and its UTF-8 bytes are one key).
const modelKey = (key) => (typeof key === 'string' ? key : decoder.decode(key));

/** Every key of the universe answers as the model says; iteration lists each live key once. */
function expectSame(index, model, universeSize) {
  expect(index.size).toBe(model.size);
  for (let i = 0; i < universeSize; i++) {
    const key = keyOf(i);
    const want = model.get(modelKey(key));
    const got = index.get(key);
    if (want === undefined) {
      if (got !== undefined) throw new Error(`absent key ${modelKey(key)} answered ${got}`);
      if (index.has(key)) throw new Error(`absent key ${modelKey(key)} has() true`);
    } else if (want === null) {
      if (got !== null) throw new Error(`valueless key ${modelKey(key)} answered ${got}`);
    } else if (got === undefined || got === null || decoder.decode(got) !== want) {
      throw new Error(`key ${modelKey(key)}: want ${want}, got ${got && decoder.decode(got)}`);
    }
  }
  // Plain checks in the loops: Jest's expect() costs ~100 µs a call.
  const seen = new Set();
  for (const [key, value] of index.entries()) {
    const text = decoder.decode(key);
    if (seen.has(text)) throw new Error(`iteration listed ${text} twice`);
    seen.add(text);
    const want = model.get(text);
    if (want === undefined) throw new Error(`iteration listed ${text}, which is absent`);
    const got = value === null ? null : decoder.decode(value);
    if (got !== want) throw new Error(`iteration gave ${text} the value ${got}, want ${want}`);
  }
  expect(seen.size).toBe(model.size);
}

/**
 * A fast-check step over keys 0..maxKey: set (with no value or a string of up
 * to maxValueLength), delete, `other` (a record with its own kind) or compact.
 */
function stepOf(maxKey, maxValueLength, other) {
  return fc.oneof(
    fc.record({ kind: fc.constant('set'), key: fc.nat(maxKey), value: fc.option(fc.string({ maxLength: maxValueLength }), { nil: undefined }) }),
    fc.record({ kind: fc.constant('delete'), key: fc.nat(maxKey) }),
    other,
    fc.record({ kind: fc.constant('compact') }),
  );
}

/** Applies a set, delete or has step to the index and the model; whether the index answered as the model. */
function answersAsModel(index, model, step) {
  const key = keyOf(step.key);
  if (step.kind === 'set') {
    const added = index.set(key, step.value) === !model.has(modelKey(key));
    model.set(modelKey(key), step.value ?? null);
    return added;
  }
  if (step.kind === 'delete') return index.delete(key) === model.delete(modelKey(key));
  return index.has(key) === model.has(modelKey(key));
}

/**
 * `operations` seeded operations over `universeSize` keys. `reopen` makes a
 * fresh index over the same records (a file: close and open; memory: none).
 */
function runRandom({ make, reopen, operations, universeSize, checkEvery, seed }) {
  const random = prng(seed);
  let index = make();
  const model = new Map();
  let hits = 0;
  let rebuilds = 0;
  try {
    for (let op = 1; op <= operations; op++) {
      const i = Math.floor(random() * universeSize);
      const key = keyOf(i);
      const roll = random();
      if (roll < 0.45) {
        const value = random() < 0.5 ? undefined : random() < 0.5 ? `v${op}` : new TextEncoder().encode(`b${op}`);
        const added = index.set(key, value);
        if (added !== !model.has(modelKey(key))) throw new Error(`set(${modelKey(key)}) said ${added}`);
        model.set(modelKey(key), value === undefined ? null : typeof value === 'string' ? value : decoder.decode(value));
      } else if (roll < 0.65) {
        const deleted = index.delete(key);
        if (deleted !== model.delete(modelKey(key))) throw new Error(`delete(${modelKey(key)}) said ${deleted}`);
      } else {
        const present = index.has(key);
        if (present !== model.has(modelKey(key))) throw new Error(`has(${modelKey(key)}) said ${present}`);
        if (present) hits++;
      }
      if (op % checkEvery === 0) {
        rebuilds = Math.max(rebuilds, index.stats().rebuilds);
        expectSame(index, model, universeSize);
        if (reopen) {
          index = reopen(index);
          expectSame(index, model, universeSize);
        }
        index.compact();
        expect(index.stats().deadRecords).toBe(0);
        expectSame(index, model, universeSize);
      }
    }
    expectSame(index, model, universeSize);
    expect(hits).toBeGreaterThan(operations / 20);
    return { ...index.stats(), rebuilds: Math.max(rebuilds, index.stats().rebuilds) };
  } finally {
    if (index.close) index.close();
    else index.free();
  }
}

describe('CuckooIndex in memory matches a Map', () => {
  test('2,000,000 seeded operations over 20,000 keys (the table grows from 16 keys)', () => {
    const stats = runRandom({
      make: () => new CuckooIndex({ capacity: 16 }),
      operations: 2_000_000,
      universeSize: 20_000,
      checkEvery: 250_000,
      seed: 18,
    });
    expect(stats.rebuilds).toBeGreaterThan(0);
  });

  test('2-bit tags: most probes match a tag, answers stay exact', () => {
    runRandom({
      make: () => new CuckooIndex({ capacity: 16, tagBits: 2 }),
      operations: 40_000,
      universeSize: 3_000,
      checkEvery: 20_000,
      seed: 7,
    });
  });

  test('fast-check: any sequence of set/delete/has/compact', () => {
    const op = stepOf(60, 8, fc.record({ kind: fc.constant('has'), key: fc.nat(60) }));
    fc.assert(
      fc.property(fc.array(op, { maxLength: 200 }), fc.integer({ min: 1, max: 24 }), (ops, tagBits) => {
        const index = new CuckooIndex({ capacity: 4, tagBits });
        const model = new Map();
        try {
          for (const step of ops) {
            if (step.kind === 'compact') index.compact();
            else if (!answersAsModel(index, model, step)) return false;
          }
          expectSame(index, model, 61);
          return true;
        } finally {
          index.free();
        }
      }),
      { seed: 20261123, numRuns: 300 },
    );
  });
});

describe('FileCuckooIndex matches a Map across reopen and compaction', () => {
  test('120,000 seeded operations, reopened and compacted every 30,000', () => {
    const path = join(directory, 'random.log');
    const stats = runRandom({
      make: () => FileCuckooIndex.open(path, { capacity: 16 }),
      reopen: (index) => {
        index.close();
        const again = FileCuckooIndex.open(path, { capacity: 16 });
        expect(again.openReport.droppedTailBytes).toBe(0);
        return again;
      },
      operations: 120_000,
      universeSize: 8_000,
      checkEvery: 30_000,
      seed: 99,
    });
    expect(stats.logBytes).toBeGreaterThan(0);
  });

  test('fast-check: any sequence of set/delete/reopen/compact keeps every committed record', () => {
    let run = 0;
    const op = stepOf(40, 6, fc.record({ kind: fc.constant('reopen') }));
    fc.assert(
      fc.property(fc.array(op, { maxLength: 60 }), (ops) => {
        const path = join(directory, `fc-${run++}.log`);
        let index = FileCuckooIndex.open(path, { capacity: 2, tagBits: 3 });
        const model = new Map();
        try {
          for (const step of ops) {
            if (step.kind === 'reopen') {
              index.close();
              index = FileCuckooIndex.open(path, { capacity: 2, tagBits: 3 });
            } else if (step.kind === 'compact') {
              index.compact();
            } else if (!answersAsModel(index, model, step)) {
              return false;
            }
          }
          expectSame(index, model, 41);
          return true;
        } finally {
          index.close();
          rmSync(path, { force: true });
        }
      }),
      { seed: 4242, numRuns: 150 },
    );
  });
});
