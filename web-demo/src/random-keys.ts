// Readable keys for the playgrounds ("apple", "falcon", … then "apple-2", …), drawn from a
// seeded sequence: a fresh page makes the same keys in the same order.
import { seededRandom } from './seeded.mjs';

const WORDS = [
  'apple', 'falcon', 'river', 'copper', 'maple', 'comet', 'lemon', 'tiger', 'harbor', 'violet',
  'pixel', 'cedar', 'otter', 'quartz', 'meadow', 'rocket', 'saffron', 'walnut', 'zephyr', 'basalt',
  'cobalt', 'dune', 'ember', 'fjord', 'glacier', 'heron', 'iris', 'juniper', 'kestrel', 'lotus',
  'mango', 'nebula', 'onyx', 'pepper', 'quill', 'raven', 'sparrow', 'thistle', 'umber', 'willow',
];

/**
 * The seed of both playgrounds' keys: the Bloom and the cuckoo filter get the same keys in
 * the same order, so a reader can compare what each structure does with them.
 */
export const PLAYGROUND_KEY_SEED = 2014;

/** A source of keys not in `taken`: the words in a seeded order, then numbered variants. */
export function keySource(seed: number): (taken: readonly string[]) => string {
  const random = seededRandom(seed);
  return (taken) => {
    const used = new Set(taken);
    for (let round = 1; ; round++) {
      const start = Math.floor(random() * WORDS.length);
      for (let i = 0; i < WORDS.length; i++) {
        const word = WORDS[(start + i) % WORDS.length]!;
        const key = round === 1 ? word : `${word}-${round}`;
        if (!used.has(key)) return key;
      }
    }
  };
}

/** `count` keys that no playground ever adds (they have a prefix the words lack): lookups that must miss. */
export function absentKeys(count: number, prefix = 'probe'): string[] {
  return Array.from({ length: count }, (_, i) => `${prefix}-${i}`);
}
