// The page's entry: start the Python runtime at once, then load the editor and the rest of the page.
// It runs async from the <head>, maybe before the body is parsed: the worker fetches Pyodide while
// the page is laid out and the editor's bundle (page.js, preloaded) is compiled and run.

import { showLoad } from "./loading.js";
import { keepOffline } from "../hosting/offline.js";
import { $ } from "../shared/dom.js";
import { RuntimeClient } from "../../../runtime/page/client.js";
import { followKeptLanguage } from "../page/language.js";
import { number, t } from "../shared/i18n.js";
import NAMES from "../shared/names.json" with { type: "json" };
import { read, remove, write } from "../shared/storage.js";

const config = JSON.parse($("config").textContent);

const absolute = (url) => new URL(url, document.baseURI).href;
const urls = Object.fromEntries(Object.entries(config.urls).map(([k, v]) => [k, absolute(v)]));

const parsed = new Promise((resolve) =>
  document.readyState === "loading" ? document.addEventListener("DOMContentLoaded", resolve) : resolve(),
);

let load = null; // the status line, progress bar and Retry: loading.js, once the body is parsed
let pageFailed = false; // the page's own script did not load: that is what the status line says from then on
const whenParsed = (show) => parsed.then(() => pageFailed || show((load ??= showLoad(runtime))));

const leaving = followKeptLanguage(config); // opened again in the language this learner chose before
// The runtime knows nothing of the page but what it is handed: its config, and the page's words, names and storage.
const runtime = new RuntimeClient(
  { ...config, urls },
  {
    words: { t, number },
    names: {
      runnerHello: NAMES.runnerHello,
      snapshotCache: NAMES.caches.snapshot,
      snapshotDigest: NAMES.storage.snapshot,
      snapshotRead: NAMES.snapshotRead,
    },
    storage: { read, write, remove },
  },
);
runtime.addEventListener("status", ({ detail }) => whenParsed((view) => view.show(detail)));
runtime.addEventListener("progress", ({ detail }) => load?.progress(detail.received, detail.expected)); // none before the body is there
if (!leaving) runtime.load().catch(() => {}); // shown on the page by the status event; callers see window.playground.ready reject
// The service worker that keeps this build's files for the next visit, offline too (offline.js).
runtime.loaded.then(() => keepOffline(config.serviceWorker && absolute(config.serviceWorker), config.home));

Promise.all([import("../page/page.js"), parsed])
  .then(([{ startPage, followCourse }]) => {
    let life = new AbortController(); // the page's listeners on what outlives its body, ended when it moves on
    let started = startPage({ config, runtime, signal: life.signal });
    // The next exercise of the course, inside this page: its new body's status line shows the runtime too.
    const startAgain = (args) => {
      life.abort();
      life = new AbortController();
      load = showLoad(runtime);
      load.show(runtime.status());
      started = startPage({ ...args, signal: life.signal });
    };
    followCourse({ config, runtime, startPage: startAgain, busy: () => started.busy() });
  })
  .catch(async (err) => {
    pageFailed = true;
    await parsed; // a script blocked at once fails before the body, and its status line, is there
    const status = $("runtime-status");
    status.dataset.state = "failed";
    status.textContent = t("The editor could not load ({error}). Reload the page to try again.", { error: err.message });
  });
