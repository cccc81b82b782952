// Everything below the URL checker, loaded as its own chunk when the visitor goes there
// (main.ts): the filter's numbers and comparison, the playgrounds, the tune panel, your own
// list, the lab. These build and draw filters, so they load the full library
// (`cuckoo-bloom-wasm/small` and core.small.wasm); the checker runs on the reader.
import { FILTER_TYPES, init, isInitialized, UrlBlocklist } from 'cuckoo-bloom-wasm';
import { setupBloomDelete } from './bloom-delete.ts';
import { setupBloomView } from './bloom-view.ts';
import { setupByoList } from './byo-list.ts';
import { setupCuckooView } from './cuckoo-view.ts';
import { byTestId, describeError, formatBytes, formatInteger, h, notice, yieldToEventLoop } from './dom.ts';
import { renderComparison, renderStats } from './filter-stats.ts';
import { fetchBytes, fetchText, type Manifest } from './manifest.ts';
import { offerLab } from './lab/lab-loader.ts';
import { setupTunePanel } from './tune-panel.ts';

/**
 * Sets the parts up one at a time, yielding between them, so a Check pressed meanwhile is
 * answered at once. Nothing is inserted until everything it needs has arrived: when a file
 * cannot load (a blocked core.small.wasm, a stalled request) it throws, with the page
 * untouched, and main.ts leaves its notice and Retry in the placeholder (never empty grids,
 * never "Loading…" forever). `onReady` runs once they are set up.
 */
export async function startPage({ bytes, manifest, onReady = () => {} }: { bytes: Uint8Array; manifest: Manifest; onReady?: () => void }): Promise<void> {
  const [, , sections] = await Promise.all([isInitialized() ? null : fetchBytes('core.small.wasm').then((wasm) => init({ wasm })), loadStyles('playground.css'), fetchText('sections.html')]);
  // Section 2 (the filter's numbers, the comparison) comes with the rest (sections.html):
  // inserted, then filled in the same task, so no empty shell is ever drawn.
  insertSections(sections);
  const list = UrlBlocklist.deserialize(bytes);
  let checkerFilter: { type: string; slotCount?: number; arity?: number };
  try {
    renderStats(byTestId('filter-stats'), list, bytes.length, manifest);
    const filter = list.filter as { type: string; slotCount?: number; arity?: number };
    checkerFilter = { type: filter.type, slotCount: filter.slotCount, arity: filter.arity };
  } finally {
    list.free();
  }
  offerComparison(byTestId('comparison'), manifest, bytes);
  describeCheckerType(checkerFilter.type, manifest);
  describeCheckerFuse(checkerFilter);
  await yieldToEventLoop();
  const bloom = setupBloomView(byTestId('bloom-section'));
  await yieldToEventLoop();
  setupBloomDelete(byTestId('delete-section'));
  await yieldToEventLoop();
  const cuckoo = setupCuckooView(byTestId('cuckoo-section'));
  await yieldToEventLoop();
  setupTunePanel(byTestId('tune-section'), { bloom, cuckoo });
  await yieldToEventLoop();
  setupByoList(byTestId('byo-section'));
  offerLab(byTestId('lab-section'));
  onReady();
  document.body.dataset.playgrounds = 'ready';
}

/**
 * The comparison downloads every other filter type of the list (over 150 KB, phones
 * included), so it waits for the visitor to ask: one button, with the size it costs.
 */
function offerComparison(target: HTMLElement, manifest: Manifest, preloadedBytes: Uint8Array): void {
  const others = Object.entries(manifest.filters).filter(([type]) => type !== manifest.preloaded);
  const cost = others.reduce((sum, [, info]) => sum + (info?.bytes ?? 0), 0);
  const button = h('button', { type: 'button', 'data-testid': 'comparison-load' }, `Compare all ${formatInteger(others.length + 1)} filter types (downloads ${formatBytes(cost)})`);
  const run = async (): Promise<void> => {
    try {
      await renderComparison(target, manifest, preloadedBytes);
      document.body.dataset.comparison = 'done';
    } catch (error) {
      notice(target, 'comparison-failed', `The comparison could not load: ${describeError(error)}.`, () => void run());
    }
  };
  button.addEventListener('click', () => void run());
  target.replaceChildren(
    h('p', { class: 'detail' }, `The same list built as each of the library’s ${formatInteger(others.length + 1)} filter types, measured in this page: bytes and false positives.`),
    button,
  );
}

/**
 * Which filter answers the URL checker, beside the other static types the build made of
 * the list: its type as its bytes say, each file's bytes as build.mjs measured them (the
 * manifest), the static types as the library's registry says. Said only while it is the
 * smallest of them (the build's default; compared-types.json may name another type).
 */
function describeCheckerType(type: string, manifest: Manifest): void {
  const sentence = byTestId('checker-static-choice');
  const statics = FILTER_TYPES.flatMap((entry) => {
    const file = manifest.filters[entry.name];
    return entry.isStatic && file !== undefined ? [{ name: entry.name, label: entry.label, bytes: file.bytes }] : [];
  }).sort((a, b) => a.bytes - b.bytes);
  const checker = statics.find((entry) => entry.name === type);
  if (checker === undefined || checker.bytes > statics[0]!.bytes) {
    sentence.remove();
    return;
  }
  byTestId('checker-type').textContent = `a ${checker.label} filter`;
  byTestId('checker-static-sizes').textContent = statics.map((entry) => `${entry.label}: ${formatInteger(entry.bytes)} bytes`).join(', ');
}

/**
 * The fuse section's numbers for the checker's own filter, read from the library (the
 * slots and the slots one lookup reads), not written into the page by hand. A filter
 * without an arity (another preloaded type) has no fuse table: the sentence goes.
 */
function describeCheckerFuse(filter: { type: string; slotCount?: number; arity?: number }): void {
  const facts = byTestId('checker-fuse-facts');
  // Asked of the filter, not of its type's name: only a fuse table has an arity.
  if (filter.slotCount === undefined || filter.arity === undefined) {
    facts.remove();
    return;
  }
  byTestId('checker-fuse-slots').textContent = formatInteger(filter.slotCount);
  byTestId('checker-fuse-arity').textContent = formatInteger(filter.arity);
  if (filter.arity === 3) facts.lastChild?.remove();
}

/**
 * The later sections' markup (a same-origin file of this site), put in place of the
 * placeholder and its "these load when you scroll down" note. Focus in it ("Load them now"
 * or a Retry pressed from the keyboard) moves to the first section's heading, never to <body>.
 */
function insertSections(markup: string): void {
  const template = document.createElement('template');
  template.innerHTML = markup;
  const placeholder = byTestId('later-sections');
  const hadFocus = placeholder.contains(document.activeElement);
  const first = template.content.querySelector<HTMLElement>('h2');
  placeholder.replaceWith(template.content);
  if (hadFocus && first !== null) {
    first.tabIndex = -1;
    first.focus();
  }
}

/** The playgrounds' styles, only needed once they are drawn; a stylesheet that does not arrive in time is an error. */
function loadStyles(href: string): Promise<void> {
  const existing = document.querySelector<HTMLLinkElement>(`link[rel="stylesheet"][href="${href}"]`);
  if (existing?.sheet) return Promise.resolve();
  existing?.remove();
  return new Promise((resolve, reject) => {
    const link = h('link', { rel: 'stylesheet', href });
    const timer = setTimeout(() => reject(new Error(`could not load ${href}: no answer in 10 s`)), 10_000);
    link.addEventListener('load', () => {
      clearTimeout(timer);
      resolve();
    });
    link.addEventListener('error', () => {
      clearTimeout(timer);
      reject(new Error(`could not load ${href}`));
    });
    document.head.append(link);
  });
}
