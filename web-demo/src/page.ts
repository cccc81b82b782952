// Everything below the URL checker, loaded as its own chunk once a check can be answered:
// the filter's numbers and comparison, the playgrounds, the tune panel, your own list.
// These build and draw filters, so they load the full library (`cuckoo-bloom-wasm/small`
// and core.small.wasm) now, after the first verdict was answered by the reader.
import { init, UrlBlocklist } from 'cuckoo-bloom-wasm';
import { setupBloomDelete } from './bloom-delete.ts';
import { setupBloomView } from './bloom-view.ts';
import { setupByoList } from './byo-list.ts';
import { setupCuckooView } from './cuckoo-view.ts';
import { byTestId, h, yieldToEventLoop } from './dom.ts';
import { renderComparison, renderStats } from './filter-stats.ts';
import type { Manifest } from './manifest.ts';
import { setupTunePanel } from './tune-panel.ts';

/** Sets the parts up one at a time, yielding between them, so a Check pressed meanwhile is answered at once. */
export async function startPage({ bytes, manifest }: { bytes: Uint8Array; manifest: Manifest }): Promise<void> {
  await Promise.all([init(), loadStyles('playground.css'), loadSections('sections.html')]);
  const list = UrlBlocklist.deserialize(bytes);
  try {
    renderStats(byTestId('filter-stats'), list, bytes.length, manifest);
  } finally {
    list.free();
  }
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
  document.body.dataset.playgrounds = 'ready';
  await renderComparison(byTestId('comparison'), manifest, bytes);
  document.body.dataset.comparison = 'done';
}

/** The later sections' markup: a same-origin file of this site, put in place of the placeholder. */
async function loadSections(href: string): Promise<void> {
  const response = await fetch(new URL(href, document.baseURI));
  if (!response.ok) throw new Error(`could not load ${href}: HTTP ${response.status}`);
  const placeholder = byTestId('later-sections');
  const template = document.createElement('template');
  template.innerHTML = await response.text();
  placeholder.replaceWith(template.content);
}

/** The playgrounds' styles, only needed once they are drawn. */
function loadStyles(href: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const link = h('link', { rel: 'stylesheet', href });
    link.addEventListener('load', () => resolve());
    link.addEventListener('error', () => reject(new Error(`could not load ${href}`)));
    document.head.append(link);
  });
}
