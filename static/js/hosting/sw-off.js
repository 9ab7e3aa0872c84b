// The playground's service worker with offline use switched off (PLAYGROUND_OFFLINE=0), served by
// server/page/offline.py where sw.js was: the browser checks sw.js on every visit of a page its worker
// controls, so every learner who had the worker gets this one on their next visit online, whatever
// the page's own scripts do (a page loaded from an altered cache could not be trusted to clean up).
//
// It takes over at once (skipWaiting: a worker that waited would leave the old one serving), deletes
// this page's caches ("backprop-playground-files-<build> <page's URL>", the playground's files) and
// the stored snapshot ("backprop-playground-snapshot"), then unregisters itself. It has no fetch
// handler and claims no page: every request goes to the network, and the next visit has no worker.
// Pages it took over stay in its hands until they are left (browsers do not let a worker go of a
// page); hosting/offline.js says "removed" there, "off" once no worker controls the page.

const NAMES = {{ names|tojson }};
const PAGE = new URL("./", self.location).href; // the scope: the page's folder
const isOurs = (name) =>
  name === NAMES.snapshotCache || (name.startsWith(NAMES.cachePrefix) && name.endsWith(` ${PAGE}`));

self.addEventListener("install", () => self.skipWaiting());

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      const names = (await caches.keys()).filter(isOurs);
      await Promise.all(names.map((name) => caches.delete(name)));
      await self.registration.unregister();
    })(),
  );
});
