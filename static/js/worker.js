// The grading worker: loads Pyodide and the engine, then grades learner code on request.
// Messages from the page are tagged with `type` and `id`; each reply carries the same `id`.

let gradeJson = null; // Python: source -> report_json, the cases parsed once

// Python: parse the cases once; return the function that grades a source against them.
const GRADER = `
import json
from engine.grade import grade

def grader(cases_json):
    cases = json.loads(cases_json)
    return lambda source: json.dumps(grade(source, cases))

grader
`;

const handlers = {
  // Load Pyodide and the engine archive from this server, both at once.
  async load({ urls, cases, interrupt }) {
    const engine = fetch(urls.engine).then((response) => {
      if (!response.ok) throw new Error(`engine archive: HTTP ${response.status}`);
      return response.arrayBuffer();
    });
    engine.catch(() => {}); // awaited below; a failure is reported there, not as an unhandled rejection
    const { loadPyodide } = await import(urls.pyodide + "pyodide.mjs");
    const pyodide = await loadPyodide({ indexURL: urls.pyodide });
    if (interrupt) pyodide.setInterruptBuffer(interrupt); // the page writes 2 (SIGINT) to stop code
    pyodide.unpackArchive(await engine, "zip");
    gradeJson = pyodide.runPython(GRADER)(JSON.stringify(cases));
    return { type: "loaded" };
  },

  // Grade one source, synchronously: a fatal error throws here rather than leave a promise pending.
  // grade() catches everything learner code raises, so a throw means the runtime itself failed.
  grade({ source }) {
    if (!gradeJson) throw new Error("the runtime is not loaded yet");
    try {
      return { type: "report", report: JSON.parse(gradeJson(source)) };
    } catch (err) {
      gradeJson = null; // never trust this instance again: the page starts a fresh worker
      throw err;
    }
  },
};

// Learner code can reach this scope through `import js`; closing the worker would leave the page
// waiting for a reply that never comes, so refuse it with a clear message instead.
self.close = () => {
  throw new Error("close() is not allowed in the playground's worker");
};

// A failed load leaves some of Pyodide's parallel fetches rejected with no one awaiting them;
// the load's own error already says what failed, so keep these off the page's error console.
self.addEventListener("unhandledrejection", (event) => {
  event.preventDefault();
  console.warn("worker:", event.reason?.message ?? event.reason);
});

self.onmessage = async ({ data }) => {
  const { type, id } = data;
  try {
    const handler = handlers[type];
    if (!handler) throw new Error(`unknown message type: ${type}`);
    self.postMessage({ ...(await handler(data)), id });
  } catch (err) {
    self.postMessage({ type: "failed", id, message: String(err?.message ?? err) });
  }
};
