// The page's entry: start the Python runtime at once, then load the editor and the rest of the page.
// It runs async from the <head>, maybe before the body is parsed: the worker fetches Pyodide while
// the page is laid out and the editor's bundle (page.js, preloaded) is compiled and run.

import { Runtime } from "./runtime.js";
import { keepOffline } from "./offline.js";

const config = JSON.parse(document.getElementById("config").textContent);
const $ = (id) => document.getElementById(id);

const absolute = (url) => new URL(url, document.baseURI).href;
const urls = Object.fromEntries(Object.entries(config.urls).map(([k, v]) => [k, absolute(v)]));

const parsed = new Promise((resolve) =>
  document.readyState === "loading" ? document.addEventListener("DOMContentLoaded", resolve) : resolve(),
);

let statusEl = null;
async function showState(state, detail) {
  await parsed; // the status line is in the body
  statusEl ??= $("runtime-status");
  statusEl.dataset.state = state;
  statusEl.dataset.stop = runtime.stopMode;
  const stopNote =
    runtime.stopMode === "restart"
      ? " This page is not cross-origin isolated, so Stop ends the runtime without naming the line it was running."
      : "";
  statusEl.textContent = {
    loading: "Loading the Python runtime… you can edit meanwhile.",
    ready: `Python runtime ready.${stopNote}`,
    failed: `${detail ?? "The Python runtime could not load."} Reload the page to try again.`,
  }[state];
}

// Whether the next Check starts at once ("ready") or waits for its fresh runtime ("loading").
async function showFresh(state) {
  await parsed;
  statusEl ??= $("runtime-status");
  statusEl.dataset.fresh = state;
}

const runtime = new Runtime({ ...config, urls }, showState, showFresh);
const ready = runtime.start();
ready.catch(() => {}); // reported on the page by showState; callers see the rejection
ready.then(() => keepOffline(config.serviceWorker && absolute(config.serviceWorker)), () => {});

Promise.all([import("./page.js"), parsed])
  .then(([{ startPage }]) => startPage({ config, runtime, ready }))
  .catch((err) => {
    statusEl ??= $("runtime-status");
    statusEl.dataset.state = "failed";
    statusEl.textContent = `The editor could not load (${err.message}). Reload the page to try again.`;
  });
