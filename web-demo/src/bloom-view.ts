// A small real Bloom filter drawn bit by bit: a key's bits come from the wasm filter
// (`positions`), every cell is read back from `bits()`. Names what can surprise: probes
// that land on the same bit, the straight lines of double hashing, and a false positive
// together with the keys that set each of its bits.
import { BloomFilter, type BloomFilterOptions } from 'cuckoo-bloom-wasm';
import { cellInspector, keyNames } from './cell-inspector.ts';
import { byTestId, byTestIds, formatRate, h } from './dom.ts';
import { absentKeys, keySource, PLAYGROUND_KEY_SEED } from './random-keys.ts';
import { keyActions, pickedNote, sayIn, toyHandle, type Toy } from './toy.ts';

export type BloomToyOptions = Required<Pick<BloomFilterOptions, 'capacity' | 'falsePositiveRate'>>;
export const DEFAULT_BLOOM: BloomToyOptions = { capacity: 20, falsePositiveRate: 0.01 };

export type BloomToy = Toy<BloomFilter, BloomToyOptions>;

const isSet = (bits: Uint8Array, bit: number): boolean => ((bits[bit >> 3]! >> (bit & 7)) & 1) === 1;

/** Columns of the grid: 16 while that stays under ~16 rows, then 32. */
const columnsFor = (bitCount: number): number => (bitCount <= 256 ? 16 : 32);

export function setupBloomView(section: HTMLElement): BloomToy {
  const { form, input, grid, output, stats, keyList } = byTestIds<{
    form: HTMLFormElement; input: HTMLInputElement; grid: HTMLElement; output: HTMLElement; stats: HTMLElement; keyList: HTMLElement;
  }>(section, { form: 'bloom-form', input: 'bloom-key', grid: 'bloom-grid', output: 'bloom-output', stats: 'bloom-stats', keyList: 'bloom-keys' });

  let options = DEFAULT_BLOOM;
  let filter = new BloomFilter(options);
  let added: string[] = [];
  let nextKey = keySource(PLAYGROUND_KEY_SEED);
  let cells: HTMLElement[] = [];
  const listeners: (() => void)[] = [];

  const build = (): void => {
    const columns = columnsFor(filter.bitCount);
    grid.style.setProperty('--columns', String(columns));
    cells = [];
    const children: HTMLElement[] = [];
    for (let i = 0; i < filter.bitCount; i++) {
      // Each row starts with the index of its first bit, so "bit 37" can be found.
      if (i % columns === 0) children.push(h('span', { class: 'bit-row-label' }, String(i)));
      const cell = h('span', { class: 'bit', 'data-bit': i, title: `bit ${i}` });
      cells.push(cell);
      children.push(cell);
    }
    grid.replaceChildren(...children);
  };

  const draw = (probes: number[] = [], missing: number[] = []): void => {
    const bits = filter.bits();
    cells.forEach((cell, i) => {
      cell.classList.toggle('is-set', isSet(bits, i));
      cell.classList.remove('is-probe', 'is-missing');
      cell.style.removeProperty('--order');
      cell.textContent = '';
    });
    // Restart the highlight animation on the probed cells; number them in probe order.
    void grid.offsetWidth;
    probes.forEach((bit, order) => {
      const cell = cells[bit]!;
      cell.classList.add(missing.includes(bit) ? 'is-missing' : 'is-probe');
      cell.style.setProperty('--order', String(order));
    });
    const set = filter.setBitCount;
    stats.textContent =
      `m = ${filter.bitCount} bits, k = ${filter.hashCount} probes per key · keys added: ${added.length} of the ${options.capacity} it is sized for · ` +
      `bits set: ${set} (${Math.round((100 * set) / filter.bitCount)}%) · estimated false-positive rate: ${formatRate(filter.estimatedFalsePositiveRate)}`;
    keyList.replaceChildren(...added.map((key) =>
      h('li', {}, h('button', { type: 'button', class: 'chip-key', 'data-key': key, 'aria-pressed': 'false', 'aria-label': `${key}: show its bits` }, h('code', {}, key)))));
    listeners.forEach((listener) => listener());
    inspector.refresh();
  };

  const say = sayIn(output);

  /** "bits 3, 40, 77, 114 (the 7 probes picked 5 distinct bits: …)" */
  const describeProbes = (probes: number[]): (string | Node)[] => {
    const distinct = new Set(probes).size;
    const parts: (string | Node)[] = [h('span', { 'data-testid': 'bloom-positions' }, probes.join(', '))];
    if (distinct < probes.length) {
      parts.push(h('span', { class: 'note', 'data-testid': 'bloom-repeats' },
        ` — ${probes.length} probes but only ${distinct} distinct bits: probe i is h₁ + i·h₂ (double hashing), ` +
        `so two probes can land on the same bit; this key is then a little easier to match by mistake.`));
    }
    return parts;
  };

  const add = (key: string): void => {
    const probes = filter.positions(key);
    const before = filter.bits();
    const alreadySet = [...new Set(probes)].filter((bit) => isSet(before, bit)).length;
    filter.add(key);
    added.push(key);
    draw(probes);
    say('Added ', h('code', {}, key), `: its ${probes.length} probes set bits `, ...describeProbes(probes),
      alreadySet > 0 ? `. ${alreadySet} of them were already 1 (set by other keys).` : '.');
  };

  /** Which added keys set `bit`: the keys behind a false positive. */
  const settersOf = (bit: number): string[] => added.filter((key) => filter.positions(key).includes(bit));

  const check = (key: string): void => {
    const probes = filter.positions(key);
    const bits = filter.bits();
    const missing = probes.filter((bit) => !isSet(bits, bit));
    const present = filter.has(key);
    draw(probes, missing);
    if (!present) {
      say(h('strong', {}, 'Not added (certain): '), h('code', {}, key), ` — bit${missing.length > 1 ? 's' : ''} ${[...new Set(missing)].join(', ')} ${missing.length > 1 ? 'are' : 'is'} 0, and adding it would have set ${missing.length > 1 ? 'them' : 'it'}.`);
    } else if (added.includes(key)) {
      say(h('strong', {}, 'Possibly present: '), h('code', {}, key), ' — all its bits are 1: ', ...describeProbes(probes), '. (You added it.)');
    } else {
      const distinct = [...new Set(probes)];
      output.replaceChildren(h('div', { class: 'verdict verdict-hit', 'data-testid': 'bloom-false-positive' },
        h('strong', {}, 'False positive! '), h('code', { 'data-testid': 'bloom-fp-key' }, key),
        ` was never added, but all ${distinct.length} of its bits are 1, each set by other keys:`,
        h('ul', { class: 'setters' }, ...distinct.map((bit) =>
          h('li', { 'data-bit': bit, 'data-testid': 'bloom-fp-bit' }, `bit ${bit}: `, ...settersOf(bit).flatMap((setter, n) => [n > 0 ? ', ' : '', h('code', {}, setter)])))),
      ));
    }
  };

  /** Fills the filter to the size it was built for, then guesses keys until one matches. */
  const findFalsePositive = (): void => {
    while (added.length < options.capacity) add(nextKey(added));
    const guesses = absentKeys(100_000, 'guess');
    const index = guesses.findIndex((probe) => filter.has(probe));
    if (index < 0) return say('No false positive in 100,000 guesses.');
    const found = guesses[index]!;
    input.value = found;
    check(found);
    output.append(pickedNote(`this key is the first of ${index + 1} guesses (${guesses[0]}, ${guesses[1]}, …) that the filter wrongly reports, ` +
      `after filling it to the ${options.capacity} keys it is sized for. A key never added is reported about ${formatRate(filter.estimatedFalsePositiveRate)} of the time: most lookups are answered correctly.`));
  };

  // Hover, tap or arrow keys on a bit: its value and the keys that set it.
  const inspector = cellInspector({
    box: grid,
    info: byTestId('bloom-bit-info', section),
    count: () => cells.length,
    cellOf: (i) => cells[i],
    indexOf: (element) => (element instanceof HTMLElement && element.dataset.bit !== undefined ? Number(element.dataset.bit) : null),
    steps: () => ({ right: 1, down: columnsFor(filter.bitCount) }),
    describe: (bit) => isSet(filter.bits(), bit)
      ? [`Bit ${bit}: 1, set by `, ...keyNames(settersOf(bit), 'no key'), '.']
      : [`Bit ${bit}: 0 — no key added sets it, so any key that probes it is certainly not added.`],
  });

  const { run, withKey, withNextKey } = keyActions(input, say);
  const addTyped = withKey(add);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    addTyped();
  });
  byTestId('bloom-check', section).addEventListener('click', withKey(check));
  byTestId('bloom-random', section).addEventListener('click', withNextKey(() => nextKey(added), add));
  byTestId('bloom-find-fp', section).addEventListener('click', () => run(findFalsePositive));
  byTestId('bloom-reset', section).addEventListener('click', () => run(() => rebuild(options)));
  keyList.addEventListener('click', (event) => {
    const chip = (event.target as Element).closest('button.chip-key');
    if (!(chip instanceof HTMLButtonElement) || !chip.dataset.key) return;
    const key = chip.dataset.key;
    run(() => check(key));
    for (const other of Array.from(keyList.querySelectorAll('button.chip-key'))) other.setAttribute('aria-pressed', String((other as HTMLElement).dataset.key === key));
    keyList.querySelector<HTMLButtonElement>(`button.chip-key[data-key="${CSS.escape(key)}"]`)?.focus();
  });

  const intro = (): void =>
    say(`Empty filter: m = ${filter.bitCount} bits and k = ${filter.hashCount} probes, sized for ${options.capacity} keys at ${formatRate(options.falsePositiveRate)}. ` +
      'A key’s probes are evenly spaced (probe i is h₁ + i·h₂), so in this grid they often fall on a straight line.');

  const rebuild = (next: BloomToyOptions): void => {
    const made = new BloomFilter(next);
    filter.free();
    filter = made;
    options = next;
    added = [];
    nextKey = keySource(PLAYGROUND_KEY_SEED);
    build();
    draw();
    intro();
  };

  build();
  draw();
  intro();

  return toyHandle(() => ({ filter, keyCount: added.length, options }), {
    rebuild,
    addQuietly: (key) => {
      filter.add(key);
      added.push(key);
      return true;
    },
    redraw: (note) => {
      draw();
      if (note !== undefined) say(note);
    },
    onChange: (listener) => listeners.push(listener),
  });
}
