// A small real cuckoo filter drawn slot by slot. Every fingerprint shown is read back
// from the wasm filter (`slot`), the candidate buckets come from `locate`, and the
// eviction walk from `lastKickPath`; the demo only adds the other-bucket formula
// (alt-bucket.ts) to show it, and names each state: a kick, a false positive, a false
// negative after an unsafe remove, a key that is full because of its own copies.
import { CuckooFilter, type CuckooFilterOptions, type CuckooKick } from 'cuckoo-bloom-wasm';
import { fingerprintPairSum, otherBucket } from './alt-bucket.ts';
import { cellInspector, keyNames } from './cell-inspector.ts';
import { byTestId, byTestIds, formatRate, h, prefersReducedMotion, svg } from './dom.ts';
import { setupFuseExplainer } from './fuse-explainer.ts';
import { kickPlayer } from './kick-player.ts';
import { absentKeys, keySource, PLAYGROUND_KEY_SEED } from './random-keys.ts';
import { keyActions, pickedNote, sayIn, toyHandle, type Toy } from './toy.ts';

export type CuckooToyOptions = Required<Pick<CuckooFilterOptions, 'capacity' | 'bucketSize' | 'fingerprintBits'>>;
export const DEFAULT_CUCKOO: CuckooToyOptions = { capacity: 16, bucketSize: 4, fingerprintBits: 8 };
/** A failed walk is hundreds of steps: its first few show the idea. */
const MAX_DRAWN_STEPS = 12;
/** Fillings from empty tried for a walk of two or more evictions. */
const LONG_KICK_ROUNDS = 20;

// Geometry of the SVG (viewBox units): a slot, the gaps between buckets (columns) and
// between slots (rows), and the margins (the top one holds the bucket labels).
const SLOT = { width: 40, height: 26 } as const;
const GAP = { column: 8, row: 4 } as const;
const MARGIN = { left: 6, top: 62 } as const;

type Table = number[][];
const SLOT_STATES = ['is-new', 'is-kicked', 'is-cleared', 'is-found'] as const;
type SlotState = (typeof SLOT_STATES)[number];

export type CuckooToy = Toy<CuckooFilter, CuckooToyOptions>;

export function setupCuckooView(section: HTMLElement): CuckooToy {
  const { form, input, figure, output, chain, stats, keyList, recheck } = byTestIds<{
    form: HTMLFormElement; input: HTMLInputElement; figure: HTMLElement; output: HTMLElement;
    chain: HTMLElement; stats: HTMLElement; keyList: HTMLElement; recheck: HTMLElement;
  }>(section, {
    form: 'cuckoo-form', input: 'cuckoo-key', figure: 'cuckoo-table', output: 'cuckoo-output',
    chain: 'cuckoo-kick-chain', stats: 'cuckoo-stats', keyList: 'cuckoo-keys', recheck: 'cuckoo-recheck',
  });

  let options = DEFAULT_CUCKOO;
  // Packed slots (not the default semi-sorted buckets): a fingerprint keeps its slot, so
  // kicks can be drawn slot by slot.
  let filter = new CuckooFilter({ ...options, semiSorted: false });
  let added: string[] = [];
  /** Keys removed that were never added, and whom they cost: named when a check misses. */
  let unsafeRemovals: { key: string; victims: string[] }[] = [];
  let nextKey = keySource(PLAYGROUND_KEY_SEED);
  let slotRects: SVGRectElement[][] = [];
  let slotTexts: SVGTextElement[][] = [];
  let bucketRects: SVGRectElement[] = [];
  let arrows: SVGGElement = svg('g');
  let badges: SVGGElement = svg('g');
  const listeners: (() => void)[] = [];
  const changed = (): void => listeners.forEach((listener) => listener());

  const x = (bucket: number): number => MARGIN.left + bucket * (SLOT.width + GAP.column);
  const y = (slot: number): number => MARGIN.top + slot * (SLOT.height + GAP.row);
  const hex = (fingerprint: number): string => fingerprint.toString(16).padStart(Math.ceil(filter.fingerprintBits / 4), '0');
  const pairSumOf = (fingerprint: number): number => fingerprintPairSum(fingerprint, filter.bucketCount);
  const otherOf = (bucket: number, fingerprint: number): number => otherBucket(bucket, fingerprint, filter.bucketCount);

  const buildSvg = (): void => {
    const buckets = filter.bucketCount;
    const slots = filter.bucketSize;
    const width = MARGIN.left * 2 + buckets * (SLOT.width + GAP.column) - GAP.column;
    const height = MARGIN.top + slots * (SLOT.height + GAP.row) + 4;
    const root = svg('svg', {
      viewBox: `0 0 ${width} ${height}`,
      class: 'cuckoo-svg',
      role: 'img',
      'aria-label': `Cuckoo filter table: ${buckets} buckets of ${slots} slots; what happens is also written out below`,
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
    const slotLayer = svg('g');
    const textLayer = svg('g');
    arrows = svg('g', { class: 'kick-arrows', 'data-testid': 'cuckoo-arrows' });
    badges = svg('g', { class: 'kick-badges' });
    for (let b = 0; b < buckets; b++) {
      const column = svg('rect', { x: x(b) - 3, y: MARGIN.top - 18, width: SLOT.width + 6, height: slots * (SLOT.height + GAP.row) + 16, rx: 4, class: 'bucket', 'data-bucket': b });
      bucketRects.push(column);
      slotLayer.append(column, svg('text', { x: x(b) + SLOT.width / 2, y: MARGIN.top - 6, 'text-anchor': 'middle', class: 'bucket-label' }, String(b)));
      const rects: SVGRectElement[] = [];
      const texts: SVGTextElement[] = [];
      for (let s = 0; s < slots; s++) {
        const rect = svg('rect', { x: x(b), y: y(s), width: SLOT.width, height: SLOT.height, rx: 3, class: 'slot', 'data-bucket': b, 'data-slot': s });
        // The text carries its slot's state classes too (markSlot): it sits in another <g>
        // than its rect, so no sibling selector can colour it by the rect's state.
        const text = svg('text', { x: x(b) + SLOT.width / 2, y: y(s) + SLOT.height / 2 + 4, 'text-anchor': 'middle', class: 'slot-text', 'data-bucket': b, 'data-slot': s });
        rects.push(rect);
        texts.push(text);
        slotLayer.append(rect);
        textLayer.append(text);
      }
      slotRects.push(rects);
      slotTexts.push(texts);
    }
    root.append(slotLayer, textLayer, arrows, badges);
    // Slots stay readable: below this width the figure scrolls sideways (playground.css).
    root.style.setProperty('--min-width', `${Math.round(width * 0.8)}px`);
    figure.replaceChildren(root);
  };

  const clearWalk = (): void => {
    arrows.replaceChildren();
    badges.replaceChildren();
    player.clear();
  };

  const snapshot = (): Table =>
    Array.from({ length: filter.bucketCount }, (_, b) => Array.from({ length: filter.bucketSize }, (_, s) => filter.slot(b, s)));

  const lostKeys = (): Set<string> => new Set(added.filter((key) => !filter.has(key)));

  /** The table as drawn now: the filter's, or a step of a kick walk (what the inspector describes). */
  let shownTable: Table = [];

  /** Draws `table` slot by slot and clears every highlight. */
  const drawSlots = (table: Table): void => {
    shownTable = table;
    table.forEach((slots, b) =>
      slots.forEach((fingerprint, s) => {
        slotTexts[b]![s]!.textContent = fingerprint === 0 ? '' : hex(fingerprint);
        slotTexts[b]![s]!.classList.toggle('on-used', fingerprint !== 0);
        slotRects[b]![s]!.classList.toggle('is-used', fingerprint !== 0);
        for (const element of [slotRects[b]![s]!, slotTexts[b]![s]!]) element.classList.remove(...SLOT_STATES);
      }),
    );
    bucketRects.forEach((rect) => rect.classList.remove('is-candidate'));
  };

  /** A highlight on a slot: its rect and its text both carry the state (the CSS colours the text by it). */
  const markSlot = (bucket: number, slot: number, state: SlotState): void => {
    slotRects[bucket]?.[slot]?.classList.add(state);
    slotTexts[bucket]?.[slot]?.classList.add(state);
  };

  const draw = (): void => {
    drawSlots(snapshot());
    stats.textContent =
      `${filter.bucketCount} buckets × ${filter.bucketSize} slots, ${filter.fingerprintBits}-bit fingerprints (shown in hex) · ` +
      `stored ${filter.count} of ${filter.slotCount} (load ${Math.round(filter.loadFactor * 100)}%) · ` +
      `estimated false-positive rate ${formatRate(filter.estimatedFalsePositiveRate)}`;
    const lost = lostKeys();
    keyList.replaceChildren(
      ...added.map((key, i) =>
        h('li', { class: lost.has(key) ? 'is-lost' : undefined },
          // Named by its visible text (WCAG 2.5.3, label in name); what a press does is its title.
          h('button', { type: 'button', class: 'chip-key', 'data-key': key, 'aria-pressed': 'false', title: `Show the buckets of ${key}${lost.has(key) ? ' (lost: a false negative)' : ''}` },
            h('code', {}, key), lost.has(key) ? ' ✗ lost' : ''),
          h('button', { type: 'button', class: 'chip-remove', 'data-index': i, 'aria-label': `Remove ${key}`, title: `Remove ${key}` }, '×'),
        ),
      ),
    );
    changed();
    inspector.refresh();
  };

  const markCandidates = (buckets: [number, number]): void => {
    for (const b of buckets) bucketRects[b]?.classList.add('is-candidate');
  };

  const say = sayIn(output);

  const arrowPath = (from: CuckooKick, to: CuckooKick): string => {
    const x1 = x(from.bucket) + SLOT.width / 2;
    const y1 = y(from.slot) + SLOT.height / 2;
    const x2 = x(to.bucket) + SLOT.width / 2;
    const y2 = y(to.slot) + SLOT.height / 2;
    const lift = 26 + Math.abs(x2 - x1) * 0.12;
    return `M${x1},${y1} Q${(x1 + x2) / 2},${Math.min(y1, y2) - lift} ${x2},${y2}`;
  };

  // ---- The kick chain, steppable -------------------------------------------------------
  /** before: the table before the insert; candidates: the new key's two buckets, highlighted through every step. */
  let walk: { key: string; path: CuckooKick[]; failed: boolean; shown: number[]; before: Table; candidates: [number, number] } | null = null;

  /**
   * The table as it was after step `last` of the walk: each step i put path[i]'s
   * fingerprint into its slot, which held path[i + 1]'s (the one kicked next). From the
   * table before the insert, replaying steps 0..last gives each intermediate table; after
   * the last step of a successful walk it is the filter's table. (A failed walk was undone:
   * these are the tables it went through.)
   */
  const tableAt = (before: Table, path: CuckooKick[], last: number): Table => {
    const table = before.map((slots) => [...slots]);
    for (const step of path.slice(0, last + 1)) table[step.bucket]![step.slot] = step.fingerprint;
    return table;
  };

  /** The text for step i of the walk: who moves where, and why that bucket. */
  const describeStep = (path: CuckooKick[], i: number, failed: boolean, key: string): HTMLLIElement => {
    const step = path[i]!;
    const next = path[i + 1];
    const parts: (string | Node)[] = [];
    if (i === 0) {
      parts.push(`“${key}” (fingerprint ${hex(step.fingerprint)}) goes into bucket ${step.bucket}, slot ${step.slot}`);
    } else {
      const from = path[i - 1]!.bucket;
      const sum = pairSumOf(step.fingerprint);
      parts.push(`${hex(step.fingerprint)}, kicked out of bucket ${from}, moves to its other bucket: `,
        h('span', { class: 'formula', 'data-testid': 'cuckoo-alt' },
          `(h(${hex(step.fingerprint)}) − ${from}) mod ${filter.bucketCount} = (${sum} − ${from}) mod ${filter.bucketCount} = ${otherOf(from, step.fingerprint)}`),
        `, slot ${step.slot}`);
    }
    if (next !== undefined) {
      const same = next.fingerprint === step.fingerprint;
      parts.push(same ? ` — that slot held another copy of ${hex(next.fingerprint)} (the same fingerprint twice), which must move` : ` — that slot held ${hex(next.fingerprint)}, which must move`);
    } else if (!failed) parts.push(' — a free slot: done ✓');
    // data-bucket is where the filter put it; data-formula-bucket what (h(fp) − i₁) mod m gives (the tests compare them).
    const formulaBucket = i === 0 ? step.bucket : otherOf(path[i - 1]!.bucket, step.fingerprint);
    return h('li', { value: i + 1, 'data-testid': 'cuckoo-kick-step', 'data-bucket': step.bucket, 'data-formula-bucket': formulaBucket }, ...parts);
  };

  /**
   * Step `position` of the walk. A failed walk has one position more than its drawn steps:
   * the filter undid every move, so its last position draws the filter's own table again
   * (the one before the insert), never a table the filter does not hold.
   */
  const renderWalk = (position: number): void => {
    if (walk === null) return;
    const { key, path, failed, shown, before, candidates } = walk;
    const undone = failed && position >= shown.length;
    const last = undone ? shown.length - 1 : position;
    arrows.replaceChildren();
    badges.replaceChildren();
    chain.replaceChildren();
    draw();
    if (!undone) drawSlots(tableAt(before, path, shown[position] ?? 0));
    markCandidates(candidates);
    let previous = -1;
    for (const i of shown.slice(0, last + 1)) {
      const step = path[i]!;
      if (previous >= 0 && i > previous + 1) chain.append(h('li', { class: 'more' }, `… ${i - previous - 1} more evictions not drawn …`));
      if (previous >= 0 && i === previous + 1) {
        const from = path[previous]!;
        arrows.append(svg('path', {
          d: arrowPath(from, step),
          class: failed ? 'kick-arrow kick-arrow-failed' : 'kick-arrow',
          'marker-end': failed ? 'url(#kick-head-failed)' : 'url(#kick-head)',
          'data-testid': 'cuckoo-kick-arrow',
        }, svg('title', {}, `${hex(step.fingerprint)} moves from bucket ${from.bucket} to bucket ${step.bucket}`)));
      }
      if (undone) {
        chain.append(describeStep(path, i, failed, key));
        previous = i;
        continue;
      }
      badges.append(
        svg('circle', { cx: x(step.bucket) + SLOT.width - 3, cy: y(step.slot) + 3, r: 7, class: failed ? 'kick-badge kick-badge-failed' : 'kick-badge' }),
        svg('text', { x: x(step.bucket) + SLOT.width - 3, y: y(step.slot) + 6, 'text-anchor': 'middle', class: 'kick-badge-text' }, String(i + 1)),
      );
      markSlot(step.bucket, step.slot, i === 0 ? 'is-new' : 'is-kicked');
      chain.append(describeStep(path, i, failed, key));
      previous = i;
    }
    // The fingerprint this step kicked out is in no slot until the next step places it: drawn
    // above the bucket it left, so no fingerprint vanishes between two steps.
    const current = shown[last];
    if (!undone && current !== undefined && current + 1 < path.length) {
      const step = path[current]!;
      const out = path[current + 1]!.fingerprint;
      badges.append(svg('g', { class: 'in-hand', 'data-testid': 'cuckoo-in-hand', 'data-fingerprint': hex(out), 'data-bucket': step.bucket },
        svg('title', {}, `${hex(out)} was kicked out of bucket ${step.bucket}, slot ${step.slot}, and is in no slot until the next step`),
        svg('rect', { x: x(step.bucket), y: 4, width: SLOT.width, height: 20, rx: 3, class: 'in-hand-box' }),
        svg('text', { x: x(step.bucket) + SLOT.width / 2, y: 18, 'text-anchor': 'middle', class: 'in-hand-text' }, `↑${hex(out)}`)));
    }
    if (undone) {
      if (path.length > shown.length) chain.append(h('li', { class: 'more' }, `… ${path.length - shown.length} more evictions not drawn`));
      chain.append(h('li', { class: 'undone', 'data-testid': 'cuckoo-undone' },
        `After ${path.length} evictions the filter gave up and undid every move: the table drawn is the filter’s again, as before the insert, and nothing was lost.`));
    }
  };

  const player = kickPlayer(section, renderWalk);

  const startWalk = (attempted: Attempt, failed: boolean, paused = false): void => {
    const { key, path, before, located } = attempted;
    const indexes = path.map((_, i) => i);
    const shown = path.length <= MAX_DRAWN_STEPS ? indexes : failed ? indexes.slice(0, MAX_DRAWN_STEPS) : [...indexes.slice(0, MAX_DRAWN_STEPS - 1), path.length - 1];
    walk = { key, path, failed, shown, before, candidates: located.buckets };
    // A failed walk ends on one more position: every move undone, the filter's table.
    const positions = shown.length + (failed ? 1 : 0);
    player.load(positions, prefersReducedMotion() ? 'end' : paused ? 'paused' : 'play');
    if (positions <= 1) renderWalk(0);
  };

  // ---- Operations ----------------------------------------------------------------------
  interface Attempt {
    key: string;
    located: { buckets: [number, number]; fingerprint: number };
    before: Table;
    stored: boolean;
    path: CuckooKick[];
  }

  const attempt = (key: string): Attempt => {
    const located = filter.locate(key);
    const before = snapshot();
    const stored = filter.tryAdd(key);
    const path = filter.lastKickPath();
    if (stored) added.push(key);
    return { key, located, before, stored, path };
  };

  /** Copies of `fingerprint` in the two buckets: a key can be stored at most 2 × bucketSize times. */
  const copiesIn = (buckets: [number, number], fingerprint: number): number =>
    buckets.reduce((sum, b) => sum + snapshot()[b]!.filter((value) => value === fingerprint).length, 0);

  const show = (attempted: Attempt, paused = false): void => {
    const { key, located, before, stored, path } = attempted;
    walk = null;
    recheck.replaceChildren();
    clearWalk();
    draw();
    markCandidates(located.buckets);
    const candidates = `buckets ${located.buckets[0]} and ${located.buckets[1]} ((h(${hex(located.fingerprint)}) − ${located.buckets[0]}) mod ${filter.bucketCount} = ${located.buckets[1]})`;
    if (!stored) {
      const copies = copiesIn(located.buckets, located.fingerprint);
      const ownCopies = copies === 2 * filter.bucketSize;
      output.replaceChildren(
        h('div', { class: 'verdict verdict-hit', 'data-testid': 'cuckoo-full', 'data-reason': ownCopies ? 'copies' : 'load' },
          h('strong', {}, ownCopies ? 'No room for another copy: ' : 'Full: '), h('code', {}, key), ' was not stored; the table is unchanged.',
          h('p', {}, ownCopies
            ? `Its ${candidates} already hold ${copies} copies of its fingerprint ${hex(located.fingerprint)}. A cuckoo filter stores one key at most 2 × bucketSize = ${2 * filter.bucketSize} times, ` +
              `because a fingerprint can only live in those two buckets; kicking one copy out just moves it to the other bucket. Other keys still fit (load ${Math.round(filter.loadFactor * 100)}%).`
            : `Its fingerprint ${hex(located.fingerprint)} and every fingerprint it kicked had both buckets full, ${path.length} times in a row, at load ${Math.round(filter.loadFactor * 100)}% ` +
              `(${filter.count} of ${filter.slotCount} slots). Cuckoo tables with ${filter.bucketSize} slots a bucket fill to about ${filter.bucketSize === 2 ? 84 : filter.bucketSize === 4 ? 95 : 98}% before this happens.`)),
      );
      showRecheck();
      if (path.length > 0) startWalk(attempted, true, paused);
      return;
    }
    if (path.length === 0) {
      const landed = diffTables(before, snapshot())[0];
      if (landed) markSlot(landed.bucket, landed.slot, 'is-new');
      chain.replaceChildren(h('li', { class: 'no-kicks' }, 'No kicks: one of the two candidate buckets had a free slot.'));
      say('Added ', h('code', {}, key), `: fingerprint ${hex(located.fingerprint)}, ${candidates}` + (landed ? ` → stored in bucket ${landed.bucket}, slot ${landed.slot}.` : '.'));
      return;
    }
    output.replaceChildren(h('p', { 'data-testid': 'cuckoo-kicked' }, 'Added ', h('code', {}, key), `: fingerprint ${hex(located.fingerprint)}, ${candidates} — both were full, so it kicked a fingerprint out (${path.length - 1} eviction${path.length > 2 ? 's' : ''}). Step through the chain:`));
    startWalk(attempted, false, paused);
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
    walk = null;
    recheck.replaceChildren();
    const located = filter.locate(key);
    const before = snapshot();
    const lostBefore = lostKeys();
    const removed = filter.remove(key);
    const i = index ?? added.indexOf(key);
    if (removed && i >= 0) added.splice(i, 1);
    clearWalk();
    chain.replaceChildren();
    draw();
    markCandidates(located.buckets);
    if (!removed) {
      say('Nothing removed: fingerprint ', h('code', {}, hex(located.fingerprint)), ` is in neither bucket ${located.buckets[0]} nor ${located.buckets[1]}.`);
      return;
    }
    const cleared = diffTables(before, snapshot())[0];
    if (cleared) markSlot(cleared.bucket, cleared.slot, 'is-cleared');
    const where = cleared ? ` from bucket ${cleared.bucket}, slot ${cleared.slot}` : '';
    if (i >= 0) {
      say('Removed ', h('code', {}, key), `: one copy of fingerprint ${hex(located.fingerprint)} cleared${where}.`);
      return;
    }
    // Never added: the fingerprint it matched belonged to another key, which is now lost.
    const victims = [...lostKeys()].filter((lost) => !lostBefore.has(lost));
    unsafeRemovals.push({ key, victims });
    output.replaceChildren(
      h('div', { class: 'verdict verdict-hit', 'data-testid': 'cuckoo-unsafe' },
        h('strong', {}, 'Unsafe remove: '), h('code', {}, key), ` was never added, but its fingerprint ${hex(located.fingerprint)} was in bucket ${cleared?.bucket ?? '?'}, so the filter cleared it${where}. `,
        victims.length > 0
          ? h('span', {}, 'That copy belonged to ', ...victims.flatMap((victim, n) => [n > 0 ? ', ' : '', h('code', { 'data-testid': 'cuckoo-victim' }, victim)]), ': checking it now gives a false negative. Only remove keys you added.')
          : 'Another stored key with the same fingerprint still has a copy, so nothing is lost yet. Only remove keys you added.'),
    );
  };

  const check = (key: string): void => {
    walk = null;
    const located = filter.locate(key);
    const present = filter.has(key);
    clearWalk();
    draw();
    markCandidates(located.buckets);
    for (const b of located.buckets) {
      for (let s = 0; s < filter.bucketSize; s++) if (filter.slot(b, s) === located.fingerprint) markSlot(b, s, 'is-found');
    }
    const where = `fingerprint ${hex(located.fingerprint)}, buckets ${located.buckets[0]} and ${located.buckets[1]}`;
    if (!present && added.includes(key)) {
      const cause = unsafeRemovals.find((removal) => removal.victims.includes(key));
      output.replaceChildren(
        h('div', { class: 'verdict verdict-hit', 'data-testid': 'cuckoo-false-negative' },
          h('strong', {}, 'False negative! '), h('code', {}, key), ` was added, but the filter no longer finds it (${where}: not there). `,
          cause ? h('span', {}, 'Removing ', h('code', {}, cause.key), ', which was never added, deleted its fingerprint.') : 'Its fingerprint was deleted by a remove of another key that shares it.',
          ' This is the one way a cuckoo filter misses a key: removing what was never added.'),
      );
    } else if (!present) say(h('strong', {}, 'Not added (certain): '), h('code', {}, key), ` — ${where}: not in either.`);
    else if (added.includes(key)) say(h('strong', {}, 'Possibly present: '), h('code', {}, key), ` — ${where}: found. (You added it.)`);
    else {
      const sharers = added.filter((other) => {
        const at = filter.locate(other);
        return at.fingerprint === located.fingerprint && at.buckets.some((b) => located.buckets.includes(b));
      });
      output.replaceChildren(
        h('div', { class: 'verdict verdict-hit', 'data-testid': 'cuckoo-false-positive' },
          h('strong', {}, 'False positive! '), h('code', { 'data-testid': 'cuckoo-fp-key' }, key), ` was never added, but its ${where} — `,
          sharers.length > 0
            ? h('span', {}, 'and ', ...sharers.flatMap((other, n) => [n > 0 ? ', ' : '', h('code', { 'data-testid': 'cuckoo-fp-sharer' }, other)]), ` has the same fingerprint ${hex(located.fingerprint)} in one of those buckets.`)
            : `and a stored fingerprint ${hex(located.fingerprint)} sits in one of those buckets.`,
          ` With ${filter.fingerprintBits}-bit fingerprints two keys share one with probability 1/${2 ** filter.fingerprintBits - 1}.`),
      );
    }
  };

  /** Chip tap: light a key's two buckets and its fingerprint without changing anything. */
  const highlight = (key: string): void => {
    check(key);
    for (const chip of Array.from(keyList.querySelectorAll('button.chip-key'))) chip.setAttribute('aria-pressed', String((chip as HTMLElement).dataset.key === key));
  };

  // ---- Hover, tap or arrow keys on a slot: its fingerprint and the keys that live there -----
  /** Keys added whose fingerprint is `fingerprint` and one of whose buckets is `bucket`. */
  const residentsOf = (bucket: number, fingerprint: number): string[] =>
    added.filter((key) => {
      const at = filter.locate(key);
      return at.fingerprint === fingerprint && at.buckets.includes(bucket);
    });
  const inspector = cellInspector({
    box: figure,
    info: byTestId('cuckoo-slot-info', section),
    count: () => filter.slotCount,
    cellOf: (i) => slotRects[Math.floor(i / filter.bucketSize)]?.[i % filter.bucketSize],
    indexOf: (element) => {
      const { bucket, slot } = (element as SVGElement).dataset;
      return bucket === undefined || slot === undefined ? null : Number(bucket) * filter.bucketSize + Number(slot);
    },
    steps: () => ({ right: filter.bucketSize, down: 1 }),
    describe: (i) => {
      const bucket = Math.floor(i / filter.bucketSize);
      const slot = i % filter.bucketSize;
      const fingerprint = shownTable[bucket]?.[slot] ?? 0;
      if (fingerprint === 0) return [`Bucket ${bucket}, slot ${slot}: empty.`];
      return [`Bucket ${bucket}, slot ${slot}: fingerprint ${hex(fingerprint)}, the fingerprint of `,
        ...keyNames(residentsOf(bucket, fingerprint), 'no key added here (a key removed without being added left it)'), '.'];
    },
  });

  // ---- One-click moments -----------------------------------------------------------------
  const addUntilKick = (): void => {
    for (let i = 0; i < filter.slotCount * 2; i++) {
      const result = attempt(nextKey(added));
      input.value = result.key;
      if (!result.stored || result.path.length > 0) {
        show(result, true);
        output.append(pickedNote(`keys were added until the first one whose two buckets were both full: key ${added.length}, at load ${Math.round(filter.loadFactor * 100)}%. ` +
          `The ${i} key${i === 1 ? '' : 's'} this click added before it needed no kick; below half load most inserts need none.`));
        return;
      }
    }
    say('No kick happened before the filter filled: press Reset and try again.');
  };

  /**
   * A walk longer than one eviction, on demand: the library first moves a resident whose
   * other bucket has room, so two or more evictions in a row need a nearly full table. The
   * table is filled again from empty, with the keys of one seeded sequence after another,
   * until an insert is stored after at least two evictions.
   */
  const addUntilLongKick = (): void => {
    for (let round = 0; round < LONG_KICK_ROUNDS; round++) {
      rebuild(options);
      nextKey = keySource(PLAYGROUND_KEY_SEED + round);
      for (let i = 0; i < filter.slotCount * 2; i++) {
        const result = attempt(nextKey(added));
        input.value = result.key;
        if (!result.stored) break;
        if (result.path.length > 2) {
          show(result, true);
          output.append(pickedNote(`the table was filled from empty ${round + 1} time${round === 0 ? '' : 's'} (key sequence ${round + 1}) until an insert needed ${result.path.length - 1} evictions in a row, ` +
            `at load ${Math.round(filter.loadFactor * 100)}%: both buckets of the key and of every fingerprint it kicked were full, until one found room. Press Play or step through it.`));
          return;
        }
      }
    }
    say(`No walk of two or more evictions in ${LONG_KICK_ROUNDS} fillings with these settings: try a smaller bucket size in “Tune it”.`);
  };

  const fillToHalf = (): void => {
    while (filter.loadFactor < 0.5) {
      if (!attempt(nextKey(added)).stored) break;
    }
  };

  /** A key never added that the filter reports (its fingerprint sits in one of its buckets), and how many guesses it took. */
  const findFalsePositive = (prefix: string): { key: string; guesses: number } | null => {
    fillToHalf();
    const probes = absentKeys(200_000, prefix);
    const index = probes.findIndex((probe) => filter.has(probe));
    return index < 0 ? null : { key: probes[index]!, guesses: index + 1 };
  };

  const runFalsePositive = (): void => {
    const found = findFalsePositive('guess');
    if (found === null) return say('No false positive in 200,000 guesses (fingerprints this long rarely collide).');
    input.value = found.key;
    check(found.key);
    output.append(pickedNote(`this key is the first of ${found.guesses} guesses that the filter wrongly reports (filled to half load first). ` +
      `A key never added is reported about ${formatRate(filter.estimatedFalsePositiveRate)} of the time.`));
  };

  const runUnsafeRemove = (): void => {
    const found = findFalsePositive('stranger');
    if (found === null) return say('No key found that shares a fingerprint: add more keys first.');
    input.value = found.key;
    remove(found.key);
    output.append(pickedNote(`the worst case. Of ${found.guesses} keys never added, this is the first whose fingerprint is stored in one of its buckets; ` +
      'removing any of the others would have removed nothing.'));
  };

  // ---- Wiring ------------------------------------------------------------------------------
  const { run, withKey, withNextKey } = keyActions(input, say);
  const addAndShow = (key: string): void => show(attempt(key));
  const addTyped = withKey(addAndShow);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    addTyped();
  });
  byTestId('cuckoo-check', section).addEventListener('click', withKey(check));
  byTestId('cuckoo-remove', section).addEventListener('click', withKey((key) => remove(key)));
  byTestId('cuckoo-random', section).addEventListener('click', withNextKey(() => nextKey(added), addAndShow));
  byTestId('cuckoo-fill', section).addEventListener('click', () => {
    run(() => {
      let last: Attempt | null = null;
      for (let i = 0; i < filter.slotCount * 2; i++) {
        last = attempt(nextKey(added));
        input.value = last.key;
        if (!last.stored) break;
      }
      if (last !== null) show(last);
    });
  });
  byTestId('cuckoo-until-kick', section).addEventListener('click', () => run(addUntilKick));
  byTestId('cuckoo-long-kick', section).addEventListener('click', () => run(addUntilLongKick));
  byTestId('cuckoo-find-fp', section).addEventListener('click', () => run(runFalsePositive));
  byTestId('cuckoo-unsafe-remove', section).addEventListener('click', () => run(runUnsafeRemove));
  byTestId('cuckoo-reset', section).addEventListener('click', () => run(() => rebuild(options)));
  keyList.addEventListener('click', (event) => {
    const target = event.target as Element;
    const removeButton = target.closest('button.chip-remove');
    if (removeButton instanceof HTMLButtonElement) {
      const index = Number(removeButton.dataset.index);
      const key = added[index];
      if (key !== undefined) run(() => remove(key, index));
      return;
    }
    const chip = target.closest('button.chip-key');
    if (chip instanceof HTMLButtonElement && chip.dataset.key) {
      const key = chip.dataset.key;
      run(() => highlight(key));
      keyList.querySelector<HTMLButtonElement>(`button.chip-key[data-key="${CSS.escape(key)}"]`)?.focus();
    }
  });

  const intro = (): void =>
    say(`Empty filter: ${filter.bucketCount} buckets of ${filter.bucketSize} slots. Add keys until both buckets of a key are full to see kicks, or use “Add until a kick happens”.`);

  const rebuild = (next: CuckooToyOptions): void => {
    walk = null;
    const made = new CuckooFilter({ ...next, semiSorted: false });
    filter.free();
    filter = made;
    options = next;
    added = [];
    unsafeRemovals = [];
    nextKey = keySource(PLAYGROUND_KEY_SEED);
    buildSvg();
    player.clear();
    draw();
    chain.replaceChildren();
    recheck.replaceChildren();
    intro();
  };

  buildSvg();
  draw();
  intro();
  // The fuse explainer is the playground after this one (sections.html) and has no other
  // hook: page.ts starts this view, and this view starts it.
  setupFuseExplainer(byTestId('fuse-section'));

  return toyHandle(() => ({ filter, keyCount: added.length, options }), {
    rebuild,
    addQuietly: (key) => {
      const stored = filter.tryAdd(key);
      if (stored) added.push(key);
      return stored;
    },
    redraw: (note) => {
      walk = null;
      clearWalk();
      chain.replaceChildren();
      draw();
      if (note !== undefined) say(note);
    },
    onChange: (listener) => listeners.push(listener),
  });
}

function diffTables(before: Table, after: Table): { bucket: number; slot: number }[] {
  const changed: { bucket: number; slot: number }[] = [];
  before.forEach((slots, bucket) => slots.forEach((value, slot) => {
    if (after[bucket]![slot] !== value) changed.push({ bucket, slot });
  }));
  return changed;
}
