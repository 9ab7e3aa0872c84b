// Keep the playground for visits with no network: register the service worker (sw.js, beside the
// page; see static/js/hosting/sw.js) once the runtime is ready, so its downloads come from the HTTP cache and
// never compete with the first load. Where the server has offline use switched off (no URL), its
// sw.js is one that deletes this page's caches and unregisters itself (static/js/hosting/sw-off.js): have
// the browser fetch it now, and say "off" only once no worker is left.
// Failing is harmless: the page works as before (http on another host, a private window, a
// browser with service workers off), so it is only noted on the console.
// <html data-offline> says how it went: "kept" (this build is cached), "off" (no worker controls this
// page, and no cache of it is left), "removed" (the worker and its caches are gone, but this page was
// loaded through it, and a browser leaves a page with the worker it started with: the next visit is
// "off") or "unavailable".

import NAMES from "../shared/names.json" with { type: "json" };

const CACHE_PREFIX = NAMES.caches.files; // sw.js names its caches "<prefix><build> <page>"

// Until a worker is done with its activate handler (or was replaced).
function settled(worker) {
  return new Promise((resolve) => {
    const check = () => ["activated", "redundant"].includes(worker?.state ?? "redundant") && resolve();
    worker?.addEventListener("statechange", check);
    check();
  });
}

// home: the playground's own address (config.home), the scope sw.js has: every exercise's page is under it.
async function removeWorker(home) {
  const container = navigator.serviceWorker;
  const page = new URL(home ?? "./", location.href).href; // the scope sw.js had
  const ours = async () => {
    const registration = await container.getRegistration(page);
    return registration?.scope === page ? registration : null;
  };
  const registration = await ours();
  if (registration) {
    // The server's sw.js now removes itself: fetch it, and let it run (the browser may have done so
    // already, checking sw.js on this navigation).
    await registration.update().catch(() => {}); // already unregistered, or an older server's 404
    await settled(registration.installing ?? registration.waiting ?? registration.active);
    if (await ours()) await registration.unregister(); // it did not (an older server): do it here
  }
  const mine = (name) => name.startsWith(CACHE_PREFIX) && name.endsWith(` ${page}`);
  await Promise.all((await caches.keys()).filter(mine).map((name) => caches.delete(name)));
  if (await ours()) throw new Error("its service worker could not be removed");
  return container.controller ? "removed" : "off";
}

export async function keepOffline(url, home) {
  const done = (state) => (document.documentElement.dataset.offline = state);
  try {
    if (!("serviceWorker" in navigator)) throw new Error("this browser has no service workers here");
    if (url) {
      const registration = await navigator.serviceWorker.register(url, { updateViaCache: "none" });
      const worker = registration.installing ?? registration.waiting ?? registration.active;
      await settled(worker); // installed: the build is in the cache; or its install failed
      if (worker.state === "redundant") throw new Error("its service worker could not keep this build");
      await navigator.serviceWorker.ready;
      return done("kept");
    }
    done(await removeWorker(home));
  } catch (err) {
    done("unavailable");
    console.info(`The playground is not kept for offline use: ${err?.message ?? err}`);
  }
}
