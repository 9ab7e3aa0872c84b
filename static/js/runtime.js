// The page's side of the runtime: a fresh Python for every Check, a time limit, and Stop.
//
// The first worker loads Pyodide, imports the grader and takes a snapshot of its memory (or, on a
// returning visit, starts from the snapshot this browser kept: stored-snapshot.js). Every Check
// then runs in a worker that has never run learner code, started from that snapshot (well under a
// second) while the learner reads the last report, and terminated when the Check is over. So nothing
// one Check does (patched modules, builtins, sys settings, timers, tasks, JavaScript globals)
// reaches the next, by construction, and runaway code is ended by terminating its worker. Where the
// page is cross-origin isolated, Stop first interrupts Python, so the report names the line it ran.

import { Python } from "./python.js";
import { keepSnapshot, snapshotKey } from "./stored-snapshot.js";

const MAX_SOURCE = 100_000; // characters; engine/grade.py refuses the same
const GRACE_MS = 1000; // after an interrupt: a worker still running is ended after one (not taken) or two
const REPORT_MS = 10_000; // the longest wait for a report once Python has left the learner's code
const PREPARE_AFTER_MS = 200; // a Check running longer shares the machine with the next one's runtime

export class Runtime {
  // onState(state, detail): "loading" | "ready" | "failed", for the page's status line.
  // onFresh(state): "loading" | "ready", whether the next Check's runtime is ready to start at once.
  // onProgress(received, expected): bytes of the first load's files so far, of those expected.
  constructor({ urls, cases, timeLimitMs, loadStallMs, loadBytes }, { onState, onFresh = () => {}, onProgress = () => {} }) {
    this.urls = urls;
    this.cases = cases;
    this.timeLimitMs = timeLimitMs;
    this.stallMs = loadStallMs;
    this.loadBytes = loadBytes;
    Object.assign(this, { onState, onFresh, onProgress });
    this.isolated = globalThis.crossOriginIsolated && typeof SharedArrayBuffer === "function";
    this.snapshot = null; // the first runtime's memory, grader imported: later ones start from it
    this.compiled = null; // the first runtime's WebAssembly.Module: later ones share its machine code
    this.startedFrom = null; // "stored" (the snapshot this browser kept) or "full"
    this.fresh = null; // Promise of the next runtime, loaded and never used
    this.current = null; // the Check under way, if any
    this.loaded = new Promise((resolve) => (this.firstReady = resolve)); // the first time Check can grade
  }

  // How Stop works here: "interrupt" (Python is interrupted first) or "restart" (the worker is ended).
  get stopMode() {
    return this.isolated ? "interrupt" : "restart";
  }

  // Load the first runtime; resolves when Check can grade, rejects with a clear Error. Called again
  // by Retry after a failure: the learner's code and the page stay as they are.
  start() {
    this.onState("loading");
    this.fresh = this.first();
    this.ready = this.fresh.then(
      () => {
        this.onState("ready");
        this.firstReady();
      },
      (err) => {
        this.onState("failed", err.message);
        throw err;
      },
    );
    return this.ready;
  }

  // The first runtime: from a snapshot (this session's, after a Retry, or the one this browser kept
  // for this build), else in full, taking the snapshot later runtimes start from and keeping it for
  // the next visit. A kept snapshot that does not restore is replaced by a full start's.
  async first() {
    const key = this.snapshot ? null : snapshotKey(this.urls, this.cases); // a Promise: the worker starts meanwhile
    let python;
    try {
      python = await this.spawn({ storedKey: key, makeSnapshot: true, progress: true });
    } catch (err) {
      if (!err.restoring) throw err;
      console.info(`The snapshot kept in this browser did not restore (${err.message}); starting in full.`);
      python = await this.spawn({ makeSnapshot: true, progress: true });
    }
    this.startedFrom = python.from;
    if (python.from === "full" && this.snapshot) key?.then((k) => k && keepSnapshot(k, this.snapshot)); // not awaited
    return python;
  }

  // Start a runtime in a new worker; resolves to it once it can grade. progress: report the bytes;
  // storedKey: (a Promise of) the key of the snapshot this browser may have kept.
  async spawn({ makeSnapshot = false, storedKey = null, progress = false } = {}) {
    const python = new Python(this.urls.worker, this.isolated);
    this.onFresh("loading");
    let received = 0;
    let restoring = false; // from the snapshot this browser kept
    const onProgress = ({ bytes = 0, step }) => {
      if (step === "restoring") restoring = true;
      if (progress) this.onProgress((received += bytes), this.loadBytes);
    };
    try {
      const snapshot = this.snapshot?.slice(); // a copy, handed over (transferred) to the worker
      const { compiled } = this;
      const message = { urls: this.urls, cases: this.cases, snapshot, storedKey: await storedKey, makeSnapshot, compiled };
      const reply = await python.load(message, { stallMs: this.stallMs, onProgress });
      if (reply.snapshot) this.snapshot = reply.snapshot;
      if (reply.compiled) this.compiled = reply.compiled; // later workers instantiate it: no compile of their own
      python.from = reply.from;
      if (!python.ended) this.onFresh("ready");
      return python;
    } catch (err) {
      python.end();
      throw Object.assign(new Error(`The Python runtime could not load: ${err.message}.`), { restoring });
    }
  }

  // Have a fresh runtime loading for the next Check; a failure is shown at once, and seen by that Check.
  // later: start it after this task, so that the Check that just ended gives its report first.
  prepare({ later = false } = {}) {
    this.fresh = later ? new Promise((resolve) => setTimeout(resolve)).then(() => this.spawn()) : this.spawn();
    this.fresh.catch((err) => this.onState("failed", err.message));
  }

  // Stop the Check under way: reason "timeout" (the time limit) or "stopped" (the Stop button).
  stop(reason) {
    const run = this.current;
    if (!run || run.reason) return;
    run.reason = reason;
    if (!run.python) return run.cancel(); // still waiting for a runtime: the code never runs
    run.python.interrupt();
    if (!this.isolated) return run.python.end();
    // Ended after a grace period, unless Python has left the learner's code (its report is being
    // written, or on its way): then it has up to REPORT_MS. An interrupt taken but not yet out of the
    // learner's code gets a second grace (a busy machine); code that catches it is ended after that.
    const grace = (waited) => {
      const { python } = run;
      const more = python.finishing ? waited < REPORT_MS : python.interruptTaken && waited < 2 * GRACE_MS;
      if (more) run.killTimer = setTimeout(() => grace(waited + GRACE_MS), GRACE_MS);
      else python.end();
    };
    run.killTimer = setTimeout(() => grace(GRACE_MS), GRACE_MS);
  }

  // Grade source; resolves to a report, never rejects: every failure becomes an error report.
  // waiting() is called when the Check must wait for Python to be ready.
  async grade(source, { waiting } = {}) {
    const started = performance.now();
    if (typeof source !== "string") return errorReport("syntax", "The code must be text.", started);
    if (source.length > MAX_SOURCE) {
      const size = source.length.toLocaleString("en");
      const max = MAX_SOURCE.toLocaleString("en");
      return errorReport("syntax", `Your code is ${size} characters; the limit is ${max}. It was not run.`, started);
    }
    const run = { reason: null, python: null, output: "", killTimer: null };
    run.cancelled = new Promise((resolve) => (run.cancel = resolve));
    this.current = run;
    try {
      const fresh = this.fresh;
      const first = await Promise.race([fresh.then(() => "ready", () => "ready"), Promise.resolve("waiting")]);
      if (first === "waiting") waiting?.();
      run.python = await Promise.race([fresh, run.cancelled]);
      if (!run.python) {
        return errorReport("timeout", "You stopped the Check before Python was ready: your code did not run.", started);
      }
      this.onFresh("loading"); // this Check has taken the fresh runtime: the next one waits for its own
      // The next Check's runtime loads once this one is over, or beside it when it runs long.
      const early = setTimeout(() => this.prepare(), PREPARE_AFTER_MS);
      try {
        return await this.run(run, source, started);
      } finally {
        if (this.fresh === fresh) {
          clearTimeout(early);
          this.prepare({ later: true });
        }
      }
    } catch (err) {
      return errorReport("crash", `${err.message} Your code is still in the editor; press Retry to load Python again.`, started);
    } finally {
      clearTimeout(run.killTimer);
      run.python?.end();
      if (this.current === run) this.current = null;
    }
  }

  async run(run, source, started) {
    const limit = setTimeout(() => this.stop("timeout"), this.timeLimitMs);
    try {
      const report = await run.python.grade(source, (text) => (run.output += text));
      if (!isReport(report)) throw new Error("the worker sent something that is not a report");
      if (run.reason && run.python.interruptTaken) {
        // Stopped, and Python took the interrupt: whatever the report says, the code did not finish.
        const interrupted = report.error?.message.startsWith("KeyboardInterrupt");
        const message = this.stopMessage(run, interrupted ? report.error.line : null, interrupted ? "interrupted" : "finished");
        return { ...errorReport("timeout", message, started, interrupted ? report.error.line : null), output: report.output };
      }
      return report; // it finished before any interrupt reached it
    } catch (err) {
      const output = { text: run.output, cut_chars: 0 };
      if (run.reason) {
        const { python } = run;
        const how = !this.isolated ? "ended" : python.finishing ? "slow" : python.interruptTaken ? "caught" : "busy";
        return { ...errorReport("timeout", this.stopMessage(run, null, how), started), output };
      }
      return { ...crashReport(err, started), output };
    } finally {
      clearTimeout(limit);
    }
  }

  // Say what happened to stopped code: interrupted (at a line), caught the interrupt, busy, slow to
  // report, or ended.
  stopMessage(run, line, how) {
    const at = line ? ` at line ${line}` : "";
    const what =
      run.reason === "stopped"
        ? "You stopped your code"
        : `Your code ran for more than ${this.timeLimitMs / 1000} s and was stopped`;
    const hint =
      run.reason === "stopped" ? "" : " Does a loop never end, or does the search revisit values it has already seen?";
    return {
      interrupted: `${what}${at}.${hint}`,
      caught: `${what}: it caught the KeyboardInterrupt and carried on, so its runtime was ended.${hint}`,
      finished: `${what}: it caught the KeyboardInterrupt and carried on to the end, so it does not count.${hint}`,
      slow: `${what}. Python stopped it, but did not finish writing the report in time, so its runtime was ended.${hint}`,
      busy: `${what}: it was busy in one long operation that cannot be interrupted, so its runtime was ended.${hint}`,
      ended: `${what}. This page cannot interrupt Python (it is not cross-origin isolated), so its runtime was ended and the line it was running is not known.${hint}`,
    }[how];
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

function errorReport(kind, message, started, line = null) {
  return {
    passed: false,
    expressions: [],
    error: { kind, message, line, traceback: "" },
    output: { text: "", cut_chars: 0 },
    ms: performance.now() - started,
  };
}

// The runtime itself died while running the learner's code: say so, with their line where Pyodide named it.
function crashReport(err, started) {
  const at = err.line ? ` while running line ${err.line} of your code` : "";
  const message =
    `The Python runtime died${at} (${err.message}). This happens when code recurses through __repr__, ` +
    "__del__ or a builtin such as map() deeper than the browser's stack. Your code is still in the editor; " +
    "the next Check runs in a fresh runtime.";
  return errorReport("crash", message, started, err.line ?? null);
}
