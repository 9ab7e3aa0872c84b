// Render a grading report: the verdict, one section per expression, the error if any. What each field
// means, the expressions' formulas and the error kinds' headings come from Python (engine/report.py).

import { el } from "../shared/dom.js";
import { exact } from "../shared/format.js";
import { picture } from "../picture/picture.js";
import { N_, number, t, tn } from "../shared/i18n.js";

// The exercise the report is of, as the page's config gives it (renderReport sets it): its named mistakes'
// words (HTML the server made from its Markdown), how its numbers are labelled, what its groups are (the
// headline's count), its cases' other inputs.
let exercise = { mistakes: {}, label: "{leaf}.grad", groupsAre: "expressions", cases: [] };
const grads = () => exercise.label === "{leaf}.grad"; // the seed's and ops' words: gradients

// A case's inputs beside its values (ops' g, step's xs, ys and lr), from the page's cases in their order.
function otherInputs(expr, index) {
  const cases = exercise.cases.filter((c) => c.group === expr.name);
  const inputs = cases[index]?.inputs ?? {};
  return Object.entries(inputs)
    .filter(([name]) => name !== "values")
    .map(([name, value]) => `; ${name} = ${JSON.stringify(value)}`)
    .join("");
}

// An element holding HTML the server made from an exercise's Markdown (raw HTML off: no tag of its own).
function said(tag, attrs, html) {
  const node = el(tag, { ...attrs, "data-words": "exercise" });
  node.innerHTML = html;
  return node;
}

const status = (expr) => (expr.cases.some((c) => c.got === null) ? "error" : expr.passed ? "pass" : "fail");

function caseTable(expr, result, index) {
  const title = result.example ? t("Worked example") : t("Value set {n}", { n: index + 1 });
  const values = expr.leaves.map((name, i) => `${name} = ${exact(result.values[i])}`).join(", ") + otherInputs(expr, index);
  const table = el(
    "table",
    { class: "case", "data-passed": String(result.passed) },
    el("caption", {}, el("strong", { text: title }), ` (${values})`, el("span", {
      class: `badge ${result.passed ? "pass" : "fail"}`,
      text: result.passed ? t("right") : result.got ? t("wrong") : t("no result"),
    })),
    el("thead", {}, el("tr", {}, ...(grads() ? [t("leaf"), t("expected grad"), t("your grad")] : [t("number"), t("expected"), t("yours")]).map((text) => el("th", { scope: "col", text })))),
  );
  const body = el("tbody");
  expr.leaves.forEach((name, i) => {
    const got = result.got ? result.got[i] : null;
    const expected = result.expected[i];
    const wrong = result.right?.[i] !== true; // the grader's mark: engine/compare.py decides it
    const gotCell = el("td", { class: wrong ? "got wrong" : "got", text: exact(got) });
    if (wrong) gotCell.append(el("span", { class: "visually-hidden", text: t(" (wrong)") }));
    const label = exercise.label.replaceAll("{leaf}", name);
    body.append(el("tr", { "data-leaf": name }, el("th", { scope: "row", text: grads() ? name : label }), el("td", { text: exact(expected) }), gotCell));
  });
  table.append(body);
  return table;
}

// What the code printed, in its panel (hidden when nothing was), with how much was cut.
export function renderOutput(panel, output) {
  panel.replaceChildren();
  panel.hidden = !output || (!output.text && !output.cut_chars);
  if (panel.hidden) return;
  panel.append(el("h3", { text: t("Output") }), el("pre", { "data-testid": "output-text", text: output.text }));
  if (output.cut_chars) {
    const cut = tn("… {n} more character was cut.", "… {n} more characters were cut.", output.cut_chars);
    panel.append(el("p", { class: "note", "data-testid": "output-cut", text: cut }));
  }
}

// Say what went wrong: the one mistake the grader names, in a sentence, then the same value by value,
// one click away (the picture marks those values too).
function whyBox(expr) {
  const item = (d) => el("li", { "data-kind": d.kind, "data-node": d.node ?? "", text: d.message });
  const box = el("div", { class: "why" }, el("h4", { text: expr.extra ? t("What happens on this graph") : t("What went wrong") }));
  const words = expr.mistake && exercise.mistakes[expr.mistake.kind];
  if (words) {
    // A mistake the exercise names, in its words: its title, what the learner's numbers show, what to try.
    const { kind, node } = expr.mistake;
    const mistake = el("p", { class: "mistake", "data-testid": "mistake", "data-kind": kind, "data-node": node ?? "" });
    mistake.append(said("strong", { "data-testid": "mistake-title" }, words.title), " ", said("span", {}, words.says));
    box.append(mistake, said("p", { class: "mistake-hint", "data-testid": "mistake-hint" }, words.hint));
  } else if (expr.mistake) {
    const { kind, node, message } = expr.mistake;
    box.append(el("p", { class: "mistake", "data-testid": "mistake", "data-kind": kind, "data-node": node ?? "", text: message }));
  }
  if (expr.diagnosis.length) {
    const list = el("ul", { class: "diagnosis", "data-testid": "diagnosis" }, ...expr.diagnosis.map(item));
    const summary = tn("Value by value ({n} value)", "Value by value ({n} values)", expr.diagnosis.length);
    box.append(el("details", { class: "values" }, el("summary", { text: summary }), list));
  }
  return box;
}

// The value sets: a passing expression's folded away; a failing one shows its first wrong set (the one
// the diagnosis and the picture describe) and folds the rest.
function caseTables(expr, { fold = expr.passed } = {}) {
  const tables = expr.cases.map((result, i) => caseTable(expr, result, i));
  const shown = fold ? -1 : Math.max(0, expr.cases.findIndex((c) => !c.passed));
  const rest = tables.filter((_, i) => i !== shown);
  const wrong = expr.cases.filter((c, i) => i !== shown && !c.passed).length;
  const parts = shown >= 0 ? [el("div", { class: "cases" }, tables[shown])] : [];
  if (rest.length) {
    const what = shown >= 0 ? tn("The other {n} value set", "The other {n} value sets", rest.length) : tn("The {n} value set", "The {n} value sets", rest.length);
    const verdict = wrong === 0 ? t("all right") : wrong === rest.length ? t("all wrong") : t("{n} wrong", { n: number(wrong) });
    parts.push(el("details", { class: "more-cases" }, el("summary", { text: t("{what}: {verdict}", { what, verdict }) }), el("div", { class: "cases" }, ...rest)));
  }
  return parts;
}

// What the deep chain teaches when a recursive search runs out of Python's stack: a lesson, not a mistake.
function recursionLesson(expr, order) {
  const box = el(
    "div",
    { class: "why lesson" },
    el("h4", { text: t("What this graph teaches: Python’s recursion limit") }),
    el("ul", { class: "diagnosis", "data-testid": "diagnosis" }, ...expr.diagnosis.map((d) => el("li", { "data-kind": d.kind, "data-node": "", text: d.message }))),
    el("p", {
      text:
        (order === "right" ? t("This is not a mistake: your order is right, as the graphs above show.") + " " : "") +
        t("Your search calls itself once per value along the chain, and Python stops a function nested that deep with a RecursionError. The same depth-first search with a list as its stack (append to push, pop to take the last) has no such limit: it gets through this graph too."),
    }),
  );
  if (expr.error) box.append(el("details", {}, el("summary", { text: t("Python’s message") }), el("pre", { text: expr.error.message })));
  return box;
}

const BADGES = {
  graded: { pass: N_("pass"), fail: N_("fail"), error: N_("error") },
  extra: { pass: N_("right"), fail: N_("wrong on this graph"), error: N_("raised an error") },
};

const tooDeep = (expr) => expr.role === "lesson" && expr.diagnosis?.some((d) => d.kind === "recursion");

function section(expr, { openPicture, order }) {
  const state = status(expr);
  const badges = BADGES[expr.extra ? "extra" : "graded"];
  const badge = tooDeep(expr) ? t("too deep for recursion") : t(badges[state]);
  const node = el(
    "section",
    { class: `expr ${state}`, "data-expr": expr.name, "data-status": state, "data-extra": String(expr.extra), "data-role": expr.role },
    el("h3", {}, el("code", { text: expr.name }), ` ${expr.formula ?? ""} `, el("span", { class: `badge ${state}`, text: badge })),
  );
  if (tooDeep(expr)) node.append(recursionLesson(expr, order));
  else {
    if (expr.error) node.append(el("p", { class: "expr-error", text: expr.error.message }));
    if ((expr.mistake || expr.diagnosis?.length) && state !== "pass") node.append(whyBox(expr));
  }
  if (expr.graph || expr.size) node.append(picture(expr, openPicture && !expr.passed));
  node.append(...caseTables(expr, { fold: expr.passed || tooDeep(expr) })); // a lesson's table: no cross in sight
  return node;
}

// The graphs that tell orders apart, outside the verdict under the seed's rule: folded until the three
// pass, when they become the next step (and the headline sends the learner here when one is wrong).
function orderBlock(graphs, { verdictPassed, order }) {
  const right = graphs.filter((e) => e.passed).length;
  const sure = order === "right" ? " " + t("Your order is right on all of them.") : "";
  return el(
    "div",
    { class: "extras", id: "order-graphs", "data-testid": "extras", "data-order": order ?? "", tabindex: "-1" },
    el("h3", { text: t("Graphs that tell orders apart: {right} of {n} right", { right: number(right), n: number(graphs.length) }) }),
    el("p", {
      class: "note",
      text:
        t(
          "Not part of the verdict, which is the three expressions; these say whether your order is right. Each " +
            "shares inner values the way a wrong order gets wrong: a value reached by paths of different lengths, " +
            "a value used twice by one value, two values with the same data.",
        ) + sure,
    }),
    el(
      "details",
      { class: "extras-list", ...(verdictPassed && order !== "right" ? { open: "" } : {}) },
      el("summary", { text: tn("The {n} graph, one by one", "The {n} graphs, one by one", graphs.length) }),
      ...graphs.map((e) => section(e, { openPicture: verdictPassed, order })),
    ),
  );
}

// The deep chain: a lesson about recursion, apart from everything graded, never counted against the learner.
function lessonBlock(lessons, order) {
  return el(
    "div",
    { class: "extras lessons", "data-testid": "lessons" },
    el("h3", { text: t("A lesson, not a test") }),
    ...lessons.map((e) => section(e, { openPicture: false, order })),
  );
}

// An error in its panel (hidden when there is none), under its kind's heading; where names the line's
// place ("your code", "the scratch pad").
export function renderError(panel, error, kinds, where = t("your code (marked in the editor)")) {
  panel.replaceChildren();
  panel.hidden = !error;
  if (!error) return;
  const { kind, message, line } = error;
  panel.dataset.kind = kind;
  panel.append(
    el("h3", { text: t(kinds[kind] ?? "Error") }),
    el("pre", { text: kind === "timeout" || kind === "output" ? message : error.traceback || message }),
  );
  if (line) panel.append(el("p", { text: t("Line {line} of {where}.", { line: number(line), where }) }));
}

// How the headline counts the groups, in the words of what they are (the exercise's grade.groups_are):
// whole sentences, each in the catalogue, so every language says them in its own grammar.
const COUNTS = {
  expressions: {
    all: (n) => tn("The {n} expression passes", "All {n} expressions pass", n),
    some: (passed, n) => tn("{passed} of {n} expression passes.", "{passed} of {n} expressions pass.", n, { passed }),
  },
  networks: {
    all: (n) => tn("The {n} network passes", "All {n} networks pass", n),
    some: (passed, n) => tn("{passed} of {n} network passes.", "{passed} of {n} networks pass.", n, { passed }),
  },
  parts: {
    all: (n) => tn("The {n} part passes", "All {n} parts pass", n),
    some: (passed, n) => tn("{passed} of {n} part passes.", "{passed} of {n} parts pass.", n, { passed }),
  },
};

// The headline: how many groups pass and, when they all do, what the order graphs say of the order.
// "Your backward works" only where they show it right.
function headline(verdict, report, graded) {
  const passed = graded.filter((e) => e.passed).length;
  const counts = COUNTS[exercise.groupsAre] ?? COUNTS.expressions;
  const all = counts.all(graded.length);
  const toGraphs = (text) => el("a", { href: "#order-graphs", text });
  let status = report.passed ? "pass" : report.error ? "error" : "fail";
  let words;
  if (!report.passed) {
    words = [graded.length ? counts.some(number(passed), graded.length) : t("Your code could not be graded: see the error below.")];
    const failing = graded.filter((e) => e.mistake);
    if (failing.length) {
      // The mistake, named once here: where every failing expression has the same kind, without saying where.
      const same = failing.every((e) => e.mistake.kind === failing[0].mistake.kind);
      const { kind, message } = failing[0].mistake;
      const where = same ? "" : t("In {expression}: ", { expression: failing[0].name });
      const attrs = { class: "verdict-mistake", "data-testid": "verdict-mistake", "data-kind": kind };
      const named = exercise.mistakes[kind];
      const span = named ? said("span", attrs, named.says) : el("span", { ...attrs, text: where + message });
      if (named && where) span.prepend(where);
      words.push(" ", span);
    }
  } else if (report.order === "right") {
    words = [t("{all}, and your order is right on every graph that tells orders apart. Your backward works.", { all })];
  } else if (report.order === "wrong") {
    status = "order";
    words = [t("{all}, but your order is not yet right: see ", { all }), toGraphs(t("the graphs that tell orders apart")), t(", below.")];
  } else if (report.order === "error") {
    status = "order";
    words = [t("{all}, but your backward raised an error on ", { all }), toGraphs(t("a graph that tells orders apart")), t(", below.")];
  } else {
    words = [t("{all}.", { all })];
  }
  verdict.dataset.status = status;
  verdict.dataset.order = report.order ?? "";
  verdict.replaceChildren(...words);
  verdict.hidden = false;
}

// kinds: the heading of each error kind (config.report.kinds); shown: the exercise as the page's config
// gives it ({ mistakes, grade, cases }).
export function renderReport({ results, verdict, error, output }, report, kinds, shown = {}) {
  const { outputLabel = "{leaf}.grad", groupsAre = "expressions" } = shown.grade ?? {};
  exercise = { mistakes: shown.mistakes ?? {}, label: outputLabel, groupsAre, cases: shown.cases ?? [] };
  renderOutput(output, report.output);
  results.replaceChildren();
  renderError(error, report.error, kinds);
  const graded = report.expressions.filter((e) => !e.extra);
  const orderGraphs = report.expressions.filter((e) => e.extra && e.role === "order");
  const lessons = report.expressions.filter((e) => e.extra && e.role === "lesson");
  const order = report.order;
  results.append(...graded.map((e) => section(e, { openPicture: true, order })));
  if (orderGraphs.length) results.append(orderBlock(orderGraphs, { verdictPassed: report.passed, order }));
  if (lessons.length) results.append(lessonBlock(lessons, order));
  headline(verdict, report, graded);
}
