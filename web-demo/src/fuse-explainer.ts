// The binary fuse explainer: a toy fuse filter (fuse-toy.ts) of the playgrounds' first
// keys, drawn slot by slot and built one step at a time: each key's three positions in
// three consecutive segments, the peeling order (a slot only one remaining key uses), then
// the filling in reverse order, and a lookup as the XOR of three slots.
import { cellInspector, keyNames } from './cell-inspector.ts';
import { byTestId, h, svg } from './dom.ts';
import { buildFuse, type FuseBuild, locateKey, xorOf } from './fuse-toy.ts';
import { keepFocus } from './kick-player.ts';
import { attachPlay } from './play-button.ts';
import { keySource, PLAYGROUND_KEY_SEED } from './random-keys.ts';
import { sayIn } from './toy.ts';

const KEY_COUNT = 8;
const SHAPE = { segmentLength: 4, segmentCount: 3, fingerprintBits: 8 } as const;

// Geometry (viewBox units): one column per slot, two rows (keys still using it; its value).
const SLOT = { width: 30, height: 24 } as const;
const GAP = { slot: 4, segment: 12, row: 6 } as const;
const MARGIN = { left: 70, top: 40 } as const;

export function setupFuseExplainer(section: HTMLElement): void {
  const figure = byTestId('fuse-table', section);
  const output = byTestId('fuse-output', section);
  const where = byTestId('fuse-position', section);
  const back = byTestId<HTMLButtonElement>('fuse-back', section);
  const step = byTestId<HTMLButtonElement>('fuse-step', section);
  const play = byTestId<HTMLButtonElement>('fuse-play', section);
  const keyList = byTestId('fuse-keys', section);
  const input = byTestId<HTMLInputElement>('fuse-key', section);

  const next = keySource(PLAYGROUND_KEY_SEED);
  const names: string[] = [];
  while (names.length < KEY_COUNT) names.push(next(names));
  const fuse: FuseBuild = buildFuse(names, SHAPE);
  const steps = 2 * fuse.keys.length;
  const fillOrder = [...fuse.peel].reverse();
  const hex = (value: number): string => value.toString(16).padStart(2, '0');
  const segmentOf = (slot: number): number => Math.floor(slot / fuse.segmentLength);
  const x = (slot: number): number => MARGIN.left + slot * (SLOT.width + GAP.slot) + segmentOf(slot) * GAP.segment;
  const y = (row: number): number => MARGIN.top + row * (SLOT.height + GAP.row);

  // ---- The drawing --------------------------------------------------------------------
  const width = x(fuse.slotCount - 1) + SLOT.width + 6;
  const height = y(2) + 4;
  const root = svg('svg', {
    viewBox: `0 0 ${width} ${height}`,
    class: 'fuse-svg',
    role: 'img',
    'aria-label': `Binary fuse table: ${fuse.slotCount} slots in ${fuse.slotCount / fuse.segmentLength} segments of ${fuse.segmentLength}; each step is also written out below`,
  });
  root.style.setProperty('--min-width', `${Math.round(width * 0.8)}px`);
  const marks: SVGRectElement[] = [];
  const rects: SVGRectElement[][] = [[], []];
  const texts: SVGTextElement[][] = [[], []];
  root.append(
    svg('text', { x: MARGIN.left - 8, y: y(0) + 16, 'text-anchor': 'end', class: 'bucket-label' }, 'keys using'),
    svg('text', { x: MARGIN.left - 8, y: y(1) + 16, 'text-anchor': 'end', class: 'bucket-label' }, 'value B[i]'),
  );
  for (let segment = 0; segment < fuse.slotCount / fuse.segmentLength; segment++) {
    const first = segment * fuse.segmentLength;
    root.append(svg('text', { x: (x(first) + x(first + fuse.segmentLength - 1) + SLOT.width) / 2, y: 12, 'text-anchor': 'middle', class: 'bucket-label' }, `segment ${segment}`));
  }
  for (let slot = 0; slot < fuse.slotCount; slot++) {
    const mark = svg('rect', { x: x(slot) - 2, y: MARGIN.top - 18, width: SLOT.width + 4, height: 2 * (SLOT.height + GAP.row) + 14, rx: 4, class: 'bucket' });
    marks.push(mark);
    root.append(mark, svg('text', { x: x(slot) + SLOT.width / 2, y: MARGIN.top - 5, 'text-anchor': 'middle', class: 'bucket-label' }, String(slot)));
    for (const row of [0, 1]) {
      const rect = svg('rect', { x: x(slot), y: y(row), width: SLOT.width, height: SLOT.height, rx: 3, class: 'slot fuse-slot', 'data-slot': slot, 'data-row': row });
      const text = svg('text', { x: x(slot) + SLOT.width / 2, y: y(row) + SLOT.height / 2 + 4, 'text-anchor': 'middle', class: 'slot-text', 'data-slot': slot, 'data-row': row });
      rects[row]!.push(rect);
      texts[row]!.push(text);
      root.append(rect);
    }
  }
  // Texts after every rect: above them in paint order.
  for (const row of [0, 1]) for (const text of texts[row]!) root.append(text);
  figure.replaceChildren(root);

  // ---- A position of the build: 0 (nothing), 1..n keys peeled, n+1..2n keys filled ---------
  let position = 0;
  /** What the table holds at `at`: keys still unpeeled per slot, and the values written so far. */
  const stateAt = (at: number): { using: number[]; values: (number | null)[] } => {
    const peeled = new Set(fuse.peel.slice(0, Math.min(at, fuse.keys.length)).map((entry) => entry.key));
    const using = new Array<number>(fuse.slotCount).fill(0);
    fuse.keys.forEach((key, index) => {
      if (!peeled.has(index)) for (const slot of key.positions) using[slot]!++;
    });
    const values = new Array<number | null>(fuse.slotCount).fill(null);
    const filled = Math.max(0, at - fuse.keys.length);
    if (filled > 0) values.fill(0);
    for (const { slot } of fillOrder.slice(0, filled)) values[slot] = fuse.table[slot]!;
    return { using, values };
  };
  let shown = stateAt(0);

  const highlight = (positions: readonly number[], own: number | null): void => {
    marks.forEach((mark, slot) => mark.classList.toggle('is-candidate', positions.includes(slot)));
    for (const row of [0, 1]) {
      rects[row]!.forEach((rect, slot) => rect.classList.toggle('is-new', slot === own));
      texts[row]!.forEach((text, slot) => text.classList.toggle('is-new', slot === own));
    }
  };

  const say = sayIn(output);
  const name = (index: number): string => fuse.keys[index]!.key;

  const describe = (at: number): (string | Node)[] => {
    if (at === 0) {
      return [`${fuse.keys.length} keys, ${fuse.slotCount} slots in ${fuse.slotCount / fuse.segmentLength} segments of ${fuse.segmentLength}. ` +
        'The top row counts the keys whose three positions include each slot. Step through the build, or tap a key to see its positions.'];
    }
    if (at <= fuse.keys.length) {
      const { key, slot } = fuse.peel[at - 1]!;
      return ['Peel: slot ', h('strong', {}, String(slot)), ' is used by one remaining key only, ', h('code', {}, name(key)),
        `, so that key will own it. It is taken out of its three slots (${fuse.keys[key]!.positions.join(', ')}), and other slots may drop to one key.`,
        at === fuse.keys.length ? ' Every key is peeled: the order exists.' : ''];
    }
    const { key, slot } = fillOrder[at - fuse.keys.length - 1]!;
    const { positions, fingerprint } = fuse.keys[key]!;
    const others = positions.filter((position) => position !== slot);
    const before = stateAt(at - 1).values;
    return ['Fill, last peeled first: ', h('code', {}, name(key)), ` owns slot ${slot}: `,
      h('span', { class: 'formula', 'data-testid': 'fuse-fill-formula' },
        `B[${slot}] = fp ⊕ B[${others[0]}] ⊕ B[${others[1]}] = ${hex(fingerprint)} ⊕ ${hex(before[others[0]!] ?? 0)} ⊕ ${hex(before[others[1]!] ?? 0)} = ${hex(fuse.table[slot]!)}`),
      '. Its other two slots belong to keys filled before it (or to none), and no later fill touches its slots, so its XOR stays its fingerprint.',
      at === steps ? ' Built: for every key, the XOR of its three slots is its fingerprint.' : ''];
  };

  const render = (): void => {
    shown = stateAt(position);
    for (let slot = 0; slot < fuse.slotCount; slot++) {
      const value = shown.values[slot] ?? null;
      texts[0]![slot]!.textContent = String(shown.using[slot]);
      texts[1]![slot]!.textContent = value === null ? '' : hex(value);
      rects[1]![slot]!.classList.toggle('is-used', value !== null && value !== 0);
      texts[1]![slot]!.classList.toggle('on-used', value !== null && value !== 0);
    }
    if (position === 0) highlight([], null);
    else {
      const { key, slot } = position <= fuse.keys.length ? fuse.peel[position - 1]! : fillOrder[position - fuse.keys.length - 1]!;
      highlight(fuse.keys[key]!.positions, slot);
    }
    where.textContent = `Step ${position} of ${steps} (${position <= fuse.keys.length ? 'peeling' : 'filling'})`;
    keepFocus(() => {
      back.disabled = position === 0;
      step.disabled = position === steps;
    }, [step, back, play]);
    player.refresh();
    say(...describe(position));
    inspector.refresh();
  };
  const goTo = (at: number): void => {
    position = Math.max(0, Math.min(steps, at));
    render();
  };

  // ---- A lookup: the XOR of three slots against the fingerprint -----------------------------
  const check = (key: string): void => {
    player.pause();
    goTo(steps);
    const located = locateKey(key, fuse.seed, SHAPE);
    const value = xorOf(fuse.table, located.positions);
    const member = names.includes(key);
    highlight(located.positions, null);
    const [a, b, c] = located.positions;
    output.replaceChildren(h('div', { class: value === located.fingerprint && !member ? 'verdict verdict-hit' : 'verdict', 'data-testid': 'fuse-xor', 'data-xor': value, 'data-fingerprint': located.fingerprint },
      h('code', {}, key), `: positions ${a}, ${b}, ${c} (segments ${located.positions.map(segmentOf).join(', ')}): `,
      h('span', { class: 'formula' }, `B[${a}] ⊕ B[${b}] ⊕ B[${c}] = ${located.positions.map((p) => hex(fuse.table[p]!)).join(' ⊕ ')} = ${hex(value)}`),
      `; its fingerprint is ${hex(located.fingerprint)}: `,
      h('strong', {}, value !== located.fingerprint ? 'different, so certainly not added.' : member ? 'equal: possibly present (it was built in).' : 'equal by chance: a false positive (about 1 in 256 with 8-bit fingerprints).')));
  };

  const inspector = cellInspector({
    box: figure,
    info: byTestId('fuse-slot-info', section),
    count: () => fuse.slotCount,
    cellOf: (slot) => rects[1]![slot],
    indexOf: (element) => ((element as SVGElement).dataset.slot === undefined ? null : Number((element as SVGElement).dataset.slot)),
    steps: () => ({ right: 1, down: fuse.segmentLength }),
    describe: (slot) => {
      const users = fuse.keys.filter((key) => key.positions.includes(slot)).map((key) => key.key);
      const owner = fuse.peel.find((entry) => entry.slot === slot);
      const value = shown.values[slot];
      return [`Slot ${slot} (segment ${segmentOf(slot)}): ${value === null || value === undefined ? 'not filled yet' : `value ${hex(value)}`}; a position of `,
        ...keyNames(users, 'no key'), owner ? `; owned by ${name(owner.key)}.` : '; owned by no key (it stays 0).'];
    },
  });

  // ---- Wiring ----------------------------------------------------------------------------
  // Play steps through the whole build (peel, then fill) as the kick player steps a walk.
  const player = attachPlay(play, { atEnd: () => position === steps, step: () => goTo(position + 1), restart: () => goTo(0) });
  back.addEventListener('click', () => {
    player.pause();
    goTo(position - 1);
  });
  step.addEventListener('click', () => {
    player.pause();
    goTo(position + 1);
  });
  byTestId('fuse-peel-all', section).addEventListener('click', () => {
    player.pause();
    goTo(steps);
  });
  byTestId('fuse-form', section).addEventListener('submit', (event) => {
    event.preventDefault();
    const key = input.value.trim();
    if (key === '') say('Type a key first (any text), or tap one of its keys below.');
    else check(key);
  });
  keyList.replaceChildren(...names.map((key) =>
    h('li', {}, h('button', { type: 'button', class: 'chip-key', 'data-key': key, 'aria-label': `${key}: show its three positions and their XOR` }, h('code', {}, key)))));
  keyList.addEventListener('click', (event) => {
    const chip = (event.target as Element).closest('button.chip-key');
    if (chip instanceof HTMLButtonElement && chip.dataset.key) check(chip.dataset.key);
  });
  render();
  if (fuse.attempts > 1) output.append(h('p', { class: 'detail' }, `(Peeling got stuck with seeds 0 to ${fuse.attempts - 2}; seed ${fuse.seed} worked: a real build retries the same way.)`));
}
