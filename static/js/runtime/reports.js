// The reports only the page can make: the code was stopped (the time limit, Stop), or the runtime died.
// Made from the shape Python publishes (engine/report.py, in the page's config as `report`), so the
// page states no field or kind of its own.

export class Reports {
  constructor(shape) {
    this.shape = shape; // { kinds, failed, error, fields }
  }

  // A report of a Check that graded nothing, with an error of this kind.
  failed(kind, message, { line = null, output = null, started }) {
    if (!(kind in this.shape.kinds)) throw new Error(`not an error kind: ${kind}`);
    const report = structuredClone(this.shape.failed);
    report.error = { ...this.shape.error, kind, message, line };
    if (output) report.output = output;
    report.ms = performance.now() - started;
    return report;
  }

  // The runtime itself died while running the learner's code: say so, with their line where Pyodide named it.
  crash(err, { output, started }) {
    const at = err.line ? ` while running line ${err.line} of your code` : "";
    const message =
      `The Python runtime died${at} (${err.message}). This happens when code recurses through __repr__, ` +
      "__del__, a builtin such as map() or calls into JavaScript deeper than the browser's stack. " +
      "Your code is still in the editor; the next Check runs in a fresh runtime.";
    return this.failed("crash", message, { line: err.line ?? null, output, started });
  }

  // Whether something from the worker is a report: every field of the shape is there, the error's too.
  isReport(r) {
    const has = (object, kind) =>
      object !== null && typeof object === "object" && this.shape.fields[kind].every((field) => field in object);
    return (
      has(r, "report") &&
      typeof r.passed === "boolean" &&
      Array.isArray(r.expressions) &&
      r.expressions.every((e) => typeof e?.name === "string" && Array.isArray(e.cases)) &&
      (r.error === null || (has(r.error, "error") && r.error.kind in this.shape.kinds && typeof r.error.message === "string"))
    );
  }
}
