// The web demo's entry point, and the only code a URL check waits for: it starts the
// filter download at once, in parallel with the wasm (both are also preloaded by
// index.html) and answers checks as soon as both are in. The rest of the page (the
// filter's numbers, playgrounds, tune panel, comparison, your own list, the lab) is a
// separate chunk loaded when the visitor goes below the checker: a visit that only checks
// links downloads none of it (issue 43: the offline companion fits the first visit's budget).
// The check runs on `cuckoo-bloom-wasm/reader` (read and match only, core.reader.wasm):
// the full library and its wasm come with the later chunk.
import { init, isInitialized, UrlBlocklistReader } from 'cuckoo-bloom-wasm/reader';
import { byTestId, delay, describeError, formatBytes, formatInteger, h, notice } from './dom.ts';
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
  loadingIndex ??= fetchBytes(confirmation.index);
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
    // A part is fetched; offline (or failing) it is cut from the offline copy when the
    // worker kept one (offline.ts), else the fetch's error stands (the verdict: possible).
    // Known to be offline, the copy is read first: no request that can only fail.
    part: async (name) => {
      if (!navigator.onLine) {
        const kept = await partFromOfflineCopy(confirmation, name);
        if (kept !== null) return kept;
      }
      return fetchBytes(`${confirmation.parts}${name}`).then(
        (bytes) => {
          companionUsed = true;
          offline?.keepOfflineCopy();
          return bytes;
        },
        async (error: unknown) => (await partFromOfflineCopy(confirmation, name)) ?? Promise.reject(error),
      );
    },
  },
});

/**
 * Offline use (offline.ts, its own chunk: none of it is needed before a first verdict).
 * `companionUsed` is set by the first part fetched (a maybe confirmed): from then on the
 * worker keeps the whole companion.
 */
let companionUsed = false;
let offline: typeof import('./offline.ts') | null = null;
const loadOffline = (): Promise<typeof import('./offline.ts') | null> =>
  import('./offline.ts').then(
    (module) => (offline = module),
    () => null,
  );
/** Part `name` cut from the offline copy the worker kept, or null (offline.ts). */
async function partFromOfflineCopy(parts: NonNullable<Manifest['confirmation']>, name: string): Promise<Uint8Array | null> {
  return (await loadOffline())?.partFromOfflineCopy(parts, name) ?? null;
}

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
      // The worker after the first verdict (or the first idle moment without a check): it
      // precaches the checker's files from the HTTP cache, never fetching them again.
      afterFirstVerdictOrIdle(() => void loadOffline().then((module) => module?.registerServiceWorker(() => (companionUsed ? confirmation : null))));
      // The rest of the page when the visitor goes there, once the page is idle: a check
      // typed meanwhile does not queue behind the playgrounds' set-up.
      await visitorGoesBelowTheChecker();
      await idle();
      await startBelow(bytes);
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

/**
 * Resolves when the visitor goes below the checker: they scroll the page and the
 * playgrounds' placeholder is then well in view (its top in the upper half of the window), a
 * section link or the page's address names a later section, focus moves below the checker,
 * or "Load them now" is pressed. A scroll is required, not mere visibility: on a window
 * taller than ~1,000 px the placeholder is in view at load, and a visit that only checks
 * links must not load it (issue 29's first-visit budget). The verdict's own scrollIntoView
 * (on a phone) brings the verdict into view, not the placeholder. Called once a check can
 * be answered.
 */
let goBelow: () => void = () => {};
const wentBelow = new Promise<void>((resolve) => {
  goBelow = resolve;
});
// A reload restores the scroll position, and a verdict scrolls the page to itself: restored
// on the reloaded page, without that verdict and so shorter, the same position showed the
// placeholder, and counted as going below (a reload after a check loaded the playgrounds,
// or offline failed to). Once a verdict was shown, a reload starts at the checker, until the
// visitor goes below: from then on a reload restores their place there, and loads it.
let below = false;
void checked.then(() => {
  if (!below && 'scrollRestoration' in history) history.scrollRestoration = 'manual';
});
void wentBelow.then(() => {
  below = true;
  if ('scrollRestoration' in history) history.scrollRestoration = 'auto';
});
let watchingBelow: Promise<void> | null = null;
function visitorGoesBelowTheChecker(): Promise<void> {
  watchingBelow ??= watchBelowTheChecker();
  return watchingBelow;
}
function watchBelowTheChecker(): Promise<void> {
  const placeholder = byTestId('later-sections');
  const note = byTestId('playgrounds-waiting');
  const button = byTestId('playgrounds-load');
  // Its top in the upper half of the window: the placeholder starts just below the checker,
  // and a phone that brings the checker's last buttons to mid-screen (a tap after a thumb
  // scroll) shows the placeholder's top in the lower half, without going below.
  const placeholderReached = (): boolean => scrollY > 0 && placeholder.isConnected && placeholder.getBoundingClientRect().top < innerHeight * 0.5;
  const onScroll = (): void => {
    if (placeholderReached()) goBelow();
  };
  addEventListener('scroll', onScroll, { passive: true });
  // A reload restores its scroll position before this runs: looked at once, after the first
  // verdict (or when idle). Not now: reading scrollY lays the page out, and the verdict then
  // changes it (a forced layout of ~25 ms at 4x CPU, before the verdict, in a profile).
  afterFirstVerdictOrIdle(onScroll);
  const laterHash = (): boolean => location.hash.length > 1 && !['#check', '#top'].includes(location.hash);
  if (laterHash()) goBelow();
  addEventListener('hashchange', () => {
    if (laterHash()) goBelow();
  });
  // Focus on "Load them now" is not asking for them (pressing it is), though on a small
  // screen the scroll that brings it into view may bring the placeholder too.
  document.addEventListener('focusin', (event) => {
    const target = event.target as Element;
    if (target !== button && target.closest('#filter, #later, footer') !== null) goBelow();
  });
  button.addEventListener('click', () => goBelow());
  return wentBelow.then(() => {
    removeEventListener('scroll', onScroll);
    if (note.firstChild !== null) note.firstChild.textContent = 'Loading this filter’s numbers, the comparison and the playgrounds… ';
    button.textContent = 'Loading…';
  });
}

/**
 * Everything below the checker (page.ts, its own chunk, and the files it loads). When the
 * chunk or its files cannot load (offline and never cached, blocked, a stalled request),
 * nothing was inserted: the placeholder shows why, with a Retry (a failed dynamic import
 * is fetched again), never "Loading…" forever.
 */
async function startBelow(bytes: Uint8Array): Promise<void> {
  try {
    const { startPage } = await import('./page.ts');
    await startPage({
      bytes,
      manifest,
      // Once they are in: their files, fetched before the worker controlled the page, kept
      // for offline reloads, and the section a link or the address named brought into view.
      onReady: () => {
        offline?.keepOfflineCopy();
        const target = location.hash.length > 1 ? document.getElementById(decodeURIComponent(location.hash.slice(1))) : null;
        if (target !== null && target.closest('#check') === null) target.scrollIntoView();
      },
    });
  } catch (error) {
    const placeholder = document.querySelector<HTMLElement>('[data-testid="later-sections"]');
    if (placeholder === null) throw error; // inserted already: a defect, not a file that failed
    // "Load them now" pressed from the keyboard goes with the note: focus moves to Retry.
    const hadFocus = placeholder.contains(document.activeElement);
    notice(placeholder, 'playgrounds-failed', `The filter’s numbers and the playgrounds could not load: ${describeError(error)}. The URL checker above works without them.`, () => void startBelow(bytes));
    if (hadFocus) placeholder.querySelector('button')?.focus();
    document.body.dataset.playgrounds = 'failed';
  }
}

function idle(): Promise<void> {
  return new Promise((resolve) => {
    if ('requestIdleCallback' in window) requestIdleCallback(() => resolve(), { timeout: 1000 });
    else setTimeout(resolve, 50);
  });
}
