// Render a grading report: the verdict, one section per expression, the error if any. What each field
// means, the expressions' formulas and the error kinds' headings come from Python (engine/report.py).

import { el } from "../shared/dom.js";
import { count, exact } from "../shared/format.js";
import { picture } from "../picture/picture.js";

const SHOWN_DIAGNOSES = 5; // more are listed behind "and N more"


const status = (expr) => (expr.cases.some((c) => c.got === null) ? "error" : expr.passed ? "pass" : "fail");

function caseTable(expr, result, index) {
  const title = result.example ? "Worked example" : `Value set ${index + 1}`;
  const values = expr.leaves.map((name, i) => `${name} = ${exact(result.values[i])}`).join(", ");
  const table = el(
    "table",
    { class: "case", "data-passed": String(result.passed) },
    el("caption", {}, el("strong", { text: title }), ` (${values})`, el("span", {
      class: `badge ${result.passed ? "pass" : "fail"}`,
      text: result.passed ? "right" : result.got ? "wrong" : "no result",
    })),
    el("thead", {}, el("tr", {}, ...["leaf", "expected grad", "your grad"].map((t) => el("th", { scope: "col", text: t })))),
  );
  const body = el("tbody");
  expr.leaves.forEach((name, i) => {
    const got = result.got ? result.got[i] : null;
    const expected = result.expected[i];
    const wrong = result.right?.[i] !== true; // the grader's mark: engine/compare.py decides it
    const gotCell = el("td", { class: wrong ? "got wrong" : "got", text: exact(got) });
    if (wrong) gotCell.append(el("span", { class: "visually-hidden", text: " (wrong)" }));
    body.append(el("tr", { "data-leaf": name }, el("th", { scope: "row", text: name }), el("td", { text: exact(expected) }), gotCell));
  });
  table.append(body);
  return table;
}

// What the code printed, in its panel (hidden when nothing was), with how much was cut.
export function renderOutput(panel, output) {
  panel.replaceChildren();
  panel.hidden = !output || (!output.text && !output.cut_chars);
  if (panel.hidden) return;
  panel.append(el("h3", { text: "Output" }), el("pre", { "data-testid": "output-text", text: output.text }));
  if (output.cut_chars) {
    const cut = count(output.cut_chars);
    panel.append(el("p", { class: "note", "data-testid": "output-cut", text: `… ${cut} more characters were cut.` }));
  }
}

// Say in words what went wrong, value by value: the grader's diagnosis.
function diagnosisList(expr) {
  const item = (d) => el("li", { "data-kind": d.kind, "data-node": d.node ?? "", text: d.message });
  const list = el("ul", { class: "diagnosis", "data-testid": "diagnosis" }, ...expr.diagnosis.slice(0, SHOWN_DIAGNOSES).map(item));
  const rest = expr.diagnosis.slice(SHOWN_DIAGNOSES);
  const box = el("div", { class: "why" }, el("h4", { text: expr.extra ? "What happens on this graph" : "What went wrong" }), list);
  if (rest.length) {
    box.append(el("details", {}, el("summary", { text: `and ${rest.length} more like these` }), el("ul", { class: "diagnosis" }, ...rest.map(item))));
  }
  return box;
}

// The value sets: a passing expression's folded away; a failing one shows its first wrong set (the one
// the diagnosis and the picture describe) and folds the rest.
function caseTables(expr) {
  const tables = expr.cases.map((result, i) => caseTable(expr, result, i));
  const shown = expr.passed ? -1 : Math.max(0, expr.cases.findIndex((c) => !c.passed));
  const rest = tables.filter((_, i) => i !== shown);
  const wrong = expr.cases.filter((c, i) => i !== shown && !c.passed).length;
  const parts = shown >= 0 ? [el("div", { class: "cases" }, tables[shown])] : [];
  if (rest.length) {
    const what = shown >= 0 ? `The other ${rest.length} value sets` : `The ${rest.length} value sets`;
    const verdict = wrong === 0 ? "all right" : wrong === rest.length ? "all wrong" : `${wrong} wrong`;
    parts.push(el("details", { class: "more-cases" }, el("summary", { text: `${what}: ${verdict}` }), el("div", { class: "cases" }, ...rest)));
  }
  return parts;
}

// What an extra teaches when a recursive search runs out of Python's stack: information, not failure.
function recursionLesson(expr) {
  const box = el(
    "div",
    { class: "why lesson" },
    el("h4", { text: "What this graph teaches: Python’s recursion limit" }),
    el("ul", { class: "diagnosis", "data-testid": "diagnosis" }, ...expr.diagnosis.map((d) => el("li", { "data-kind": d.kind, "data-node": "", text: d.message }))),
    el("p", {
      text: "Your search calls itself once per value along the chain, and Python stops a function nested that deep with a RecursionError. The same depth-first search with a list as its stack (append to push, pop to take the last) has no such limit: it gets through this graph too.",
    }),
  );
  if (expr.error) box.append(el("details", {}, el("summary", { text: "Python’s message" }), el("pre", { text: expr.error.message })));
  return box;
}

const BADGES = {
  graded: { pass: "pass", fail: "fail", error: "error" },
  extra: { pass: "right", fail: "wrong on this graph", error: "raised an error" },
};

function section(expr, openPicture) {
  const state = status(expr);
  const tooDeep = expr.extra && expr.diagnosis?.some((d) => d.kind === "recursion");
  const badge = tooDeep ? "too deep for recursion" : BADGES[expr.extra ? "extra" : "graded"][state];
  const node = el(
    "section",
    { class: `expr ${state}`, "data-expr": expr.name, "data-status": state, "data-extra": String(expr.extra) },
    el("h3", {}, el("code", { text: expr.name }), ` ${expr.formula ?? ""} `, el("span", { class: `badge ${state}`, text: badge })),
  );
  if (tooDeep) node.append(recursionLesson(expr));
  else {
    if (expr.error) node.append(el("p", { class: "expr-error", text: expr.error.message }));
    if (expr.diagnosis?.length && state !== "pass") node.append(diagnosisList(expr));
  }
  if (expr.graph || expr.size) node.append(picture(expr, openPicture && !expr.passed));
  node.append(...caseTables(expr));
  return node;
}

// The extras, outside the verdict: folded until the graded expressions pass, when they become the next step.
function extrasBlock(extras, verdictPassed) {
  const right = extras.filter((e) => e.passed).length;
  return el(
    "div",
    { class: "extras", "data-testid": "extras" },
    el("h3", { text: `Extra graphs: ${right} of ${extras.length} right` }),
    el("p", {
      class: "note",
      text: "Not part of the verdict. These graphs reuse intermediate values or are very deep: an order that only works on trees, or a recursive search, goes wrong here.",
    }),
    el(
      "details",
      { class: "extras-list", ...(verdictPassed ? { open: "" } : {}) },
      el("summary", { text: `The ${extras.length} extra graphs, one by one` }),
      ...extras.map((e) => section(e, verdictPassed)),
    ),
  );
}

// An error in its panel (hidden when there is none), under its kind's heading; where names the line's
// place ("your code", "the scratch pad").
export function renderError(panel, error, kinds, where = "your code (marked in the editor)") {
  panel.replaceChildren();
  panel.hidden = !error;
  if (!error) return;
  const { kind, message, line } = error;
  panel.dataset.kind = kind;
  panel.append(
    el("h3", { text: kinds[kind] ?? "Error" }),
    el("pre", { text: kind === "timeout" || kind === "output" ? message : error.traceback || message }),
  );
  if (line) panel.append(el("p", { text: `Line ${line} of ${where}.` }));
}

// kinds: the heading of each error kind (config.report.kinds).
export function renderReport({ results, verdict, error, output }, report, kinds) {
  renderOutput(output, report.output);
  results.replaceChildren();
  renderError(error, report.error, kinds);
  const graded = report.expressions.filter((e) => !e.extra);
  const extras = report.expressions.filter((e) => e.extra);
  results.append(...graded.map((e) => section(e, true)));
  if (extras.length) results.append(extrasBlock(extras, report.passed));
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
