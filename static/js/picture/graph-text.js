// The graph in words: the step readout, the picture's summary, and the table and list of calls.

import { el } from "../shared/dom.js";
import { short } from "../shared/format.js";

const full = (x) => (x === null || x === undefined ? "unknown" : String(x));

function list(words) {
  return words.length < 2 ? words.join("") : `${words.slice(0, -1).join(", ")} and ${words.at(-1)}`;
}

// What one call did, for the readout ("a·a passed its gradient to a (0 → 9)") or in full.
export function callText(graph, call, grads, round = short) {
  const nodes = graph.nodes;
  const who = nodes[call.node].label;
  if (!call.changes.length) return `${who} passed nothing on (${who}.grad was ${round(grads[call.node])})`;
  const parts = call.changes.map((c) => `${nodes[c.node].label} (${round(c.before)} → ${round(c.after)})`);
  return `${who} passed its gradient to ${list(parts)}`;
}

// The readout for a step: 0 is before the first call, 1..n after call k, n + 1 the final grads.
// states[k] holds every grad after k calls, and last the final ones.
export function stepText(graph, step, states, graded = true) {
  const n = graph.calls.length;
  const grads = states[step];
  const out = graph.nodes[graph.out];
  if (step === 0) {
    const none = n ? "" : " (no _backward ran)";
    return `Before the first call${none}: ${out.label}.grad = ${short(grads[graph.out])}`;
  }
  if (step > n) {
    const wrong = graph.nodes.filter((v) => v.wrong).length;
    const verdict = !graded ? "the grads as they were when drawn" : wrong ? `${wrong} of ${graph.nodes.length} grads wrong (marked with a cross)` : "every grad right";
    // Grads that no call gave: the code set them itself after the calls.
    const set = graph.nodes.filter((v) => grads[v.id] !== states[n][v.id]).map((v) => v.label);
    const direct = set.length && n ? `; then your code set ${list(set)} directly` : "";
    return `After the last call${n ? ` (${n} in all)` : " (no _backward ran)"}: ${verdict}${direct}`;
  }
  return `Call ${step} of ${n}: ${callText(graph, graph.calls[step - 1], grads)}`;
}

// The SVG's accessible name: what the picture shows, in one sentence or two.
export function summary(name, graph, graded = true) {
  const ops = graph.nodes.filter((v) => v.children.length).length;
  const wrong = graph.nodes.filter((v) => v.wrong).map((v) => v.label);
  const calls = graph.calls.length;
  const verdict = !graded ? "" : wrong.length ? ` Wrong grads: ${list(wrong)}.` : " Every grad is right.";
  return (
    `Graph of ${name}: ${graph.nodes.length} values, ${ops} operations, ` +
    `${calls} _backward call${calls === 1 ? "" : "s"}.${verdict} The table below lists them all.`
  );
}

// Every value and every call in full, for screen readers and for exact numbers.
// states[k] holds every grad after k calls.
export function textAlternative(name, graph, notesOf, states, graded = true) {
  const checked = (cells) => (graded ? cells : []); // a drawing has no expected grads
  const head = ["value", "formula", "data", "your grad", ...checked(["expected grad", "right?"]), "_backward calls", "notes"];
  // On a narrow box each row stacks into a block (graph.css), each cell led by its column's name (data-key,
  // shown with no alternative text: screen readers keep the table's roles and headers instead).
  const table = el(
    "table",
    { class: "graph-table", role: "table" },
    el("caption", { text: `The values of ${name}, in the order they were made` }),
    el("thead", { role: "rowgroup" }, el("tr", { role: "row" }, ...head.map((t) => el("th", { scope: "col", role: "columnheader", text: t })))),
  );
  const body = el("tbody", { role: "rowgroup" });
  const cell = (column, text, attrs = {}) => el("td", { role: "cell", "data-key": head[column], text, ...attrs });
  for (const v of graph.nodes) {
    const verdict = v.expected === null ? "unknown" : v.wrong ? "wrong" : "right";
    const calls = v.children.length ? (v.calls.length ? v.calls.map((c) => `#${c}`).join(", ") : "never") : "— (a leaf)";
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
    ? [el("h4", { text: "The _backward calls, in the order your code made them" }), calls]
    : [el("p", { text: "Your code called no _backward." })];
  return el(
    "details",
    { class: "graph-text" },
    el("summary", { text: "The graph as text: every value and every call" }),
    // Focusable, so a keyboard can scroll the table sideways where a wide box still cannot hold it.
    el("div", { class: "graph-table-wrap", tabindex: "0", role: "group", "aria-label": `The values of ${name}, as a table` }, table),
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
    ...(wrong ? [el("span", { class: "key-wrong", text: "a cross and a thick outline: your final grad is wrong" })] : []),
    ...(flagged ? [el("span", { class: "key-flag", text: "dashed outline: a note; tap or focus the value to read it" })] : []),
    el("span", { text: "#n: when its _backward ran" }),
    el("span", { class: "key-active", text: "blue: the call at this step" }),
    el("span", { class: "key-changed", text: "yellow: what it changed" }),
  );
}
