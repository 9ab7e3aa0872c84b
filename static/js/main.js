// The page: editor, saved code, runtime status, Check and Reset, and window.playground.

import { createEditor, createViewer } from "./editor.js";
import { setupHints, setupSolution } from "./hints.js";
import { renderReport } from "./report.js";
import { Runtime } from "./runtime.js";

const config = JSON.parse(document.getElementById("config").textContent);
const $ = (id) => document.getElementById(id);
const STORAGE_KEY = "backprop-playground:code";

const absolute = (url) => new URL(url, document.baseURI).href;
const urls = Object.fromEntries(Object.entries(config.urls).map(([k, v]) => [k, absolute(v)]));

function load() {
  try {
    return localStorage.getItem(STORAGE_KEY);
  } catch {
    return null; // storage blocked (private mode, sandboxed iframe): still usable, just not saved
  }
}

function save(code) {
  try {
    localStorage.setItem(STORAGE_KEY, code);
    $("saved").textContent = "Saved in this browser.";
  } catch {
    $("saved").textContent = "Could not save: this browser blocks local storage.";
  }
}

const statusEl = $("runtime-status");
function showState(state, detail) {
  statusEl.dataset.state = state;
  statusEl.dataset.stop = runtime.stopMode;
  const stopNote =
    runtime.stopMode === "restart"
      ? " This page is not cross-origin isolated, so Stop restarts the runtime (a few seconds)."
      : "";
  statusEl.textContent = {
    loading: "Loading the Python runtime… you can edit meanwhile.",
    ready: `Python runtime ready.${stopNote}`,
    failed: `${detail ?? "The Python runtime could not load."} Reload the page to try again.`,
  }[state];
}

// Start the runtime first: the worker fetches Pyodide while the editors are built.
const runtime = new Runtime({ ...config, urls }, showState);
const ready = runtime.start();
ready.catch(() => {}); // reported on the page by showState; callers see the rejection

createViewer($("engine-code"), $("engine-source").textContent);
$("engine-source").remove();

const editor = createEditor($("editor"), load() ?? config.starter, { onChange: save, onCheck: () => check() });

setupHints($("hints"));
setupSolution($("hints"), config.solution, { createViewer, editor });

const checkButton = $("check");
const stopButton = $("stop");
let queue = Promise.resolve();

// Grade source (default: the editor's code), render the report, resolve to it.
function check(source) {
  const run = queue.then(async () => {
    const code = source ?? editor.getCode();
    const fromEditor = code === editor.getCode();
    checkButton.disabled = true;
    checkButton.textContent = "Checking…";
    stopButton.hidden = false;
    try {
      const report = await runtime.grade(code);
      renderReport({ results: $("results"), verdict: $("verdict"), error: $("error"), output: $("output") }, report);
      editor.markLine(fromEditor ? report.error?.line : null);
      return report;
    } finally {
      checkButton.disabled = false;
      checkButton.textContent = "Check";
      stopButton.hidden = true;
    }
  });
  queue = run.catch(() => {});
  return run;
}

checkButton.addEventListener("click", () => check());
stopButton.addEventListener("click", () => runtime.stop("stopped"));
$("reset").addEventListener("click", () => {
  if (!confirm("Replace your code with the starter code? Your current code will be lost.")) return;
  editor.setCode(config.starter);
  editor.markLine(null);
});

window.playground = {
  ready,
  getCode: () => editor.getCode(),
  setCode: (source) => editor.setCode(String(source)),
  check,
};
