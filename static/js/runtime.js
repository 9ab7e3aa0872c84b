// The page's side of the worker: start it, load it, grade with a time limit, restart it.

export class Runtime {
  constructor({ urls, cases, timeLimitMs, loadLimitMs }, onState) {
    this.urls = urls;
    this.cases = cases;
    this.timeLimitMs = timeLimitMs;
    this.loadLimitMs = loadLimitMs;
    this.onState = onState; // (state: "loading" | "ready" | "failed", detail?: string) => void
    this.nextId = 1;
    this.pending = new Map(); // id -> { resolve, reject }
  }

  // Start a fresh worker and load it; resolves when it can grade, rejects with a clear Error.
  start() {
    this.worker?.terminate();
    this.rejectAll(new Error("the runtime was restarted"));
    this.onState("loading");
    this.worker = new Worker(this.urls.worker, { type: "module" });
    this.worker.onmessage = ({ data }) => this.settle(data);
    this.worker.onerror = (event) => {
      event.preventDefault();
      this.rejectAll(new Error(`the worker failed: ${event.message || "it could not start"}`));
    };
    const loaded = this.send({ type: "load", urls: this.urls, cases: this.cases }, this.loadLimitMs);
    this.ready = loaded.then(
      () => this.onState("ready"),
      (err) => {
        const error = new Error(`The Python runtime could not load: ${err.message}`);
        this.onState("failed", error.message);
        throw error;
      },
    );
    return this.ready;
  }

  // Post a message and wait for the reply with the same id, at most limitMs.
  send(message, limitMs) {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(Object.assign(new Error(`no answer within ${limitMs / 1000} s`), { timeout: true }));
      }, limitMs);
      this.pending.set(id, {
        resolve: (v) => (clearTimeout(timer), resolve(v)),
        reject: (e) => (clearTimeout(timer), reject(e)),
      });
      this.worker.postMessage({ ...message, id });
    });
  }

  settle(data) {
    const waiter = this.pending.get(data?.id);
    if (!waiter) return;
    this.pending.delete(data.id);
    if (data.type === "failed") waiter.reject(new Error(data.message));
    else waiter.resolve(data);
  }

  rejectAll(error) {
    for (const waiter of this.pending.values()) waiter.reject(error);
    this.pending.clear();
  }

  // Grade source; resolves to a report, never rejects: every failure becomes an error report.
  async grade(source) {
    const started = performance.now();
    try {
      await this.ready;
    } catch (err) {
      return errorReport("crash", err.message, started);
    }
    try {
      const { report } = await this.send({ type: "grade", source }, this.timeLimitMs);
      return report;
    } catch (err) {
      if (err.timeout) {
        this.start().catch(() => {}); // the only way to stop code that never returns
        return errorReport(
          "timeout",
          `Your code ran for more than ${this.timeLimitMs / 1000} s and was stopped. ` +
            "Does a loop never end, or does the search revisit values it has already seen?",
          started,
        );
      }
      this.start().catch(() => {});
      return errorReport("crash", `The Python runtime failed: ${err.message}. It has been restarted.`, started);
    }
  }
}

function errorReport(kind, message, started) {
  return {
    passed: false,
    expressions: [],
    error: { kind, message, line: null },
    ms: performance.now() - started,
  };
}
