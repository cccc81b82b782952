// The demo's service worker: lets a visitor reload the page offline. build.mjs fills in
// the version (a hash of the built files) and the file lists.
//
// Network first, the cache as the fallback: online, a visitor always gets the newest list
// (a stale blocklist is exactly what the verdict warns about); offline, the last copy.
// Every successful response refreshes the cache. Online, "network" means the browser's
// HTTP cache first: hash-named files are immutable there, the rest are revalidated (304).
//
// Nothing is downloaded twice. The page registers the worker after its first verdict, so the
// precache (ASSETS: what a URL check loads) takes its files from the HTTP cache
// (`cache: 'force-cache'`: no request, whatever their freshness). The rest of the site
// (KEPT: the playgrounds, loaded when the visitor scrolls to them; the comparison filters;
// the exact companion's index, parts and offline copy) is cached when the page fetches it
// under this worker, or kept when the page names it in a `keep` message: fetched before
// this worker controlled the page, it went through no worker, and is taken from the HTTP
// cache too. Only this build's files are kept, whatever a message names.
//
// The exact companion is what turns a filter's "maybe" into `listed` offline. It is split in
// parts (one part a maybe); once a maybe was confirmed, the page names its offline copy (all
// the parts in one file, `*.confirm.parts.<hash>.all`, named by content), which is then
// downloaded once and kept, and offline the page cuts the part it needs from it
// (src/offline.ts): after one visit that confirmed a listed URL, any other listed URL is
// confirmed offline too. A new build's worker takes over a visitor's offline copy: when an
// older cache held one, it precaches this build's (the list may have changed).
const VERSION = '__VERSION__';
const CACHE = `cbw-demo-${VERSION}`;
const ASSETS = ['__ASSETS__'];
const KEPT = ['__KEPT__'];
const OFFLINE_COPY = '__OFFLINE_COPY__';
/** Paths (relative to this worker's scope) a `keep` message may name. */
const KEEPABLE = new Set([...ASSETS, ...KEPT].map((file) => new URL(file, self.registration.scope).pathname));

self.addEventListener('install', (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      const files = (await olderCacheHeldOfflineCopy()) ? [...ASSETS, OFFLINE_COPY] : ASSETS;
      // One failed file (blocked, offline) must not keep the others from being cached.
      await Promise.allSettled(files.map((file) => cache.add(new Request(file, { cache: 'force-cache' }))));
      await self.skipWaiting();
    })(),
  );
});

/** Whether an older build's cache (deleted on activation) held an offline copy of the companion. */
async function olderCacheHeldOfflineCopy() {
  for (const name of await caches.keys()) {
    if (!name.startsWith('cbw-demo-') || name === CACHE) continue;
    const requests = await (await caches.open(name)).keys();
    if (requests.some((request) => /\.confirm\.parts\.[0-9a-f]+\.all$/.test(new URL(request.url).pathname))) return true;
  }
  return false;
}

self.addEventListener('activate', (event) => {
  // Older builds' caches go: their files no longer match this page.
  event.waitUntil(
    caches.keys()
      .then((names) => Promise.all(names.filter((name) => name.startsWith('cbw-demo-') && name !== CACHE).map((name) => caches.delete(name))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET' || new URL(request.url).origin !== self.location.origin) return;
  event.respondWith(
    fetch(request)
      .then((response) => {
        if (response.ok) {
          const copy = response.clone();
          event.waitUntil(caches.open(CACHE).then((cache) => cache.put(request, copy)));
        }
        return response;
      })
      .catch(async () => (await caches.match(request, { ignoreSearch: request.mode === 'navigate' })) ?? Response.error()),
  );
});

self.addEventListener('message', (event) => {
  const { data } = event;
  if (data === null || typeof data !== 'object' || data.type !== 'keep' || !Array.isArray(data.urls)) return;
  const urls = [...new Set(data.urls.filter((url) => {
    if (typeof url !== 'string') return false;
    try {
      const parsed = new URL(url, self.location.href);
      return parsed.origin === self.location.origin && parsed.search === '' && KEEPABLE.has(parsed.pathname);
    } catch {
      return false;
    }
  }))];
  event.waitUntil(
    caches.open(CACHE).then((cache) =>
      Promise.allSettled(urls.map(async (url) => ((await cache.match(url)) ? undefined : cache.add(new Request(url, { cache: 'force-cache' }))))),
    ),
  );
});
