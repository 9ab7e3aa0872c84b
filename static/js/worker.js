// The grading worker: one Pyodide runtime that grades a single Check, then is terminated by the page.
// Messages from the page are tagged with `type` and `id`; each reply carries the same `id`.

import lock from "../build/pyodide-lock.json"; // Pyodide's lock with no packages (Makefile): never fetched
import { takenInOneStep } from "./interrupt.js";
import { storedSnapshot } from "./stored-snapshot.js";

// Replies use this, bound now: learner code can reach `self` through `import js` and replace it.
const post = self.postMessage.bind(self);

// Cap the runtime's memory. Past it, Python raises MemoryError at once, where the browser would
// otherwise grow the heap by gigabytes, slowly, or die trying.
const MAX_MEMORY = 2 ** 30;
const grow = WebAssembly.Memory.prototype.grow;
WebAssembly.Memory.prototype.grow = function (pages) {
  if (this.buffer.byteLength + pages * 65536 > MAX_MEMORY) throw new RangeError("over the memory limit");
  return grow.call(this, pages);
};

let pyodide = null;
let gradeJson = null; // Python: (source, sink, stopping) -> the report as JSON text
let phase = null; // shared with the page, where it is cross-origin isolated: how far the grade has got
const PHASE = { running: 1, stopping: 2, reported: 3 }; // as python.js numbers them
const setPhase = (value) => phase && Atomics.store(phase, 0, value);
let written = []; // the last lines the runtime wrote to its own stdout/stderr (a fatal error's report)

async function bytes(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return response.arrayBuffer();
}

// While the runtime loads, every fetch (Pyodide's wasm and stdlib, the engine) is counted for the
// page's progress bar, and one that fails is reported at once. The response itself goes on untouched
// (a clone is read to count), so the browser still compiles the wasm while it streams and caches it.
function countFetches(id) {
  const original = self.fetch;
  const name = (url) => new URL(url, self.location.href).pathname.split("/").pop();
  const progress = (detail) => post({ type: "progress", id, ...detail });
  self.fetch = async (input, init) => {
    const url = String(input?.url ?? input);
    let response;
    try {
      response = await original(input, init);
    } catch (err) {
      progress({ failed: `${name(url)} could not be fetched (${err?.message ?? err})` });
      throw err;
    }
    if (!response.ok) {
      progress({ failed: `${name(url)} could not be fetched (HTTP ${response.status})` });
      return response;
    }
    const reader = response.clone().body?.getReader();
    const count = () =>
      reader?.read().then(({ done, value }) => {
        if (done) return;
        progress({ bytes: value.byteLength });
        return count();
      });
    count()?.catch(() => {}); // the response's own reader sees the same failure
    return response;
  };
  return () => (self.fetch = original);
}

// Pyodide compiles its wasm with WebAssembly.instantiateStreaming. The first worker keeps the compiled
// module and hands it to the page; later workers instantiate that module instead of compiling their own.
// Workers of one page then share the machine code, including what V8 has optimised since, so a Check
// runs on fast code from the start (a fresh module per worker ran the grader about 4x slower).
function shareCompiled(compiled) {
  const instantiateStreaming = WebAssembly.instantiateStreaming;
  WebAssembly.instantiateStreaming = async (source, imports) => {
    if (compiled) return { instance: await WebAssembly.instantiate(compiled, imports), module: compiled };
    const result = await instantiateStreaming(source, imports);
    compiled = result.module;
    return result;
  };
  return () => compiled;
}

function keep(line) {
  written.push(line);
  if (written.length > 200) written = written.slice(-100);
}

// Python that imports the grader and parses the cases: run once, before a snapshot is taken.
const GRADER = `
from engine.grade import grader
_grade_json = grader(_cases_json)
del _cases_json, grader
`;

// A runtime restored from a snapshot has the grader imported already, but random's state frozen.
const AFTER_RESTORE = `
import sys
if "random" in sys.modules:
    sys.modules["random"].seed()
del sys
`;

const handlers = {
  // Load Pyodide from a snapshot: the page's (in memory), or the one this browser kept (storedKey);
  // without one, import the grader and snapshot this runtime when asked, for the workers that follow.
  // Replies with where it started from ("memory", "stored", "full") and the snapshot the page lacks.
  // compiled: the module an earlier worker compiled (none for the first).
  async load({ id, urls, cases, interrupt, phase: shared, snapshot, storedKey, makeSnapshot, compiled }) {
    phase = shared ?? null;
    const module = shareCompiled(compiled ?? null);
    const uncount = countFetches(id);
    const engine = bytes(urls.engine);
    engine.catch(() => {}); // awaited below; a failure is reported there, not as an unhandled rejection
    let from = snapshot ? "memory" : "full";
    try {
      const [{ loadPyodide }, stored] = await Promise.all([
        import(urls.pyodide + "pyodide.mjs"),
        snapshot ? null : storedSnapshot(storedKey),
      ]);
      if (stored) {
        from = "stored";
        snapshot = stored.arrayBuffer().then((buffer) => new Uint8Array(buffer)); // read while the wasm compiles
        post({ type: "progress", id, step: "restoring" });
      }
      pyodide = await loadPyodide({
        indexURL: urls.pyodide,
        lockFileContents: lock,
        ...(snapshot ? { _loadSnapshot: snapshot } : { _makeSnapshot: Boolean(makeSnapshot) }),
        stdout: keep,
        stderr: keep,
      });
      pyodide.unpackArchive(await engine, "zip"); // the file system is not in a snapshot
    } finally {
      uncount();
    }
    post({ type: "progress", id, step: "started" }); // the grader's import (no snapshot) has no bytes to count
    let made = null;
    if (snapshot) {
      pyodide.runPython(AFTER_RESTORE);
      if (from === "stored") made = await snapshot; // the page starts later runtimes from it
    } else {
      pyodide.globals.set("_cases_json", JSON.stringify(cases));
      pyodide.runPython(GRADER);
      if (makeSnapshot) made = takeSnapshot();
    }
    gradeJson = pyodide.globals.get("_grade_json");
    if (interrupt) pyodide.setInterruptBuffer(takenInOneStep(interrupt)); // the page writes 2 (SIGINT) to stop code
    return { type: "loaded", from, snapshot: made, compiled: compiled ? null : module() };
  },

  // Grade one source, synchronously; what it prints is posted as it goes, so a stopped run keeps it.
  grade({ id, source }) {
    if (!gradeJson) throw new Error("the runtime is not loaded yet");
    written = [];
    const sink = (text) => post({ type: "output", id, text });
    setPhase(PHASE.running);
    try {
      const report = JSON.parse(gradeJson(source, sink, () => setPhase(PHASE.stopping)));
      setPhase(PHASE.reported);
      return { type: "report", report };
    } catch (err) {
      // grade() turns every exception of the learner's code into a report: this is the runtime dying
      // (the browser's stack overflowed, say). Pyodide wrote the Python stack: find the learner's line.
      const stack = written.join("\n");
      const line = /File "<editor>", line (\d+)/.exec(stack)?.[1];
      throw Object.assign(new Error(String(err?.message ?? err)), { line: line ? Number(line) : null });
    }
  },
};

function takeSnapshot() {
  try {
    return pyodide.makeMemorySnapshot();
  } catch (err) {
    console.warn("worker: no snapshot:", err?.message ?? err); // the page starts each worker in full
    return null;
  }
}

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
    // A grade is answered before this task ends: nothing its code scheduled (a timer, a task) can run first.
    const result = handler(data);
    const reply = { ...(result instanceof Promise ? await result : result), id };
    const transfer = reply.snapshot ? [reply.snapshot.buffer] : [];
    try {
      post(reply, transfer);
    } catch (err) {
      if (!reply.compiled) throw err;
      post({ ...reply, compiled: null }, transfer); // a browser that cannot pass a module on: each worker compiles
    }
  } catch (err) {
    post({ type: "failed", id, message: String(err?.message ?? err), line: err?.line ?? null });
  }
};
