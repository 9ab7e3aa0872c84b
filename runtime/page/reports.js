// The reports only the page can make: the code was stopped (the time limit, Stop), or the runtime died.
// Made from the shapes Python publishes (engine/report.py, in the page's config as `report`), so the
// page states no field or kind of its own. A task is "check" (a report) or "run" (a scratch pad Run).

export class Reports {
  constructor(shape, words) {
    this.shape = shape; // { kinds, failed, failedRun, error, fields }
    this.words = words; // the page's { t, number }
  }

  // A report (or Run result) that graded or drew nothing, with an error of this kind.
  failed(kind, message, { task = "check", line = null, output = null, started }) {
    if (!(kind in this.shape.kinds)) throw new Error(`not an error kind: ${kind}`);
    const report = structuredClone(task === "run" ? this.shape.failedRun : this.shape.failed);
    report.error = { ...this.shape.error, kind, message, line };
    if (output) report.output = output;
    report.ms = performance.now() - started;
    return report;
  }

  // The runtime itself died while running the learner's code: say so, with their line where Pyodide named it.
  crashMessage(err) {
    const { t, number } = this.words;
    const why = t(
      "This happens when code recurses through __repr__, __del__, a builtin such as map() or calls into JavaScript deeper than the browser's stack. Your code is still in the editor; the next Check runs in a fresh runtime.",
    );
    const died = err.line
      ? t("The Python runtime died while running line {line} of your code ({error}).", { line: number(err.line), error: err.message })
      : t("The Python runtime died ({error}).", { error: err.message });
    return `${died} ${why}`;
  }

  // Whether something from the worker has the task's shape: every field of it, the error's too.
  isResult(task, r) {
    const has = (object, kind) =>
      object !== null && typeof object === "object" && this.shape.fields[kind].every((field) => field in object);
    const error = r?.error === null || (has(r?.error, "error") && r.error.kind in this.shape.kinds);
    if (task === "run") return has(r, "run") && Array.isArray(r.drawings) && error;
    return (
      has(r, "report") &&
      typeof r.passed === "boolean" &&
      Array.isArray(r.expressions) &&
      r.expressions.every((e) => typeof e?.name === "string" && Array.isArray(e.cases)) &&
      error &&
      (r.error === null || typeof r.error.message === "string")
    );
  }
}
