// The playground's service worker: a learner's second visit works with the network off (the page,
// Check, the picture), and a new deploy is picked up cleanly. Rendered by server/page/offline.py for each
// build, served beside the page (so its scope is the page's folder) with no-cache: a new build makes
// new bytes here, and the browser installs the new worker on the next visit.
//
// What it keeps, one cache per build and page ("backprop-playground-files-<build> <page's URL>": an
// origin may host several playgrounds under different paths; "backprop-playground-snapshot" and any
// other cache are never touched):
// - every versioned file (hashed bundles and chunks, the worker bundle, static/pyodide/<version>-<hash>/):
//   fetched on install (from the HTTP cache when the visit has just loaded them), then served from the
//   HTTP cache or the network, the kept copy when both fail (versioned, below); the lazy stdlib archives
//   kept only once a learner's code imports them. A URL always means the same bytes, so a kept copy is
//   never stale.
// - the pages (the front page and each exercise's), each with its exercise's archive
//   (engine-<hash>.zip, exercise-<id>-<hash>.zip): network first, so an online visit always gets the
//   newest page; the kept copy of that URL is the fallback when the network fails. On install: the front
//   page, the pages open then (the one that registered this worker) and those the build it replaces had
//   kept; any other page, and its archive, once it is visited. Not every exercise on install: a page
//   loads only the exercise it shows, and a first visit's worker likewise (a course of nine exercises
//   would fetch nine archives for the one the learner opened); every page the learner opened online is
//   there offline, and an update keeps them.
//
// Nothing kept is trusted blindly. Cache Storage belongs to the origin: any script of the origin can
// rewrite it (learner code, through a hole in the runtime's sandbox, say), and this worker's own
// globals do not outlive its restarts. What cannot be rewritten from the page is this script: the
// browser keeps it apart and fetches it from the server. So it carries, rendered by server/page/offline.py,
// the SHA-256 of every file's bytes as served (decoded: Cache Storage keeps the body without its
// Content-Encoding) and of the page's. A kept response is served only when its body has that digest;
// otherwise it is deleted, fetched again from the network (and kept again when that copy is right),
// and the mismatch is logged once on the console. A page is this build's exactly when its digest is
// the one rendered here: a new build, or new settings that change a page, make a new sw.js.
// Only the bodies are checked: headers a rewrite changed (a CSP dropped) cannot bring in other code,
// since the page and the files are still this build's, and the page's few inline scripts
// (server/page/first_paint.py's) are in its body, whose digest is checked.
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
const PREFIX = OFFLINE.cachePrefix;
const SCOPE = new URL("./", self.location).href; // the playground's own address: its caches are named by it
const CACHE = `${PREFIX}${OFFLINE.build} ${SCOPE}`;
const isOurs = (name) => name.startsWith(PREFIX) && name.endsWith(` ${SCOPE}`);
const absolute = (url) => new URL(url, self.location).href;
const FILES = new Set(OFFLINE.files.map(absolute));
const LAZY = OFFLINE.lazy.map(absolute); // folders of archives kept on use
// The SHA-256 (hex) of every file's body, the lazy and the exercises' archives' included, and of each page's.
const DIGESTS = new Map(Object.entries(OFFLINE.digests).map(([url, digest]) => [absolute(url), digest]));
const PAGES = Object.keys(OFFLINE.pages).map(absolute); // the front page and each exercise's
for (const [url, digest] of Object.entries(OFFLINE.pages)) DIGESTS.set(absolute(url), digest);
// The archive of the exercise each page shows (none for the front page's list): kept with its page.
const ARCHIVES = new Map(
  Object.entries(OFFLINE.archives).map(([page, archive]) => [absolute(page), absolute(archive)]),
);
const ON_USE = new Set(ARCHIVES.values());

// The page a URL shows (its folder's address, or that with index.html), or null: none of the site's.
function pageOf(url) {
  const { origin, pathname } = new URL(url);
  return PAGES.find((page) => {
    const kept = new URL(page);
    return kept.origin === origin && (kept.pathname === pathname || kept.pathname + "index.html" === pathname);
  }) ?? null;
}

async function sha256(response) {
  const digest = await crypto.subtle.digest("SHA-256", await response.clone().arrayBuffer());
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

// Whether a response is the one this build names for url: a 200 whose body has the rendered digest.
async function isRight(url, response) {
  return response.ok && DIGESTS.has(url) && (await sha256(response)) === DIGESTS.get(url);
}

const warned = new Set();

// The kept copy of url, when it is right; a wrong one is deleted (and said once), never served.
async function keptCopy(url, request = url) {
  const cached = await caches.match(request, { cacheName: CACHE, ignoreVary: true });
  if (!cached) return null;
  if (await isRight(url, cached)) return cached; // checked a clone: this one still has the same body
  if (!warned.has(url)) {
    warned.add(url);
    const what = "it was deleted, never served, and is kept again once the network brings it";
    console.warn(`The copy of ${url} kept for offline use was altered: ${what}.`);
  }
  await (await caches.open(CACHE)).delete(request, { ignoreVary: true });
  return null;
}

// Keep a response for url when it is this build's, and the cache is still there (caches.open would
// make it again after the page has deleted it: offline use switched off, hosting/offline.js).
async function keep(url, response, request = url) {
  if ((await isRight(url, response)) && (await caches.has(CACHE))) {
    await (await caches.open(CACHE)).put(request, response);
  }
}

// The pages kept on install: the front page, those open now (the visit that registered this worker) and
// those the build this one replaces had kept, so an update leaves a learner every page they had offline.
async function pagesToKeep() {
  const open = (await self.clients.matchAll({ type: "window", includeUncontrolled: true })).map((c) => c.url);
  const kept = [];
  for (const name of (await caches.keys()).filter((n) => isOurs(n) && n !== CACHE)) {
    kept.push(...(await (await caches.open(name)).keys()).map((request) => request.url));
  }
  return [...new Set([absolute(OFFLINE.front), ...open, ...kept].map(pageOf).filter(Boolean))];
}

// Cache this build: every file, and the pages to keep with their archives (the one the visit just
// loaded, when it is this build's).
async function precache() {
  const cache = await caches.open(CACHE);
  const pages = await pagesToKeep();
  const archives = pages.filter((page) => ARCHIVES.has(page)).map((page) => ARCHIVES.get(page));
  await Promise.all(
    [...FILES, ...new Set(archives)].map(async (url) => {
      let response = await fetch(url);
      if (!(await isRight(url, response))) response = await fetch(url, { cache: "reload" });
      if (!(await isRight(url, response))) throw new Error(`${url} is not this build's: a deploy under way?`);
      await cache.put(url, response);
    }),
  );
  for (const url of pages) {
    let page = await fetch(url, { cache: "force-cache" });
    if (!(await isRight(url, page))) page = await fetch(url, { cache: "no-cache" });
    if (!(await isRight(url, page))) throw new Error(`the server's page ${url} is not this build's: a deploy under way?`);
    await cache.put(url, page);
  }
}

self.addEventListener("install", (event) => {
  const failed = async (err) => {
    await caches.delete(CACHE); // what it kept before failing: nothing serves from it
    throw err;
  };
  event.waitUntil(precache().then(() => self.skipWaiting(), failed));
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

// A page: from the network, keeping a copy; from the cache, its kept copy, when the network fails.
async function networkFirst(event, page) {
  try {
    const response = (await event.preloadResponse) ?? (await fetch(event.request));
    event.waitUntil(keep(page, response.clone()));
    return response;
  } catch (err) {
    const cached = await keptCopy(page);
    if (cached) return cached;
    throw err;
  }
}

// A versioned file: its URL names its content, so the browser's HTTP cache (kept a year, immutable) or the
// network has it right, and neither can be written by a script of the page, unlike Cache Storage. So it
// comes from there: read out of Cache Storage and hashed, a returning visit's files arrived 0.1-0.3 s
// later and held up the page's own read of the kept snapshot from Cache Storage (benchmarks/frames.py).
// The kept copy, checked, is for when both fail: offline with the HTTP cache emptied, or the server gone.
// A file not kept yet (an exercise's archive on its page's first visit, a lazy archive on its first
// import, a copy deleted as altered) is kept once it has come right; a wrong kept copy is found, and deleted, the first time it is needed.
async function versioned(event, url) {
  const { request } = event;
  const kept = caches.match(request, { cacheName: CACHE, ignoreVary: true }).then(Boolean, () => true);
  let response = null;
  let failure = null;
  try {
    response = await fetch(request);
  } catch (err) {
    failure = err;
  }
  if (response?.ok) {
    if (!(await kept)) event.waitUntil(keep(url, response.clone(), request));
    return response;
  }
  const cached = await keptCopy(url, request);
  if (cached) return cached;
  if (response) return response;
  throw failure;
}

self.addEventListener("fetch", (event) => {
  const { request } = event;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  url.hash = "";
  const page = pageOf(url); // navigated to, or fetched by the page moving to it (page/course-nav.js)
  if (page) event.respondWith(networkFirst(event, page));
  else if (FILES.has(url.href) || ON_USE.has(url.href)) event.respondWith(versioned(event, url.href));
  // A lazy stdlib archive (versioned too): fetched the first time a learner's code imports its
  // module, kept from then on, so that import works offline on the next visit.
  else if (LAZY.some((folder) => url.href.startsWith(folder))) event.respondWith(versioned(event, url.href));
});
