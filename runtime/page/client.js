// The runtime, seen from the page: one client with one state. The page loads it, hands it a Check or a
// Run, and stops it; it says what happens through "status" and "progress" events.
//
//   state     loading   the first runtime is loading (or again, after Retry)
//             ready     a task can start (it may wait a moment for its fresh runtime)
//             busy      a task (a Check or a Run) is running
//             stopping  the task was stopped (Stop, the time limit): Python is being interrupted or ended
//             dead      no runtime could load: load() again (Retry) tries afresh
//
// Workers run in the runner frame (frame.js, runner/runner.js): a sandboxed iframe whose opaque origin
// learner code can write nothing the page or a later visit reads. The page fetches the runtime's files
// and hands them over. The first worker loads Pyodide, imports the grader, takes a snapshot of its memory
// and is ended (on a returning visit, the snapshot this browser kept is used: stored-snapshot.js).
// Every task then runs in a worker that has never run learner code, restored from that snapshot while
// the learner reads the last report, and ended when the task is over: nothing one Check does reaches
// the next, and runaway code is ended by ending its worker. Where the frame is cross-origin isolated,
// Stop first interrupts Python, so the report names the line it ran. Every message to the frame is one
// of runtime/protocol.js's.

import { number, t } from "../../static/js/shared/i18n.js";
import { Reports } from "./reports.js";
import { stopMessage } from "./stop-message.js";
import { forgetSnapshot, keepSnapshot, snapshotKey, storedSnapshot } from "./stored-snapshot.js";
import { Workers, newId } from "./workers.js";

const REPORT_MS = 10_000; // the longest wait for a report once Python has left the learner's code
const PREPARE_AFTER_MS = 200; // a task running longer shares the machine with the next one's runtime
// Checks back to back (a script grading many submissions, a double press): when a task's runtime is taken
// less than QUICK_MS after the last one was, SPARES more runtimes are prepared beside the next one, each
// started from the snapshot and never used before. A restored runtime waiting holds about 100 MB
// (docs/security.md): the spares cost up to 200 MB more while Checks come quickly, and are ended once none
// has been taken for SPARE_IDLE_MS.
const SPARES = 2;
const QUICK_MS = 2000;
const SPARE_IDLE_MS = 10_000;

export class RuntimeClient extends EventTarget {
  constructor(config) {
    super();
    this.config = config; // urls, cases, snapshotKey, timeLimitMs, stopGraceMs, loadStallMs, loadBytes, ...
    this.limits = { outputChars: config.outputChars, learnerFile: config.learnerFile };
    const progress = (received, expected) => this.dispatchEvent(new CustomEvent("progress", { detail: { received, expected } }));
    this.workers = new Workers(config, this.limits, progress); // the runner frame and its workers
    this.reports = new Reports(config.report);
    this.state = "loading";
    this.detail = null; // why it is dead
    this.startedFrom = null; // "stored" (the snapshot this browser kept), "full" or "memory" (a Retry)
    this.fresh = "loading"; // whether the next task's runtime is ready to start at once
    this.wasm = null; // "shared": the next runtime instantiated the frame's compiled wasm; "compiled": its own
    this.snapshot = null; // a Blob of the snapshot every task's runtime starts from
    this.next = null; // Promise of the next task's runtime, loaded and never used
    this.spares = []; // Promises of more such runtimes, while tasks come quickly
    this.settled = new WeakSet(); // the runtime Promises that have settled: a task knows at once to wait
    this.preparedAt = -Infinity;
    this.sparesTimer = null;
    this.task = null; // the task under way
    this.loaded = new Promise((resolve) => (this.firstLoaded = resolve)); // the first time a task can run
  }

  // How Stop works here: "interrupt" (Python is interrupted first) or "restart" (the worker is ended).
  get stopMode() {
    return this.workers.isolated ? "interrupt" : "restart";
  }

  // Say what the runtime is doing: the status event, for the page's status line, data-* and buttons.
  set(state, detail = null) {
    this.state = state;
    this.detail = detail;
    this.dispatchEvent(new CustomEvent("status", { detail: this.status() }));
  }

  status() {
    const { state, detail, fresh, wasm, startedFrom: start, stopMode: stop } = this;
    return { state, detail, fresh, wasm, start, stop };
  }

  // Load the first runtime; resolves when a task can run, rejects with a clear Error. Called again by
  // Retry after a failure: the learner's code and the page stay as they are.
  load() {
    performance.mark("runtime: start"); // for benchmarks/load.py's timeline
    this.set("loading");
    this.next = this.track(this.first());
    this.ready = this.next.then(
      () => {
        this.set("ready");
        this.firstLoaded();
      },
      (err) => {
        this.set("dead", err.message);
        throw err;
      },
    );
    return this.ready;
  }

  // The first runtime. Every task runs in a runtime restored from a snapshot that no learner code has
  // touched: the one this browser kept for this build (checked against its digest), or one taken now by
  // a runtime started in full, which then is ended without running anything else.
  async first() {
    if (this.snapshot) return this.spawn().then((worker) => ((this.startedFrom = "memory"), worker)); // a Retry
    this.workers.open().catch(() => {}); // the files and the runner frame while the snapshot is read (seen by spawn)
    const key = snapshotKey(this.config.snapshotKey);
    this.snapshot = await storedSnapshot(key);
    if (this.snapshot) {
      try {
        const worker = await this.spawn();
        this.startedFrom = "stored";
        return worker;
      } catch (err) {
        console.info(`The snapshot kept in this browser did not restore (${err.message}); starting in full.`);
        this.snapshot = null;
        await forgetSnapshot();
      }
    }
    const boot = await this.spawn({ makeSnapshot: true });
    this.workers.end(boot);
    if (boot.made) {
      this.snapshot = new Blob([boot.made]);
      if (key) keepSnapshot(key, boot.made); // not awaited
    }
    const worker = await this.spawn(); // from the snapshot (in full, where none could be taken)
    this.startedFrom = "full";
    return worker;
  }

  // Start a runtime in a new worker; resolves to its record once it can run a task. makeSnapshot: start
  // in full and take the snapshot (worker.made); otherwise start from this.snapshot, or in full without
  // one. spare: prepared beside the next one, its readiness not reported (prepare reports it once next).
  async spawn({ makeSnapshot = false, spare = false } = {}) {
    if (!spare) this.freshIs("loading");
    try {
      const worker = await this.workers.start({ snapshot: makeSnapshot ? null : this.snapshot, makeSnapshot });
      if (!worker.ended && !spare) this.freshIs("ready", worker);
      return worker;
    } catch (err) {
      throw new Error(t("The Python runtime could not load: {error}.", { error: err.message }));
    }
  }

  // Whether the next task's runtime is ready to start at once, and how it got its compiled wasm.
  freshIs(fresh, worker = null) {
    this.fresh = fresh;
    if (worker) this.wasm = worker.sharedWasm ? "shared" : "compiled";
    this.dispatchEvent(new CustomEvent("status", { detail: this.status() }));
  }

  // Have a fresh runtime loading for the next task; a failure is shown at once, and seen by that task.
  // later: start it after this task, so that the task that just ended gives its report first. A spare,
  // when there is one, is next at once; tasks that come quickly keep SPARES prepared.
  prepare({ later = false } = {}) {
    const quick = performance.now() - this.preparedAt < QUICK_MS;
    this.preparedAt = performance.now();
    const spare = this.spares.shift();
    if (spare) {
      this.freshIs("loading");
      spare.then((worker) => this.next === spare && !worker.ended && this.freshIs("ready", worker), () => {});
    }
    this.next =
      spare ?? this.track(later ? new Promise((resolve) => setTimeout(resolve)).then(() => this.spawn()) : this.spawn());
    this.next.catch((err) => this.set("dead", err.message));
    if (!quick && !this.spares.length) return;
    while (this.spares.length < SPARES) {
      const next = this.track(this.spawn({ spare: true }));
      next.catch(() => {}); // seen by the task that takes it, as next
      this.spares.push(next);
    }
    clearTimeout(this.sparesTimer);
    this.sparesTimer = setTimeout(() => {
      for (const unused of this.spares.splice(0)) unused.then((worker) => this.workers.end(worker), () => {});
    }, SPARE_IDLE_MS);
  }

  // Note when a runtime Promise settles, so a task knows at once whether it must wait.
  track(promise) {
    const note = () => this.settled.add(promise);
    promise.then(note, note);
    return promise;
  }

  // Grade source; resolves to a report, never rejects: every failure becomes an error report.
  // labels.waiting() is called when the Check must wait for its runtime, labels.running() once it has it.
  check(source, labels) {
    // The grader refuses code that is not text or too long (engine/errors.py refusal).
    return this.use("check", (worker, id) => this.workers.ask(worker, "grade", { id, source }), labels);
  }

  // Run the scratch pad ({ scratch, backward }: backward null to leave the learner's out); resolves to the
  // Run's result (engine/scratch.py), never rejects. The same fresh runtime, limit and Stop as a Check.
  run({ scratch, backward }, labels) {
    return this.use("run", (worker, id) => this.workers.ask(worker, "run", { id, scratch, backward }), labels);
  }

  // Stop the task under way: reason "timeout" (the time limit) or "stopped" (the Stop button).
  stop(reason) {
    const task = this.task;
    if (!task || task.reason) return;
    task.reason = reason;
    this.set("stopping");
    if (!task.worker) return task.cancel(); // still waiting for a runtime: the code never runs
    const { worker } = task;
    this.workers.ask(worker, "interrupt");
    if (!this.workers.isolated) return this.workers.end(worker);
    // Ended after a grace period, unless Python has left the learner's code (its report is being
    // written, or on its way): then it has up to REPORT_MS. An interrupt taken but not yet out of the
    // learner's code gets a second grace (a busy machine); code that catches it is ended after that.
    const graceMs = this.config.stopGraceMs;
    const grace = async (waited) => {
      const state = await this.workers.state(worker, graceMs); // null: the frame did not answer, and is gone
      if (worker.ended) return;
      const more = state && (state.finishing ? waited < REPORT_MS : state.taken && waited < 2 * graceMs);
      if (more) task.killTimer = setTimeout(() => grace(waited + graceMs), graceMs);
      else this.workers.end(worker);
    };
    task.killTimer = setTimeout(() => grace(graceMs), graceMs);
  }

  // A task: take the fresh runtime, ask it, render its answer into a report (or Run result).
  async use(kind, ask, { waiting, running } = {}) {
    const started = performance.now();
    const failed = (errorKind, message, more = {}) => this.reports.failed(errorKind, message, { task: kind, started, ...more });
    const task = { kind, reason: null, worker: null, output: "", killTimer: null, failed };
    task.cancelled = new Promise((resolve) => (task.cancel = resolve));
    this.task = task;
    const dead = this.state === "dead" ? this.detail : null; // a task asked of a dead runtime fails, still dead
    this.set("busy");
    try {
      const next = this.next;
      if (!this.settled.has(next)) waiting?.();
      task.worker = await Promise.race([next, task.cancelled]);
      if (!task.worker) {
        const said = kind === "run" ? t("You stopped the Run before Python was ready: your code did not run.") : t("You stopped the Check before Python was ready: your code did not run.");
        return failed("timeout", said);
      }
      running?.();
      this.freshIs("loading"); // this task has taken the fresh runtime: the next one waits for its own
      // The next task's runtime loads once this one is over, or beside it when it runs long.
      const early = setTimeout(() => this.prepare(), PREPARE_AFTER_MS);
      try {
        return await this.answer(task, ask);
      } finally {
        if (this.next === next) {
          clearTimeout(early);
          this.prepare({ later: true });
        }
      }
    } catch (err) {
      return failed("crash", t("{error} Your code is still in the editor; press Retry to load Python again.", { error: err.message }));
    } finally {
      clearTimeout(task.killTimer);
      if (task.worker) this.workers.end(task.worker);
      if (this.task === task) {
        this.task = null;
        if (this.state === "busy" || this.state === "stopping") this.set(dead === null ? "ready" : "dead", dead);
      }
    }
  }

  // Ask the task's runtime and wait for its answer within the time limit; a stopped task's answer says so.
  async answer(task, ask) {
    const { failed, worker } = task;
    const limit = setTimeout(() => this.stop("timeout"), this.config.timeLimitMs);
    const timeLimitMs = this.config.timeLimitMs;
    try {
      // What the page keeps of the output is capped here too, whatever path it came by.
      const cap = this.limits.outputChars;
      const id = newId();
      const answered = this.workers.wait(worker, id, (data) => (task.output = (task.output + String(data.text)).slice(0, cap)));
      ask(worker, id);
      const { json, taken } = await answered;
      const report = JSON.parse(json);
      if (!this.reports.isResult(task.kind, report)) throw new Error(t("the worker sent something that is not a report"));
      if (task.reason && taken) {
        // Stopped, and Python took the interrupt: whatever the report says, the code did not finish.
        const interrupted = report.error?.message.startsWith("KeyboardInterrupt");
        const line = interrupted ? report.error.line : null;
        const how = interrupted ? "interrupted" : "finished";
        const printed = report.output.cut_chars > 0;
        const message = stopMessage({ reason: task.reason, timeLimitMs, line, how, printed });
        return failed("timeout", message, { line, output: report.output });
      }
      return report; // it finished before any interrupt reached it
    } catch (err) {
      const output = { ...this.reports.shape.failed.output, text: task.output };
      if (task.reason) {
        const state = worker.lastState; // as the last grace period found it
        const how = !this.workers.isolated ? "ended" : !state ? "died" : state.finishing ? "slow" : state.taken ? "caught" : "busy";
        const printed = task.output.length >= this.limits.outputChars;
        const message = stopMessage({ reason: task.reason, timeLimitMs, line: null, how, printed });
        return failed("timeout", message, { output });
      }
      return failed("crash", this.reports.crashMessage(err), { line: err.line ?? null, output });
    } finally {
      clearTimeout(limit);
    }
  }
}
