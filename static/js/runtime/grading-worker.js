// One grading worker, seen from the page: a worker in the runner frame (runner-frame.js). Load it, grade
// once, interrupt it, ask its state, end it.

// Unguessable ids: a worker is named by one, and so is each message to it and its reply.
function newId() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

// A step of the worker's load as a User Timing mark, at the time the worker took it (an epoch time).
function mark(step, at) {
  const startTime = at - performance.timeOrigin;
  performance.mark(`runtime: ${step}`, Number.isFinite(startTime) && startTime >= 0 ? { startTime } : undefined);
}

export class GradingWorker {
  constructor(frame) {
    this.frame = frame;
    this.name = newId();
    this.pending = new Map(); // id -> { resolve, reject, onMessage }
    this.ended = false;
    this.lastState = null; // { taken, finishing } when last asked
  }

  // Start the worker and load Pyodide and the grader; resolves to the worker's reply (with the
  // snapshot it took, when asked for one). Fails when nothing happens for stallMs. The User Timing marks
  // are for benchmarks/load.py's timeline.
  load(message, { stallMs }) {
    const id = newId();
    let timer = null;
    performance.mark("runtime: worker asked");
    const moved = (data) => {
      if (data?.step) mark(data.step === "started" ? "python started" : data.step, data.at);
      clearTimeout(timer);
      timer = setTimeout(() => this.end(new Error(`nothing happened for ${stallMs / 1000} s`)), stallMs);
    };
    moved();
    const loading = this.wait(id, moved);
    this.frame.spawn(this.name, { ...message, id }, { onMessage: (data) => this.settle(data), onError: (err) => this.end(err) });
    return loading.finally(() => {
      clearTimeout(timer);
      performance.mark("runtime: worker loaded");
    });
  }

  // Grade source; resolves to { report (parsed), taken }, rejects when the runtime fails or is ended.
  grade(source, onOutput) {
    return this.ask(onOutput, (id) => this.frame.grade(this.name, id, source));
  }

  // Run the scratch pad (after backward, unless null); resolves to { report: the Run's result, taken }.
  run({ scratch, backward }, onOutput) {
    return this.ask(onOutput, (id) => this.frame.run(this.name, id, scratch, backward));
  }

  async ask(onOutput, send) {
    const id = newId();
    const answered = this.wait(id, (data) => onOutput(String(data.text)));
    send(id);
    const { json, taken } = await answered;
    return { report: JSON.parse(json), taken };
  }

  // Ask Python to raise KeyboardInterrupt where it is (only where the runner is cross-origin isolated).
  interrupt() {
    if (!this.ended) this.frame.interrupt(this.name);
  }

  // Resolves to { taken, finishing }: whether Python took the interrupt, whether it has left the
  // learner's code for good (stopped, writing the report, or done). Null when the runner did not answer.
  async state(waitMs) {
    this.lastState = this.ended ? this.lastState : await this.frame.state(this.name, waitMs);
    return this.lastState;
  }

  // End the worker: whatever it runs stops at once; what waits on it is rejected.
  end(error = new Error("the runtime was ended")) {
    if (this.ended) return;
    this.ended = true;
    this.frame.end(this.name);
    for (const waiter of this.pending.values()) waiter.reject(error);
    this.pending.clear();
  }

  // Resolves to the reply with this id; onMessage hears the messages on the way.
  wait(id, onMessage) {
    if (this.ended) return Promise.reject(new Error("the runtime was ended"));
    return new Promise((resolve, reject) => {
      const done = (settle) => (value) => (this.pending.delete(id), settle(value));
      this.pending.set(id, { resolve: done(resolve), reject: done(reject), onMessage });
    });
  }

  settle(data) {
    const waiter = this.pending.get(data?.id);
    if (!waiter) return; // not a reply to anything asked
    if (data.type === "output" || data.type === "progress") waiter.onMessage?.(data);
    else if (data.type === "failed") waiter.reject(Object.assign(new Error(data.message), { line: data.line }));
    else waiter.resolve(data);
  }
}
