// Render a grading report: the verdict, one section per expression, the error if any.

const FORMULAS = {
  neuron: "tanh(x1·w1 + x2·w2 + b)",
  reuse: "a·b + a·a",
  chain: "tanh(… tanh(x·w) · w …), ten times",
};

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else node.setAttribute(key, value);
  }
  node.append(...children);
  return node;
}

const status = (expr) => (expr.cases.some((c) => c.got === null) ? "error" : expr.passed ? "pass" : "fail");
const fmt = (x) => (x === null || x === undefined ? "—" : String(x));

function caseTable(expr, result, index) {
  const title = result.example ? "Worked example" : `Value set ${index + 1}`;
  const values = expr.leaves.map((name, i) => `${name} = ${fmt(result.values[i])}`).join(", ");
  const table = el(
    "table",
    { class: "case", "data-passed": String(result.passed) },
    el("caption", {}, el("strong", { text: title }), ` (${values})`, el("span", {
      class: `badge ${result.passed ? "pass" : "fail"}`,
      text: result.passed ? "right" : "wrong",
    })),
    el("thead", {}, el("tr", {}, ...["leaf", "expected grad", "your grad"].map((t) => el("th", { scope: "col", text: t })))),
  );
  const body = el("tbody");
  expr.leaves.forEach((name, i) => {
    const got = result.got ? result.got[i] : null;
    const expected = result.expected[i];
    const wrong = got === null || !closeEnough(got, expected);
    const gotCell = el("td", { class: wrong ? "got wrong" : "got", text: fmt(got) });
    if (wrong) gotCell.append(el("span", { class: "visually-hidden", text: " (wrong)" }));
    body.append(el("tr", { "data-leaf": name }, el("th", { scope: "row", text: name }), el("td", { text: fmt(expected) }), gotCell));
  });
  table.append(body);
  return table;
}

// The grader's rule (engine/grade.py `close`), for marking cells only: the verdict is the grader's.
function closeEnough(got, expected) {
  return Math.abs(got - expected) <= 1e-9 * Math.max(1, Math.abs(expected)) + 1e-12;
}

function renderOutput(panel, output) {
  panel.replaceChildren();
  panel.hidden = !output || (!output.text && !output.cut_chars);
  if (panel.hidden) return;
  panel.append(el("h3", { text: "Output" }), el("pre", { "data-testid": "output-text", text: output.text }));
  if (output.cut_chars) {
    const cut = output.cut_chars.toLocaleString("en");
    panel.append(el("p", { class: "note", "data-testid": "output-cut", text: `… ${cut} more characters were cut.` }));
  }
}

export function renderReport({ results, verdict, error, output }, report) {
  renderOutput(output, report.output);
  results.replaceChildren();
  error.replaceChildren();
  error.hidden = !report.error;
  if (report.error) {
    const { kind, message, line } = report.error;
    error.dataset.kind = kind;
    error.append(
      el("h3", { text: { syntax: "Syntax error", runtime: "Your code raised an error", timeout: "Stopped", crash: "The runtime crashed" }[kind] ?? "Error" }),
      el("pre", { text: kind === "timeout" ? message : report.error.traceback || message }),
    );
    if (line) error.append(el("p", { text: `Line ${line} of your code (marked in the editor).` }));
  }
  for (const expr of report.expressions) {
    const state = status(expr);
    const section = el(
      "section",
      { class: `expr ${state}`, "data-expr": expr.name, "data-status": state },
      el("h3", {}, el("code", { text: expr.name }), ` ${FORMULAS[expr.name] ?? ""} `, el("span", { class: `badge ${state}`, text: state === "pass" ? "pass" : state === "fail" ? "fail" : "error" })),
    );
    if (expr.error) section.append(el("p", { class: "expr-error", text: expr.error.message }));
    const cases = el("div", { class: "cases" });
    expr.cases.forEach((result, i) => cases.append(caseTable(expr, result, i)));
    section.append(cases);
    results.append(section);
  }
  const overall = report.passed ? "pass" : report.error ? "error" : "fail";
  verdict.dataset.status = overall;
  const passedCount = report.expressions.filter((e) => e.passed).length;
  verdict.textContent = report.passed
    ? `All ${report.expressions.length} expressions pass. Your backward works.`
    : report.expressions.length
      ? `${passedCount} of ${report.expressions.length} expressions pass.`
      : "Your code could not be graded: see the error below.";
  verdict.hidden = false;
}
