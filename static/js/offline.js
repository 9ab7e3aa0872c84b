// Keep the playground for visits with no network: register the service worker (sw.js, beside the
// page; see templates/sw.js) once the runtime is ready, so its downloads come from the HTTP cache and
// never compete with the first load. Where the server has offline use switched off (no URL), remove
// the worker an earlier visit registered here, and its caches.
// Failing is harmless: the page works as before (http on another host, a private window, a
// browser with service workers off), so it is only noted on the console.
// <html data-offline> says how it went: "kept" (this build is cached), "off" (removed) or "unavailable".

const CACHE_PREFIX = "backprop-playground-files-"; // templates/sw.js names its caches "<prefix><build> <page>"

export async function keepOffline(url) {
  const done = (state) => (document.documentElement.dataset.offline = state);
  try {
    if (!("serviceWorker" in navigator)) throw new Error("this browser has no service workers here");
    if (url) {
      await navigator.serviceWorker.register(url, { updateViaCache: "none" });
      await navigator.serviceWorker.ready; // installed: the build is in the cache
      return done("kept");
    }
    const page = new URL("./", location.href).href; // the scope sw.js had, beside the page
    const registration = await navigator.serviceWorker.getRegistration(page);
    if (registration?.scope === page) await registration.unregister();
    const ours = (name) => name.startsWith(CACHE_PREFIX) && name.endsWith(` ${page}`);
    await Promise.all((await caches.keys()).filter(ours).map((name) => caches.delete(name)));
    done("off");
  } catch (err) {
    done("unavailable");
    console.info(`The playground is not kept for offline use: ${err?.message ?? err}`);
  }
}
