// The page around the runtime: editor, saved code, Check and Reset, hints, and window.playground.

import { createEditor, createViewer } from "./editor.js";
import { setupHints, setupSolution } from "./hints.js";
import { renderReport } from "./report.js";

const $ = (id) => document.getElementById(id);
const STORAGE_KEY = "backprop-playground:code";

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

export function startPage({ config, runtime, ready }) {
  const editor = createEditor($("editor"), load() ?? config.starter, { onChange: save, onCheck: () => check() });
  // The read-only engine after the editor is up: until then its plain text is shown.
  setTimeout(() => {
    createViewer($("engine-code"), $("engine-source").textContent);
    $("engine-source").remove();
  });

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
}
