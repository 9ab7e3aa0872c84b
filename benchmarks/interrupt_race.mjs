// How often a stop is lost: Pyodide in a worker thread runs a busy Python loop, this thread writes
// SIGINT to the interrupt buffer at a random moment, and a stop not taken within 2 s counts as lost.
//
//     node benchmarks/interrupt_race.mjs [stops per buffer, default 200]
//
// Tried twice: the plain shared buffer (CPython reads it, then writes 0: python/cpython#157548) and
// the view the worker hands Pyodide (runtime/worker/interrupt.js: read and clear in one step).
import { Worker, isMainThread, parentPort, workerData } from "node:worker_threads";

const LOST_AFTER_MS = 2000;
const LOOP = "i = 0\nwhile True:\n    i += 1\n    str(i)";

if (isMainThread) {
  const stops = Number(process.argv[2] ?? 200);
  for (const kind of ["plain", "view"]) {
    let lost = 0;
    let runtime = await start(kind);
    for (let n = 0; n < stops; n++) {
      Atomics.store(runtime.buffer, 0, 0);
      const stopped = new Promise((resolve) => runtime.worker.once("message", resolve));
      runtime.worker.postMessage(LOOP);
      const timer = setTimeout(() => Atomics.store(runtime.buffer, 0, 2), 50 + Math.random() * 250);
      const late = new Promise((resolve) => setTimeout(() => resolve("lost"), 300 + LOST_AFTER_MS));
      if ((await Promise.race([stopped, late])) === "lost") {
        lost++;
        await runtime.worker.terminate(); // the loop never ends: a new runtime for the next stop
        runtime = await start(kind);
      }
      clearTimeout(timer);
    }
    console.log(`${kind.padEnd(5)} buffer: ${lost} of ${stops} stops lost`);
    await runtime.worker.terminate();
  }
} else {
  const { loadPyodide } = await import("../node_modules/pyodide/pyodide.mjs");
  const { takenInOneStep } = await import("../runtime/worker/interrupt.js");
  const pyodide = await loadPyodide({ indexURL: new URL("../node_modules/pyodide/", import.meta.url).pathname });
  const { buffer, kind } = workerData;
  pyodide.setInterruptBuffer(kind === "view" ? takenInOneStep(buffer) : buffer);
  parentPort.on("message", (code) => {
    try {
      pyodide.runPython(code);
    } catch {
      parentPort.postMessage("stopped");
    }
  });
  parentPort.postMessage("ready");
}

async function start(kind) {
  const buffer = new Int32Array(new SharedArrayBuffer(4));
  const worker = new Worker(new URL(import.meta.url), { workerData: { buffer, kind } });
  await new Promise((resolve) => worker.once("message", resolve));
  return { worker, buffer };
}
