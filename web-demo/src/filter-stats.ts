// "See the filter": the preloaded filter's numbers, and the same list in each type of
// compared-types.json compared in the page (bytes, and false positives measured over
// seeded random expressions that are not on the list).
//
// No timing column: 100,000 lookups take a few milliseconds, below what a page can time
// steadily (rankings flipped between loads). What one lookup reads is a property of the
// structure and does not flip; speed is measured properly in docs/BENCHMARKS.md.
import { filterType, UrlBlocklist, type BlocklistFilterType } from 'cuckoo-bloom-wasm';
import { barChart } from './bar-chart.ts';
import { COMPARED_TYPES, labelOf } from './compared-types.ts';
import { formatBytes, formatInteger, formatRate, h, yieldToEventLoop } from './dom.ts';
import { fetchBytes, type Manifest } from './manifest.ts';
import { seededRandom } from './seeded.mjs';

// A blocklist's rate is per URL, and each of a URL's lookups runs at that rate divided by
// about the lookups a URL makes (~1/30): a million expressions give tens of false positives
// per type, enough to compare types and to see the measured rate near its target.
export const SAMPLE_SIZE = 1_000_000;

/** The preloaded filter's numbers as a definition list. */
export function renderStats(target: HTMLElement, list: UrlBlocklist, wireBytes: number, manifest: Manifest): void {
  const filter = list.filter;
  const rows: [string, string, string][] = [
    ['Filter type', 'stats-type', describeType(list)],
    ['Entries', 'stats-entries', `${formatInteger(list.entryCount)} expressions from ${formatInteger(manifest.lineCount)} list lines`],
    ['Bytes on the wire', 'stats-wire-bytes', `${formatInteger(wireBytes)} B (${formatBytes(wireBytes)}); in memory ${formatInteger(list.byteLength)} B`],
    ['Bits per entry', 'stats-bits-per-entry', ((list.byteLength * 8) / list.entryCount).toFixed(1)],
    ['Target false-positive rate', 'stats-target-fpr', `${formatRate(list.falsePositiveRate)} per URL checked: ${formatRate(list.lookupFalsePositiveRate)} per lookup, a URL making up to ${list.lookupsPerUrl} lookups`],
    ['Estimated false-positive rate', 'stats-estimated-fpr', `${formatRate(filter.estimatedFalsePositiveRate)} per lookup (${filterType(filter.type).estimateSource.phrase})`],
  ];
  target.replaceChildren(
    ...rows.flatMap(([term, testId, value]) => [h('dt', {}, term), h('dd', { 'data-testid': testId }, value)]),
  );
  titleComparison(manifest);
}

/**
 * The comparison's heading counts the types compared, from the manifest (the types the
 * build made), not a number written in the page. The heading is the one before the
 * comparison box (index.html).
 */
function titleComparison(manifest: Manifest): void {
  const box = document.querySelector('[data-testid="comparison"]');
  const heading = document.querySelector('[data-testid="comparison-title"]') ?? box?.previousElementSibling;
  if (!(heading instanceof HTMLHeadingElement)) return;
  const count = COMPARED_TYPES.filter((compared) => manifest.filters[compared.type] !== undefined).length;
  heading.textContent = `The same list in ${count === 1 ? 'one filter type' : `${count} filter types`}`;
}

/** The type's label, with its bits and probes when it is one array of bits probed k times (by its getters, not its name). */
function describeType(list: UrlBlocklist): string {
  const filter = list.filter;
  if ('hashCount' in filter && 'bitCount' in filter) {
    return `${labelOf(filter.type)} filter: ${formatInteger(filter.bitCount)} bits, ${filter.hashCount} hash probes per key`;
  }
  return labelOf(filter.type);
}

interface Measured {
  type: BlocklistFilterType;
  wireBytes: number;
  bitsPerEntry: number;
  hits: number;
  measuredRate: number;
  estimatedRate: number;
  lookupTouches: string;
}

/**
 * Loads each filter type the build made of the list, checks SAMPLE_SIZE random absent
 * expressions against each (the same ones), and draws bytes and measured rates.
 */
export async function renderComparison(target: HTMLElement, manifest: Manifest, preloadedBytes: Uint8Array): Promise<void> {
  target.replaceChildren(h('p', { class: 'detail', 'data-testid': 'comparison-status' }, `Measuring ${formatInteger(SAMPLE_SIZE)} random absent expressions against each filter…`));
  await yieldToEventLoop();
  const probes = randomAbsentExpressions(SAMPLE_SIZE);
  const results: Measured[] = [];
  for (const compared of COMPARED_TYPES) {
    const info = manifest.filters[compared.type];
    if (info === undefined) continue;
    // The preloaded filter was downloaded once already: measure those bytes, do not fetch again.
    const bytes = compared.type === manifest.preloaded ? preloadedBytes : await fetchBytes(info.file);
    const list = UrlBlocklist.deserialize(bytes);
    try {
      const answers = list.filter.hasMany(probes);
      const hits = answers.reduce((sum, hit) => sum + (hit ? 1 : 0), 0);
      const hashCount = 'hashCount' in list.filter ? (list.filter as { hashCount: number }).hashCount : null;
      results.push({
        type: compared.type,
        wireBytes: bytes.length,
        bitsPerEntry: (list.byteLength * 8) / list.entryCount,
        hits,
        measuredRate: hits / probes.length,
        estimatedRate: list.filter.estimatedFalsePositiveRate,
        lookupTouches: hashCount === null ? compared.lookupTouches : compared.lookupTouches.replace(/^k /, `k = ${hashCount} `),
      });
    } finally {
      list.free();
    }
    await yieldToEventLoop();
  }
  const target_rate = manifest.lookupFalsePositiveRate;
  target.replaceChildren(
    h('div', { class: 'charts' },
      barChart({
        title: 'Bytes on the wire',
        testId: 'chart-bytes',
        bars: results.map((r) => ({ label: labelOf(r.type), value: r.wireBytes, text: formatBytes(r.wireBytes) })),
      }),
      barChart({
        title: `False positives per lookup, ${formatInteger(SAMPLE_SIZE)} absent expressions`,
        testId: 'chart-fpr',
        bars: results.map((r) => ({ label: labelOf(r.type), value: r.measuredRate, text: formatRate(r.measuredRate) })),
        reference: { value: target_rate, label: `target ${formatRate(target_rate)} per lookup` },
      }),
    ),
    // Focusable and labelled: on a phone the table may scroll sideways, and a keyboard user
    // must be able to scroll it too (axe: scrollable-region-focusable).
    h('div', { class: 'table-scroll', tabindex: 0, role: 'region', 'aria-labelledby': 'comparison-caption' },
      h('table', { 'data-testid': 'comparison-table' },
        h('caption', { id: 'comparison-caption' }, `The same ${formatInteger(manifest.entryCount)} entries in ${results.length} filter types (built with the CLI at ${formatRate(target_rate)}), measured in this page`),
        h('thead', {}, h('tr', {}, ...['Type', 'Bytes', 'Bits/entry', 'Measured FPR', 'Estimated FPR', 'One lookup reads'].map((title) => h('th', { scope: 'col' }, title)))),
        h('tbody', {}, ...results.map((r) =>
          h('tr', { 'data-type': r.type },
            h('th', { scope: 'row' }, labelOf(r.type)),
            h('td', {}, formatInteger(r.wireBytes)),
            h('td', {}, r.bitsPerEntry.toFixed(1)),
            h('td', { 'data-testid': `measured-fpr-${r.type}` }, `${formatRate(r.measuredRate)} (${formatInteger(r.hits)})`),
            h('td', {}, formatRate(r.estimatedRate)),
            h('td', { class: 'wrap' }, r.lookupTouches),
          ),
        )),
      ),
    ),
    h('p', { class: 'detail', 'data-testid': 'comparison-note' },
      'Measured FPR counts how many random expressions (like ', h('code', {}, 'q7x2mfk0zt.example-absent.net/'),
      `) a filter wrongly reports; the same seeded sample every load, so the counts are stable. At the target rate ${formatInteger(SAMPLE_SIZE)} lookups expect about ` +
      `${expectedHits(SAMPLE_SIZE, target_rate)} hits; another sample would move a count by about ±${spreadOfHits(SAMPLE_SIZE, target_rate)} (one standard deviation), ` +
      'so counts from 0 to twice that are all what the target predicts. Blocked Bloom trades a few more bits per entry for one cache line per lookup; ' +
      'cuckoo supports removal. Speed is not timed here: a page’s timer is too coarse for these lookups; see the benchmarks (docs/BENCHMARKS.md).'),
  );
}

/** Expected false positives among `lookups` at `rate`, rounded: the binomial mean. */
export function expectedHits(lookups: number, rate: number): number {
  return Math.round(lookups * rate);
}

/** One standard deviation of that count, √(n p (1 − p)), rounded (at least 1). */
export function spreadOfHits(lookups: number, rate: number): number {
  return Math.max(1, Math.round(Math.sqrt(lookups * rate * (1 - rate))));
}

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';
const TLDS = ['com', 'net', 'org', 'ru', 'xyz', 'info'];

/** Random host (and sometimes path) expressions from a fixed seed: not on any real list. */
export function randomAbsentExpressions(count: number, seed = 17): string[] {
  const random = seededRandom(seed);
  const pick = (items: string): string => items[Math.floor(random() * items.length)]!;
  const out = new Array<string>(count);
  for (let i = 0; i < count; i++) {
    let label = '';
    for (let j = 0; j < 12; j++) label += pick(ALPHABET);
    const tld = TLDS[Math.floor(random() * TLDS.length)];
    const path = random() < 0.5 ? `${label.slice(0, 4)}/${label.slice(4)}.exe` : '';
    out[i] = `${label}.example-absent.${tld}/${path}`;
  }
  return out;
}
