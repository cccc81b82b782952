// "Why not just clear the bits?": the same keys in a Bloom filter and a counting Bloom
// filter of the same size. One click deletes a key from both: from the counting filter
// for real (`remove` decrements its counters), from the Bloom filter the naive way, by
// clearing its bits in a copy of `bits()` (the library offers no such remove, for exactly
// this reason). The keys that vanish from the Bloom copy are named as false negatives.
import { BloomFilter, CountingBloomFilter } from 'cuckoo-bloom-wasm';
import { byTestId, h } from './dom.ts';
import { keySource } from './random-keys.ts';
import { pickedNote } from './toy.ts';

const OPTIONS = { capacity: 8, falsePositiveRate: 0.05 } as const;
const KEY_SEED = 4;

const isSet = (bits: Uint8Array, bit: number): boolean => ((bits[bit >> 3]! >> (bit & 7)) & 1) === 1;

export function setupBloomDelete(section: HTMLElement): void {
  const bloomGrid = byTestId('delete-bloom-grid', section);
  const countingGrid = byTestId('delete-counting-grid', section);
  const output = byTestId('delete-output', section);

  const next = keySource(KEY_SEED);
  const keys: string[] = [];
  for (let i = 0; i < OPTIONS.capacity; i++) keys.push(next(keys));
  let bloom = new BloomFilter(OPTIONS);
  let counting = new CountingBloomFilter(OPTIONS);

  /** Both filters holding exactly `keys` again. */
  const reset = (): void => {
    bloom.free();
    counting.free();
    bloom = new BloomFilter(OPTIONS);
    counting = new CountingBloomFilter(OPTIONS);
    for (const key of keys) {
      bloom.add(key);
      counting.add(key);
    }
  };

  const drawBits = (bits: Uint8Array, cleared: number[]): void => {
    bloomGrid.style.setProperty('--columns', '16');
    bloomGrid.replaceChildren(...Array.from({ length: bloom.bitCount }, (_, i) =>
      h('span', { class: `bit${isSet(bits, i) ? ' is-set' : ''}${cleared.includes(i) ? ' is-cleared' : ''}`, title: `bit ${i}` })));
  };
  const drawCounters = (touched: number[]): void => {
    countingGrid.style.setProperty('--columns', '16');
    countingGrid.replaceChildren(...Array.from({ length: counting.counterCount }, (_, i) => {
      const value = counting.counterAt(i);
      return h('span', { class: `bit counter${value > 0 ? ' is-set' : ''}${touched.includes(i) ? ' is-probe' : ''}`, title: `counter ${i}: ${value}` }, value > 0 ? String(value) : '');
    }));
  };

  /** The other keys that a naive delete of `key` would make vanish. */
  const casualties = (key: string, bits: Uint8Array): string[] =>
    keys.filter((other) => other !== key && bloom.positions(other).some((bit) => !isSet(bits, bit)));

  const clearedCopy = (key: string): Uint8Array => {
    const bits = bloom.bits();
    for (const bit of bloom.positions(key)) bits[bit >> 3]! &= ~(1 << (bit & 7));
    return bits;
  };

  const deleteFromBoth = (): void => {
    reset();
    // The key whose naive delete hurts most: the point is to see it happen.
    const key = keys.reduce((worst, candidate) =>
      casualties(candidate, clearedCopy(candidate)).length > casualties(worst, clearedCopy(worst)).length ? candidate : worst);
    const positions = [...new Set(bloom.positions(key))];
    const bits = clearedCopy(key);
    const lost = casualties(key, bits);
    counting.remove(key);
    const stillFound = keys.filter((other) => other !== key && counting.has(other));
    drawBits(bits, positions);
    drawCounters(positions);
    output.replaceChildren(
      h('p', {}, 'Deleted ', h('code', {}, key), ` (positions ${positions.join(', ')}) from both.`),
      pickedNote(`the worst case: of the ${keys.length} keys, this is the one whose naive delete loses the most others.`),
      h('p', { class: 'verdict verdict-hit', 'data-testid': 'delete-bloom-result' },
        h('strong', {}, 'Bloom, bits cleared: '),
        lost.length === 0
          ? 'no other key lost this time (none shared its bits).'
          : h('span', {}, `${lost.length} other key${lost.length === 1 ? '' : 's'} now read “not added” — false negatives: `,
            ...lost.flatMap((other, n) => [n > 0 ? ', ' : '', h('code', { 'data-testid': 'delete-false-negative' }, other)]), '.')),
      h('p', { class: 'verdict verdict-clear', 'data-testid': 'delete-counting-result' },
        h('strong', {}, 'Counting Bloom, counters decremented: '),
        `all ${stillFound.length} other keys still found; shared positions only went down by one.`),
    );
  };

  byTestId('delete-demo', section).addEventListener('click', deleteFromBoth);
  reset();
  drawBits(bloom.bits(), []);
  drawCounters([]);
  output.replaceChildren(h('p', {}, `${keys.length} keys in each: `, ...keys.flatMap((key, n) => [n > 0 ? ', ' : '', h('code', {}, key)]), '.'));
}
