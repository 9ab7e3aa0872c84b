// One Python runtime in a worker, seen from the page: load it, grade once, interrupt it, end it.

// Unguessable ids, so code in the worker cannot forge a reply with postMessage.
function newId() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

const SIGINT = 2;
// The phase of a grade, written by the worker where memory is shared (worker.js uses the same numbers).
export const PHASE = { running: 1, stopping: 2, reported: 3 };

export class Python {
  // isolated: the page may share memory with the worker, so an interrupt can reach Python.
  constructor(workerUrl, isolated) {
    this.interruptBuffer = isolated ? new Int32Array(new SharedArrayBuffer(4)) : null;
    this.phase = isolated ? new Int32Array(new SharedArrayBuffer(4)) : null;
    this.pending = new Map(); // id -> { resolve, reject, onMessage }
    this.ended = false;
    this.worker = new Worker(workerUrl, { type: "module" });
    this.worker.onmessage = ({ data }) => this.settle(data);
    this.worker.onerror = (event) => {
      event.preventDefault();
      this.end(new Error(`the worker failed: ${event.message || "it could not start"}`));
    };
  }

  // Load Pyodide and the grader; resolves to the worker's reply (with a snapshot when one was asked).
  // onProgress({ bytes } | { step }) hears each piece that arrives. No deadline while it moves: the
  // load fails when nothing has arrived for stallMs, or at once when a file cannot be fetched.
  load(message, { stallMs, onProgress = () => {} }) {
    let timer = null;
    const stalled = () => this.end(new Error(`nothing arrived for ${stallMs / 1000} s`));
    const moved = () => (clearTimeout(timer), (timer = setTimeout(stalled, stallMs)));
    moved();
    const onMessage = (data) => {
      if (data.failed) return this.end(new Error(String(data.failed)));
      moved();
      onProgress(data.step ? { step: String(data.step) } : { bytes: Number(data.bytes) || 0 });
    };
    const transfer = message.snapshot ? [message.snapshot.buffer] : []; // handed over, not copied again
    const loading = this.call(
      { type: "load", ...message, interrupt: this.interruptBuffer, phase: this.phase },
      { onMessage, transfer },
    );
    return loading.finally(() => clearTimeout(timer));
  }

  // Grade source; resolves to the report, rejects when the runtime fails or is ended.
  async grade(source, onOutput) {
    const { report } = await this.call({ type: "grade", source }, { onMessage: (data) => onOutput(String(data.text)) });
    return report;
  }

  // Ask Python to raise KeyboardInterrupt where it is (only where the page is cross-origin isolated).
  interrupt() {
    if (this.interruptBuffer) Atomics.store(this.interruptBuffer, 0, SIGINT);
  }

  // Whether Python has taken the interrupt: it resets the buffer when it raises KeyboardInterrupt.
  get interruptTaken() {
    return this.interruptBuffer !== null && Atomics.load(this.interruptBuffer, 0) === 0;
  }

  // Whether Python has left the learner's code for good (stopped, writing the report, or done with it):
  // seen at once, even while the report's message waits behind the page's other tasks.
  get finishing() {
    return this.phase !== null && Atomics.load(this.phase, 0) >= PHASE.stopping;
  }

  // Terminate the worker: whatever it runs stops at once; what waits on it is rejected.
  end(error = new Error("the runtime was ended")) {
    if (this.ended) return;
    this.ended = true;
    this.worker.terminate();
    for (const waiter of this.pending.values()) waiter.reject(error);
    this.pending.clear();
  }

  // Send a message; resolves to the reply with its id. onMessage hears the messages on the way
  // (output while grading, progress while loading).
  call(message, { onMessage, transfer = [] } = {}) {
    if (this.ended) return Promise.reject(new Error("the runtime was ended"));
    const id = newId();
    return new Promise((resolve, reject) => {
      const done = (settle) => (value) => (this.pending.delete(id), settle(value));
      this.pending.set(id, { resolve: done(resolve), reject: done(reject), onMessage });
      this.worker.postMessage({ ...message, id }, transfer);
    });
  }

  settle(data) {
    const waiter = this.pending.get(data?.id);
    if (!waiter) return; // not a reply of ours (learner code can post messages too)
    if (data.type === "output" || data.type === "progress") waiter.onMessage?.(data);
    else if (data.type === "failed") waiter.reject(Object.assign(new Error(String(data.message)), { line: data.line }));
    else waiter.resolve(data);
  }
}
