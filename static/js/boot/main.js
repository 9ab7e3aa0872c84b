// The page's entry: start the Python runtime at once, then load the editor and the rest of the page.
// It runs async from the <head>, maybe before the body is parsed: the worker fetches Pyodide while
// the page is laid out and the editor's bundle (page.js, preloaded) is compiled and run.

import { showLoad } from "./loading.js";
import { keepOffline } from "../hosting/offline.js";
import { $ } from "../shared/dom.js";
import { Runtime } from "../runtime/runtime.js";

const config = JSON.parse($("config").textContent);

const absolute = (url) => new URL(url, document.baseURI).href;
const urls = Object.fromEntries(Object.entries(config.urls).map(([k, v]) => [k, absolute(v)]));

const parsed = new Promise((resolve) =>
  document.readyState === "loading" ? document.addEventListener("DOMContentLoaded", resolve) : resolve(),
);

let load = null; // the status line, progress bar and Retry: loading.js, once the body is parsed
const whenParsed = (show) => parsed.then(() => show((load ??= showLoad(runtime))));

const runtime = new Runtime(
  { ...config, urls },
  {
    onState: (state, detail) => whenParsed((view) => view.state(state, detail)),
    onNext: (state, python) => whenParsed((view) => view.next(state, python)),
    onProgress: (received, expected) => load?.progress(received, expected), // none before the body is there
  },
);
runtime.start().catch(() => {}); // reported on the page by onState; callers see window.playground.ready reject
// The service worker that keeps this build's files for the next visit, offline too (offline.js).
runtime.loaded.then(() => keepOffline(config.serviceWorker && absolute(config.serviceWorker)));

Promise.all([import("../page/page.js"), parsed])
  .then(([{ startPage }]) => startPage({ config, runtime }))
  .catch((err) => {
    const status = $("runtime-status");
    status.dataset.state = "failed";
    status.textContent = `The editor could not load (${err.message}). Reload the page to try again.`;
  });
