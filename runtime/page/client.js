// The runtime, seen from the page: one client with one state. The page loads it, hands it a Check or a
// Run, and stops it; it says what happens through "status" and "progress" events.
//
//   state     loading   the first runtime is loading (or again, after Retry)
//             ready     a task can start (it may wait a moment for its fresh runtime)
//             busy      a task (a Check or a Run) is running
//             stopping  the task was stopped (Stop, the time limit): Python is being interrupted or ended
//             dead      no runtime could load: load() again (Retry) tries afresh
//
// MOVES (below) lists which state may follow which, and set() holds the client to it. The pool of
// runtimes waiting for the next tasks is pool.js's.
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

import { Pool } from "./pool.js";
import { Reports } from "./reports.js";
import { stopMessage } from "./stop-message.js";
import { StoredSnapshot } from "./stored-snapshot.js";
import { Workers, newId } from "./workers.js";

const REPORT_MS = 10_000; // the longest wait for a report once Python has left the learner's code
const PREPARE_AFTER_MS = 200; // a task running longer shares the machine with the next one's runtime

// The client's states, and the states each may go to; set() refuses any other move. busy and stopping
// are exactly the time a task is under way, so a second task is refused here (busy cannot go to busy).
export const MOVES = {
  loading: ["ready", "dead", "busy"], // busy: a task asked while the runtime loads waits for it
  ready: ["busy", "dead"], // dead: the next task's runtime could not load
  busy: ["stopping", "ready", "loading", "dead"], // after a task, as the runtime then is (after())
  stopping: ["ready", "loading", "dead"],
  dead: ["loading", "busy"], // loading: Retry; busy: a task asked of a dead runtime fails at once
};

export class RuntimeClient extends EventTarget {
  // config: the page's (urls, cases, snapshotKey, timeLimitMs, stopGraceMs, loadStallMs, loadBytes, ...);
  // page: what the page lends the runtime, which knows nothing of it otherwise: words { t, number } (the
  // learner's language), names { runnerHello, snapshotCache, snapshotDigest, snapshotRead }, storage
  // { read, write, remove } (local storage); openFrame: frame.js's unless given (tests/runtime/client.mjs
  // gives a runner without a browser).
  constructor(config, { words, names, storage, openFrame }) {
    super();
    this.config = config;
    this.words = words;
    const limits = { outputChars: config.outputChars, learnerFile: config.learnerFile };
    const progress = (received, expected) => this.dispatchEvent(new CustomEvent("progress", { detail: { received, expected } }));
    this.workers = new Workers(config, limits, progress, { words, names }, openFrame); // the runner frame and its workers
    this.reports = new Reports(config.report, words);
    this.kept = new StoredSnapshot({ names, storage }); // the snapshot this browser keeps
    this.pool = new Pool({
      spawn: (options) => this.spawn(options),
      end: (worker) => this.workers.end(worker),
      fresh: (fresh, worker) => this.freshIs(fresh, worker),
      failed: (err) => this.fail(err),
    });
    this.state = "loading";
    this.detail = null; // why it is dead
    this.loading = false; // whether the first runtime (or Retry's) is loading
    this.failure = null; // why the next task's runtime could not load, until Retry
    this.startedFrom = null; // "stored" (the snapshot this browser kept), "full" or "memory" (a Retry)
    this.fresh = "loading"; // whether the next task's runtime is ready to start at once
    this.wasm = null; // "shared": the next runtime instantiated the frame's compiled wasm; "compiled": its own
    this.snapshot = null; // a Blob of the snapshot every task's runtime starts from
    this.task = null; // the task under way
    this.loaded = new Promise((resolve) => (this.firstLoaded = resolve)); // the first time a task can run
  }

  // How Stop works here: "interrupt" (Python is interrupted first) or "restart" (the worker is ended).
  get stopMode() {
    return this.workers.isolated ? "interrupt" : "restart";
  }

  // Move to another state (one MOVES allows: anything else is the client's mistake, thrown) and say so.
  set(state, detail = null) {
    if (!MOVES[this.state].includes(state)) throw new Error(`the runtime cannot go from ${this.state} to ${state}`);
    this.state = state;
    this.detail = detail;
    this.announce();
  }

  // The status event, for the page's status line, data-* and buttons.
  announce() {
    this.dispatchEvent(new CustomEvent("status", { detail: this.status() }));
  }

  status() {
    const { state, detail, fresh, wasm, startedFrom: start, stopMode: stop } = this;
    return { state, detail, fresh, wasm, start, stop };
  }

  // The state once a task is over: dead if the runtime a task needs could not load, else loading until
  // the first runtime has, else ready.
  after() {
    return this.failure !== null ? "dead" : this.loading ? "loading" : "ready";
  }

  // The next task's runtime could not load: dead now, or once the task under way is over.
  fail(err) {
    this.failure = err.message;
    if (!this.task && this.state !== "dead") this.set("dead", err.message);
  }

  // Load the first runtime; resolves when a task can run, rejects with a clear Error. Called again by
  // Retry after a failure: the learner's code and the page stay as they are. Loading or loaded already,
  // it only says so again.
  load() {
    if (this.ready && this.state !== "dead") return this.ready;
    performance.mark("runtime: start"); // for benchmarks/load.py's timeline
    if (this.state === "loading") this.announce(); // the first load
    else this.set("loading");
    this.loading = true;
    this.failure = null;
    this.ready = this.pool.fill(this.first()).then(
      () => {
        this.loading = false;
        if (!this.task) this.set("ready");
        this.firstLoaded();
      },
      (err) => {
        this.loading = false;
        this.fail(err);
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
    const key = this.kept.key(this.config.snapshotKey);
    this.snapshot = await this.kept.read(key);
    if (this.snapshot) {
      try {
        const worker = await this.spawn();
        this.startedFrom = "stored";
        return worker;
      } catch (err) {
        console.info(`The snapshot kept in this browser did not restore (${err.message}); starting in full.`);
        this.snapshot = null;
        await this.kept.forget();
      }
    }
    const boot = await this.spawn({ makeSnapshot: true });
    this.workers.end(boot);
    if (boot.made) {
      this.snapshot = new Blob([boot.made]);
      if (key) this.kept.keep(key, boot.made); // not awaited
    }
    const worker = await this.spawn(); // from the snapshot (in full, where none could be taken)
    this.startedFrom = "full";
    return worker;
  }

  // Start a runtime in a new worker; resolves to its record once it can run a task. makeSnapshot: start
  // in full and take the snapshot (worker.made); otherwise start from this.snapshot, or in full without
  // one. spare: prepared beside the next one, its readiness not reported (the pool reports it once next).
  async spawn({ makeSnapshot = false, spare = false } = {}) {
    if (!spare) this.freshIs("loading");
    try {
      const worker = await this.workers.start({ snapshot: makeSnapshot ? null : this.snapshot, makeSnapshot });
      if (!worker.ended && !spare) this.freshIs("ready", worker);
      return worker;
    } catch (err) {
      const { t } = this.words;
      throw new Error(t("The Python runtime could not load: {error}.", { error: err.message }));
    }
  }

  // Whether the next task's runtime is ready to start at once, and how it got its compiled wasm.
  freshIs(fresh, worker = null) {
    this.fresh = fresh;
    if (worker) this.wasm = worker.sharedWasm ? "shared" : "compiled";
    this.announce();
  }

  // Grade source; resolves to a report, and never rejects but to refuse a second task: every failure
  // becomes an error report. labels.waiting() is called when the Check must wait for its runtime,
  // labels.running() once it has it.
  check(source, labels) {
    // The grader refuses code that is not text or too long (engine/errors.py refusal).
    return this.use("check", (worker, id) => this.workers.ask(worker, "grade", { id, source }), labels);
  }

  // Run the scratch pad ({ scratch, backward }: backward null to leave the learner's out); resolves to the
  // Run's result (engine/scratch.py). The same fresh runtime, limit, Stop and refusal as a Check.
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
    this.workers.interrupt(worker);
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

  // A task, one at a time: a Check or Run asked while another is under way is refused (rejects, its
  // code never runs); the page waits for one task to end before it asks the next.
  use(kind, ask, labels = {}) {
    if (!MOVES[this.state].includes("busy")) {
      const refused = new Error(`the runtime runs one task at a time: a ${this.task.kind} is under way`);
      refused.name = "BusyError";
      return Promise.reject(refused);
    }
    return this.perform(kind, ask, labels);
  }

  // Take the fresh runtime, ask it, render its answer into a report (or Run result).
  async perform(kind, ask, { waiting, running }) {
    const { t } = this.words;
    const started = performance.now();
    const failed = (errorKind, message, more = {}) => this.reports.failed(errorKind, message, { task: kind, started, ...more });
    const task = { kind, reason: null, worker: null, output: "", killTimer: null, failed };
    task.cancelled = new Promise((resolve) => (task.cancel = resolve));
    this.set("busy"); // MOVES refuses it while a task is under way
    this.task = task;
    try {
      const next = this.pool.next;
      if (this.pool.waiting) waiting?.();
      task.worker = await Promise.race([next, task.cancelled]);
      if (!task.worker) {
        const said = kind === "run" ? t("You stopped the Run before Python was ready: your code did not run.") : t("You stopped the Check before Python was ready: your code did not run.");
        return failed("timeout", said);
      }
      running?.();
      this.freshIs("loading"); // this task has taken the fresh runtime: the next one waits for its own
      // The next task's runtime loads once this one is over, or beside it when it runs long.
      const early = setTimeout(() => this.pool.prepare(), PREPARE_AFTER_MS);
      try {
        return await this.answer(task, ask);
      } finally {
        if (this.pool.next === next) {
          clearTimeout(early);
          this.pool.prepare({ later: true });
        }
      }
    } catch (err) {
      return failed("crash", t("{error} Your code is still in the editor; press Retry to load Python again.", { error: err.message }));
    } finally {
      clearTimeout(task.killTimer);
      if (task.worker) this.workers.end(task.worker);
      this.task = null;
      this.set(this.after(), this.failure);
    }
  }

  // Ask the task's runtime and wait for its answer within the time limit; a stopped task's answer says so.
  async answer(task, ask) {
    const { failed, worker } = task;
    const { words } = this;
    const { t } = words;
    const limit = setTimeout(() => this.stop("timeout"), this.config.timeLimitMs);
    const timeLimitMs = this.config.timeLimitMs;
    const cap = this.config.outputChars; // what the page keeps of the output, capped here too, whatever path it came by
    try {
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
        const message = stopMessage({ reason: task.reason, timeLimitMs, line, how, printed }, words);
        return failed("timeout", message, { line, output: report.output });
      }
      return report; // it finished before any interrupt reached it
    } catch (err) {
      const output = { ...this.reports.shape.failed.output, text: task.output };
      if (task.reason) {
        const state = worker.lastState; // as the last grace period found it
        const how = !this.workers.isolated ? "ended" : !state ? "died" : state.finishing ? "slow" : state.taken ? "caught" : "busy";
        const printed = task.output.length >= cap;
        const message = stopMessage({ reason: task.reason, timeLimitMs, line: null, how, printed }, words);
        return failed("timeout", message, { output });
      }
      return failed("crash", this.reports.crashMessage(err), { line: err.line ?? null, output });
    } finally {
      clearTimeout(limit);
    }
  }
}
