// The grading worker: one Pyodide runtime that grades a single Check, then is ended by the runner.
//
// It runs in the runner frame's opaque origin (runtime/server.py), started by the runner from a blob:
// URL as a classic script (an opaque origin cannot start module workers). Its first message brings
// everything: a private MessagePort that carries every later message both ways, the files (Blobs the
// page fetched), the shared words. Learner code reaches this worker's globals through `import js`,
// never this script's scope: the port, the captured functions and the output cap live here, so the
// reply path looks up nothing learner code can replace, and a reply is posted synchronously.

import lock from "../../static/build/pyodide-lock.json"; // Pyodide's lock with no packages (Makefile): never fetched
import { PHASE, TO_WORKER, message, readBuffer, readThrough } from "../protocol.js";
import { capMemory, loaderOfPyodide, quietLoadRejections, refuseClose, scriptUrl, serveFiles, shareCompiled } from "./globals.js";
import { prepareGrader, restoredGrader, startGrader } from "./grader.js";
import { takenInOneStep } from "./interrupt.js";
import { pack, unpack } from "./snapshot-pages.js";

// Bound before any learner code runs. A call through these looks nothing up at call time.
const uncurry = (fn) => Function.prototype.call.bind(fn);
const portPost = uncurry(MessagePort.prototype.postMessage);
const { store } = Atomics;
const toText = String;

capMemory(2 ** 30); // past it, Python raises MemoryError at once
refuseClose();
quietLoadRejections();

let port = null; // the runner's private channel: learner code cannot reach it
let pyodide = null;
let python = null; // Python's entry points (grader.js): grade and run, each giving JSON text
let phase = null; // shared with the runner, where it is cross-origin isolated: how far the grade has got
let limits = null; // from the page's config: { outputChars, learnerFile }
let written = []; // the last lines the runtime wrote to its own stdout/stderr (a fatal error's report)
let reading = null; // the read channel's buffer (runtime/protocol.js): files read synchronously through the runner
let fatal = null; // Pyodide's fatal error, once it has had one: the runtime can no longer be trusted

// Every message to the runner is one of runtime/protocol.js's fromWorker (built with nothing learner code can replace).
const post = (type, fields, transfer = []) => portPost(port, message("fromWorker", type, fields), transfer);
const step = (id, name) => post("progress", { id, step: name, at: performance.timeOrigin + performance.now() });
const setPhase = (value) => phase && store(phase, 0, value);

// Read a file synchronously (the stdlib's lazy archives, runtime/worker/lazy_stdlib.py): the runner asks
// the page, which fetches it (from its service worker's cache when offline) and hands it back through
// the read channel. Null where memory cannot be shared: the caller requests it from the server itself.
function readSync(url) {
  if (!phase) return null;
  reading ??= readBuffer();
  return readThrough(reading, (buffer) => post("read", { url: toText(url), buffer }));
}

function keep(line) {
  written.push(line);
  if (written.length > 200) written = written.slice(-100);
}

const handlers = {
  // Load Pyodide from a snapshot, or in full (importing the grader), then the page's exercise (its archive,
  // cases and catalogue) unless the snapshot has it. Asked to take a snapshot: in full, the build's, with
  // the grader's modules imported and no exercise; from the build's, the page's own, its exercise loaded.
  // A runtime that took one is ended unused. Replies with the snapshot it took, and whether it
  // instantiated the runner's compiled module.
  async load({ id, indexURL, files, cases, catalogue, snapshot, makeSnapshot, compiled, engine }) {
    step(id, "load asked"); // the steps of benchmarks/load.py's timeline (the runner has compiled the wasm by now)
    const wasm = shareCompiled(compiled ?? null, () => step(id, "wasm instantiated"));
    const unserve = serveFiles(indexURL, files);
    try {
      const [{ loadPyodide }, asm] = await Promise.all([
        loaderOfPyodide(files["pyodide.mjs"]),
        import(scriptUrl(files["pyodide.asm.mjs"])),
      ]);
      step(id, "scripts imported");
      const restore = snapshot ? snapshot.arrayBuffer().then(unpack) : null;
      pyodide = await loadPyodide({
        indexURL,
        createPyodideModule: asm.default,
        lockFileContents: lock,
        ...(restore ? { _loadSnapshot: restore } : {}),
        _makeSnapshot: Boolean(makeSnapshot),
        stdout: keep,
        stderr: keep,
      });
      pyodide.unpackArchive(await (engine ?? files.engine).arrayBuffer(), "zip"); // the file system is not in a snapshot
      // Pyodide's fatal error (the browser's stack overflowed under Python, say) is noted first thing:
      // its own handler can fail on the same exhausted stack, and Python may then carry on as if not.
      const api = pyodide._api;
      const fatalError = api.fatal_error;
      api.fatal_error = (err) => {
        fatal ??= err ?? new Error("Pyodide's fatal error");
        return fatalError(err);
      };
    } finally {
      unserve();
    }
    step(id, "started");
    let made = null;
    if (snapshot) {
      python = restoredGrader(pyodide, cases, catalogue); // the page's exercise, loaded unless the snapshot has it
      if (makeSnapshot) made = takeSnapshot(); // the page's own snapshot, its exercise loaded
    } else if (makeSnapshot) {
      prepareGrader(pyodide); // the build's snapshot, the same for every exercise
      made = takeSnapshot();
    } else {
      python = startGrader(pyodide, cases, catalogue);
    }
    if (python) step(id, "exercise loaded");
    return { snapshot: made, shared: wasm.shared };
  },

  // Grade one source, or Run the scratch pad (after the learner's backward, unless null): synchronously.
  grade: ({ id, source }) => call(id, (sink, stopping) => python.grade(source, sink, stopping)),
  run: ({ id, scratch, backward }) => call(id, (sink, stopping) => python.run(scratch, backward ?? null, sink, stopping)),
};

// Call Python; what it prints is posted as it goes, so a stopped run keeps it. Output past the cap is
// dropped here too, however it is written (learner code can reach the sink). Replies with the JSON.
function call(id, entry) {
  if (!python) throw new Error("the runtime is not loaded yet");
  written = [];
  let sent = 0;
  const sink = (text) => {
    if (sent >= limits.outputChars) return;
    const part = toText(text).slice(0, limits.outputChars - sent);
    sent += part.length;
    post("output", { id, text: part });
  };
  setPhase(PHASE.running);
  let json;
  try {
    json = entry(sink, () => setPhase(PHASE.stopping));
  } catch (err) {
    fatal ??= err;
  }
  if (fatal) {
    // grade() turns every exception of the learner's code into a report: this is the runtime dying
    // (the browser's stack overflowed, say), even where grade() went on to report something after it.
    // Pyodide wrote the Python stack: find the learner's line.
    const line = learnerLine(written.join("\n"));
    return ["failed", { id, message: toText(fatal?.message ?? fatal), line }];
  }
  setPhase(PHASE.reported);
  if (typeof json !== "string") return ["failed", { id, message: "the grader gave no report", line: null }];
  return ["report", { id, json }];
}

// The learner's line in a Python traceback Pyodide wrote: its first frame in their file.
function learnerLine(traceback) {
  const frame = `File ${JSON.stringify(limits.learnerFile)}, line `;
  const at = traceback.indexOf(frame);
  return at < 0 ? null : Number.parseInt(traceback.slice(at + frame.length), 10);
}

function takeSnapshot() {
  try {
    return pack(pyodide.makeMemorySnapshot()); // without its zero pages: what the page keeps and hands back
  } catch (err) {
    console.warn("worker: no snapshot:", err?.message ?? err); // every later worker starts in full
    return null;
  }
}

// The runner's first message: the private port and what every later message needs.
self.onmessage = ({ data }) => {
  self.onmessage = null;
  ({ port, limits } = data);
  phase = data.phase ?? null;
  self.backpropPlaygroundRead = readSync; // for runtime/worker/lazy_stdlib.py
  port.onmessage = ({ data: asked }) => answer(asked, data);
};

// Answer one message from the runner. A grade is answered before this task ends: nothing its code
// scheduled (a timer, a task, a promise callback) runs before the reply is posted.
function answer(asked, start) {
  const { type, id } = asked;
  if (type === TO_WORKER.grade || type === TO_WORKER.run) {
    const reply = handlers[type](asked); // [type, fields]: read by index (learner code may patch iterators)
    return post(reply[0], reply[1]);
  }
  if (type !== TO_WORKER.load) return post("failed", { id, message: `unknown message type: ${type}`, line: null });
  handlers.load(asked).then(
    (reply) => {
      if (start.interrupt) pyodide.setInterruptBuffer(takenInOneStep(start.interrupt)); // the runner writes 2 (SIGINT)
      post("loaded", { ...reply, id }, reply.snapshot ? [reply.snapshot.buffer] : []);
    },
    (err) => post("failed", { id, message: toText(err?.message ?? err), line: null }),
  );
}
