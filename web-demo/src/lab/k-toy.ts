// The k slider: a small Bloom filter of the lab's toy keys, rebuilt by the library for each
// number of probes k. The library takes no k: it sizes a Bloom filter from its capacity and
// target rate and picks the best k for them, which for a rate of 2^-k is k itself
// (k = log2(1/ε), m = n·k / ln 2). So each position of the slider rebuilds the filter at
// ε = 2^-k, and the page draws what the library built: its k, its m bits, the bits set, and
// the rate measured on keys never added, beside the formula's (1 − e^(−kn/m))^k.
import { BloomFilter } from 'cuckoo-bloom-wasm';
import { formatInteger, formatRate, h } from '../dom.ts';
import { labKeys, labProbes, TOY_K_RANGE, TOY_KEY_COUNT, TOY_PROBE_COUNT, toyRateForProbes } from './lab-keys.mjs';

const isSet = (bits: Uint8Array, bit: number): boolean => ((bits[bit >> 3]! >> (bit & 7)) & 1) === 1;

export function setupKToy(root: HTMLElement): void {
  const slider = h('input', {
    id: 'lab-k', type: 'range', min: TOY_K_RANGE.min, max: TOY_K_RANGE.max, step: 1, value: TOY_K_RANGE.initial,
    'aria-describedby': 'lab-k-readout', 'data-testid': 'lab-k',
  });
  const readout = h('output', { id: 'lab-k-readout', for: 'lab-k', 'data-testid': 'lab-k-readout' });
  const grid = h('div', { class: 'bit-grid small lab-bits', 'aria-hidden': 'true', 'data-testid': 'lab-k-bits' });
  const stats = h('p', { class: 'detail', 'aria-live': 'polite', 'data-testid': 'lab-k-stats' });
  root.append(h('div', { class: 'row' }, h('label', { for: 'lab-k' }, 'Probes ', h('var', {}, 'k')), slider, readout), grid, stats);

  const keys = labKeys(TOY_KEY_COUNT);
  const probes = labProbes(TOY_PROBE_COUNT);
  let filter: BloomFilter | null = null;

  const rebuild = (): void => {
    const probesPerKey = Number(slider.value);
    const rate = toyRateForProbes(probesPerKey);
    filter?.free();
    filter = new BloomFilter({ capacity: keys.length, falsePositiveRate: rate });
    filter.addMany(keys);
    const bits = filter.bits();
    const bitCount = filter.bitCount;
    const k = filter.hashCount;
    const setBits = filter.setBitCount;
    const falsePositives = (filter.hasMany(probes) as boolean[]).filter(Boolean).length;
    const formula = (1 - Math.exp((-k * keys.length) / bitCount)) ** k;
    grid.style.setProperty('--columns', String(bitCount <= 128 ? 16 : 24));
    grid.replaceChildren(...Array.from({ length: bitCount }, (_, bit) => h('span', { class: isSet(bits, bit) ? 'bit is-set' : 'bit', 'data-bit': bit })));
    readout.textContent = `k = ${k}`;
    stats.dataset.k = String(k);
    stats.dataset.bitCount = String(bitCount);
    stats.dataset.setBits = String(setBits);
    stats.dataset.falsePositives = String(falsePositives);
    stats.dataset.probes = String(probes.length);
    stats.dataset.rate = String(rate);
    stats.replaceChildren(
      `Rebuilt for ε = 2`, h('sup', {}, `−${probesPerKey}`), ` (${formatRate(rate)}): the library chose k = ${k} probes and m = ${formatInteger(bitCount)} bits ` +
      `(${(bitCount / keys.length).toFixed(1)} bits per key) for ${keys.length} keys; ${setBits} bits are set (${Math.round((100 * setBits) / bitCount)}%). ` +
      `Measured: ${formatInteger(falsePositives)} of ${formatInteger(probes.length)} keys never added answer “maybe” (${formatRate(falsePositives / probes.length)}); ` +
      `the formula (1 − e`, h('sup', {}, '−kn/m'), `)`, h('sup', {}, 'k'), ` says ${formatRate(formula)}. ` +
      'Each probe more halves the rate and costs about 1.44 more bits per key. The library sizes m and k together (it takes no k of its own), ' +
      'so m grows with k here; the chart in “Tune it” keeps m fixed and shows too many probes filling the bits.');
  };
  slider.addEventListener('input', rebuild);
  rebuild();
}
