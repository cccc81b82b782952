// The same keys in Bloom, counting Bloom, cuckoo and binary fuse, built by the library in
// this page: each filter's bits per key (its table's bytes × 8 / keys stored) and the rate
// measured on keys never added, side by side. "Show me a caught false positive" names, for
// each filter, a key never added that it answers "maybe" for, and the exact list of keys
// that catches it.
import { BinaryFuseFilter, BloomFilter, CountingBloomFilter, CuckooFilter, type Filter, FILTER_TYPES } from 'cuckoo-bloom-wasm';
import { describeError, formatInteger, formatRate, h, yieldToEventLoop } from '../dom.ts';
import { LAB_KEY_COUNTS, LAB_PROBE_COUNT, LAB_RATES, labKeys, labProbes } from './lab-keys.mjs';

/**
 * The lab's four filters, each built from the keys by the library as a user would
 * (sized for the keys, then filled). Labels and summaries are the registry's.
 */
const LAB_BUILDERS: ((keys: string[], falsePositiveRate: number) => Filter)[] = [
  (keys, falsePositiveRate) => filled(new BloomFilter({ capacity: keys.length, falsePositiveRate }), keys),
  (keys, falsePositiveRate) => filled(new CountingBloomFilter({ capacity: keys.length, falsePositiveRate }), keys),
  (keys, falsePositiveRate) => filled(new CuckooFilter({ capacity: keys.length, falsePositiveRate }), keys),
  (keys, falsePositiveRate) => BinaryFuseFilter.from(keys, { falsePositiveRate }),
];
function filled<F extends Filter>(filter: F, keys: string[]): F {
  try {
    filter.addMany(keys);
    return filter;
  } catch (error) {
    filter.free();
    throw error;
  }
}

const registryEntry = (type: string): { label: string; summary: string } => FILTER_TYPES.find((entry) => entry.name === type) ?? { label: type, summary: '' };

/** How many false positives each filter keeps to show, one more per press. */
const KEPT_FALSE_POSITIVES = 50;

interface Measured {
  type: string;
  label: string;
  filter: Filter;
  bitsPerKey: number;
  falsePositives: number;
  /** Probes it answered "maybe" for, in probe order (the first KEPT_FALSE_POSITIVES). */
  caught: string[];
}

export function setupSideBySide(root: HTMLElement): void {
  const keysSelect = h('select', { id: 'lab-n', 'data-testid': 'lab-n' },
    ...LAB_KEY_COUNTS.map((count, i) => h('option', { value: count, selected: i === 0 }, formatInteger(count))));
  const rateSelect = h('select', { id: 'lab-rate', 'data-testid': 'lab-rate' },
    ...LAB_RATES.map((rate, i) => h('option', { value: rate, selected: i === 0 }, formatRate(rate))));
  const form = h('form', { class: 'row', 'data-testid': 'lab-form' },
    h('label', { for: 'lab-n' }, 'Keys'), keysSelect,
    h('label', { for: 'lab-rate' }, 'Target rate'), rateSelect,
    h('button', { type: 'submit', 'data-testid': 'lab-build' }, 'Build all four'));
  const status = h('p', { class: 'detail', role: 'status', 'data-testid': 'lab-status' });
  const table = h('table', { class: 'lab-table', 'data-testid': 'lab-table' },
    h('caption', { class: 'detail' }, `Bits per key: the table’s bytes × 8 ÷ keys stored. Measured: the share of ${formatInteger(LAB_PROBE_COUNT)} keys never added that the filter answers “maybe” for.`),
    h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Filter'), h('th', { scope: 'col' }, 'Bits per key'), h('th', { scope: 'col' }, 'False positives'), h('th', { scope: 'col' }, 'Measured rate'), h('th', { scope: 'col' }, 'What it is for'))));
  const body = h('tbody', {});
  table.append(body);
  const catchButton = h('button', { type: 'button', class: 'moment', 'data-testid': 'lab-catch' }, 'Show me a caught false positive');
  const caughtList = h('ul', { class: 'lab-caught', 'aria-live': 'polite', 'data-testid': 'lab-caught' });
  root.append(form, status, h('div', { class: 'table-scroll-x', tabindex: 0, role: 'region', 'aria-label': 'The four filters, measured' }, table), h('div', { class: 'row moments' }, catchButton), caughtList);

  let measured: Measured[] = [];
  let keySet = new Set<string>();
  let shown = 0;
  let building = 0;

  const build = async (): Promise<void> => {
    const run = ++building;
    const count = Number(keysSelect.value);
    const rate = Number(rateSelect.value);
    status.textContent = `Building four filters of ${formatInteger(count)} keys and looking up ${formatInteger(LAB_PROBE_COUNT)} keys never added in each…`;
    table.setAttribute('aria-busy', 'true');
    await yieldToEventLoop();
    if (run !== building) return;
    const keys = labKeys(count);
    const probes = labProbes(LAB_PROBE_COUNT);
    for (const old of measured) old.filter.free();
    measured = [];
    caughtList.replaceChildren();
    shown = 0;
    keySet = new Set(keys);
    try {
      for (const buildFilter of LAB_BUILDERS) {
        const filter = buildFilter(keys, rate);
        const answers = filter.hasMany(probes);
        const caught: string[] = [];
        let falsePositives = 0;
        answers.forEach((maybe, i) => {
          if (!maybe) return;
          falsePositives++;
          if (caught.length < KEPT_FALSE_POSITIVES) caught.push(probes[i]!);
        });
        measured.push({ type: filter.type, label: registryEntry(filter.type).label, filter, bitsPerKey: filter.bitsPerKey, falsePositives, caught });
        await yieldToEventLoop();
        if (run !== building) return;
      }
    } catch (error) {
      status.textContent = `The lab could not build its filters: ${describeError(error)}`;
      table.removeAttribute('aria-busy');
      return;
    }
    body.replaceChildren(...measured.map((row) => {
      return h('tr', {
        'data-testid': 'lab-row', 'data-type': row.type, 'data-bits-per-key': row.bitsPerKey,
        'data-false-positives': row.falsePositives, 'data-probes': LAB_PROBE_COUNT, 'data-keys': count, 'data-rate': rate,
      },
      h('th', { scope: 'row' }, row.label),
      h('td', {}, row.bitsPerKey.toFixed(2)),
      h('td', {}, `${formatInteger(row.falsePositives)} of ${formatInteger(LAB_PROBE_COUNT)}`),
      h('td', {}, `${formatRate(row.falsePositives / LAB_PROBE_COUNT)} (target ${formatRate(rate)})`),
      h('td', { class: 'detail' }, registryEntry(row.type).summary));
    }));
    table.removeAttribute('aria-busy');
    status.textContent = `The same ${formatInteger(count)} keys in each filter, sized for ${formatRate(rate)}: measured in this page.`;
    root.dataset.lab = 'built';
  };

  /** The next false positive of each filter, checked again now, and caught by the exact key list. */
  const showCaught = (): void => {
    if (measured.length === 0) return;
    const index = shown++;
    caughtList.replaceChildren(...measured.map((row) => {
      const key = row.caught[index % Math.max(1, row.caught.length)];
      if (key === undefined) return h('li', { 'data-testid': 'lab-caught-none', 'data-type': row.type }, `${row.label}: no false positive among the keys looked up.`);
      const says = row.filter.has(key);
      const listed = keySet.has(key);
      return h('li', { 'data-testid': 'lab-caught-key', 'data-type': row.type, 'data-key': key, 'data-filter-says': String(says), 'data-in-keys': String(listed) },
        `${row.label}: `, h('code', {}, key), ` was never added, yet the filter answers `, h('strong', {}, says ? '“maybe”' : '“no”'),
        `; the exact list of ${formatInteger(keySet.size)} keys ${listed ? 'holds it' : 'does not hold it'}: `,
        h('strong', {}, says && !listed ? 'a false positive, caught.' : 'no false positive here.'));
    }));
  };

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void build();
  });
  catchButton.addEventListener('click', showCaught);
  void build();
}
