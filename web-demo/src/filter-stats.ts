// "See the filter": the preloaded filter's numbers, and the same list as Bloom, blocked
// Bloom and cuckoo filters compared in the page (bytes, and false positives measured
// over random expressions that are not on the list).
import { UrlBlocklist, type BlocklistFilterType } from '../../js/src/index.ts';
import { barChart } from './bar-chart.ts';
import { formatBytes, formatDuration, formatInteger, formatRate, h, yieldToEventLoop } from './dom.ts';
import { fetchBytes, type Manifest } from './manifest.ts';

const TYPE_NAMES: Record<BlocklistFilterType, string> = {
  bloom: 'Bloom',
  'blocked-bloom': 'Blocked Bloom',
  'counting-bloom': 'Counting Bloom',
  cuckoo: 'Cuckoo',
};

export const SAMPLE_SIZE = 100_000;

/** The preloaded filter's numbers as a definition list. */
export function renderStats(target: HTMLElement, list: UrlBlocklist, wireBytes: number, manifest: Manifest): void {
  const filter = list.filter;
  const rows: [string, string, string][] = [
    ['Filter type', 'stats-type', describeType(list)],
    ['Entries', 'stats-entries', `${formatInteger(list.entryCount)} expressions from ${formatInteger(manifest.lineCount)} list lines`],
    ['Bytes on the wire', 'stats-wire-bytes', `${formatInteger(wireBytes)} B (${formatBytes(wireBytes)}); in memory ${formatInteger(list.byteLength)} B`],
    ['Bits per entry', 'stats-bits-per-entry', ((list.byteLength * 8) / list.entryCount).toFixed(1)],
    ['Target false-positive rate', 'stats-target-fpr', `${formatRate(list.falsePositiveRate)} per expression checked`],
    ['Estimated false-positive rate', 'stats-estimated-fpr', `${formatRate(filter.estimatedFalsePositiveRate)} (from the bits actually set)`],
  ];
  target.replaceChildren(
    ...rows.flatMap(([term, testId, value]) => [h('dt', {}, term), h('dd', { 'data-testid': testId }, value)]),
  );
}

function describeType(list: UrlBlocklist): string {
  const filter = list.filter;
  if (filter.type === 'bloom' && 'hashCount' in filter) {
    return `Bloom filter: ${formatInteger(filter.bitCount)} bits, ${filter.hashCount} hash probes per key`;
  }
  return TYPE_NAMES[filter.type];
}

interface Measured {
  type: BlocklistFilterType;
  wireBytes: number;
  bitsPerEntry: number;
  hits: number;
  measuredRate: number;
  estimatedRate: number;
  lookupMs: number;
}

/**
 * Loads each filter type the build made of the list, checks SAMPLE_SIZE random absent
 * expressions against each (the same ones), and draws bytes and measured rates.
 */
export async function renderComparison(target: HTMLElement, manifest: Manifest): Promise<void> {
  target.replaceChildren(h('p', { class: 'detail', 'data-testid': 'comparison-status' }, `Measuring ${formatInteger(SAMPLE_SIZE)} random absent expressions against each filter…`));
  await yieldToEventLoop();
  const probes = randomAbsentExpressions(SAMPLE_SIZE);
  const results: Measured[] = [];
  for (const [type, info] of Object.entries(manifest.filters) as [BlocklistFilterType, { file: string }][]) {
    const bytes = await fetchBytes(info.file);
    const list = UrlBlocklist.deserialize(bytes);
    try {
      list.filter.hasMany(probes.slice(0, 2000)); // warm-up, so the timing below is steady-state
      const start = performance.now();
      const answers = list.filter.hasMany(probes);
      const lookupMs = performance.now() - start;
      const hits = answers.reduce((sum, hit) => sum + (hit ? 1 : 0), 0);
      results.push({
        type,
        wireBytes: bytes.length,
        bitsPerEntry: (list.byteLength * 8) / list.entryCount,
        hits,
        measuredRate: hits / probes.length,
        estimatedRate: list.filter.estimatedFalsePositiveRate,
        lookupMs,
      });
    } finally {
      list.free();
    }
    await yieldToEventLoop();
  }
  const target_rate = manifest.falsePositiveRate;
  target.replaceChildren(
    h('div', { class: 'charts' },
      barChart({
        title: 'Bytes on the wire',
        testId: 'chart-bytes',
        bars: results.map((r) => ({ label: TYPE_NAMES[r.type], value: r.wireBytes, text: formatBytes(r.wireBytes) })),
      }),
      barChart({
        title: `False positives, ${formatInteger(SAMPLE_SIZE)} absent expressions`,
        testId: 'chart-fpr',
        bars: results.map((r) => ({ label: TYPE_NAMES[r.type], value: r.measuredRate, text: formatRate(r.measuredRate) })),
        reference: { value: target_rate, label: `target ${formatRate(target_rate)}` },
      }),
    ),
    h('div', { class: 'table-scroll' },
      h('table', { 'data-testid': 'comparison-table' },
        h('caption', {}, `The same ${formatInteger(manifest.entryCount)} entries in three filter types (built with the CLI at ${formatRate(target_rate)}), measured in this page`),
        h('thead', {}, h('tr', {}, ...['Type', 'Bytes', 'Bits/entry', 'Measured FPR', 'Estimated FPR', `${formatInteger(SAMPLE_SIZE)} lookups`].map((title) => h('th', { scope: 'col' }, title)))),
        h('tbody', {}, ...results.map((r) =>
          h('tr', { 'data-type': r.type },
            h('th', { scope: 'row' }, TYPE_NAMES[r.type]),
            h('td', {}, formatInteger(r.wireBytes)),
            h('td', {}, r.bitsPerEntry.toFixed(1)),
            h('td', { 'data-testid': `measured-fpr-${r.type}` }, `${formatRate(r.measuredRate)} (${formatInteger(r.hits)})`),
            h('td', {}, formatRate(r.estimatedRate)),
            h('td', {}, formatDuration(r.lookupMs)),
          ),
        )),
      ),
    ),
    h('p', { class: 'detail' },
      'Measured FPR counts how many random expressions (like ', h('code', {}, 'q7x2mfk0zt.example-absent.net/'),
      ') a filter wrongly reports; with ~100 expected hits the count varies by about ±10 between runs. ' +
      'Blocked Bloom trades a few more bits per entry for one cache line per lookup; cuckoo supports removal.'),
  );
}

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';
const TLDS = ['com', 'net', 'org', 'ru', 'xyz', 'info'];

/** Random host (and sometimes path) expressions, with 62+ bits of randomness each: not on any real list. */
export function randomAbsentExpressions(count: number): string[] {
  const random = new Uint8Array(count * 16);
  for (let offset = 0; offset < random.length; offset += 65536) {
    crypto.getRandomValues(random.subarray(offset, Math.min(random.length, offset + 65536)));
  }
  const out = new Array<string>(count);
  for (let i = 0; i < count; i++) {
    let label = '';
    for (let j = 0; j < 12; j++) label += ALPHABET[random[i * 16 + j]! % ALPHABET.length];
    const tld = TLDS[random[i * 16 + 12]! % TLDS.length];
    const path = random[i * 16 + 13]! & 1 ? `${label.slice(0, 4)}/${label.slice(4)}.exe` : '';
    out[i] = `${label}.example-absent.${tld}/${path}`;
  }
  return out;
}
