// The playground's service worker: a learner's second visit works with the network off (the page,
// Check, the picture), and a new deploy is picked up cleanly. Rendered by server/offline.py for each
// build, served beside the page (so its scope is the page's folder) with no-cache: a new build makes
// new bytes here, and the browser installs the new worker on the next visit.
//
// What it keeps, one cache per build and page ("backprop-playground-files-<build> <page's URL>": an
// origin may host several playgrounds under different paths; "backprop-playground-snapshot" and any
// other cache are never touched):
// - every versioned file (hashed bundles and chunks, the worker bundle, static/pyodide/<version>-<hash>/,
//   engine-<hash>.zip): fetched on install (from the HTTP cache when the visit has just loaded them),
//   then served cache first; the lazy stdlib archives only once a learner's code imports them. A URL
//   always means the same bytes, so a cached copy is never stale.
// - the page: network first, so an online visit always gets the newest page; the cached copy is the
//   fallback when the network fails. A page is kept only if it names this build's versioned files.
//
// Updates, and why skipWaiting + clients.claim rather than waiting:
// - Files can only mix through the page: every other URL names its content, so a page can only ask for
//   its own build's files, and each cache holds one build's page and files together.
// - Online, a reload gets the new page from the network whichever worker is active, and the new
//   files with it (not in the old cache: they come from the network). That same navigation makes the
//   browser check sw.js; the new worker caches the whole new build, then takes over at once
//   (skipWaiting: the pages the old worker controlled, this one included; clients.claim: pages it
//   did not) and deletes the old build's cache. So one reload gets the new build, and from then on
//   it also works offline.
// - Waiting instead would keep the old worker until every tab of the playground is closed (a reload
//   does not end the wait, the old and new page overlap): offline, a learner would keep getting the
//   old build after reloading. Nothing mixes either way.
// - A tab still open on the old build asks only for old URLs: not in the new cache, they go to the
//   network, where the browser's HTTP cache holds them (immutable for a year). It never gets a new file.

const OFFLINE = {{ offline|tojson }};
const PREFIX = "backprop-playground-files-";
const PAGE = new URL("./", self.location).href; // the page is at the scope's root
const CACHE = `${PREFIX}${OFFLINE.build} ${PAGE}`;
const isOurs = (name) => name.startsWith(PREFIX) && name.endsWith(` ${PAGE}`);
const FILES = new Set(OFFLINE.files.map((url) => new URL(url, self.location).href));
const LAZY = OFFLINE.lazy.map((url) => new URL(url, self.location).href); // folders of archives kept on use

// Whether a response is this build's page: it names this build's bundles, worker, engine and Pyodide.
async function isThisBuild(response) {
  if (!response.ok) return false;
  const html = await response.clone().text();
  return OFFLINE.page.every((url) => html.includes(url));
}

// Cache this build: every file, and the page (the one the visit just loaded, when it is this build's).
async function precache() {
  const cache = await caches.open(CACHE);
  await cache.addAll([...FILES]);
  let page = await fetch(PAGE, { cache: "force-cache" });
  if (!(await isThisBuild(page))) page = await fetch(PAGE, { cache: "no-cache" });
  if (!(await isThisBuild(page))) throw new Error("the server's page is not this build's: a deploy under way?");
  await cache.put(PAGE, page);
}

self.addEventListener("install", (event) => {
  event.waitUntil(precache().then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      await self.registration.navigationPreload?.enable(); // the page's request starts with the worker
      const names = await caches.keys();
      const old = names.filter((name) => isOurs(name) && name !== CACHE);
      await Promise.all(old.map((name) => caches.delete(name)));
      await self.clients.claim();
    })(),
  );
});

function isPage(url) {
  const { origin, pathname } = new URL(PAGE);
  return url.origin === origin && (url.pathname === pathname || url.pathname === pathname + "index.html");
}

// Keep a page as the offline copy when it is this build's, and the cache is still there (caches.open
// would make it again after the page has deleted it: offline use switched off, static/js/offline.js).
async function keepPage(response) {
  if ((await isThisBuild(response)) && (await caches.has(CACHE))) await (await caches.open(CACHE)).put(PAGE, response);
}

// The page: from the network, keeping a copy; from the cache when the network fails.
async function networkFirst(event) {
  try {
    const response = (await event.preloadResponse) ?? (await fetch(event.request));
    event.waitUntil(keepPage(response.clone()));
    return response;
  } catch (err) {
    const cached = await caches.match(PAGE, { cacheName: CACHE });
    if (cached) return cached;
    throw err;
  }
}

// A versioned file: its URL names its content, so the cached copy is right for good.
async function cacheFirst(request) {
  return (await caches.match(request, { cacheName: CACHE, ignoreVary: true })) ?? fetch(request);
}

// A lazy stdlib archive (versioned too): fetched the first time a learner's code imports its module,
// kept from then on, so that import works offline on the next visit.
async function keptOnUse(request) {
  const cached = await caches.match(request, { cacheName: CACHE, ignoreVary: true });
  if (cached) return cached;
  const response = await fetch(request);
  if (response.ok && (await caches.has(CACHE))) await (await caches.open(CACHE)).put(request, response.clone());
  return response;
}

self.addEventListener("fetch", (event) => {
  const { request } = event;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  url.hash = "";
  if (request.mode === "navigate" && isPage(url)) event.respondWith(networkFirst(event));
  else if (FILES.has(url.href)) event.respondWith(cacheFirst(request));
  else if (LAZY.some((folder) => url.href.startsWith(folder))) event.respondWith(keptOnUse(request));
});
