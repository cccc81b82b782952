// Counting Bloom's own pitfalls, live on a library filter of the lab's toy keys:
//   1. Removing a key never added. If the filter answers "maybe" for it (a false positive),
//      remove() lowers its k counters, and a counter that only one added key held drops to
//      0: that key is now answered "no", a false negative. (A key the filter already says
//      "no" for is refused: nothing changes.)
//   2. Counter saturation. Counters have 4 bits: adding one key again and again stops at 15,
//      and a counter at 15 is never lowered again (it may count more keys than it can say),
//      so after as many removes as adds the key is still "maybe": no false negative, but a
//      false positive for good.
import { CountingBloomFilter } from 'cuckoo-bloom-wasm';
import { formatInteger, h } from '../dom.ts';
import { COUNTING_TOY, labKeys, labProbes, TOY_KEY_COUNT } from './lab-keys.mjs';

/** Probes searched for a never-added key whose removal costs an added key. */
const SEARCHED_PROBES = 5_000;

export function setupCountingPitfalls(root: HTMLElement): void {
  const removeButton = h('button', { type: 'button', class: 'moment', 'data-testid': 'lab-counting-remove' }, 'Remove a key never added');
  const saturateButton = h('button', { type: 'button', class: 'moment', 'data-testid': 'lab-counting-saturate' }, `Add one key ${COUNTING_TOY.repeats} times, then remove it ${COUNTING_TOY.repeats} times`);
  const output = h('div', { class: 'output', 'aria-live': 'polite', 'data-testid': 'lab-counting-output' });
  root.append(h('div', { class: 'row moments' }, removeButton, saturateButton), output);

  const keys = labKeys(TOY_KEY_COUNT);
  const fresh = (): CountingBloomFilter => {
    const filter = new CountingBloomFilter({ capacity: keys.length, falsePositiveRate: COUNTING_TOY.falsePositiveRate });
    filter.addMany(keys);
    return filter;
  };
  const countersOf = (filter: CountingBloomFilter, key: string): number[] => filter.positions(key).map((position) => filter.counterAt(position));
  const counterRow = (label: string, values: number[], testId: string): HTMLElement =>
    h('p', { class: 'lab-counters', 'data-testid': testId, 'data-counters': values.join(',') }, `${label}: `,
      ...values.flatMap((value, i) => [i > 0 ? ' ' : '', h('span', { class: value >= 15 ? 'counter is-full' : 'counter' }, String(value))]));

  const removeNeverAdded = (): void => {
    const filter = fresh();
    try {
      // The first probe the filter says "maybe" for whose removal leaves an added key unfound.
      for (const probe of labProbes(SEARCHED_PROBES)) {
        if (!filter.has(probe)) continue;
        const trial = filter.clone();
        try {
          trial.remove(probe);
          if (!keys.some((key) => !trial.has(key))) continue;
        } finally {
          trial.free();
        }
        const before = countersOf(filter, probe);
        const removed = filter.remove(probe);
        const after = countersOf(filter, probe);
        const victims = keys.filter((key) => !filter.has(key));
        output.replaceChildren(h('div', { class: 'verdict verdict-hit', 'data-testid': 'lab-counting-unsafe', 'data-key': probe, 'data-removed': String(removed), 'data-victims': victims.join(',') },
          h('p', {}, h('code', {}, probe), ` was never added, but all ${before.length} of its counters were above 0 (a false positive), so remove() took it: each counter went down by one.`),
          counterRow('Its counters before', before, 'lab-counting-before'),
          counterRow('and after', after, 'lab-counting-after'),
          h('p', {}, 'A counter that only ', ...victims.flatMap((victim, i) => [i > 0 ? ', ' : '', h('code', { 'data-testid': 'lab-counting-victim' }, victim)]),
            ` held is now 0, so the filter answers “no” for ${victims.length === 1 ? 'that key' : 'those keys'}, added and never removed: `,
            h('strong', {}, 'a false negative.'), ' Remove only keys you added.')));
        return;
      }
      output.replaceChildren(h('p', {}, `None of ${formatInteger(SEARCHED_PROBES)} keys never added would cost an added key here.`));
    } finally {
      filter.free();
    }
  };

  const saturate = (): void => {
    const filter = fresh();
    try {
      const key = keys[0]!;
      const start = countersOf(filter, key);
      for (let i = 0; i < COUNTING_TOY.repeats; i++) filter.add(key);
      const full = countersOf(filter, key);
      let removals = 0;
      for (let i = 0; i < COUNTING_TOY.repeats; i++) if (filter.remove(key)) removals++;
      const after = countersOf(filter, key);
      const present = filter.has(key);
      output.replaceChildren(h('div', { class: 'verdict', 'data-testid': 'lab-counting-saturation', 'data-key': key, 'data-repeats': COUNTING_TOY.repeats, 'data-removals': removals, 'data-present': String(present) },
        h('p', {}, h('code', {}, key), ` (already added once) added ${COUNTING_TOY.repeats} more times: a 4-bit counter stops at 15.`),
        counterRow('Its counters at first', start, 'lab-counting-start'),
        counterRow(`after ${COUNTING_TOY.repeats} adds`, full, 'lab-counting-full'),
        counterRow(`after ${COUNTING_TOY.repeats} removes`, after, 'lab-counting-drained'),
        h('p', {}, `Each remove succeeded (${removals} of ${COUNTING_TOY.repeats}), yet a counter at 15 is never lowered: it no longer knows how many keys it counts, and lowering it could lose one. `,
          h('strong', {}, present ? 'So the key still answers “maybe”: ' : 'The key answers “no”: '),
          present ? 'no false negative, but a false positive for good once the key is gone.' : 'its counters were not saturated.')));
    } finally {
      filter.free();
    }
  };

  removeButton.addEventListener('click', removeNeverAdded);
  saturateButton.addEventListener('click', saturate);
}
