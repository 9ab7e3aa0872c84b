// The runner: runs in the sandboxed frame beside the page (runtime/server.py), an opaque origin with
// no storage, no cookies and no service worker. It starts and ends the workers in which learner code
// runs, so that code can write nothing the page, a later Check or a later visit reads.
//
// It talks to the page over one MessagePort (the page's, handed over with this code) and to each
// worker over a private port of its own, with runtime/protocol.js's messages only. Workers only ever talk
// to the runner; it passes their messages on as they are, both ways (toRunner.to, fromRunner.from), and
// answers their reads itself. A worker's port is out of its learner code's reach (worker.js), and the page
// checks what it takes (workers.js, task.js). Where the frame is cross-origin isolated it shares two
// words with each worker: the interrupt (the page's Stop and time limit) and the phase of its task.

import { FROM_WORKER, PHASE, SIGINT, TO_RUNNER, answerRead, isReadBuffer, send } from "../protocol.js";

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
    compiling.then(() => send(entry.port, "toWorker", "load", { ...load, files, compiled })); // a closed port drops it
  }

  async function compile(wasm) {
    try {
      compiled = await WebAssembly.compile(await wasm.arrayBuffer());
    } catch (err) {
      console.info("The runner did not compile the wasm; each worker will:", err?.message ?? err);
    }
  }

  // A message from a worker, passed on to the page as it is: a report with whether Python had taken an
  // interrupt, a snapshot's bytes moved rather than copied. A read is answered here (answerRead).
  function fromWorker(name, entry, data) {
    switch (data?.type) {
      case FROM_WORKER.read:
        if (!isReadBuffer(data.buffer)) return;
        reads.set(nextRead, data.buffer);
        return send(page, "fromRunner", "read", { worker: name, request: nextRead++, url: String(data.url) });
      case FROM_WORKER.report:
        data.taken = interruptTaken(entry);
        break;
    }
    const transfer = data?.snapshot instanceof Uint8Array ? [data.snapshot.buffer] : [];
    send(page, "fromRunner", "from", { worker: name, message: data }, transfer);
  }

  // The page's answer to a worker's read: through the buffer the worker waits on.
  function answered({ request, bytes, error }) {
    const buffer = reads.get(request);
    reads.delete(request);
    if (buffer) answerRead(buffer, bytes, error);
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
      case TO_RUNNER.setup:
        if (setup) URL.revokeObjectURL(setup.script);
        setup = { files: data.files, limits: data.limits, script: URL.createObjectURL(data.script) };
        compiling = compile(data.files["pyodide.asm.wasm"]);
        return;
      case TO_RUNNER.spawn:
        return spawn(data);
      case TO_RUNNER.to:
        return entry?.port.postMessage(data.message); // a toWorker message the page built with the protocol's message()
      case TO_RUNNER.interrupt:
        return entry?.interrupt && Atomics.store(entry.interrupt, 0, SIGINT);
      case TO_RUNNER.state: {
        const finishing = entry?.phase ? Atomics.load(entry.phase, 0) >= PHASE.stopping : false;
        const taken = entry ? interruptTaken(entry) : false;
        return send(page, "fromRunner", "state", { id: data.id, taken, finishing });
      }
      case TO_RUNNER.end:
        return end(data.worker);
      case TO_RUNNER.read:
        return answered(data);
    }
  };
  send(page, "fromRunner", "hello", { isolated });
}
