// The web demo's entry point, and the only code a URL check waits for: it starts the
// filter download at once, in parallel with the wasm (both are also preloaded by
// index.html), answers checks as soon as both are in, and only then loads the rest of the
// page (playgrounds, tune panel, comparison, your own list) as a separate chunk.
// The check runs on `cuckoo-bloom-wasm/reader` (read and match only, core.reader.wasm):
// the full library and its wasm come with the later chunk.
import { init, UrlBlocklistReader } from 'cuckoo-bloom-wasm/reader';
import { byTestId, delay, describeError, formatBytes, formatInteger, h } from './dom.ts';
import { fetchBytes, listAge, readManifest, type Manifest } from './manifest.ts';
import { attachUrlChecker, type ListDescription } from './url-check.ts';

const manifest = readManifest();
const status = byTestId('load-status');
const preloaded = manifest.filters[manifest.preloaded];

// Fetched once: these bytes are also what the comparison later measures.
const filterBytes = preloaded === undefined ? Promise.reject(new Error('the manifest names no preloaded filter')) : fetchBytes(preloaded.file);
const listReady = Promise.all([filterBytes, init()]).then(([bytes]) => UrlBlocklistReader.deserialize(bytes));
let list: UrlBlocklistReader | null = null;

const describePreloaded = (): ListDescription => {
  const { date, age, stale } = listAge(manifest);
  const refresh = manifest.refresh === null ? '' : `; the source refreshes it every ${manifest.refresh}`;
  return {
    name: 'URLhaus’s list of malicious URLs',
    copy: date === null ? 'copy of unknown date' : `copy of ${date}, ${age}${stale ? refresh : ''}`,
  };
};

let onChecked = (): void => {};
const checked = new Promise<void>((resolve) => {
  onChecked = resolve;
});

const check = attachUrlChecker(
  { form: byTestId('check-form'), input: byTestId('url-input'), output: byTestId('check-output') },
  () => list ?? listReady,
  describePreloaded,
  () => onChecked(),
);
showListInfo(manifest);
showExamples(manifest, (url) => void check(url));

listReady.then(
  async (loaded) => {
    list = loaded;
    const bytes = await filterBytes;
    status.textContent = `Ready: ${formatInteger(loaded.entryCount)} blocklist entries loaded (${formatBytes(bytes.length)} filter, WebAssembly core).`;
    document.body.dataset.ready = 'true';
    // The rest of the page after the visitor's first verdict, a scroll, or a short wait:
    // a check typed while the page loads does not queue behind the playgrounds' set-up.
    await firstOf(checked, scrolled(), delay(2500));
    await idle();
    registerServiceWorker();
    const { startPage } = await import('./page.ts');
    await startPage({ bytes, manifest });
  },
  (error: unknown) => {
    status.textContent = `The demo could not start: ${describeError(error)}`;
    status.classList.add('is-error');
    document.body.dataset.ready = 'error';
  },
).catch((error: unknown) => {
  status.textContent = `Part of the demo failed: ${describeError(error)}`;
  status.classList.add('is-error');
});

function showListInfo(info: Manifest): void {
  const { date, age } = listAge(info);
  byTestId('list-info').replaceChildren(
    'The list: ',
    h('a', { href: info.homepage, rel: 'noopener' }, info.title),
    ` — ${info.source}; ${formatInteger(info.entryCount)} entries; this copy ${date === null ? 'has no date' : `is of ${date} (${age})`}` +
      `${info.refresh === null ? '' : `, and the source refreshes it every ${info.refresh}`}; licence `,
    h('a', { href: info.licenseUrl, rel: 'noopener' }, info.license),
    '. It was built into the filter with the project’s CLI when this site was built.',
  );
}

function showExamples(info: Manifest, run: (url: string) => void): void {
  const container = byTestId('examples');
  const labels = { 'listed-host': 'listed host', 'listed-url': 'listed URL', ordinary: 'ordinary site' } as const;
  container.replaceChildren(
    ...info.examples.map((example, i) =>
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
    if (button?.dataset.url) run(button.dataset.url);
  });
}

function shortUrl(url: string): string {
  const bare = url.replace(/^https?:\/\//, '');
  return bare.length > 34 ? `${bare.slice(0, 32)}…` : bare;
}

function firstOf(...events: Promise<void>[]): Promise<void> {
  return Promise.race(events);
}

function scrolled(): Promise<void> {
  return new Promise((resolve) => addEventListener('scroll', () => resolve(), { once: true, passive: true }));
}

function idle(): Promise<void> {
  return new Promise((resolve) => {
    if ('requestIdleCallback' in window) requestIdleCallback(() => resolve(), { timeout: 1000 });
    else setTimeout(resolve, 50);
  });
}

/** Offline reloads: the worker caches what the page loaded (see sw.js). */
function registerServiceWorker(): void {
  if (!('serviceWorker' in navigator) || location.protocol === 'file:') return;
  navigator.serviceWorker.register('sw.js').catch(() => {
    // Blocked (private mode, a test harness): the page works the same, only not offline.
  });
}
