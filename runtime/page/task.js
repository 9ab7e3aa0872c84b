// A task under way (a Check or a Run) in the fresh runtime it took: asked, answered within the time
// limit, and stopped (Stop, the time limit). Where the frame is cross-origin isolated, Stop interrupts
// Python first and ends the worker after grace periods, so the report names the line it ran; elsewhere
// the worker is ended at once. Its answer is always a report (or a Run's result): the worker's own, its
// shape checked, or one the page makes (reports.js) saying why there is none (stop-message.js).

import { stopMessage } from "./stop-message.js";
import { newId } from "./workers.js";

const REPORT_MS = 10_000; // the longest wait for a report once Python has left the learner's code

export class Task {
  // kind: "check" or "run"; the client's workers (workers.js), reports (reports.js), config (timeLimitMs,
  // stopGraceMs, outputChars) and words ({ t, number }, the learner's language).
  constructor(kind, { workers, reports, config, words }) {
    Object.assign(this, { kind, workers, reports, config, words });
    this.started = performance.now();
    this.reason = null; // why it was stopped: "timeout" (the time limit) or "stopped" (the Stop button)
    this.worker = null; // its runtime, once it has one
    this.output = ""; // what it printed, as far as the page keeps it
    this.killTimer = null; // the next grace period's end, while it is stopping
    this.cancelled = new Promise((resolve) => (this.cancel = resolve)); // stopped before it had a runtime
  }

  // A report (or Run result) the page makes for this task, with an error of this kind (reports.js).
  failed(errorKind, message, more = {}) {
    return this.reports.failed(errorKind, message, { task: this.kind, started: this.started, ...more });
  }

  // Stopped while it waited for its runtime: its code never ran.
  neverRan() {
    const { t } = this.words;
    const said = this.kind === "run" ? t("You stopped the Run before Python was ready: your code did not run.") : t("You stopped the Check before Python was ready: your code did not run.");
    return this.failed("timeout", said);
  }

  // Stop it, its reason set: still waiting for a runtime, it is cancelled; else Python is interrupted.
  stop() {
    if (!this.worker) return this.cancel(); // still waiting for a runtime: the code never runs
    const { worker, workers } = this;
    workers.interrupt(worker);
    if (!workers.isolated) return workers.end(worker);
    // Ended after a grace period, unless Python has left the learner's code (its report is being
    // written, or on its way): then it has up to REPORT_MS. An interrupt taken but not yet out of the
    // learner's code gets a second grace (a busy machine); code that catches it is ended after that.
    const graceMs = this.config.stopGraceMs;
    const grace = async (waited) => {
      const state = await workers.state(worker, graceMs); // null: the frame did not answer, and is gone
      if (worker.ended) return;
      const more = state && (state.finishing ? waited < REPORT_MS : state.taken && waited < 2 * graceMs);
      if (more) this.killTimer = setTimeout(() => grace(waited + graceMs), graceMs);
      else workers.end(worker);
    };
    this.killTimer = setTimeout(() => grace(graceMs), graceMs);
  }

  // Ask its runtime (ask(worker, id)) and wait for the answer; timeUp() is called at the time limit. A
  // stopped task's answer says so.
  async answer(ask, timeUp) {
    const { worker, words, workers, reports } = this;
    const { t } = words;
    const timeLimitMs = this.config.timeLimitMs;
    const limit = setTimeout(timeUp, timeLimitMs);
    const cap = this.config.outputChars; // what the page keeps of the output, capped here too, whatever path it came by
    try {
      const id = newId();
      const answered = workers.wait(worker, id, (data) => (this.output = (this.output + String(data.text)).slice(0, cap)));
      ask(worker, id);
      const { json, taken } = await answered;
      const report = JSON.parse(json);
      if (!reports.isResult(this.kind, report)) throw new Error(t("the worker sent something that is not a report"));
      if (this.reason && taken) {
        // Stopped, and Python took the interrupt: whatever the report says, the code did not finish.
        const interrupted = report.error?.message.startsWith("KeyboardInterrupt");
        const line = interrupted ? report.error.line : null;
        const how = interrupted ? "interrupted" : "finished";
        const printed = report.output.cut_chars > 0;
        const message = stopMessage({ reason: this.reason, timeLimitMs, line, how, printed }, words);
        return this.failed("timeout", message, { line, output: report.output });
      }
      return report; // it finished before any interrupt reached it
    } catch (err) {
      const output = { ...reports.shape.failed.output, text: this.output };
      if (this.reason) {
        const state = worker.lastState; // as the last grace period found it
        const how = !workers.isolated ? "ended" : !state ? "died" : state.finishing ? "slow" : state.taken ? "caught" : "busy";
        const printed = this.output.length >= cap;
        const message = stopMessage({ reason: this.reason, timeLimitMs, line: null, how, printed }, words);
        return this.failed("timeout", message, { output });
      }
      return this.failed("crash", reports.crashMessage(err), { line: err.line ?? null, output });
    } finally {
      clearTimeout(limit);
    }
  }

  // Over: no more grace periods, and its runtime is ended (a runtime is used for one task only).
  end() {
    clearTimeout(this.killTimer);
    if (this.worker) this.workers.end(this.worker);
  }
}
