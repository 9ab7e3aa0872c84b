// Checks of runtime/worker/interrupt.js, run by tests/runtime/test_interrupt.py: `node tests/runtime/interrupt.mjs <check>`.
// Prints one line of JSON with what it saw.
import { SIGINT } from "../../runtime/protocol.js";
import { takenInOneStep } from "../../runtime/worker/interrupt.js";

const checks = {
  // CPython's two steps (read, then write 0) with the page's stop landing between them.
  race() {
    const buffer = new Int32Array(new SharedArrayBuffer(4));
    const view = process.argv[3] === "plain" ? buffer : takenInOneStep(buffer);
    const first = view[0]; // Python looks: nothing yet
    Atomics.store(buffer, 0, SIGINT); // the page stops the code
    view[0] = 0; // Python clears what it read
    const next = view[0]; // Python's next look
    return { first, next, left: Atomics.load(buffer, 0) };
  },

  // The real Pyodide, given the view: a stop reaches a busy loop, and the next run is not stopped.
  async pyodide() {
    const { loadPyodide } = await import("../../node_modules/pyodide/pyodide.mjs");
    const pyodide = await loadPyodide({ indexURL: new URL("../../node_modules/pyodide/", import.meta.url).pathname });
    const buffer = new Int32Array(new SharedArrayBuffer(4));
    pyodide.setInterruptBuffer(takenInOneStep(buffer));
    pyodide.globals.set("stop", () => Atomics.store(buffer, 0, SIGINT));
    let stopped = null;
    try {
      pyodide.runPython("stop()\nwhile True:\n    pass");
    } catch (err) {
      stopped = String(err.message).trim().split("\n").pop();
    }
    return { stopped, left: Atomics.load(buffer, 0), after: pyodide.runPython("sum(range(10**6))") };
  },
};

console.log(JSON.stringify(await checks[process.argv[2]]()));
