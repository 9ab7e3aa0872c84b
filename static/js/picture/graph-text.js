// The graph in words: the step readout, the picture's summary, and the table and list of calls.

import { el } from "../shared/dom.js";
import { short } from "../shared/format.js";
import { t, tn } from "../shared/i18n.js";

const full = (x) => (x === null || x === undefined ? t("unknown") : String(x));

function list(words) {
  return words.length < 2 ? words.join("") : t("{items} and {last}", { items: words.slice(0, -1).join(", "), last: words.at(-1) });
}

// What one call did, for the readout ("a·a passed its gradient to a (0 → 9)") or in full.
export function callText(graph, call, grads, round = short) {
  const nodes = graph.nodes;
  const who = nodes[call.node].label;
  if (!call.changes.length) return t("{who} passed nothing on ({who}.grad was {grad})", { who, grad: round(grads[call.node]) });
  const parts = call.changes.map((c) => `${nodes[c.node].label} (${round(c.before)} → ${round(c.after)})`);
  return t("{who} passed its gradient to {values}", { who, values: list(parts) });
}

// The readout for a step: 0 is before the first call, 1..n after call k, n + 1 the final grads.
// states[k] holds every grad after k calls, and last the final ones.
export function stepText(graph, step, states, graded = true) {
  const n = graph.calls.length;
  const grads = states[step];
  const out = graph.nodes[graph.out];
  if (step === 0) {
    const at = { out: out.label, grad: short(grads[graph.out]) };
    return n ? t("Before the first call: {out}.grad = {grad}", at) : t("Before the first call (no _backward ran): {out}.grad = {grad}", at);
  }
  if (step > n) {
    const wrong = graph.nodes.filter((v) => v.wrong).length;
    const all = graph.nodes.length;
    const verdict = !graded
      ? t("the grads as they were when drawn")
      : wrong
        ? tn("{wrong} of {n} grad wrong (marked with a cross)", "{wrong} of {n} grads wrong (marked with a cross)", all, { wrong })
        : t("every grad right");
    // Grads that no call gave: the code set them itself after the calls.
    const set = graph.nodes.filter((v) => grads[v.id] !== states[n][v.id]).map((v) => v.label);
    const direct = set.length && n ? t("; then your code set {values} directly", { values: list(set) }) : "";
    return n
      ? t("After the last call ({n} in all): {verdict}", { n, verdict: verdict + direct })
      : t("After the last call (no _backward ran): {verdict}", { verdict: verdict + direct });
  }
  return t("Call {step} of {n}: {call}", { step, n, call: callText(graph, graph.calls[step - 1], grads) });
}

// The SVG's accessible name: what the picture shows, in one sentence or two.
export function summary(name, graph, graded = true) {
  const ops = graph.nodes.filter((v) => v.children.length).length;
  const wrong = graph.nodes.filter((v) => v.wrong).map((v) => v.label);
  const calls = graph.calls.length;
  const verdict = !graded ? "" : wrong.length ? t(" Wrong grads: {values}.", { values: list(wrong) }) : t(" Every grad is right.");
  return t("Graph of {name}: {values}, {operations}, {calls}.{verdict} The table below lists them all.", {
    name,
    values: tn("{n} value", "{n} values", graph.nodes.length),
    operations: tn("{n} operation", "{n} operations", ops),
    calls: tn("{n} _backward call", "{n} _backward calls", calls),
    verdict,
  });
}

// Every value and every call in full, for screen readers and for exact numbers.
// states[k] holds every grad after k calls.
export function textAlternative(name, graph, notesOf, states, graded = true) {
  const checked = (cells) => (graded ? cells : []); // a drawing has no expected grads
  // "data" is the Value's attribute, as the learner's code writes it.
  const head = [t("value"), t("formula"), "data", t("your grad"), ...checked([t("expected grad"), t("right?")]), t("_backward calls"), t("notes")];
  // On a narrow box each row stacks into a block (graph.css), each cell led by its column's name (data-key,
  // shown with no alternative text: screen readers keep the table's roles and headers instead).
  const table = el(
    "table",
    { class: "graph-table", role: "table" },
    el("caption", { text: t("The values of {name}, in the order they were made", { name }) }),
    el("thead", { role: "rowgroup" }, el("tr", { role: "row" }, ...head.map((text) => el("th", { scope: "col", role: "columnheader", text })))),
  );
  const body = el("tbody", { role: "rowgroup" });
  const cell = (column, text, attrs = {}) => el("td", { role: "cell", "data-key": head[column], text, ...attrs });
  for (const v of graph.nodes) {
    const verdict = v.expected === null ? t("unknown") : v.wrong ? t("wrong") : t("right");
    const calls = v.children.length ? (v.calls.length ? v.calls.map((c) => `#${c}`).join(", ") : t("never")) : t("— (a leaf)");
    const cells = [v.formula ?? "", full(v.data), full(v.grad), ...checked([full(v.expected), verdict]), calls, notesOf(v.id).join(" ")];
    body.append(
      el(
        "tr",
        { role: "row", "data-node": v.id, "data-wrong": String(Boolean(v.wrong)) },
        el("th", { scope: "row", role: "rowheader", text: v.label }),
        ...cells.map((text, i) => cell(i + 1, text, i === 2 ? { class: "grad" } : {})),
      ),
    );
  }
  table.append(body);
  const calls = el("ol", { class: "graph-calls" });
  graph.calls.forEach((call, k) => {
    const what = callText(graph, call, states[k], full);
    calls.append(el("li", { text: `${graph.nodes[call.node].label}._backward(): ${what}` }));
  });
  const callPart = graph.calls.length
    ? [el("h4", { text: t("The _backward calls, in the order your code made them") }), calls]
    : [el("p", { text: t("Your code called no _backward.") })];
  return el(
    "details",
    { class: "graph-text" },
    el("summary", { text: t("The graph as text: every value and every call") }),
    // Focusable, so a keyboard can scroll the table sideways where a wide box still cannot hold it.
    el("div", { class: "graph-table-wrap", tabindex: "0", role: "group", "aria-label": t("The values of {name}, as a table", { name }) }, table),
    ...callPart,
  );
}

// The keys the picture needs: the marks for wrong and flagged values only where there are some.
export function legend(graph, notesOf) {
  const wrong = graph.nodes.some((v) => v.wrong);
  const flagged = graph.nodes.some((v) => notesOf(v.id).length);
  return el(
    "p",
    { class: "graph-legend" },
    ...(wrong ? [el("span", { class: "key-wrong", text: t("a cross and a thick outline: your final grad is wrong") })] : []),
    ...(flagged ? [el("span", { class: "key-flag", text: t("dashed outline: a note; tap or focus the value to read it") })] : []),
    el("span", { text: t("#n: when its _backward ran") }),
    el("span", { class: "key-active", text: t("blue: the call at this step") }),
    el("span", { class: "key-changed", text: t("yellow: what it changed") }),
  );
}
