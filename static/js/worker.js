// The grading worker: loads Pyodide and the engine, then grades learner code on request.
// Messages from the page are tagged with `type` and `id`; each reply carries the same `id`.

let gradeJson = null; // Python: (source, cases_json) -> report_json

const handlers = {
  // Load Pyodide and the engine archive from this server.
  async load({ urls, cases }) {
    const { loadPyodide } = await import(urls.pyodide + "pyodide.mjs");
    const pyodide = await loadPyodide({ indexURL: urls.pyodide });
    const response = await fetch(urls.engine);
    if (!response.ok) throw new Error(`engine archive: HTTP ${response.status}`);
    pyodide.unpackArchive(await response.arrayBuffer(), "zip");
    const grader = pyodide.runPython(
      "import json\nfrom engine.grade import grade\n" +
        "lambda source, cases: json.dumps(grade(source, json.loads(cases)))",
    );
    const casesJson = JSON.stringify(cases);
    gradeJson = (source) => grader(source, casesJson);
    return { type: "loaded" };
  },

  // Grade one source; runPython-style synchronous call, so a fatal error cannot leave it pending.
  grade({ source }) {
    if (!gradeJson) throw new Error("the runtime is not loaded yet");
    return { type: "report", report: JSON.parse(gradeJson(source)) };
  },
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
