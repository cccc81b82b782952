// Offline use of the demo (issue 43): the service worker (sw.js) and what the page asks it
// to keep.
//
// A first visit fetches the checker's files before any worker runs; the worker, registered
// after the first verdict, precaches those from the HTTP cache (no second download). The
// exact companion is split in parts (one part a "maybe"); to turn a maybe into `listed`
// offline for any listed URL, not only those whose part a check happened to fetch, the page
// asks the worker to keep the whole companion once a maybe was confirmed: one file, the
// parts back to back (data/…confirm.parts.<hash>.all, written by build.mjs; one request where the
// parts are ~25). Offline, a part the network cannot give is cut from that copy: the
// manifest gives each part's length, and the library checks the part's own checksum and its
// binding to the filter, so a copy of another build is CORRUPT (the verdict: possible), never
// a wrong answer.
import type { Manifest } from './manifest.ts';

type Confirmation = NonNullable<Manifest['confirmation']>;

let workerRegistered = false;
let registering = false;
/** The companion to keep whole: set once a maybe was confirmed (main.ts), else null. */
let companionWanted: () => Confirmation | null = () => null;

/**
 * Registers sw.js once (blocked, private mode or a file: page: the page works the same, only
 * not offline); `companion` tells, whenever the page asks the worker to keep its files,
 * whether the whole companion is wanted too.
 */
export function registerServiceWorker(companion: () => Confirmation | null): void {
  companionWanted = companion;
  if (registering || !('serviceWorker' in navigator) || location.protocol === 'file:') return;
  registering = true;
  navigator.serviceWorker.register('sw.js').then(
    () => {
      workerRegistered = true;
      keepOfflineCopy();
      // A new build's worker takes the page over (clients.claim) and deletes the old cache,
      // where the old worker may have just stored what the page asked it to keep: ask again.
      navigator.serviceWorker.addEventListener('controllerchange', () => keepOfflineCopy());
    },
    () => {},
  );
}

/**
 * Asks the worker to keep, for offline reloads, every file of the site this page fetched
 * (those fetched before the worker controlled the page went through no worker; it takes
 * them from the HTTP cache) and, once a maybe was confirmed, the whole companion. Until the
 * worker is registered, registration sends the same.
 */
export function keepOfflineCopy(): void {
  if (!workerRegistered) return;
  const urls = performance.getEntriesByType('resource').map((entry) => entry.name).filter((name) => new URL(name).origin === location.origin);
  const companion = companionWanted();
  if (companion?.offlineCopy) urls.push(new URL(companion.offlineCopy, document.baseURI).href);
  void navigator.serviceWorker.ready.then((registration) => registration.active?.postMessage({ type: 'keep', urls }));
}

/**
 * Part `name` ('0007') cut from the whole companion the worker kept, or null when there is
 * none (never fetched, storage cleared, no Cache API) or its length is not this build's.
 * Reads the Cache API only: never a request.
 */
export async function partFromOfflineCopy(confirmation: Confirmation, name: string): Promise<Uint8Array | null> {
  const index = Number(name);
  if (!confirmation.offlineCopy || !confirmation.partBytes || !Number.isInteger(index) || index < 0 || index >= confirmation.partBytes.length) return null;
  if (!('caches' in globalThis)) return null;
  try {
    const response = await caches.match(new URL(confirmation.offlineCopy, document.baseURI).href);
    if (response === undefined) return null;
    const whole = new Uint8Array(await response.arrayBuffer());
    const total = confirmation.partBytes.reduce((sum, bytes) => sum + bytes, 0);
    if (whole.length !== total) return null;
    const start = confirmation.partBytes.slice(0, index).reduce((sum, bytes) => sum + bytes, 0);
    return whole.slice(start, start + confirmation.partBytes[index]!);
  } catch {
    return null;
  }
}
