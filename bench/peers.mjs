// Every implementation the benchmark runs, behind one small interface:
//
//   create(n, eps)              a new, empty structure sized for n keys at rate eps
//   add(state, keys, a, b)      adds keys[a..b); returns how many adds failed
//   has(state, keys, a, b)      queries keys[a..b); returns how many answered true
//   tableBytes(state)           bytes of the structure in memory, or null: then the
//                               driver measures the V8 heap growth instead
//   serializedBytes(state)      bytes of the library's own serialized form
//   free(state)
//
// Each adapter's loops are compiled from their own source text (new Function
// with the adapter's id in it), so V8 keeps separate type feedback per
// implementation: no loop turns polymorphic because another library ran
// through it first, and no implementation is favoured by running in a loop
// another one warmed up.

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** The installed version of a package (read from its package.json on disk). */
function installedVersion(name) {
  const main = require.resolve(name);
  const dir = main.slice(0, main.lastIndexOf(`node_modules/${name}/`) + `node_modules/${name}/`.length);
  return JSON.parse(readFileSync(`${dir}package.json`, 'utf8')).version;
}

let loopCounter = 0;
/** A loop function with its own feedback: (f, keys, start, end) => number. */
function loop(id, body) {
  loopCounter++;
  // The comment makes the source unique, so V8's compilation cache cannot share it.
  return new Function('f', 'keys', 'start', 'end', `// ${id} #${loopCounter}\n'use strict';\n${body}`);
}

const SINGLE_ADD = (call) => `let failed = 0;\nfor (let i = start; i < end; i++) ${call};\nreturn failed;`;
const SINGLE_HAS = (call) => `let hits = 0;\nfor (let i = start; i < end; i++) if (${call}) hits++;\nreturn hits;`;
const RANGE = 'const batch = start === 0 && end === keys.length ? keys : keys.slice(start, end);';
/** One hasMany over the loop's keys, counting the hits (`filter`: the expression naming the filter). */
const BATCH_HAS = (filter) =>
  `${RANGE}\nconst answers = ${filter}.hasMany(batch);\nlet hits = 0;\nfor (let i = 0; i < answers.length; i++) if (answers[i]) hits++;\nreturn hits;`;

/** Optimal Bloom sizing, as the classic formula gives it (and as this library sizes its BloomFilter). */
export function optimalBloom(n, eps) {
  const m = Math.ceil((-n * Math.log(eps)) / (Math.LN2 * Math.LN2));
  const k = Math.max(1, Math.round((m / n) * Math.LN2));
  return { m, k };
}

/**
 * This library's filter types, in the order of its registry (FILTER_TYPES):
 * { name, entry, structure }. `name` (the registry's name, e.g.
 * 'blocked-bloom') is the type key of every row and table; `structure` is the
 * name of the class the entry creates, as the package exports it (e.g.
 * 'BlockedBloomFilter'), or the entry's label if no export matches.
 */
export function ourFilterTypes(lib) {
  return lib.FILTER_TYPES.map((entry) => {
    // A static type is built from keys, never created empty.
    const sample = entry.isStatic ? entry.from(['sample'], {}) : entry.create({ capacity: 64, falsePositiveRate: 0.01 });
    const prototype = Object.getPrototypeOf(sample);
    sample.free();
    const exported = Object.entries(lib).find(([, value]) => typeof value === 'function' && value.prototype === prototype);
    return { name: entry.name, entry, structure: exported ? exported[0] : entry.label };
  });
}

/**
 * This library: every filter type of its registry, with string keys,
 * Uint8Array keys, and the batch calls (with strings and with bytes).
 */
export function oursAdapters(lib) {
  const modes = [
    { mode: 'string', keyKind: 'string', batch: false },
    { mode: 'Uint8Array', keyKind: 'bytes', batch: false },
    { mode: 'addMany/hasMany string', keyKind: 'string', batch: true },
    { mode: 'addMany/hasMany Uint8Array', keyKind: 'bytes', batch: true },
  ];
  const adapters = [];
  for (const type of ourFilterTypes(lib)) {
    for (const m of modes) {
      const id = `ours-${type.name}-${m.keyKind}${m.batch ? '-batch' : ''}`;
      let addBody;
      let hasBody;
      if (m.batch) {
        // addMany stops at the first key a filter cannot place (FULL, cuckoo): count the rest as failed.
        addBody = `${RANGE}\ntry { f.addMany(batch); return 0; } catch (e) {\n  if (e && e.code === 'FULL') return batch.length - f.count; throw e;\n}`;
        hasBody = BATCH_HAS('f');
      } else {
        // add() throws FULL when a key cannot be placed (cuckoo); count it and go on.
        // Every type gets this loop (no list of which types may throw); the try costs nothing
        // measurable for the types that never throw (BloomFilter add, 300k keys: equal minima).
        addBody = SINGLE_ADD(`{ try { f.add(keys[i]); } catch (e) { if (e && e.code === 'FULL') failed++; else throw e; } }`);
        hasBody = SINGLE_HAS('f.has(keys[i])');
      }
      // What every adapter of this type and mode says about itself.
      const described = {
        id,
        group: 'ours',
        impl: 'cuckoo-bloom-wasm',
        structure: type.structure,
        type: type.name,
        mode: m.mode,
        keyKind: m.keyKind,
        batch: m.batch,
        slow: false,
      };
      if (type.entry.isStatic) {
        // A static type (binary fuse): `create` only records ε; the timed
        // "add" of all N keys is one build from them (BinaryFuseFilter.from),
        // per key; has goes to the built filter.
        adapters.push({
          ...described,
          mode: m.batch ? m.mode.replace('addMany', 'from') : `${m.mode} (add = from)`,
          sizing: `${type.structure}.from(keys, { falsePositiveRate: ε })`,
          create: (n, eps) => ({ entry: type.entry, options: { falsePositiveRate: eps }, filter: null }),
          add: loop(`${id} build`, `${RANGE}\nf.filter?.free();\nf.filter = f.entry.from(batch, f.options);\nreturn 0;`),
          has: loop(`${id} has`, m.batch ? BATCH_HAS('f.filter') : SINGLE_HAS('f.filter.has(keys[i])')),
          tableBytes: (f) => f.filter.byteLength,
          memoryMethod: 'byteLength',
          serializedBytes: (f) => f.filter.serialize().length,
          free: (f) => f.filter?.free(),
        });
        continue;
      }
      adapters.push({
        ...described,
        create: (n, eps) => type.entry.create({ capacity: n, falsePositiveRate: eps }),
        add: loop(`${id} add`, addBody),
        has: loop(`${id} has`, hasBody),
        tableBytes: (f) => f.byteLength,
        memoryMethod: 'byteLength',
        serializedBytes: (f) => f.serialize().length,
        free: (f) => f.free(),
      });
    }
  }
  return adapters;
}

/** What every peer shares: string keys one at a time, and nothing to free. */
function peer(fields) {
  return { group: 'peer', mode: 'string', keyKind: 'string', free: () => {}, ...fields };
}

// For a structure that exposes no byte length: the driver measures V8 heap growth.
const MEASURED_ON_HEAP = { tableBytes: () => null, heap: true, memoryMethod: 'V8 heap growth' };

/**
 * A structure of `bloom-filters` (all slow, all serialized by saveAsJSON()):
 * `addCall` is the statement that adds keys[i], `addBody` a whole add loop instead.
 */
function bloomFiltersPeer(structure, { addCall = 'f.add(keys[i])', addBody = SINGLE_ADD(addCall), ...fields }) {
  return peer({
    id: `peer-bloom-filters-${fields.type}`,
    impl: `bloom-filters ${installedVersion('bloom-filters')}`,
    structure,
    slow: true,
    add: loop(`bloom-filters ${structure} add`, addBody),
    has: loop(`bloom-filters ${structure} has`, SINGLE_HAS('f.has(keys[i])')),
    serializedBytes: (f) => Buffer.byteLength(JSON.stringify(f.saveAsJSON())),
    serializedForm: 'JSON.stringify(saveAsJSON())',
    ...fields,
  });
}

/** The peers, with string keys: `bloomfilter`, `bloom-filters` (Bloom, Cuckoo, Xor) and a Set. */
export async function peerAdapters() {
  const { BloomFilter: FnvBloom } = await import('bloomfilter'); // an ES module
  const bloomFilters = require('bloom-filters'); // CommonJS
  return [
    peer({
      id: 'peer-bloomfilter',
      impl: `bloomfilter ${installedVersion('bloomfilter')}`,
      structure: 'BloomFilter',
      type: 'bloom',
      slow: false,
      sizing: 'new BloomFilter(m, k), m = ⌈−n ln ε / ln²2⌉, k = round(m/n · ln 2)',
      create: (n, eps) => {
        const { m, k } = optimalBloom(n, eps);
        return new FnvBloom(m, k);
      },
      add: loop('bloomfilter add', SINGLE_ADD('f.add(keys[i])')),
      has: loop('bloomfilter has', SINGLE_HAS('f.test(keys[i])')),
      tableBytes: (f) => f.buckets.byteLength,
      memoryMethod: 'buckets.byteLength',
      serializedBytes: (f) => Buffer.byteLength(JSON.stringify(f)),
      serializedForm: 'JSON.stringify',
    }),

    bloomFiltersPeer('BloomFilter', {
      type: 'bloom',
      sizing: 'BloomFilter.create(n, ε)',
      create: (n, eps) => bloomFilters.BloomFilter.create(n, eps),
      tableBytes: (f) => f._filter.array.byteLength,
      memoryMethod: 'BitSet byteLength',
    }),

    bloomFiltersPeer('CuckooFilter', {
      type: 'cuckoo',
      sizing: 'CuckooFilter.create(n, ε) (bucket size 4)',
      create: (n, eps) => bloomFilters.CuckooFilter.create(n, eps),
      // add() returns false when it gives up (the key is then not stored).
      addCall: 'if (!f.add(keys[i])) failed++',
      ...MEASURED_ON_HEAP,
    }),

    bloomFiltersPeer('XorFilter', {
      type: 'xor',
      // Static: built once from the whole key set; 8-bit fingerprints (its default),
      // so its rate (~0.4%) does not depend on ε.
      epsIndependent: true,
      buildOnly: true,
      sizing: 'XorFilter.create(keys) (8-bit fingerprints; takes no ε)',
      create: (n) => new bloomFilters.XorFilter(n),
      addBody: `${RANGE}\nf.add(batch);\nreturn 0;`,
      ...MEASURED_ON_HEAP,
    }),

    peer({
      id: 'peer-set',
      impl: 'JavaScript Set',
      structure: 'Set (exact)',
      type: 'set',
      slow: false,
      exact: true,
      sizing: 'new Set()',
      create: () => new Set(),
      add: loop('Set add', SINGLE_ADD('f.add(keys[i])')),
      has: loop('Set has', SINGLE_HAS('f.has(keys[i])')),
      ...MEASURED_ON_HEAP,
      memoryMethod: 'V8 heap growth + the key strings',
      // A Set keeps its keys: count them as V8 one-byte strings (16-byte header, 8-byte aligned).
      keyBytes: (keys, n) => {
        let total = 0;
        for (let i = 0; i < n; i++) total += (16 + keys[i].length + 7) & ~7;
        return total;
      },
      serializedBytes: (f) => Buffer.byteLength(JSON.stringify([...f])),
      serializedForm: 'JSON.stringify([...set])',
      free: (f) => f.clear(),
    }),
  ];
}
