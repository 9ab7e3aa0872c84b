// Render a grading report: the verdict, one section per expression, the error if any.

import { el } from "./dom.js";
import { picture } from "./picture.js";

const FORMULAS = {
  neuron: "tanh(x1·w1 + x2·w2 + b)",
  reuse: "a·b + a·a",
  chain: "tanh(… tanh(x·w) · w …), ten times",
  shared: "h·h + h, with h = tanh(x·w)",
  diamond: "tanh(u) + u·c, with u = x·w",
  deep: "tanh(… tanh(x·w) · w …), 500 times",
};
const SHOWN_DIAGNOSES = 5; // more are listed behind "and N more"


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

// Say in words what went wrong, value by value: the grader's diagnosis.
function diagnosisList(expr) {
  const item = (d) => el("li", { "data-kind": d.kind, "data-node": d.node ?? "", text: d.message });
  const list = el("ul", { class: "diagnosis", "data-testid": "diagnosis" }, ...expr.diagnosis.slice(0, SHOWN_DIAGNOSES).map(item));
  const rest = expr.diagnosis.slice(SHOWN_DIAGNOSES);
  const box = el("div", { class: "why" }, el("h4", { text: "What went wrong" }), list);
  if (rest.length) {
    box.append(el("details", {}, el("summary", { text: `and ${rest.length} more like these` }), el("ul", { class: "diagnosis" }, ...rest.map(item))));
  }
  return box;
}

function section(expr) {
  const state = status(expr);
  const badge = { pass: expr.extra ? "right" : "pass", fail: expr.extra ? "wrong" : "fail", error: "error" }[state];
  const node = el(
    "section",
    { class: `expr ${state}`, "data-expr": expr.name, "data-status": state, "data-extra": String(expr.extra) },
    el("h3", {}, el("code", { text: expr.name }), ` ${FORMULAS[expr.name] ?? ""} `, el("span", { class: `badge ${state}`, text: badge })),
  );
  if (expr.error) node.append(el("p", { class: "expr-error", text: expr.error.message }));
  if (expr.diagnosis?.length && state !== "pass") node.append(diagnosisList(expr));
  if (expr.graph || expr.size) node.append(picture(expr));
  const cases = el("div", { class: "cases" });
  expr.cases.forEach((result, i) => cases.append(caseTable(expr, result, i)));
  node.append(cases);
  return node;
}

function extrasBlock(extras) {
  const right = extras.filter((e) => e.passed).length;
  return el(
    "div",
    { class: "extras", "data-testid": "extras" },
    el("h3", { text: `Extra graphs: ${right} of ${extras.length} right` }),
    el("p", {
      class: "note",
      text: "Not part of the verdict. These graphs reuse intermediate values or are very deep: an order that only works on trees, or a recursive search, goes wrong here.",
    }),
    ...extras.map(section),
  );
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
  const graded = report.expressions.filter((e) => !e.extra);
  const extras = report.expressions.filter((e) => e.extra);
  results.append(...graded.map(section));
  if (extras.length) results.append(extrasBlock(extras));
  const overall = report.passed ? "pass" : report.error ? "error" : "fail";
  verdict.dataset.status = overall;
  const passedCount = graded.filter((e) => e.passed).length;
  verdict.textContent = report.passed
    ? `All ${graded.length} expressions pass. Your backward works.`
    : graded.length
      ? `${passedCount} of ${graded.length} expressions pass.`
      : "Your code could not be graded: see the error below.";
  verdict.hidden = false;
}
