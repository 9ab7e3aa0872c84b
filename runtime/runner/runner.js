// The runner: runs in the sandboxed frame beside the page (runtime/server.py), an opaque origin with
// no storage, no cookies and no service worker. It starts and ends the workers in which learner code
// runs, so that code can write nothing the page, a later Check or a later visit reads.
//
// It talks to the page over one MessagePort (the page's, handed over with this code) and to each
// worker over a private port of its own, with runtime/protocol.js's messages only. Workers only ever talk
// to the runner; the runner passes on to the page only messages of the protocol's shapes, rebuilt field
// by field. Where the frame is cross-origin isolated it shares two words with each worker: the interrupt
// (the page's Stop and time limit) and the phase of its task.

import { PHASE, SIGINT, message, send } from "../protocol.js";

export function start(page) {
  const isolated = globalThis.crossOriginIsolated === true && typeof SharedArrayBuffer === "function";
  const workers = new Map(); // the page's id for a worker -> { worker, port, interrupt, phase }
  let setup = null; // from the page: { files, script (a blob: URL), limits }
  // Pyodide's wasm, compiled here as soon as the page hands the files over, while the page may still be
  // reading the kept snapshot: every worker instantiates this one module (so they share its machine
  // code, optimised as it runs). Where it cannot be compiled here, each worker compiles its own.
  let compiled = null;
  let compiling = Promise.resolve();
  const reads = new Map(); // request number -> the buffer a worker waits on
  let nextRead = 1;

  const word = () => (isolated ? new Int32Array(new SharedArrayBuffer(4)) : null);

  function spawn({ worker: name, load }) {
    const worker = new Worker(setup.script); // a classic worker: an opaque origin cannot start module ones
    const channel = new MessageChannel();
    const entry = { worker, port: channel.port1, interrupt: word(), phase: word() };
    workers.set(name, entry);
    worker.onmessage = null; // the worker's own channel is not listened to: learner code can post there
    worker.onerror = (event) => {
      event.preventDefault();
      send(page, "fromRunner", "error", { worker: name, message: String(event.message || "it could not start") });
    };
    entry.port.onmessage = ({ data }) => fromWorker(name, entry, data);
    const { interrupt, phase } = entry;
    send(worker, "toWorker", "start", { port: channel.port2, interrupt, phase, limits: setup.limits }, [channel.port2]);
    const { files } = setup;
    const { id, indexURL, cases, catalogue, snapshot, makeSnapshot } = load;
    const fields = { id, indexURL, cases, catalogue, snapshot, makeSnapshot, files };
    compiling.then(() => send(entry.port, "toWorker", "load", { ...fields, compiled })); // a closed port drops it
  }

  async function compile(wasm) {
    try {
      compiled = await WebAssembly.compile(await wasm.arrayBuffer());
    } catch (err) {
      console.info("The runner did not compile the wasm; each worker will:", err?.message ?? err);
    }
  }

  // A message from a worker, passed on only in a shape the page expects, rebuilt field by field.
  function fromWorker(name, entry, data) {
    const id = typeof data?.id === "string" ? data.id : null;
    const pass = (type, fields, transfer = []) =>
      send(page, "fromRunner", "from", { worker: name, message: message("fromWorker", type, { ...fields, id }) }, transfer);
    switch (data?.type) {
      case "progress":
        return pass("progress", { step: String(data.step), at: Number(data.at) });
      case "output":
        return typeof data.text === "string" && pass("output", { text: data.text });
      case "loaded": {
        const snapshot = data.snapshot instanceof Uint8Array ? data.snapshot : null;
        return pass("loaded", { snapshot, shared: data.shared === true }, snapshot ? [snapshot.buffer] : []);
      }
      case "report":
        return pass("report", { json: String(data.json), taken: interruptTaken(entry) });
      case "failed":
        return pass("failed", { message: String(data.message), line: Number.isInteger(data.line) ? data.line : null });
      case "read":
        if (!(data.buffer instanceof SharedArrayBuffer) || !data.buffer.growable) return;
        reads.set(nextRead, data.buffer);
        return send(page, "fromRunner", "read", { worker: name, request: nextRead++, url: String(data.url) });
    }
  }

  // The page's answer to a worker's read: the bytes, or why not, through the buffer the worker waits on.
  function answerRead({ request, bytes, error }) {
    const buffer = reads.get(request);
    reads.delete(request);
    if (!buffer) return;
    const body = bytes instanceof ArrayBuffer ? new Uint8Array(bytes) : new TextEncoder().encode(String(error));
    const head = new Int32Array(buffer, 0, 2);
    try {
      if (buffer.byteLength < 8 + body.length) buffer.grow(8 + body.length);
      new Uint8Array(buffer, 8, body.length).set(body);
      Atomics.store(head, 1, body.length);
      Atomics.store(head, 0, bytes instanceof ArrayBuffer ? 1 : 2);
    } catch {
      Atomics.store(head, 1, 0);
      Atomics.store(head, 0, 2);
    }
    Atomics.notify(head, 0);
  }

  // Python resets the interrupt word when it raises KeyboardInterrupt.
  const interruptTaken = (entry) => entry.interrupt !== null && Atomics.load(entry.interrupt, 0) === 0;

  function end(name) {
    const entry = workers.get(name);
    if (!entry) return;
    workers.delete(name);
    entry.worker.terminate();
    entry.port.close();
  }

  page.onmessage = ({ data }) => {
    const entry = workers.get(data?.worker);
    switch (data?.type) {
      case "setup":
        if (setup) URL.revokeObjectURL(setup.script);
        setup = { files: data.files, limits: data.limits, script: URL.createObjectURL(data.script) };
        compiling = compile(data.files["pyodide.asm.wasm"]);
        return;
      case "spawn":
        return spawn(data);
      case "grade":
        return entry && send(entry.port, "toWorker", "grade", { id: data.id, source: data.source });
      case "run": {
        const backward = typeof data.backward === "string" ? data.backward : null;
        return entry && send(entry.port, "toWorker", "run", { id: data.id, scratch: data.scratch, backward });
      }
      case "interrupt":
        return entry?.interrupt && Atomics.store(entry.interrupt, 0, SIGINT);
      case "state": {
        const finishing = entry?.phase ? Atomics.load(entry.phase, 0) >= PHASE.stopping : false;
        const taken = entry ? interruptTaken(entry) : false;
        return send(page, "fromRunner", "state", { id: data.id, taken, finishing });
      }
      case "end":
        return end(data.worker);
      case "read":
        return answerRead(data);
    }
  };
  send(page, "fromRunner", "hello", { isolated });
}
