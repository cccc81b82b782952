// The web demo's entry point, and the only code a URL check waits for: it starts the
// filter download at once, in parallel with the wasm (both are also preloaded by
// index.html), answers checks as soon as both are in, and only then loads the rest of the
// page (playgrounds, tune panel, comparison, your own list) as a separate chunk.
// The check runs on `cuckoo-bloom-wasm/reader` (read and match only, core.reader.wasm):
// the full library and its wasm come with the later chunk.
import { init, isInitialized, UrlBlocklistReader } from 'cuckoo-bloom-wasm/reader';
import { byTestId, delay, describeError, formatBytes, formatInteger, h } from './dom.ts';
import { fetchBytes, listAge, readManifest, type Manifest } from './manifest.ts';
import { attachUrlChecker, filterNoun, verdictOf, verdictsOfText } from './url-check.ts';
import type { ListDescription } from './verdict-types.ts';

const manifest = readManifest();
const status = byTestId('load-status');
const preloaded = manifest.filters[manifest.preloaded];
const confirmation = manifest.confirmation;

/**
 * The companion's index (a few hundred bytes: 16 a part), fetched after the first verdict
 * or by the first "maybe", whichever comes first. A failed fetch is forgotten, so the next
 * maybe (or Confirm again) fetches it again.
 */
let loadingIndex: Promise<Uint8Array> | null = null;
function loadIndex(): Promise<Uint8Array> {
  if (confirmation === null) return Promise.reject(new Error('the manifest names no exact companion'));
  loadingIndex ??= fetchBytes(confirmation.index).then((bytes) => {
    keepForOffline();
    return bytes;
  });
  loadingIndex.catch(() => {
    loadingIndex = null;
  });
  return loadingIndex;
}

/**
 * The filter and the reader's wasm, fetched by the page itself (each with a timeout, so a
 * stalled request fails instead of "Loading…" forever); both are preloaded by index.html.
 * A failed load is forgotten, so Retry fetches again. The filter's bytes are also what
 * the comparison later measures: fetched once.
 */
let loading: Promise<{ list: UrlBlocklistReader; bytes: Uint8Array }> | null = null;
function loadList(): Promise<{ list: UrlBlocklistReader; bytes: Uint8Array }> {
  loading ??= (async () => {
    if (preloaded === undefined) throw new Error('the manifest names no preloaded filter');
    const [bytes] = await Promise.all([fetchBytes(preloaded.file), isInitialized() ? null : fetchBytes('core.reader.wasm').then((wasm) => init({ wasm }))]);
    return { list: UrlBlocklistReader.deserialize(bytes), bytes };
  })();
  loading.catch(() => {
    loading = null;
  });
  return loading;
}
let list: UrlBlocklistReader | null = null;

const describePreloaded = (): ListDescription => ({
  name: 'URLhaus’s list of malicious URLs',
  copy: { ...listAge(manifest), refresh: manifest.refresh },
  // The parts only on a filter's "maybe", one part per maybe (most checks need none), each
  // fetched once and kept by the list; kept for offline use once fetched.
  companionParts: confirmation === null ? undefined : {
    index: loadIndex,
    part: (name) => fetchBytes(`${confirmation.parts}${name}`).then((bytes) => {
      fetchedParts.add(name);
      keepForOffline();
      completeOfflineCopy();
      return bytes;
    }),
  },
});

let onChecked = (): void => {};
const checked = new Promise<void>((resolve) => {
  onChecked = resolve;
});

const check = attachUrlChecker(
  { form: byTestId('check-form'), input: byTestId('url-input'), output: byTestId('check-output') },
  () => list ?? loadList().then((loaded) => loaded.list),
  describePreloaded,
  () => onChecked(),
);
// A check asked for by the form or a button: what a visitor reads before pasting waits for its verdict.
let asked = false;
const ask = (url: string): void => {
  asked = true;
  void check(url);
};
byTestId('check-form').addEventListener('submit', () => {
  asked = true;
});
listenToExamples(ask);
offerFalsePositive(ask);
afterFirstVerdictOrIdle(() => showListInfo(manifest));
// The companion's index after the first verdict (or when idle): a clear verdict, most of them,
// needs none of it, and a maybe fetches it itself (ensureConfirmation). Fetched ahead, a later
// maybe waits for its one part only. A failure waits for a maybe.
afterFirstVerdictOrIdle(() => void loadIndex().catch(() => {}));

// The page's own checking function, for the console and the end-to-end tests: the same
// verdict the form shows (a maybe confirmed against the companion first), as data.
Object.assign(window, {
  demo: {
    verdict: async (url: string) => verdictOf((await loadList()).list, describePreloaded(), url),
    /** Every link in a pasted text, as the form checks it. */
    verdictsOfText: async (text: string) => verdictsOfText((await loadList()).list, describePreloaded(), text),
    verdicts: async (urls: string[]) => {
      const { list: loaded } = await loadList();
      const description = describePreloaded();
      const out = [];
      for (const url of urls) out.push(await verdictOf(loaded, description, url));
      return out;
    },
  },
});

start();

function start(): void {
  status.classList.remove('is-error');
  status.textContent = 'Loading the WebAssembly core and the blocklist…';
  loadList().then(
    async ({ list: loaded, bytes }) => {
      list = loaded;
      // Named from the bytes: the checker says which filter answered, whatever type was preloaded.
      document.querySelectorAll('[data-filter-kind]').forEach((element) => {
        element.textContent = filterNoun(loaded.type);
      });
      status.textContent = `Ready: ${formatInteger(loaded.entryCount)} blocklist entries loaded (${formatBytes(bytes.length)} ${filterNoun(loaded.type)}, WebAssembly core).`;
      document.body.dataset.ready = 'true';
      // The rest of the page after the visitor's first verdict, a scroll, or a short wait:
      // a check typed while the page loads does not queue behind the playgrounds' set-up.
      await firstOf(checked, scrolled(), delay(2500));
      await idle();
      const { startPage } = await import('./page.ts');
      await startPage({ bytes, manifest });
      // After the page loaded its files: the worker caches those copies instead of fetching them again.
      registerServiceWorker();
    },
    (error: unknown) => {
      const retry = h('button', { type: 'button', class: 'secondary', 'data-testid': 'load-retry' }, 'Retry');
      retry.addEventListener('click', () => start());
      status.replaceChildren(`The list could not be loaded: ${describeError(error)} `, retry);
      status.classList.add('is-error');
      document.body.dataset.ready = 'error';
    },
  ).catch((error: unknown) => {
    status.textContent = `Part of the demo failed: ${describeError(error)}`;
    status.classList.add('is-error');
  });
}

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

/** The example buttons, written into index.html by build.mjs (drawn with the first paint, built by no script). */
function listenToExamples(run: (url: string) => void): void {
  byTestId('examples').addEventListener('click', (event) => {
    const button = (event.target as Element).closest<HTMLButtonElement>('button[data-url]');
    if (button?.dataset.url) run(button.dataset.url);
  });
}

/**
 * The teaching button beside the examples (also in index.html): an address on no list that
 * the filter answers "maybe" for, found in the page (false-positive-finder.ts); the check
 * then shows the false positive caught by the exact companion.
 */
function offerFalsePositive(run: (url: string) => void): void {
  byTestId('example-false-positive').addEventListener('click', () => {
    void (async () => {
      const { findFalsePositiveUrl } = await import('./false-positive-finder.ts');
      const url = findFalsePositiveUrl((await loadList()).list);
      if (url !== null) run(url);
    })();
  });
}

/**
 * Runs `draw` once the first verdict is on screen, or when the page is first idle if no check
 * was asked for by then: what a visitor reads before pasting never runs ahead of a verdict.
 * A check that never answers (the list failed to load) lets it run 3 s later.
 */
function afterFirstVerdictOrIdle(draw: () => void): void {
  let drawn = false;
  const once = (): void => {
    if (drawn) return;
    drawn = true;
    draw();
  };
  void checked.then(once);
  void idle().then(() => (asked ? delay(3000) : undefined)).then(once);
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

let workerRegistered = false;

/** Offline reloads: the worker caches what the page loaded (see sw.js). */
function registerServiceWorker(): void {
  if (!('serviceWorker' in navigator) || location.protocol === 'file:') return;
  navigator.serviceWorker.register('sw.js').then(
    () => {
      workerRegistered = true;
      keepForOffline();
    },
    () => {
      // Blocked (private mode, a test harness): the page works the same, only not offline.
    },
  );
}

/**
 * After the first "maybe" was confirmed (a person using the checker), the rest of the
 * companion's parts, one at a time, once the page is idle: offline, any listed URL is
 * then confirmed, not only those in the parts a check happened to fetch. Never on a visit
 * that needed no part, so the first visit's budget and the listed verdict's bytes stay as
 * they were (one part, ≤ 80 KB); ~25 parts of ≤ 2 KB for the shipped list (build.mjs splits it in parts of ~256 hashes).
 */
const fetchedParts = new Set<string>();
let completing = false;
function completeOfflineCopy(): void {
  if (completing || confirmation === null) return;
  completing = true;
  const parts = confirmation;
  setTimeout(() => {
    void (async () => {
      for (let part = 0; part < parts.partCount; part++) {
        const name = String(part).padStart(4, '0');
        if (fetchedParts.has(name)) continue;
        try {
          await fetchBytes(`${parts.parts}${name}`);
          fetchedParts.add(name);
        } catch {
          completing = false; // offline or failing: the next confirmed maybe tries again
          return;
        }
      }
      keepForOffline();
    })();
  }, 3000);
}

/**
 * Asks the worker to keep every copy of the exact companion (or of its parts) this page
 * fetched: fetched before the worker controlled the page, they went through no worker.
 * The worker takes them from the HTTP cache (see sw.js), never downloading them again.
 */
function keepForOffline(): void {
  if (!workerRegistered) return; // registration sends what was fetched until then
  const urls = performance.getEntriesByType('resource').map((entry) => entry.name).filter((name) => /\.confirm(?:$|[./?-])/.test(new URL(name).pathname));
  if (urls.length === 0) return;
  void navigator.serviceWorker.ready.then((registration) => registration.active?.postMessage({ type: 'keep', urls }));
}
