// The page's side of the runtime: a fresh Python for every Check, a time limit, and Stop.
//
// Workers run in the runner frame (runner-frame.js, runner.js), an opaque origin: learner code there can
// write nothing the page or a later visit reads. The page fetches the runtime's files and hands them
// over. The first worker loads Pyodide, imports the grader, takes a snapshot of its memory and is
// ended (on a returning visit, the snapshot this browser kept is used instead: stored-snapshot.js).
// Every Check then runs in a worker that has never run learner code, started from that snapshot (well
// under a second) while the learner reads the last report, and ended when the Check is over. So
// nothing one Check does (patched modules, builtins, sys settings, timers, tasks, JavaScript globals)
// reaches the next, by construction, and runaway code is ended by ending its worker. Where the frame
// is cross-origin isolated, Stop first interrupts Python, so the report names the line it ran.

import { fetchFiles, readArchive } from "./files.js";
import { GradingWorker } from "./grading-worker.js";
import { RunnerFrame } from "./runner-frame.js";
import { Reports } from "./reports.js";
import { stopMessage } from "./stop-message.js";
import { forgetSnapshot, keepSnapshot, snapshotKey, storedSnapshot } from "./stored-snapshot.js";

const REPORT_MS = 10_000; // the longest wait for a report once Python has left the learner's code
const PREPARE_AFTER_MS = 200; // a Check running longer shares the machine with the next one's runtime
// Checks back to back (a script grading many submissions, a double press): when a Check's runtime is
// taken less than QUICK_MS after the last one was, SPARES more runtimes are prepared beside the next one,
// each of them, too, started from the snapshot and never used before. A restored runtime waiting holds
// about 100 MB (README, Untrusted learner code): the spares cost up to 200 MB more while Checks come
// quickly, and are ended once none has been taken for SPARE_IDLE_MS.
const SPARES = 2;
const QUICK_MS = 2000;
const SPARE_IDLE_MS = 10_000;

export class Runtime {
  // onState(state, detail): "loading" | "ready" | "failed", for the page's status line.
  // onNext(state, python): "loading" | "ready", whether the next Check's runtime is ready to start at once.
  // onProgress(received, expected): bytes of the first load's files so far, of those expected.
  constructor(config, { onState, onNext = () => {}, onProgress = () => {} }) {
    this.urls = config.urls;
    this.cases = config.cases;
    this.snapshotBuild = config.snapshotKey; // names the snapshot kept for this build (stored-snapshot.js)
    this.timeLimitMs = config.timeLimitMs;
    this.graceMs = config.stopGraceMs; // after an interrupt: a worker still running is ended after one (not taken) or two
    this.stallMs = config.loadStallMs;
    this.loadBytes = config.loadBytes;
    this.pyodideFiles = config.pyodideFiles;
    this.runnerDocument = config.runner;
    this.limits = { outputChars: config.outputChars, learnerFile: config.learnerFile };
    this.reports = new Reports(config.report);
    Object.assign(this, { onState, onNext, onProgress });
    this.isolated = false; // whether the runner frame is cross-origin isolated: known once it answers
    this.files = null; // the runtime's files as Blobs, fetched once
    this.frame = null; // Promise of the runner frame (runner-frame.js), made again if it stops answering
    this.opened = null; // the runner frame, once open
    this.snapshot = null; // a Blob of the snapshot every runtime that runs a Check starts from
    this.startedFrom = null; // "stored" (the snapshot this browser kept), "full" or "memory" (a Retry)
    this.next = null; // Promise of the next runtime, loaded and never used
    this.spares = []; // Promises of more such runtimes, while Checks come quickly (prepare)
    this.preparedAt = -Infinity; // when prepare() last ran: a Check's runtime was taken
    this.sparesTimer = null;
    this.current = null; // the Check under way, if any
    this.settled = new WeakSet(); // the runtime Promises (next, spares) that have settled
    this.loaded = new Promise((resolve) => (this.firstReady = resolve)); // the first time Check can grade
  }

  // How Stop works here: "interrupt" (Python is interrupted first) or "restart" (the worker is ended).
  get stopMode() {
    return this.isolated ? "interrupt" : "restart";
  }

  // Load the first runtime; resolves when Check can grade, rejects with a clear Error. Called again
  // by Retry after a failure: the learner's code and the page stay as they are.
  start() {
    performance.mark("runtime: start"); // for benchmarks/load.py's timeline
    this.onState("loading");
    this.next = this.track(this.first());
    this.ready = this.next.then(
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

  // The first runtime. Every Check runs in a runtime restored from a snapshot that no learner code
  // has touched: the one this browser kept for this build (checked against its digest), or one taken
  // now by a runtime started in full, which then is ended without running anything else.
  async first() {
    if (this.snapshot) return this.spawn().then((python) => ((this.startedFrom = "memory"), python)); // a Retry
    this.openFrame().catch(() => {}); // the files and the runner frame while the snapshot is read (seen by spawn)
    const key = snapshotKey(this.snapshotBuild);
    this.snapshot = await storedSnapshot(key);
    if (this.snapshot) {
      try {
        const python = await this.spawn();
        this.startedFrom = "stored";
        return python;
      } catch (err) {
        console.info(`The snapshot kept in this browser did not restore (${err.message}); starting in full.`);
        this.snapshot = null;
        await forgetSnapshot();
      }
    }
    const boot = await this.spawn({ makeSnapshot: true });
    boot.end();
    if (boot.made) {
      this.snapshot = new Blob([boot.made]);
      if (key) keepSnapshot(key, boot.made); // not awaited
    }
    const python = await this.spawn(); // from the snapshot (in full, where none could be taken)
    this.startedFrom = "full";
    return python;
  }

  // The runner frame, with the runtime's files handed to it; opened again when it stopped answering.
  // It opens as soon as the runner's own code has come, while Pyodide's files still come (opening it
  // after them put 0.3 s more before the first worker on a returning visit: benchmarks/frames.py).
  openFrame() {
    if (this.frame && !this.opened?.broken) return this.frame;
    this.opened = null;
    this.frame = (async () => {
      const { runner, rest } = this.fetchFiles();
      rest.catch(() => {}); // seen below
      const runnerCode = (await runner).runner.text();
      const frame = await RunnerFrame.open({
        document: this.runnerDocument,
        runnerCode,
        onRead: (url) => readArchive(url, this.urls.lazyStdlib),
        waitMs: this.stallMs,
      });
      try {
        const { worker, ...runtime } = await rest;
        frame.setup({ files: runtime, script: worker, limits: this.limits });
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

  // The runtime's files, fetched once by the page (counted for the progress bar): { runner, rest }, each
  // a Promise of Blobs by name; the runner's code on its own, so the frame can open before the rest come.
  // Fetched again after a failure (a Retry).
  fetchFiles() {
    if (this.files) return this.files;
    const urls = { worker: this.urls.worker, engine: this.urls.engine };
    for (const name of this.pyodideFiles) urls[name] = this.urls.pyodide + name;
    let received = 0;
    const options = { stallMs: this.stallMs, onBytes: (bytes) => this.onProgress((received += bytes), this.loadBytes) };
    const files = { runner: fetchFiles({ runner: this.urls.runner }, options), rest: fetchFiles(urls, options) };
    Promise.all([files.runner, files.rest]).catch(() => this.files === files && (this.files = null));
    this.files = files;
    return files;
  }

  // Start a runtime in a new worker; resolves to it once it can grade. makeSnapshot: start in full
  // and take the snapshot (python.made); otherwise start from this.snapshot, or in full without one.
  // spare: prepared beside the next one, its state not reported (prepare reports it once it is next).
  async spawn({ makeSnapshot = false, spare = false } = {}) {
    if (!spare) this.onNext("loading");
    let python = null;
    try {
      python = new GradingWorker(await this.openFrame());
      const snapshot = makeSnapshot ? null : this.snapshot;
      const message = { indexURL: this.urls.pyodide, cases: this.cases, snapshot, makeSnapshot };
      const reply = await python.load(message, { stallMs: this.stallMs });
      python.made = reply.snapshot;
      python.sharedWasm = reply.shared; // it instantiated the runner frame's compiled module
      if (!python.ended && !spare) this.onNext("ready", python);
      return python;
    } catch (err) {
      python?.end();
      throw new Error(`The Python runtime could not load: ${err.message}.`);
    }
  }

  // Have a fresh runtime loading for the next Check; a failure is shown at once, and seen by that Check.
  // later: start it after this task, so that the Check that just ended gives its report first.
  // A spare, when there is one, is next at once; Checks that come quickly keep SPARES prepared.
  prepare({ later = false } = {}) {
    const quick = performance.now() - this.preparedAt < QUICK_MS;
    this.preparedAt = performance.now();
    const spare = this.spares.shift();
    if (spare) {
      this.onNext("loading");
      spare.then((python) => this.next === spare && !python.ended && this.onNext("ready", python), () => {});
    }
    this.next =
      spare ?? this.track(later ? new Promise((resolve) => setTimeout(resolve)).then(() => this.spawn()) : this.spawn());
    this.next.catch((err) => this.onState("failed", err.message));
    if (!quick && !this.spares.length) return;
    while (this.spares.length < SPARES) {
      const next = this.track(this.spawn({ spare: true }));
      next.catch(() => {}); // seen by the Check that takes it, as next
      this.spares.push(next);
    }
    clearTimeout(this.sparesTimer);
    this.sparesTimer = setTimeout(() => {
      for (const unused of this.spares.splice(0)) unused.then((python) => python.end(), () => {});
    }, SPARE_IDLE_MS);
  }

  // Note when a runtime Promise settles (this.settled), so a Check knows at once whether it must wait.
  track(promise) {
    const note = () => this.settled.add(promise);
    promise.then(note, note);
    return promise;
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
    const grace = async (waited) => {
      const { python } = run;
      const state = await python.state(this.graceMs); // null: the runner frame did not answer, and is gone
      if (python.ended) return;
      const more = state && (state.finishing ? waited < REPORT_MS : state.taken && waited < 2 * this.graceMs);
      if (more) run.killTimer = setTimeout(() => grace(waited + this.graceMs), this.graceMs);
      else python.end();
    };
    run.killTimer = setTimeout(() => grace(this.graceMs), this.graceMs);
  }

  // Grade source; resolves to a report, never rejects: every failure becomes an error report.
  // waiting() is called when the Check must wait for Python to be ready.
  grade(source, options) {
    // The grader refuses code that is not text or too long (engine/grade.py).
    return this.use({ task: "check", call: (python, onOutput) => python.grade(source, onOutput) }, options);
  }

  // Run the scratch pad ({ scratch, backward }: backward null to leave the learner's out); resolves to
  // the Run's result (engine/scratch.py), never rejects. The same fresh runtime, limit and Stop as a Check.
  runScratch(input, options) {
    return this.use({ task: "run", call: (python, onOutput) => python.run(input, onOutput) }, options);
  }

  // waiting() is called when the task must wait for its runtime, running() once it has it.
  async use(task, { waiting, running } = {}) {
    const started = performance.now();
    const failed = (kind, message, more = {}) => this.reports.failed(kind, message, { task: task.task, started, ...more });
    const run = { reason: null, python: null, output: "", killTimer: null, task, failed };
    run.cancelled = new Promise((resolve) => (run.cancel = resolve));
    this.current = run;
    try {
      const next = this.next;
      // Known at once: a Promise cannot be asked whether it has settled (a race with an already
      // resolved one loses to Promise.resolve, which said "waiting" every time).
      if (!this.settled.has(next)) waiting?.();
      run.python = await Promise.race([next, run.cancelled]);
      running?.();
      if (!run.python) {
        const what = task.task === "run" ? "Run" : "Check";
        return failed("timeout", `You stopped the ${what} before Python was ready: your code did not run.`);
      }
      this.onNext("loading"); // this Check has taken the fresh runtime: the next one waits for its own
      // The next Check's runtime loads once this one is over, or beside it when it runs long.
      const early = setTimeout(() => this.prepare(), PREPARE_AFTER_MS);
      try {
        return await this.run(run);
      } finally {
        if (this.next === next) {
          clearTimeout(early);
          this.prepare({ later: true });
        }
      }
    } catch (err) {
      return failed("crash", `${err.message} Your code is still in the editor; press Retry to load Python again.`);
    } finally {
      clearTimeout(run.killTimer);
      run.python?.end();
      if (this.current === run) this.current = null;
    }
  }

  async run(run) {
    const { task, failed } = run;
    const limit = setTimeout(() => this.stop("timeout"), this.timeLimitMs);
    try {
      // What the page keeps of the output is capped here too, whatever path it came by.
      const onOutput = (text) => (run.output = (run.output + text).slice(0, this.limits.outputChars));
      const { report, taken } = await task.call(run.python, onOutput);
      if (!this.reports.isResult(task.task, report)) throw new Error("the worker sent something that is not a report");
      if (run.reason && taken) {
        // Stopped, and Python took the interrupt: whatever the report says, the code did not finish.
        const interrupted = report.error?.message.startsWith("KeyboardInterrupt");
        const line = interrupted ? report.error.line : null;
        const how = interrupted ? "interrupted" : "finished";
        const printed = report.output.cut_chars > 0;
        const message = stopMessage({ reason: run.reason, timeLimitMs: this.timeLimitMs, line, how, printed });
        return failed("timeout", message, { line, output: report.output });
      }
      return report; // it finished before any interrupt reached it
    } catch (err) {
      const output = { ...this.reports.shape.failed.output, text: run.output };
      if (run.reason) {
        const state = run.python.lastState; // as the last grace period found it
        const how = !this.isolated ? "ended" : !state ? "died" : state.finishing ? "slow" : state.taken ? "caught" : "busy";
        const printed = run.output.length >= this.limits.outputChars;
        const message = stopMessage({ reason: run.reason, timeLimitMs: this.timeLimitMs, line: null, how, printed });
        return failed("timeout", message, { output });
      }
      return failed("crash", this.reports.crashMessage(err), { line: err.line ?? null, output });
    } finally {
      clearTimeout(limit);
    }
  }

}
