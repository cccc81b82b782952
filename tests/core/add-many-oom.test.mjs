// Out of memory is OUT_OF_MEMORY on every add path (issue #40): a growing
// filter whose next link cannot be allocated used to say FULL from addMany
// (the batch returned only how many keys it stored, and the base class
// guessed why) where add said OUT_OF_MEMORY. In a child process, whose wasm
// memory is first filled by a 1.3 GB ballast so that the next link (~1 GB)
// cannot be allocated: add, addMany of an array, of a KeyBatch, and of keys
// long enough to go key by key (keys.ts, JOIN_MAX_UNITS) must all say
// OUT_OF_MEMORY with the index of the first key not added, and every key
// before it must still be found.
import { execFileSync } from 'node:child_process';

const script = `
  const m = await import(${JSON.stringify(new URL('../../dist/index.js', import.meta.url).href)});
  await m.init();
  const ballast = new m.BloomFilter({ capacity: 1100000000, falsePositiveRate: 0.01 });
  ballast.add('ballast');
  const keys = (from, to, pad = 0) => Array.from({ length: to - from }, (_, i) => 'key-' + (from + i) + 'x'.repeat(pad));
  const MARGIN = 1000;
  const ROUTES = {
    addManyArray: (filter, list) => filter.addMany(list),
    addManyKeyBatch: (filter, list) => filter.addMany(m.KeyBatch.from(list)),
    addManyLongKeys: (filter, list) => filter.addMany(list.map((key) => key + 'x'.repeat(400))),
  };
  const result = {};
  for (const [name, Growing, initialCapacity] of [
    ['scalable-bloom', m.ScalableBloomFilter, 700000],
    ['scalable-cuckoo', m.ScalableCuckooFilter, 640000],
  ]) {
    // Link 1 is 1024 times link 0 (0.8-1 GB): it cannot be allocated beside the ballast.
    const options = { initialCapacity, growth: 1024, falsePositiveRate: 0.01, seed: 5 };
    // add, key by key, finds the first key that needs link 1: key n.
    const probe = new Growing(options);
    let n = 0;
    let addError = null;
    for (; n < 4 * initialCapacity; n++) {
      try { probe.add('key-' + n); } catch (e) { addError = e; break; }
    }
    result[name + ' add'] = { code: addError instanceof m.FilterError ? addError.code : String(addError), indexInRange: n > MARGIN, links: probe.links, earlierFound: probe.hasMany(keys(0, n)).every(Boolean) };
    probe.free();
    // The same filter MARGIN keys before that point (the same seed, the same keys: the same state).
    const base = new Growing(options);
    base.addMany(keys(0, n - MARGIN));
    for (const [route, add] of Object.entries(ROUTES)) {
      const filter = base.clone();
      const extra = keys(n - MARGIN, n + 20 * MARGIN);
      let outcome;
      try {
        add(filter, extra);
        outcome = { code: 'none: every key fit' };
      } catch (e) {
        const index = e.index;
        const added = route === 'addManyLongKeys' ? extra.map((key) => key + 'x'.repeat(400)) : extra;
        outcome = {
          code: e instanceof m.FilterError ? e.code : String(e),
          // Short keys stop where add did (key n); long keys are other keys, so somewhere after the first.
          indexInRange: route === 'addManyLongKeys' ? index > 0 && index < extra.length : index === MARGIN,
          links: filter.links,
          earlierFound: filter.hasMany(added.slice(0, index)).every(Boolean) && filter.hasMany(keys(0, n - MARGIN)).every(Boolean),
        };
      }
      result[name + ' ' + route] = outcome;
      filter.free();
    }
    base.free();
  }
  console.log(JSON.stringify(result));`;

test('a growing filter out of memory: OUT_OF_MEMORY from add, addMany (array, KeyBatch, long keys), with the index; nothing lost', () => {
  const output = execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 240_000 });
  const result = JSON.parse(output.trim().split('\n').pop());
  const expected = { code: 'OUT_OF_MEMORY', indexInRange: true, links: 1, earlierFound: true };
  for (const name of ['scalable-bloom', 'scalable-cuckoo']) {
    for (const route of ['add', 'addManyArray', 'addManyKeyBatch', 'addManyLongKeys']) {
      expect([`${name} ${route}`, result[`${name} ${route}`]]).toEqual([`${name} ${route}`, expected]);
    }
  }
}, 300_000);
