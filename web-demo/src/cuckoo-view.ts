// A small real cuckoo filter drawn slot by slot. Every fingerprint shown is read back
// from the wasm filter (`slot`), the candidate buckets come from `locate`, and the
// eviction walk from `lastKickPath`; nothing here re-implements the filter.
import { CuckooFilter, type CuckooKick } from '../../js/src/index.ts';
import { byTestId, delay, describeError, formatRate, h, prefersReducedMotion, svg } from './dom.ts';
import { nextRandomKey } from './random-keys.ts';

const OPTIONS = { capacity: 16, bucketSize: 4, fingerprintBits: 8 } as const;
const STEP_MS = 320;
const MAX_DRAWN_STEPS = 12;
/** A failed walk is hundreds of steps: its first few show the idea. */
const MAX_DRAWN_FAILED_STEPS = 8;

// Geometry of the SVG (viewBox units).
const SLOT_W = 40;
const SLOT_H = 26;
const COL_GAP = 6;
const ROW_GAP = 4;
const LEFT = 6;
const TOP = 58;

type Table = number[][];

export function setupCuckooView(section: HTMLElement): void {
  const form = byTestId<HTMLFormElement>('cuckoo-form', section);
  const input = byTestId<HTMLInputElement>('cuckoo-key', section);
  const figure = byTestId('cuckoo-table', section);
  const output = byTestId('cuckoo-output', section);
  const chain = byTestId('cuckoo-kick-chain', section);
  const stats = byTestId('cuckoo-stats', section);
  const keyList = byTestId('cuckoo-keys', section);
  const recheck = byTestId('cuckoo-recheck', section);

  let filter = new CuckooFilter(OPTIONS);
  let added: string[] = [];
  let generation = 0;
  let slotRects: SVGRectElement[][] = [];
  let slotTexts: SVGTextElement[][] = [];
  let bucketRects: SVGRectElement[] = [];
  let arrows: SVGGElement = svg('g');
  let badges: SVGGElement = svg('g');

  const x = (bucket: number): number => LEFT + bucket * (SLOT_W + COL_GAP);
  const y = (slot: number): number => TOP + slot * (SLOT_H + ROW_GAP);
  const hexDigits = Math.ceil(OPTIONS.fingerprintBits / 4);
  const hex = (fingerprint: number): string => fingerprint.toString(16).padStart(hexDigits, '0');

  const buildSvg = (): void => {
    const buckets = filter.bucketCount;
    const slots = filter.bucketSize;
    const width = LEFT * 2 + buckets * (SLOT_W + COL_GAP) - COL_GAP;
    const height = TOP + slots * (SLOT_H + ROW_GAP) + 4;
    const root = svg('svg', {
      viewBox: `0 0 ${width} ${height}`,
      class: 'cuckoo-svg',
      role: 'img',
      'aria-label': `Cuckoo filter table: ${buckets} buckets of ${slots} slots; the kick chain is also listed as text below`,
    });
    root.append(
      svg('defs', {},
        svg('marker', { id: 'kick-head', viewBox: '0 0 10 10', refX: 9, refY: 5, markerWidth: 6, markerHeight: 6, orient: 'auto-start-reverse' },
          svg('path', { d: 'M0,0 L10,5 L0,10 z', class: 'kick-head' })),
        svg('marker', { id: 'kick-head-failed', viewBox: '0 0 10 10', refX: 9, refY: 5, markerWidth: 6, markerHeight: 6, orient: 'auto-start-reverse' },
          svg('path', { d: 'M0,0 L10,5 L0,10 z', class: 'kick-head-failed' })),
      ),
    );
    slotRects = [];
    slotTexts = [];
    bucketRects = [];
    // Layers: buckets and slots, then kick arrows, then the fingerprints and step badges on top.
    const slotLayer = svg('g');
    const textLayer = svg('g');
    arrows = svg('g', { class: 'kick-arrows', 'data-testid': 'cuckoo-arrows' });
    badges = svg('g', { class: 'kick-badges' });
    for (let b = 0; b < buckets; b++) {
      const column = svg('rect', { x: x(b) - 2, y: TOP - 16, width: SLOT_W + 4, height: slots * (SLOT_H + ROW_GAP) + 14, rx: 4, class: 'bucket' });
      bucketRects.push(column);
      slotLayer.append(column, svg('text', { x: x(b) + SLOT_W / 2, y: TOP - 5, 'text-anchor': 'middle', class: 'bucket-label' }, `b${b}`));
      const rects: SVGRectElement[] = [];
      const texts: SVGTextElement[] = [];
      for (let s = 0; s < slots; s++) {
        const rect = svg('rect', { x: x(b), y: y(s), width: SLOT_W, height: SLOT_H, rx: 3, class: 'slot', 'data-bucket': b, 'data-slot': s });
        const text = svg('text', { x: x(b) + SLOT_W / 2, y: y(s) + SLOT_H / 2 + 4, 'text-anchor': 'middle', class: 'slot-text' });
        rects.push(rect);
        texts.push(text);
        slotLayer.append(rect);
        textLayer.append(text);
      }
      slotRects.push(rects);
      slotTexts.push(texts);
    }
    root.append(slotLayer, arrows, textLayer, badges);
    figure.replaceChildren(root);
  };

  const clearWalk = (): void => {
    arrows.replaceChildren();
    badges.replaceChildren();
  };

  const snapshot = (): Table =>
    Array.from({ length: filter.bucketCount }, (_, b) => Array.from({ length: filter.bucketSize }, (_, s) => filter.slot(b, s)));

  const draw = (): void => {
    const table = snapshot();
    table.forEach((slots, b) =>
      slots.forEach((fingerprint, s) => {
        slotTexts[b]![s]!.textContent = fingerprint === 0 ? '' : hex(fingerprint);
        slotRects[b]![s]!.classList.toggle('is-used', fingerprint !== 0);
        slotRects[b]![s]!.classList.remove('is-new', 'is-kicked', 'is-cleared', 'is-found');
      }),
    );
    bucketRects.forEach((rect) => rect.classList.remove('is-candidate'));
    stats.textContent =
      `${filter.bucketCount} buckets × ${filter.bucketSize} slots, ${filter.fingerprintBits}-bit fingerprints (shown in hex) · ` +
      `stored ${filter.count} of ${filter.slotCount} (load ${Math.round(filter.loadFactor * 100)}%) · ` +
      `estimated false-positive rate ${formatRate(filter.estimatedFalsePositiveRate)}`;
    keyList.replaceChildren(
      ...added.map((key, i) =>
        h('li', {},
          h('code', {}, key),
          h('button', { type: 'button', class: 'chip-remove', 'data-index': i, 'aria-label': `Remove ${key}`, title: `Remove ${key}` }, '×'),
        ),
      ),
    );
  };

  const markCandidates = (buckets: [number, number]): void => {
    for (const b of buckets) bucketRects[b]?.classList.add('is-candidate');
  };

  const say = (...parts: (string | Node)[]): void => {
    output.replaceChildren(h('p', {}, ...parts));
  };

  const arrowPath = (from: CuckooKick, to: CuckooKick): string => {
    const x1 = x(from.bucket) + SLOT_W / 2;
    const y1 = y(from.slot) + SLOT_H / 2;
    const x2 = x(to.bucket) + SLOT_W / 2;
    const y2 = y(to.slot) + SLOT_H / 2;
    const lift = 24 + Math.abs(x2 - x1) * 0.12;
    return `M${x1},${y1} Q${(x1 + x2) / 2},${Math.min(y1, y2) - lift} ${x2},${y2}`;
  };

  /**
   * Draws the walk step by step; `failed`: the walk was undone (the table shows the state
   * before it). A long walk shows its first steps and, if it succeeded, its last one.
   */
  const animateKicks = async (key: string, path: CuckooKick[], failed: boolean, token: number): Promise<void> => {
    clearWalk();
    chain.replaceChildren();
    const indexes = path.map((_, i) => i);
    const shown =
      path.length <= (failed ? MAX_DRAWN_FAILED_STEPS : MAX_DRAWN_STEPS) ? indexes : failed ? indexes.slice(0, MAX_DRAWN_FAILED_STEPS) : [...indexes.slice(0, MAX_DRAWN_STEPS - 1), path.length - 1];
    const animate = !prefersReducedMotion();
    let previous = -1;
    for (const i of shown) {
      if (animate && previous >= 0) await delay(STEP_MS);
      if (token !== generation) return;
      const step = path[i]!;
      if (previous >= 0 && i > previous + 1) {
        chain.append(h('li', { class: 'more' }, `… ${i - previous - 1} more evictions not drawn …`));
      }
      if (previous >= 0 && i === previous + 1) {
        arrows.append(svg('path', {
          d: arrowPath(path[previous]!, step),
          class: failed ? 'kick-arrow kick-arrow-failed' : 'kick-arrow',
          'marker-end': failed ? 'url(#kick-head-failed)' : 'url(#kick-head)',
          'data-testid': 'cuckoo-kick-arrow',
        }));
      }
      badges.append(
        svg('circle', { cx: x(step.bucket) + SLOT_W - 3, cy: y(step.slot) + 3, r: 7, class: failed ? 'kick-badge kick-badge-failed' : 'kick-badge' }),
        svg('text', { x: x(step.bucket) + SLOT_W - 3, y: y(step.slot) + 6, 'text-anchor': 'middle', class: 'kick-badge-text' }, String(i + 1)),
      );
      if (!failed) slotRects[step.bucket]![step.slot]!.classList.add(i === 0 ? 'is-new' : 'is-kicked');
      const evicted = path[i + 1]?.fingerprint;
      const who = i === 0 ? `new fingerprint ${hex(step.fingerprint)} of “${key}”` : `evicted ${hex(step.fingerprint)} moves to its other bucket:`;
      const what = i === path.length - 1 && !failed ? ' — a free slot, done ✓' : evicted !== undefined ? ` — kicks out ${hex(evicted)}` : '';
      chain.append(h('li', { value: i + 1, 'data-testid': 'cuckoo-kick-step' }, `${who} → bucket ${step.bucket}, slot ${step.slot}${what}`));
      previous = i;
    }
    if (failed && path.length > shown.length) {
      chain.append(h('li', { class: 'more' }, `… ${path.length - shown.length} more evictions not drawn`));
    }
    if (failed) chain.append(h('li', { class: 'undone' }, `After ${path.length} evictions the filter gave up and undid every move: nothing was lost.`));
  };

  interface Attempt {
    key: string;
    located: { buckets: [number, number]; fingerprint: number };
    before: Table;
    stored: boolean;
    path: CuckooKick[];
  }

  /** One insert into the real filter, with what is needed to show it. */
  const attempt = (key: string): Attempt => {
    const located = filter.locate(key);
    const before = snapshot();
    const stored = filter.tryAdd(key);
    const path = filter.lastKickPath();
    if (stored) added.push(key);
    return { key, located, before, stored, path };
  };

  const add = (key: string): Promise<void> => show(attempt(key));

  const show = async ({ key, located, before, stored, path }: Attempt): Promise<void> => {
    const token = ++generation;
    recheck.replaceChildren();
    draw();
    markCandidates(located.buckets);
    const candidates = `candidate buckets ${located.buckets[0]} and ${located.buckets[1]}`;
    if (!stored) {
      output.replaceChildren(
        h('p', { class: 'verdict verdict-hit', 'data-testid': 'cuckoo-full' },
          h('strong', {}, 'Full: '), h('code', {}, key), ` could not be stored (fingerprint ${hex(located.fingerprint)}, ${candidates}, ` +
          `${filter.count} of ${filter.slotCount} slots used). The table is unchanged.`),
      );
      showRecheck();
      await animateKicks(key, path, true, token);
      return;
    }
    if (path.length === 0) {
      const landed = diff(before, snapshot())[0];
      if (landed) slotRects[landed.bucket]![landed.slot]!.classList.add('is-new');
      clearWalk();
      chain.replaceChildren(h('li', { class: 'no-kicks' }, 'No kicks: one of the two candidate buckets had a free slot.'));
      say('Added ', h('code', {}, key), `: fingerprint ${hex(located.fingerprint)}, ${candidates}` + (landed ? ` → stored in bucket ${landed.bucket}, slot ${landed.slot}.` : '.'));
      return;
    }
    say('Added ', h('code', {}, key), `: fingerprint ${hex(located.fingerprint)}, ${candidates} — both full, so it kicked others out (${path.length - 1} eviction${path.length > 2 ? 's' : ''}):`);
    await animateKicks(key, path, false, token);
  };

  const showRecheck = (): void => {
    const found = added.map((key) => ({ key, found: filter.has(key) }));
    const all = found.every((entry) => entry.found);
    recheck.replaceChildren(
      h('p', { 'data-testid': 'cuckoo-recheck-summary' },
        h('strong', {}, all ? '✓ ' : '✗ '),
        `Every key added so far, re-checked in the filter: ${found.filter((entry) => entry.found).length} of ${found.length} found.`),
      h('ul', { class: 'recheck-list' },
        ...found.map((entry) => h('li', { 'data-found': String(entry.found) }, entry.found ? '✓ ' : '✗ ', h('code', {}, entry.key)))),
    );
  };

  const remove = (key: string, index?: number): void => {
    ++generation;
    recheck.replaceChildren();
    const located = filter.locate(key);
    const before = snapshot();
    const removed = filter.remove(key);
    const i = index ?? added.indexOf(key);
    if (removed && i >= 0) added.splice(i, 1);
    draw();
    clearWalk();
    chain.replaceChildren();
    markCandidates(located.buckets);
    if (!removed) {
      say('Nothing removed: fingerprint ', h('code', {}, hex(located.fingerprint)), ` is in neither bucket ${located.buckets[0]} nor ${located.buckets[1]}.`);
      return;
    }
    const cleared = diff(before, snapshot())[0];
    if (cleared) slotRects[cleared.bucket]![cleared.slot]!.classList.add('is-cleared');
    say('Removed ', h('code', {}, key), `: one copy of fingerprint ${hex(located.fingerprint)} cleared` + (cleared ? ` from bucket ${cleared.bucket}, slot ${cleared.slot}.` : '.') +
      (i < 0 ? ' (You never added this key here: removing keys that were not added can delete another key’s fingerprint.)' : ''));
  };

  const check = (key: string): void => {
    ++generation;
    const located = filter.locate(key);
    const present = filter.has(key);
    draw();
    clearWalk();
    markCandidates(located.buckets);
    for (const b of located.buckets) {
      for (let s = 0; s < filter.bucketSize; s++) if (filter.slot(b, s) === located.fingerprint) slotRects[b]![s]!.classList.add('is-found');
    }
    const where = `fingerprint ${hex(located.fingerprint)}, buckets ${located.buckets[0]} and ${located.buckets[1]}`;
    if (!present) say(h('strong', {}, 'Definitely not added: '), h('code', {}, key), ` — ${where}: not there.`);
    else if (added.includes(key)) say(h('strong', {}, 'Possibly present: '), h('code', {}, key), ` — ${where}: found. (You added it.)`);
    else say(h('strong', {}, 'False positive! '), h('code', {}, key), ` was never added, but another key left the same fingerprint in one of its buckets (${where}).`);
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

  const run = (action: () => unknown): void => {
    Promise.resolve()
      .then(action)
      .catch((error: unknown) => say(`Error: ${describeError(error)}`));
  };

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const key = keyOrSay();
    if (key !== null) run(() => add(key));
  });
  byTestId('cuckoo-check', section).addEventListener('click', () => {
    const key = keyOrSay();
    if (key !== null) run(() => check(key));
  });
  byTestId('cuckoo-remove', section).addEventListener('click', () => {
    const key = keyOrSay();
    if (key !== null) run(() => remove(key));
  });
  byTestId('cuckoo-random', section).addEventListener('click', () => {
    const key = nextRandomKey(added);
    input.value = key;
    run(() => add(key));
  });
  byTestId('cuckoo-fill', section).addEventListener('click', () => {
    // Adds random keys until one does not fit; only that last insert is shown.
    run(async () => {
      let last: Attempt | null = null;
      for (let i = 0; i < filter.slotCount * 2; i++) {
        last = attempt(nextRandomKey(added));
        input.value = last.key;
        if (!last.stored) break;
      }
      if (last !== null) await show(last);
    });
  });
  byTestId('cuckoo-reset', section).addEventListener('click', () => {
    ++generation;
    filter.free();
    filter = new CuckooFilter(OPTIONS);
    added = [];
    buildSvg();
    draw();
    chain.replaceChildren();
    recheck.replaceChildren();
    say('Empty filter. Add keys until both candidate buckets of a key are full to see kicks.');
  });
  keyList.addEventListener('click', (event) => {
    const button = (event.target as Element).closest('button.chip-remove');
    if (!(button instanceof HTMLButtonElement)) return;
    const index = Number(button.dataset.index);
    const key = added[index];
    if (key !== undefined) run(() => remove(key, index));
  });

  buildSvg();
  draw();
  say('Empty filter. Add keys until both candidate buckets of a key are full to see kicks.');
}

function diff(before: Table, after: Table): { bucket: number; slot: number }[] {
  const changed: { bucket: number; slot: number }[] = [];
  before.forEach((slots, bucket) => slots.forEach((value, slot) => {
    if (after[bucket]![slot] !== value) changed.push({ bucket, slot });
  }));
  return changed;
}
