// A small real Bloom filter drawn bit by bit: adding a key lights the bits its hashes
// pick (`positions`, from the wasm filter); every cell is read back from `bits()`.
import { BloomFilter } from '../../js/src/index.ts';
import { byTestId, describeError, formatInteger, formatRate, h } from './dom.ts';
import { nextRandomKey } from './random-keys.ts';

const OPTIONS = { capacity: 20, falsePositiveRate: 0.01 } as const;

export function setupBloomView(section: HTMLElement): void {
  const form = byTestId<HTMLFormElement>('bloom-form', section);
  const input = byTestId<HTMLInputElement>('bloom-key', section);
  const grid = byTestId('bloom-grid', section);
  const output = byTestId('bloom-output', section);
  const stats = byTestId('bloom-stats', section);
  const keyList = byTestId('bloom-keys', section);

  let filter = new BloomFilter(OPTIONS);
  let added: string[] = [];
  let cells: HTMLElement[] = [];

  const build = (): void => {
    cells = Array.from({ length: filter.bitCount }, (_, i) => h('span', { class: 'bit', 'data-bit': i, title: `bit ${i}` }));
    grid.replaceChildren(...cells);
  };

  const draw = (probes: number[] = [], missing: number[] = []): void => {
    const bits = filter.bits();
    cells.forEach((cell, i) => {
      cell.classList.toggle('is-set', ((bits[i >> 3]! >> (i & 7)) & 1) === 1);
      cell.classList.remove('is-probe', 'is-missing');
      cell.style.removeProperty('--order');
    });
    // Restart the highlight animation on the probed cells.
    void grid.offsetWidth;
    probes.forEach((bit, order) => {
      const cell = cells[bit]!;
      cell.classList.add(missing.includes(bit) ? 'is-missing' : 'is-probe');
      cell.style.setProperty('--order', String(order));
    });
    const set = filter.setBitCount;
    stats.textContent =
      `m = ${filter.bitCount} bits, k = ${filter.hashCount} probes per key · keys added: ${added.length} · ` +
      `bits set: ${set} (${Math.round((100 * set) / filter.bitCount)}%) · estimated false-positive rate: ${formatRate(filter.estimatedFalsePositiveRate)}`;
    keyList.replaceChildren(...added.map((key) => h('li', {}, key)));
  };

  const say = (...parts: (string | Node)[]): void => {
    output.replaceChildren(h('p', {}, ...parts));
  };

  const add = (key: string): void => {
    const probes = filter.positions(key);
    const before = filter.bits();
    const alreadySet = probes.filter((bit) => ((before[bit >> 3]! >> (bit & 7)) & 1) === 1).length;
    filter.add(key);
    added.push(key);
    draw(probes);
    say(
      'Added ', h('code', {}, key), `: its ${probes.length} hashes set bits `,
      h('span', { 'data-testid': 'bloom-positions' }, probes.join(', ')),
      alreadySet > 0 ? ` (${alreadySet} of them were already set by other keys).` : '.',
    );
  };

  const check = (key: string): void => {
    const probes = filter.positions(key);
    const bits = filter.bits();
    const missing = probes.filter((bit) => ((bits[bit >> 3]! >> (bit & 7)) & 1) === 0);
    const present = filter.has(key);
    draw(probes, missing);
    if (!present) {
      say(h('strong', {}, 'Definitely not added: '), h('code', {}, key), ` — bit${missing.length > 1 ? 's' : ''} ${missing.join(', ')} ${missing.length > 1 ? 'are' : 'is'} 0.`);
    } else if (added.includes(key)) {
      say(h('strong', {}, 'Possibly present: '), h('code', {}, key), ` — all ${probes.length} bits (${probes.join(', ')}) are 1. (You added it.)`);
    } else {
      say(h('strong', {}, 'False positive! '), h('code', {}, key), ` was never added, but all ${probes.length} of its bits (${probes.join(', ')}) were set by other keys.`);
    }
  };

  const keyOrSay = (): string | null => {
    const key = input.value.trim();
    if (key === '') {
      say('Type a key first (any text), or use “Add random key”.');
      input.focus();
      return null;
    }
    return key;
  };

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const key = keyOrSay();
    if (key !== null) run(() => add(key));
  });
  byTestId('bloom-check', section).addEventListener('click', () => {
    const key = keyOrSay();
    if (key !== null) run(() => check(key));
  });
  byTestId('bloom-random', section).addEventListener('click', () => {
    const key = nextRandomKey(added);
    input.value = key;
    run(() => add(key));
  });
  byTestId('bloom-reset', section).addEventListener('click', () => {
    filter.free();
    filter = new BloomFilter(OPTIONS);
    added = [];
    build();
    draw();
    say(`Empty filter: ${formatInteger(filter.bitCount)} bits, sized for ${OPTIONS.capacity} keys at ${formatRate(OPTIONS.falsePositiveRate)}.`);
  });

  function run(action: () => void): void {
    try {
      action();
    } catch (error) {
      say(`Error: ${describeError(error)}`);
    }
  }

  build();
  draw();
  say(`Empty filter: ${formatInteger(filter.bitCount)} bits, sized for ${OPTIONS.capacity} keys at ${formatRate(OPTIONS.falsePositiveRate)}. Add a key to see which bits it sets.`);
}
