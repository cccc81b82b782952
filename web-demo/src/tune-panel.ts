// "Tune it": n and ε for the Bloom filter, n, f and b for the cuckoo filter; the formulas
// worked out with these numbers beside what the library actually builds, the toy filters
// rebuilt with them, and a chart of measured false positives on the theory curves.
import { BloomFilter, CuckooFilter } from 'cuckoo-bloom-wasm';
import type { BloomToy } from './bloom-view.ts';
import type { CuckooToy } from './cuckoo-view.ts';
import { byTestId, byTestIds, describeError, formatInteger, formatRate, h } from './dom.ts';
import { bloomBits, bloomHashes, bloomRate, cuckooBitsPerKey, cuckooMaxLoad, cuckooRate } from './formulas.ts';
import { fprChart } from './fpr-chart.ts';
import { setupKSlider } from './k-chart.ts';
import { absentKeys, keySource } from './random-keys.ts';

/** Lookups of keys never added, the same on every load: the measured rate is their share of "present". */
const PROBES = absentKeys(4000, 'absent');
const FILL_SEED = 99;

interface Settings {
  bloom: { capacity: number; falsePositiveRate: number };
  cuckoo: { capacity: number; fingerprintBits: number; bucketSize: 2 | 4 | 8 };
}

export function setupTunePanel(section: HTMLElement, toys: { bloom: BloomToy; cuckoo: CuckooToy }): void {
  const { form, bloomN, bloomRateInput, cuckooN, cuckooF, cuckooB, bloomOut, cuckooOut, chartBox, caption, note } = byTestIds<{
    form: HTMLFormElement; bloomN: HTMLInputElement; bloomRateInput: HTMLSelectElement;
    cuckooN: HTMLInputElement; cuckooF: HTMLInputElement; cuckooB: HTMLSelectElement;
    bloomOut: HTMLElement; cuckooOut: HTMLElement; chartBox: HTMLElement; caption: HTMLElement; note: HTMLElement;
  }>(section, {
    form: 'tune-form', bloomN: 'tune-bloom-n', bloomRateInput: 'tune-bloom-rate',
    cuckooN: 'tune-cuckoo-n', cuckooF: 'tune-cuckoo-f', cuckooB: 'tune-cuckoo-b',
    bloomOut: 'tune-bloom-out', cuckooOut: 'tune-cuckoo-out', chartBox: 'fpr-chart', caption: 'fpr-caption', note: 'tune-note',
  });

  let measured = { bloom: [] as { keys: number; rate: number }[], cuckoo: [] as { keys: number; rate: number }[] };

  const numberInputs = [bloomN, cuckooN, cuckooF];
  /** The value a number box stands for: its whole number within [min, max] (min when unreadable). */
  const clamp = (input: HTMLInputElement): number => {
    const value = Math.round(Number(input.value));
    const min = Number(input.min);
    const max = Number(input.max);
    return input.value.trim() !== '' && Number.isFinite(value) ? Math.min(max, Math.max(min, value)) : min;
  };
  /**
   * Says which boxes hold a value other than the one used; with `settle`, also writes the
   * value used into the box, so what the box shows is what the filters are built with.
   */
  const notes = new Map<HTMLInputElement, string>();
  /** A box's note stays until that box is edited again (`edited`): settling rewrote its value. */
  const noteClamped = (settle: boolean, edited: EventTarget | null = null): void => {
    for (const input of numberInputs) {
      const used = clamp(input);
      if (input.value === String(used)) {
        if (input === edited) notes.delete(input);
        continue;
      }
      const label = section.querySelector(`label[for="${input.id}"]`)?.textContent ?? input.id;
      notes.set(input, `${label}: “${input.value}” is not a whole number from ${input.min} to ${input.max}; ${settle ? 'using' : 'will use'} ${used}.`);
      if (settle) input.value = String(used);
    }
    note.textContent = [...notes.values()].join(' ');
  };
  const read = (): Settings => ({
    bloom: { capacity: clamp(bloomN), falsePositiveRate: Number(bloomRateInput.value) },
    cuckoo: { capacity: clamp(cuckooN), fingerprintBits: clamp(cuckooF), bucketSize: Number(cuckooB.value) as 2 | 4 | 8 },
  });

  const explain = (): void => {
    const { bloom, cuckoo } = read();
    const m = bloomBits(bloom.capacity, bloom.falsePositiveRate);
    const k = bloomHashes(m, bloom.capacity);
    const real = new BloomFilter(bloom);
    bloomOut.replaceChildren(
      h('span', { class: 'formula' }, `m = −n ln ε / (ln 2)² = −${bloom.capacity} · ln ${bloom.falsePositiveRate} / 0.480 = ${m} bits`),
      h('span', { class: 'formula' }, `k = (m / n) ln 2 = ${((m / bloom.capacity) * Math.LN2).toFixed(2)} → ${k}`),
      h('span', { 'data-testid': 'tune-bloom-real' }, `The library builds m = ${real.bitCount}, k = ${real.hashCount} (${(real.bitCount / bloom.capacity).toFixed(1)} bits per key)` +
        (real.bitCount === m ? '.' : `: ${real.bitCount > m ? 'more' : 'fewer'} than the formula’s ${m}, because it sizes m so that the exact expected rate of its own lookups ` +
          '(every bit each key sets, counted exactly, and the rare probes of double hashing that coincide) is at most ε; the formula above is an approximation that ' +
          `${real.bitCount > m ? 'underestimates' : 'overestimates'} it for so few keys.`)),
    );
    real.free();
    const load = cuckooMaxLoad(cuckoo.bucketSize);
    const table = new CuckooFilter(cuckoo);
    cuckooOut.replaceChildren(
      h('span', { class: 'formula' }, `ε ≈ 2b / 2^f = 2 · ${cuckoo.bucketSize} / 2^${cuckoo.fingerprintBits} = ${formatRate((2 * cuckoo.bucketSize) / 2 ** cuckoo.fingerprintBits)} (when full)`),
      h('span', { class: 'formula' }, `bits per key = f / α = ${cuckoo.fingerprintBits} / ${load} = ${cuckooBitsPerKey(cuckoo.fingerprintBits, load).toFixed(1)} at the load α ≈ ${Math.round(load * 100)}% that buckets of ${cuckoo.bucketSize} reach`),
      h('span', { 'data-testid': 'tune-cuckoo-real' }, `The library builds ${table.bucketCount} buckets × ${table.bucketSize} slots = ${table.slotCount} slots (${isPowerOfTwo(table.bucketCount) ? 'a power of two buckets, ' : ''}room for ${cuckoo.capacity} keys at load ≤ ${Math.round(load * 100)}%).`),
    );
    table.free();
  };

  const drawChart = (): void => {
    const bloomFilter = toys.bloom.filter;
    const cuckooFilter = toys.cuckoo.filter;
    const m = bloomFilter.bitCount;
    const k = bloomFilter.hashCount;
    const slots = cuckooFilter.slotCount;
    const f = cuckooFilter.fingerprintBits;
    const b = cuckooFilter.bucketSize;
    chartBox.replaceChildren(fprChart([
      {
        label: `Bloom (m = ${m}, k = ${k})`,
        className: 'bloom',
        curve: (keys) => bloomRate(m, k, keys),
        maxKeys: Math.max(toys.bloom.options.capacity * 2, measured.bloom.at(-1)?.keys ?? 0),
        measured: measured.bloom,
        current: { keys: toys.bloom.keyCount, rate: toys.bloom.measuredRate(PROBES) },
      },
      {
        label: `Cuckoo (${slots} slots, f = ${f}, b = ${b})`,
        className: 'cuckoo',
        curve: (keys) => cuckooRate(f, b, keys, slots),
        maxKeys: slots,
        measured: measured.cuckoo,
        current: { keys: toys.cuckoo.keyCount, rate: toys.cuckoo.measuredRate(PROBES) },
      },
    ]));
    caption.replaceChildren(
      h('span', { class: 'key-bloom' }, 'Bloom'), ' and ', h('span', { class: 'key-cuckoo' }, 'cuckoo'),
      `: lines are the formulas, (1 − e^(−kx/m))^k and 1 − (1 − 1/(2^f − 1))^(2b·x/slots); dots are rates measured on the toy filters above over ${formatInteger(PROBES.length)} keys never added (a fixed set); the big dot is each filter now. `,
      measured.bloom.length === 0 ? 'Press “Fill both and measure” to draw the measured points.' : '',
    );
  };

  const apply = (): void => {
    const settings = read();
    toys.bloom.rebuild(settings.bloom);
    toys.cuckoo.rebuild(settings.cuckoo);
    measured = { bloom: [], cuckoo: [] };
    drawChart();
  };

  /** Rebuilds both toys and adds keys one at a time, measuring the rate after each. */
  const fillAndMeasure = (): void => {
    apply();
    const bloomKeys = keySource(FILL_SEED);
    const bloomAdded: string[] = [];
    for (let n = 1; n <= toys.bloom.options.capacity * 2; n++) {
      const key = bloomKeys(bloomAdded);
      bloomAdded.push(key);
      toys.bloom.addQuietly(key);
      measured.bloom.push({ keys: n, rate: toys.bloom.measuredRate(PROBES) });
    }
    const cuckooKeys = keySource(FILL_SEED);
    const cuckooAdded: string[] = [];
    for (let n = 1; n <= toys.cuckoo.filter.slotCount; n++) {
      const key = cuckooKeys(cuckooAdded);
      cuckooAdded.push(key);
      if (!toys.cuckoo.addQuietly(key)) break;
      measured.cuckoo.push({ keys: n, rate: toys.cuckoo.measuredRate(PROBES) });
    }
    const filled = (keys: number, extra: string): string =>
      `Filled by “Fill both and measure”: ${keys} keys added one at a time${extra}, the false-positive rate measured after each (the chart in “Tune it”).`;
    toys.bloom.redraw(filled(measured.bloom.length, ` (twice the ${toys.bloom.options.capacity} it is sized for)`));
    toys.cuckoo.redraw(filled(measured.cuckoo.length, measured.cuckoo.length < toys.cuckoo.filter.slotCount ? ' until one did not fit' : ''));
    drawChart();
  };

  const run = (action: () => void): void => {
    try {
      action();
    } catch (error) {
      caption.textContent = `Error: ${describeError(error)}`;
    }
  };

  form.addEventListener('input', (event) => run(() => {
    noteClamped(false, event.target);
    explain();
  }));
  form.addEventListener('change', () => run(() => {
    noteClamped(true);
    explain();
  }));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    run(() => {
      noteClamped(true);
      apply();
    });
  });
  byTestId('tune-measure', section).addEventListener('click', () => run(() => {
    noteClamped(true);
    fillAndMeasure();
  }));
  // The chart follows the toys as keys are added by hand; redrawn at most once a frame.
  let pending = false;
  const later = (): void => {
    if (pending) return;
    pending = true;
    requestAnimationFrame(() => {
      pending = false;
      run(drawChart);
    });
  };
  toys.bloom.onChange(later);
  toys.cuckoo.onChange(later);
  run(explain);
  run(drawChart);
  setupKSlider(section, toys.bloom);
}

const isPowerOfTwo = (value: number): boolean => value > 0 && (value & (value - 1)) === 0;
