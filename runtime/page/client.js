// The runtime, seen from the page: one client with one state. The page loads it, hands it a Check or a
// Run, and stops it; it says what happens through "status" and "progress" events.
//
//   state     loading   the first runtime is loading (or again, after Retry)
//             ready     a task can start (it may wait a moment for its fresh runtime)
//             busy      a task (a Check or a Run) is running
//             stopping  the task was stopped (Stop, the time limit): Python is being interrupted or ended
//             dead      no runtime could load: load() again (Retry) tries afresh
//
// MOVES (below) lists which state may follow which, and set() holds the client to it. The first runtime
// and the snapshot the others start from are first-runtime.js's; the runtimes waiting for the next tasks
// are pool.js's; the task under way, its time limit and how Stop ends it, task.js's.
//
// Workers run in the runner frame (frame.js, runner/runner.js): a sandboxed iframe whose opaque origin
// learner code can write nothing the page or a later visit reads. The page fetches the runtime's files
// and hands them over. Every task runs in a worker that has never run learner code, restored from a
// snapshot while the learner reads the last report, and ended when the task is over: nothing one Check
// does reaches the next, and runaway code is ended by ending its worker. Every message to the frame is
// one of runtime/protocol.js's.

import { FirstRuntime } from "./first-runtime.js";
import { Pool } from "./pool.js";
import { Reports } from "./reports.js";
import { Task } from "./task.js";
import { Workers } from "./workers.js";

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
  // config: the page's (urls, cases, snapshotKey, home, timeLimitMs, stopGraceMs, loadStallMs, loadBytes, ...);
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
    const spawn = (options) => this.spawn(options);
    const { snapshotKey, home } = config;
    this.first = new FirstRuntime({ workers: this.workers, kept: { names, storage }, snapshotKey, home, spawn });
    this.pool = new Pool({
      spawn,
      end: (worker) => this.workers.end(worker),
      fresh: (fresh, worker) => this.freshIs(fresh, worker),
      failed: (err) => this.fail(err),
    });
    this.state = "loading";
    this.detail = null; // why it is dead
    this.loading = false; // whether the first runtime (or Retry's) is loading
    this.failure = null; // why the next task's runtime could not load, until Retry
    this.fresh = "loading"; // whether the next task's runtime is ready to start at once
    this.wasm = null; // "shared": the next runtime instantiated the frame's compiled wasm; "compiled": its own
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
    const { state, detail, fresh, wasm, stopMode: stop } = this;
    return { state, detail, fresh, wasm, start: this.first.startedFrom, stop };
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
    this.ready = this.pool.fill(this.first.load()).then(
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

  // Move to another exercise without loading Python again (the page's in-page move to the next
  // exercise of a course): config is that exercise's page's, as for the constructor. The runner frame,
  // its files and compiled wasm stay; the runtimes prepared for this exercise are ended unused, and the
  // next task's restores the build's snapshot (no exercise, no learner code in it) and loads the new
  // exercise, until that exercise's own snapshot is taken. Only when ready, no task under way (else it
  // rejects: the page then loads the other exercise's page in full). Resolves once a task can run.
  async switchTo(config) {
    const refuse = () => {
      if (this.state !== "ready" || this.task) throw new Error("the runtime is not ready"); // the page's, not shown
    };
    refuse();
    await this.workers.useEngine(config.urls.engine);
    refuse();
    for (const key of Object.keys(this.config)) if (!(key in config)) delete this.config[key];
    Object.assign(this.config, config); // the object the workers read their cases and catalogue from
    this.reports = new Reports(config.report, this.words);
    const unused = [this.pool.next, ...this.pool.spares.splice(0)];
    const exercise = this.first.switched();
    const next = this.pool.fill(this.spawn());
    next.catch((err) => this.fail(err));
    for (const runtime of unused) runtime?.then((worker) => this.workers.end(worker), () => {});
    await next;
    this.first.ownSnapshot = this.first.takeOwn(exercise); // not awaited: while the learner reads
  }

  // Start a runtime in a new worker; resolves to its record once it can run a task. It starts from
  // snapshot (first-runtime.js's, unless given; null: in full); makeSnapshot: it takes one (worker.made).
  // spare: prepared beside the next one, its readiness not reported (the pool reports it once next).
  async spawn({ makeSnapshot = false, spare = false, snapshot = this.first.snapshot } = {}) {
    if (!spare) this.freshIs("loading");
    try {
      const worker = await this.workers.start({ snapshot, makeSnapshot });
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
    task.stop();
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
    const task = new Task(kind, this);
    this.set("busy"); // MOVES refuses it while a task is under way
    this.task = task;
    try {
      const next = this.pool.next;
      if (this.pool.waiting) waiting?.();
      task.worker = await Promise.race([next, task.cancelled]);
      if (!task.worker) return task.neverRan();
      running?.();
      this.freshIs("loading"); // this task has taken the fresh runtime: the next one waits for its own
      // The next task's runtime loads once this one is over, or beside it when it runs long.
      const early = setTimeout(() => this.pool.prepare(), PREPARE_AFTER_MS);
      try {
        return await task.answer(ask, () => this.stop("timeout"));
      } finally {
        if (this.pool.next === next) {
          clearTimeout(early);
          this.pool.prepare({ later: true });
        }
      }
    } catch (err) {
      return task.failed("crash", t("{error} Your code is still in the editor; press Retry to load Python again.", { error: err.message }));
    } finally {
      task.end();
      this.task = null;
      this.set(this.after(), this.failure);
    }
  }
}
