// The web demo's entry point: loads the wasm module and the preloaded blocklist, then
// wires up the four parts of the page (check a URL, the filter, the structures, your list).
import { init, UrlBlocklist } from '../../js/src/index.ts';
import { setupBloomView } from './bloom-view.ts';
import { setupByoList } from './byo-list.ts';
import { setupCuckooView } from './cuckoo-view.ts';
import { byTestId, describeError, formatBytes, formatInteger, h } from './dom.ts';
import { renderComparison, renderStats } from './filter-stats.ts';
import { fetchBytes, loadManifest, type Manifest } from './manifest.ts';
import { attachUrlChecker } from './url-check.ts';

async function start(): Promise<void> {
  const status = byTestId('load-status');
  let list: UrlBlocklist | null = null;
  const check = attachUrlChecker(
    { form: byTestId('check-form'), input: byTestId('url-input'), output: byTestId('check-output') },
    () => list,
  );
  try {
    // init() fetches core.wasm from beside this script (app.js).
    const [manifest] = await Promise.all([loadManifest(), init()]);
    const info = manifest.filters.bloom;
    if (info === undefined) throw new Error('data/manifest.json names no Bloom filter');
    const bytes = await fetchBytes(info.file);
    list = UrlBlocklist.deserialize(bytes);
    showListInfo(manifest);
    showExamples(manifest, check);
    renderStats(byTestId('filter-stats'), list, bytes.length, manifest);
    setupBloomView(byTestId('bloom-section'));
    setupCuckooView(byTestId('cuckoo-section'));
    setupByoList(byTestId('byo-section'));
    status.textContent = `Ready: ${formatInteger(list.entryCount)} blocklist entries loaded (${formatBytes(bytes.length)} filter, WebAssembly core).`;
    document.body.dataset.ready = 'true';
    await renderComparison(byTestId('comparison'), manifest);
    document.body.dataset.comparison = 'done';
  } catch (error) {
    status.textContent = `The demo could not start: ${describeError(error)}`;
    status.classList.add('is-error');
    document.body.dataset.ready = 'error';
  }
}

function showListInfo(manifest: Manifest): void {
  const updated = manifest.updated === null ? 'date unknown' : `updated ${manifest.updated.replace('T', ' ').replace(/:\d\dZ$/, ' UTC')}`;
  byTestId('list-info').replaceChildren(
    'The list: ',
    h('a', { href: manifest.homepage, rel: 'noopener' }, manifest.title),
    ` — ${manifest.source}; ${formatInteger(manifest.lineCount)} lines, ${formatInteger(manifest.entryCount)} entries, ${updated}; licence `,
    h('a', { href: manifest.licenseUrl, rel: 'noopener' }, manifest.license),
    '. It was built into the filter with the project’s CLI when this site was built; your URL is checked in this page and sent nowhere.',
  );
}

function showExamples(manifest: Manifest, check: (url: string) => void): void {
  const container = byTestId('examples');
  const labels = { 'listed-host': 'listed host', 'listed-url': 'listed URL', ordinary: 'ordinary site' } as const;
  container.replaceChildren(
    ...manifest.examples.map((example, i) =>
      h('button', {
        type: 'button',
        class: `example example-${example.kind}`,
        'data-testid': `example-${i}`,
        'data-kind': example.kind,
        'data-url': example.url,
        'data-entry': example.entry ?? '',
        title: example.url,
      }, h('span', { class: 'example-kind' }, labels[example.kind]), ' ', shortUrl(example.url)),
    ),
  );
  container.addEventListener('click', (event) => {
    const button = (event.target as Element).closest<HTMLButtonElement>('button[data-url]');
    if (button?.dataset.url) check(button.dataset.url);
  });
}

function shortUrl(url: string): string {
  const bare = url.replace(/^https?:\/\//, '');
  return bare.length > 34 ? `${bare.slice(0, 32)}…` : bare;
}

void start();
