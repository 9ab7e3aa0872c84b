// The page's side of the worker: start it, load it, grade with a time limit, stop runaway code.
// Stop interrupts Python through a SharedArrayBuffer when the page is cross-origin isolated;
// otherwise (and for code that ignores the interrupt) the worker is terminated and started again.

const MAX_SOURCE = 100_000; // characters; engine/grade.py refuses the same
const GRACE_MS = 2000; // after an interrupt, code still running by then is terminated
const SIGINT = 2;

// Unguessable ids, so code in the worker cannot forge a reply with postMessage.
function newId() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

export class Runtime {
  constructor({ urls, cases, timeLimitMs, loadLimitMs }, onState) {
    this.urls = urls;
    this.cases = cases;
    this.timeLimitMs = timeLimitMs;
    this.loadLimitMs = loadLimitMs;
    this.onState = onState; // (state: "loading" | "ready" | "failed", detail?: string) => void
    this.pending = new Map(); // id -> { resolve, reject }
    this.current = null; // the grading run under way, if any
    this.isolated = globalThis.crossOriginIsolated && typeof SharedArrayBuffer === "function";
    this.interrupt = null;
  }

  // How Stop works here: "interrupt" (same runtime) or "restart" (a fresh worker).
  get stopMode() {
    return this.isolated ? "interrupt" : "restart";
  }

  // Start a fresh worker and load it; resolves when it can grade, rejects with a clear Error.
  start() {
    this.worker?.terminate();
    this.rejectAll(new Error("the runtime was restarted"));
    this.onState("loading");
    // A new buffer for each worker: a stop the old one never saw must not reach the new one.
    this.interrupt = this.isolated ? new Int32Array(new SharedArrayBuffer(4)) : null;
    const worker = new Worker(this.urls.worker, { type: "module" });
    this.worker = worker;
    worker.onmessage = ({ data }) => worker === this.worker && this.settle(data);
    worker.onerror = (event) => {
      event.preventDefault();
      if (worker === this.worker) this.rejectAll(new Error(`the worker failed: ${event.message || "it could not start"}`));
    };
    const message = { type: "load", urls: this.urls, cases: this.cases, interrupt: this.interrupt };
    this.ready = this.send(message, this.loadLimitMs).then(
      () => worker === this.worker && this.onState("ready"),
      (err) => {
        const error = new Error(`The Python runtime could not load: ${err.message}`);
        if (worker === this.worker) this.onState("failed", error.message);
        throw error;
      },
    );
    return this.ready;
  }

  // Post a message and wait for the reply with the same id (at most limitMs, when given).
  send(message, limitMs) {
    const id = newId();
    return new Promise((resolve, reject) => {
      const timer = limitMs && setTimeout(() => {
        this.pending.delete(id);
        reject(new Error(`no answer within ${limitMs / 1000} s`));
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
    if (!waiter) return; // not a reply of ours (learner code can post messages too)
    this.pending.delete(data.id);
    if (data.type === "failed") waiter.reject(new Error(String(data.message)));
    else waiter.resolve(data);
  }

  rejectAll(error) {
    for (const waiter of this.pending.values()) waiter.reject(error);
    this.pending.clear();
  }

  restart() {
    this.start().catch(() => {}); // a failed load is shown by onState and seen by the next grade
  }

  // Stop the run under way: reason "timeout" (the time limit) or "stopped" (the Stop button).
  stop(reason) {
    const run = this.current;
    if (!run || run.reason) return;
    run.reason = reason;
    if (this.interrupt) {
      Atomics.store(this.interrupt, 0, SIGINT);
      run.killTimer = setTimeout(() => ((run.killed = true), this.restart()), GRACE_MS);
    } else {
      this.restart();
    }
  }

  // Grade source; resolves to a report, never rejects: every failure becomes an error report.
  async grade(source) {
    const started = performance.now();
    if (typeof source !== "string") return errorReport("syntax", "The code must be text.", started);
    if (source.length > MAX_SOURCE) {
      const size = source.length.toLocaleString("en");
      const max = MAX_SOURCE.toLocaleString("en");
      return errorReport("syntax", `Your code is ${size} characters; the limit is ${max}. It was not run.`, started);
    }
    try {
      await this.ready;
    } catch (err) {
      return errorReport("crash", `${err.message} Reload the page to try again.`, started);
    }
    const run = { reason: null, killTimer: null, killed: false };
    this.current = run;
    if (this.interrupt) Atomics.store(this.interrupt, 0, 0);
    const limit = setTimeout(() => this.stop("timeout"), this.timeLimitMs);
    try {
      const { report } = await this.send({ type: "grade", source });
      if (!isReport(report)) throw new Error("the worker sent something that is not a report");
      if (run.reason && report.error?.message.startsWith("KeyboardInterrupt")) {
        return { ...report, error: { ...report.error, kind: "timeout", message: this.stopMessage(run, report.error.line) } };
      }
      return report;
    } catch (err) {
      if (run.reason) return errorReport("timeout", this.stopMessage(run, null), started);
      this.restart();
      return errorReport(
        "crash",
        `The Python runtime crashed (${err.message}). This is usually code that exhausts memory or ` +
          "the browser's stack. A fresh runtime is loading; your code is still in the editor.",
        started,
      );
    } finally {
      clearTimeout(limit);
      clearTimeout(run.killTimer);
      if (this.current === run) this.current = null;
    }
  }

  stopMessage(run, line) {
    const at = line ? ` at line ${line}` : "";
    const what =
      run.reason === "stopped"
        ? `You stopped your code${at}.`
        : `Your code ran for more than ${this.timeLimitMs / 1000} s and was stopped${at}. ` +
          "Does a loop never end, or does the search revisit values it has already seen?";
    if (run.killed) return `${what} It caught KeyboardInterrupt and carried on, so the runtime was restarted.`;
    if (this.stopMode === "restart") return `${what} The runtime was restarted.`;
    return what;
  }
}

// A report as engine/grade.py makes it; anything else from the worker counts as a crash.
function isReport(r) {
  return (
    r !== null &&
    typeof r === "object" &&
    typeof r.passed === "boolean" &&
    Array.isArray(r.expressions) &&
    r.expressions.every((e) => typeof e?.name === "string" && Array.isArray(e.cases)) &&
    (r.error === null || (typeof r.error === "object" && typeof r.error.message === "string"))
  );
}

function errorReport(kind, message, started) {
  return {
    passed: false,
    expressions: [],
    error: { kind, message, line: null, traceback: "" },
    output: { text: "", cut_chars: 0 },
    ms: performance.now() - started,
  };
}
