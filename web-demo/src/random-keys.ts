// Readable keys for the playgrounds ("apple", "falcon", … then "apple-2", …).
const WORDS = [
  'apple', 'falcon', 'river', 'copper', 'maple', 'comet', 'lemon', 'tiger', 'harbor', 'violet',
  'pixel', 'cedar', 'otter', 'quartz', 'meadow', 'rocket', 'saffron', 'walnut', 'zephyr', 'basalt',
  'cobalt', 'dune', 'ember', 'fjord', 'glacier', 'heron', 'iris', 'juniper', 'kestrel', 'lotus',
  'mango', 'nebula', 'onyx', 'pepper', 'quill', 'raven', 'sparrow', 'thistle', 'umber', 'willow',
];

/** A word not in `taken`: the list's words first, then numbered variants. */
export function nextRandomKey(taken: readonly string[]): string {
  const used = new Set(taken);
  for (let round = 1; ; round++) {
    const start = Math.floor(Math.random() * WORDS.length);
    for (let i = 0; i < WORDS.length; i++) {
      const word = WORDS[(start + i) % WORDS.length]!;
      const key = round === 1 ? word : `${word}-${round}`;
      if (!used.has(key)) return key;
    }
  }
}
