// The demo's service worker: lets a visitor reload the page offline. build.mjs fills in
// the version (a hash of the built files) and the file list.
//
// Network first, the cache as the fallback: online, a visitor always gets the newest list
// (a stale blocklist is exactly what the verdict warns about); offline, the last copy.
// Every successful response refreshes the cache. Online, "network" means the browser's
// HTTP cache first: hash-named files are immutable there, the rest are revalidated (304).
//
// Nothing is downloaded twice. The page registers the worker only after it has loaded its
// files, so the precache takes them from the HTTP cache (`cache: 'force-cache'`: no
// request, whatever their freshness); files loaded on demand (the comparison filters, the
// exact companion) are not precached, only cached when the page fetches them.
//
// The exact companion (the demo ships it split: `*.confirm.index` and `*.confirm.parts/NNNN`;
// any path with `.confirm` in it) is what turns a filter's "maybe" into `listed` offline. A
// first visit fetches the index and a part before this worker controls the page, so the page
// names the copies it fetched (a `keep` message) and the worker stores them from the HTTP
// cache (no second download): after one visit that confirmed a listed URL, another URL whose
// hashes fall in a part fetched then is confirmed offline too; one whose part was never
// fetched stays `possible` (the page says it could not load the part), never `clear`.
const VERSION = '__VERSION__';
const CACHE = `cbw-demo-${VERSION}`;
const ASSETS = ['__ASSETS__'];
/** The companion and its parts, by URL pattern: kept for offline use once fetched. */
const KEEP = /\.confirm(?:$|[./?-])/;

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches.open(CACHE)
      // One failed file (blocked, offline) must not keep the others from being cached.
      .then((cache) => Promise.allSettled(ASSETS.map((asset) => cache.add(new Request(asset, { cache: 'force-cache' })))))
      .then(() => self.skipWaiting()),
  );
});

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
  const urls = data.urls.filter((url) => {
    if (typeof url !== 'string') return false;
    const parsed = new URL(url, self.location.href);
    return parsed.origin === self.location.origin && KEEP.test(parsed.pathname);
  });
  event.waitUntil(
    caches.open(CACHE).then((cache) =>
      Promise.allSettled(urls.map(async (url) => ((await cache.match(url)) ? undefined : cache.add(new Request(url, { cache: 'force-cache' }))))),
    ),
  );
});
