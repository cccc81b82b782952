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
const VERSION = '__VERSION__';
const CACHE = `cbw-demo-${VERSION}`;
const ASSETS = ['__ASSETS__'];

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
