// The demo's service worker: lets a visitor reload the page offline. build.mjs fills in
// the version (a hash of the built files) and the file list.
//
// Network first, the cache as the fallback: online, a visitor always gets the newest list
// (a stale blocklist is exactly what the verdict warns about); offline, the last copy.
// Every successful response refreshes the cache.
const VERSION = '__VERSION__';
const CACHE = `cbw-demo-${VERSION}`;
const ASSETS = ['__ASSETS__'];

self.addEventListener('install', (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(ASSETS)).then(() => self.skipWaiting()));
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
