// Checks of the runtime client (runtime/page/client.js) in Node, run by tests/runtime/test_client.py:
// `node tests/runtime/client.mjs <check> [isolated]`, the report's shape (engine/report.py's shape()) as
// JSON on stdin. Prints one line of JSON with what it saw.
//
// Everything is the runtime's own code (the client, its pool, workers.js, the protocol and the runner,
// runtime/runner/runner.js) but the two ends no browser gives Node: the sandboxed frame (openFrame below
// starts the runner on a MessagePort, as frame.js does in the iframe) and the Web Worker the runner starts
// (FakeWorker: Python replaced by a few lines that answer the protocol's messages). Files are "fetched"
// from memory.
import { readFileSync } from "node:fs";
import { PHASE, SIGINT, message } from "../../runtime/protocol.js";
import { MOVES, RuntimeClient } from "../../runtime/page/client.js";
import { start as startRunner } from "../../runtime/runner/runner.js";

const [check, mode] = process.argv.slice(2);
const shape = JSON.parse(readFileSync(0, "utf8"));
globalThis.crossOriginIsolated = mode === "isolated"; // the runner shares the interrupt word only then
globalThis.location = new URL("http://localhost/");

// The learner's code, as the fake worker's Python understands it: "pass" reports a pass; "loop" runs
// until interrupted (then reports KeyboardInterrupt at line 2), or for ever where nothing can interrupt it.
const seen = { grades: 0, ended: 0, workers: 0 };
class FakeWorker {
  constructor() {
    seen.workers++;
    this.timer = null;
  }
  postMessage({ port, interrupt, phase }) {
    // The runner's first message: the private port, the shared words.
    const post = (type, fields, transfer) => port.postMessage(message("fromWorker", type, fields), transfer);
    port.onmessage = ({ data }) => {
      if (data.type === "load") {
        const made = data.makeSnapshot ? new Uint8Array([1, 2, 3]) : null;
        post("progress", { id: data.id, step: "started", at: Date.now() });
        return post("loaded", { id: data.id, snapshot: made, shared: data.compiled !== null }, made ? [made.buffer] : []);
      }
      seen.grades++;
      const report = (error) => post("report", { id: data.id, json: JSON.stringify({ ...shape.failed, passed: !error, error }) });
      if (data.source === "pass") return report(null);
      if (phase) Atomics.store(phase, 0, PHASE.running);
      post("output", { id: data.id, text: "looping\n" });
      this.timer = setInterval(() => {
        if (!interrupt || Atomics.exchange(interrupt, 0, 0) !== SIGINT) return;
        clearInterval(this.timer);
        Atomics.store(phase, 0, PHASE.stopping);
        report({ ...shape.error, kind: "runtime", message: "KeyboardInterrupt", line: 2 });
      }, 2);
    };
  }
  terminate() {
    seen.ended++;
    clearInterval(this.timer);
  }
}
globalThis.Worker = FakeWorker;

// The files the page fetches for the runtime: a few bytes each (the wasm a valid empty module, so the
// runner compiles it and every worker shares it, as in the browser).
const WASM = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0]);
let offline = false; // every fetch fails (the dead check)
globalThis.fetch = async (url) => {
  if (offline) throw new TypeError("Failed to fetch");
  return new Response(String(url).endsWith(".wasm") ? WASM : "//");
};

// The frame, without a browser: the runner started on one end of a channel, the client on the other.
async function openFrame({ runnerCode, onMessage }) {
  await runnerCode; // the runner starts once its code has come
  const channel = new MessageChannel();
  startRunner(channel.port2);
  const frame = { port: channel.port1, isolated: false, broken: null, remove: (error) => (frame.broken = error) };
  frame.isolated = await new Promise((resolve) => (channel.port1.onmessage = ({ data }) => resolve(data.isolated)));
  channel.port1.onmessage = ({ data }) => onMessage(frame, data);
  return frame;
}

const fill = (text, params = {}) => text.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
const memory = new Map();
const page = {
  words: { t: fill, number: (n) => String(n) },
  names: { runnerHello: "hello", snapshotCache: "snapshots", snapshotDigest: "digest", snapshotRead: "read" },
  storage: { read: (k) => memory.get(k) ?? null, write: (k, v) => (memory.set(k, v), true), remove: (k) => memory.delete(k) },
  openFrame,
};
const config = {
  urls: { runner: "http://localhost/runner.js", worker: "http://localhost/worker.js", engine: "http://localhost/engine.zip", pyodide: "http://localhost/pyodide/" },
  pyodideFiles: ["pyodide.asm.wasm", "pyodide.mjs"],
  cases: [],
  catalogue: null,
  report: shape,
  outputChars: 1000,
  learnerFile: "<your code>",
  timeLimitMs: 300,
  stopGraceMs: 50,
  loadStallMs: 2000,
  loadBytes: 0,
  snapshotKey: "build",
};

function client() {
  const runtime = new RuntimeClient(config, page);
  const states = [];
  runtime.addEventListener("status", ({ detail: { state } }) => states.at(-1) !== state && states.push(state));
  return { runtime, states };
}

const refusal = (promise) =>
  promise.then(
    () => null,
    (err) => ({ name: err.name, message: err.message }),
  );
const said = (report) => ({ passed: report.passed, kind: report.error?.kind ?? null, message: report.error?.message ?? null });
console.info = () => {}; // the snapshot not kept (no Cache Storage here): the console's note, not the test's

const checks = {
  // A Check: loading, ready, busy, ready, and a report.
  async check() {
    const { runtime, states } = client();
    await runtime.load();
    const report = await runtime.check("pass");
    return { states, report: said(report), workers: seen.workers };
  },

  // A second task while one is under way is refused at once, and its code never reaches a worker; the
  // first task goes on, and once it is over the next is taken.
  async second() {
    const { runtime, states } = client();
    await runtime.load();
    const first = runtime.check("loop");
    const again = await refusal(runtime.check("pass"));
    const run = await refusal(runtime.run({ scratch: "pass", backward: null }));
    runtime.stop("stopped");
    const report = await first;
    const after = await runtime.check("pass");
    return { again, run, grades: seen.grades, first: said(report), after: said(after), states };
  },

  // Stop: interrupted where the frame is isolated (the report names the line), the worker ended elsewhere.
  async stop() {
    const { runtime, states } = client();
    await runtime.load();
    const task = runtime.check("loop");
    await new Promise((resolve) => setTimeout(resolve, 20));
    runtime.stop("stopped");
    const report = await task;
    return { report: said(report), states, mode: runtime.stopMode };
  },

  // The time limit stops the code as Stop does, and says so.
  async timeout() {
    const { runtime, states } = client();
    await runtime.load();
    const report = await runtime.check("loop");
    return { report: said(report), states };
  },

  // No runtime could load: dead; a Check then fails at once and it stays dead, until Retry loads it.
  async dead() {
    const { runtime, states } = client();
    offline = true;
    const why = await refusal(runtime.load());
    const report = await runtime.check("pass");
    offline = false;
    await runtime.load(); // Retry
    const after = await runtime.check("pass");
    return { why: why.message, report: said(report), after: said(after), states };
  },

  // Every state the client may take, and what may follow it; a move MOVES does not list is refused.
  async moves() {
    const { runtime } = client();
    await runtime.load();
    let refused = null;
    try {
      runtime.set("stopping");
    } catch (err) {
      refused = err.message;
    }
    return { moves: MOVES, refused, state: runtime.state };
  },
};

const started = performance.now();
const result = await checks[check]();
result.ms = Math.round(performance.now() - started);
console.log(JSON.stringify(result));
process.exit(0); // the spares' timers (10 s) are the pool's; nothing more to see
