// The runner frame and the workers in it, as the client (client.js) sees them: the runtime's files,
// fetched once; the frame, opened with them and opened again when it stops answering; each worker's
// record, its requests and their replies. Every message to the frame is one of runtime/protocol.js's.

import { fetchFiles, readArchive } from "./files.js";
import { openFrame } from "./frame.js";
import { FROM_RUNNER, FROM_WORKER, message, send } from "../protocol.js";

// Unguessable ids: a worker is named by one, and so is each request to it and its reply.
export function newId() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

// A step of a worker's load as a User Timing mark, at the time the worker took it (an epoch time), its
// detail the load's id (one worker's steps), for benchmarks/load.py's timeline and benchmarks/course.py.
function mark(step, at, load) {
  const startTime = at - performance.timeOrigin;
  performance.mark(`runtime: ${step}`, { detail: load, ...(Number.isFinite(startTime) && startTime >= 0 ? { startTime } : {}) });
}

export class Workers {
  // config: the page's (urls, pyodideFiles, loadBytes, loadStallMs, runner, cases, catalogue); onBytes(received,
  // expected) hears the files' progress; page: the page's words and the runner's hello (client.js).
  // open: how the frame is opened (frame.js's openFrame; a fake runner in tests/runtime/client.mjs).
  constructor(config, limits, onBytes, page, open = openFrame) {
    this.config = config;
    this.limits = limits; // { outputChars, learnerFile }: every worker's
    this.onBytes = onBytes;
    this.page = page; // { words: { t, number }, names: { runnerHello } }
    this.openFrame = open;
    this.isolated = false; // whether the runner frame is cross-origin isolated: known once it answers
    this.files = null; // { runner, rest }: Promises of the runtime's files as Blobs, fetched once
    this.frame = null; // Promise of the open runner frame; made again when it stops answering
    this.opened = null; // the frame, once open
    this.engine = null; // the exercise's archive (a Blob) once the page moved to another exercise (useEngine)
  }

  // The page moved to another exercise: the workers from now on unpack its archive (fetched here) instead
  // of the one the frame was set up with.
  async useEngine(url) {
    const { engine } = await fetchFiles({ engine: url }, { stallMs: this.config.loadStallMs, words: this.page.words });
    this.engine = engine;
  }

  // The runner frame, with the runtime's files handed to it; opened again when it stopped answering. It
  // opens as soon as the runner's own code has come, while Pyodide's files still come.
  open() {
    if (this.frame && !this.opened?.broken) return this.frame;
    this.opened = null;
    this.frame = (async () => {
      const { runner, rest } = this.fetchFiles();
      rest.catch(() => {}); // seen below
      const frame = await this.openFrame({
        document: this.config.runner,
        hello: this.page.names.runnerHello,
        words: this.page.words,
        runnerCode: runner.then((files) => files.runner.text()),
        waitMs: this.config.loadStallMs,
        onMessage: (opened, data) => this.receive(opened, data),
      });
      frame.workers = new Map(); // name -> a worker record: { name, pending, ended, ... }
      frame.states = new Map(); // id -> resolve, for state requests
      try {
        const { worker, ...files } = await rest;
        send(frame.port, "toRunner", "setup", { files, script: worker, limits: this.limits });
      } catch (err) {
        frame.remove(err);
        throw err;
      }
      this.isolated = frame.isolated;
      return frame;
    })();
    this.frame.then(
      (frame) => (this.opened = frame),
      () => (this.frame = null), // a Retry opens it again
    );
    return this.frame;
  }

  // The runtime's files, fetched once by the page (counted for the progress event): { runner, rest }, each
  // a Promise of Blobs by name; the runner's code on its own, so the frame can open before the rest come.
  fetchFiles() {
    if (this.files) return this.files;
    const { urls, pyodideFiles, loadBytes, loadStallMs } = this.config;
    const wanted = { worker: urls.worker, engine: urls.engine };
    for (const name of pyodideFiles) wanted[name] = urls.pyodide + name;
    let received = 0;
    const progress = (bytes) => {
      received += bytes;
      this.onBytes(received, loadBytes);
    };
    const options = { stallMs: loadStallMs, onBytes: progress, words: this.page.words };
    const files = { runner: fetchFiles({ runner: urls.runner }, options), rest: fetchFiles(wanted, options) };
    Promise.all([files.runner, files.rest]).catch(() => this.files === files && (this.files = null));
    this.files = files;
    return files;
  }

  // A message from the runner frame (runtime/protocol.js fromRunner), for one of its workers or its states.
  receive(frame, data) {
    const { t } = this.page.words;
    const worker = frame.workers?.get(data?.worker);
    switch (data?.type) {
      case FROM_RUNNER.from:
        return worker && this.settle(worker, data.message);
      case FROM_RUNNER.error:
        return worker && this.end(worker, new Error(t("the worker failed: {error}", { error: data.message })));
      case FROM_RUNNER.state:
        frame.states?.get(data.id)?.({ taken: data.taken === true, finishing: data.finishing === true });
        return frame.states?.delete(data.id);
      case FROM_RUNNER.read:
        return this.read(frame, data);
    }
  }

  // A worker reads a file synchronously (the stdlib's lazy archives): fetched here, where the service
  // worker keeps them, if readArchive allows the URL.
  async read(frame, { request, url }) {
    try {
      const bytes = await readArchive(String(url), this.config.urls.lazyStdlib);
      send(frame.port, "toRunner", "read", { request, bytes }, [bytes]);
    } catch (err) {
      send(frame.port, "toRunner", "read", { request, error: String(err?.message ?? err) });
    }
  }

  // Start a worker and load it: from snapshot (a Blob), or in full (taking a snapshot when makeSnapshot:
  // worker.made); resolves to its record once it can run a task. A load that goes stallMs without a step
  // ends the worker.
  async start({ snapshot, makeSnapshot }) {
    const { t, number } = this.page.words;
    const frame = await this.open();
    const worker = { name: newId(), frame, pending: new Map(), ended: false, lastState: null };
    frame.workers.set(worker.name, worker);
    const id = newId();
    let timer = null;
    const stall = this.config.loadStallMs;
    performance.mark("runtime: worker asked");
    const moved = (data) => {
      if (data?.step) mark(data.step === "started" ? "python started" : data.step, data.at, id);
      clearTimeout(timer);
      timer = setTimeout(() => this.end(worker, new Error(t("nothing happened for {seconds} s", { seconds: number(stall / 1000) }))), stall);
    };
    moved();
    try {
      const loading = this.wait(worker, id, moved);
      const { cases, catalogue } = this.config;
      const load = { id, indexURL: this.config.urls.pyodide, cases, catalogue, snapshot, makeSnapshot, engine: this.engine };
      if (frame.broken) this.end(worker, frame.broken);
      else send(frame.port, "toRunner", "spawn", { worker: worker.name, load });
      const reply = await loading.finally(() => {
        clearTimeout(timer);
        performance.mark("runtime: worker loaded");
      });
      worker.made = reply.snapshot;
      worker.sharedWasm = reply.shared; // it instantiated the runner frame's compiled module
      return worker;
    } catch (err) {
      this.end(worker);
      throw err;
    }
  }

  // Ask a worker's Python (toWorker grade, run), through the runner as it is.
  ask(worker, type, fields) {
    if (!worker.ended) send(worker.frame.port, "toRunner", "to", { worker: worker.name, message: message("toWorker", type, fields) });
  }

  // Interrupt a worker's Python (isolated frames only: elsewhere the runner has no word to write).
  interrupt(worker) {
    if (!worker.ended) send(worker.frame.port, "toRunner", "interrupt", { worker: worker.name });
  }

  // Resolves to the worker's reply with this id; onMessage hears its messages on the way (output, progress).
  wait(worker, id, onMessage) {
    const { t } = this.page.words;
    if (worker.ended) return Promise.reject(new Error(t("the runtime was ended")));
    return new Promise((resolve, reject) => {
      const done = (settle) => (value) => (worker.pending.delete(id), settle(value));
      worker.pending.set(id, { resolve: done(resolve), reject: done(reject), onMessage });
    });
  }

  // A worker's message (runtime/protocol.js fromWorker, passed on by the runner): to the request it answers.
  settle(worker, data) {
    const waiter = worker.pending.get(data?.id);
    if (!waiter) return; // not a reply to anything asked
    switch (data.type) {
      case FROM_WORKER.output:
      case FROM_WORKER.progress:
        return waiter.onMessage?.(data);
      case FROM_WORKER.failed: {
        const line = Number.isInteger(data.line) ? data.line : null;
        return waiter.reject(Object.assign(new Error(String(data.message)), { line }));
      }
      case FROM_WORKER.loaded:
      case FROM_WORKER.report:
        return waiter.resolve(data);
    }
  }

  // Resolves to { taken, finishing }: whether Python took the interrupt, whether it has left the learner's
  // code for good. Null when the frame did not answer within waitMs: it is removed (out of memory, say).
  async state(worker, waitMs) {
    if (worker.ended) return worker.lastState;
    const { frame } = worker;
    const { t } = this.page.words;
    const id = newId();
    worker.lastState = await new Promise((resolve) => {
      const timer = setTimeout(() => {
        frame.states.delete(id);
        this.removeFrame(frame, new Error(t("the runtime stopped answering")));
        resolve(null);
      }, waitMs);
      frame.states.set(id, (state) => (clearTimeout(timer), resolve(state)));
      send(frame.port, "toRunner", "state", { worker: worker.name, id });
    });
    return worker.lastState;
  }

  // End a worker: whatever it runs stops at once; what waits on it is rejected.
  end(worker, error = null) {
    if (worker.ended) return;
    const { t } = this.page.words;
    error ??= new Error(t("the runtime was ended"));
    worker.ended = true;
    if (worker.frame.workers.delete(worker.name) && !worker.frame.broken) {
      send(worker.frame.port, "toRunner", "end", { worker: worker.name });
    }
    for (const waiter of worker.pending.values()) waiter.reject(error);
    worker.pending.clear();
  }

  // Remove the runner frame and every worker in it; whatever waits on them hears error.
  removeFrame(frame, error) {
    if (frame.broken) return;
    frame.remove(error);
    for (const worker of [...frame.workers.values()]) this.end(worker, error);
  }
}
