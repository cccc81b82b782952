// The student lab, loaded on demand (lab-loader.ts) long after the first verdict: the same
// keys side by side in four filters, the k slider, and counting Bloom's pitfalls. Every
// number is measured in this page on filters the library built; none is written in.
import { h } from '../dom.ts';
import { setupCountingPitfalls } from './counting-pitfalls.ts';
import { setupKToy } from './k-toy.ts';
import { TOY_KEY_COUNT } from './lab-keys.mjs';
import { setupSideBySide } from './side-by-side.ts';

export function setupLab(root: HTMLElement): void {
  const part = (id: string, title: string, intro: string): HTMLElement => {
    const box = h('div', { class: 'playground', 'data-testid': `lab-part-${id}` },
      h('h3', { id: `lab-part-${id}-title` }, title), h('p', { class: 'detail' }, intro));
    root.append(box);
    return box;
  };
  setupSideBySide(part('compare', 'Side by side: bits per key and the measured rate',
    'One set of keys, four filters, one target rate. Bloom needs about 1.44 × log2(1/ε) bits per key; counting Bloom four times that; ' +
    'a cuckoo filter pays for its buckets’ empty slots; a binary fuse filter comes closest to the bound log2(1/ε), but cannot change once built.'));
  setupKToy(part('k', 'How many probes? A Bloom filter rebuilt for each k',
    `The ${TOY_KEY_COUNT} keys lab-key-0 … lab-key-${TOY_KEY_COUNT - 1}, in a Bloom filter the library sizes for each position of the slider; every bit drawn is read back from it.`));
  setupCountingPitfalls(part('pitfalls', 'Counting Bloom’s pitfalls',
    `A counting Bloom filter of the same ${TOY_KEY_COUNT} keys can remove a key, with two catches: removing a key never added, and counters that fill up.`));
}
