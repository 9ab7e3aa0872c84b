// The picture of an expression's graph, folded in a <details>; the drawing code loads when first opened.

import { number, t } from "../shared/i18n.js";

// The most a picture lays out (the engine's caps, config.picture): values, calls, characters of a label
// (a formula is made of two labels). A graph past them is not drawn, whatever the worker sent.
const CAPS = JSON.parse(document.getElementById("config")?.textContent ?? "{}").picture ?? null;

function pastCaps(graph) {
  if (!CAPS) return false;
  const text = (s, most) => s === null || s === undefined || (typeof s === "string" && s.length <= most);
  return (
    !Array.isArray(graph.nodes) ||
    !Array.isArray(graph.calls) ||
    graph.nodes.length > CAPS.values ||
    graph.calls.length > CAPS.calls ||
    !graph.nodes.every((v) => text(v?.label, CAPS.label) && text(v?.formula, 2 * CAPS.label + 6))
  );
}

let graphModule = null; // one import for every picture; forgotten when it fails, so opening again retries

function loadGraph() {
  graphModule ??= import("./graph.js").catch((err) => {
    graphModule = null;
    throw err;
  });
  return graphModule;
}

function note(text) {
  const p = document.createElement("p");
  p.classList.add("note", "picture-note");
  p.textContent = text;
  return p;
}

// A <details> "Graph of NAME", open when asked (a failing expression): [data-testid=graph][data-graph-of=NAME],
// data-state "closed" until first opened, then "loading", "ready" or "failed" (opening it again
// retries); "none" when there is no graph.
// A scratch pad's drawing passes { testid: "drawing", title, graded: false }: no expected grads.
export function picture(expr, open = !expr.passed, { testid = "graph", title = t("Graph of {name}", { name: expr.name }), graded = true } = {}) {
  const root = document.createElement("details");
  root.className = "picture";
  root.dataset.testid = testid;
  root.dataset.graphOf = expr.name; // data-expr names the section only
  const summary = document.createElement("summary");
  summary.textContent = title;
  const body = document.createElement("div");
  body.className = "picture-body";
  root.append(summary, body);
  root.open = open;
  if (!expr.graph || pastCaps(expr.graph)) {
    root.dataset.state = "none";
    // the number of values: those sent, when more than the page draws (a cap lifted in the worker), else
    // the grader's word for a graph it did not send
    const sent = Array.isArray(expr.graph?.nodes) ? expr.graph.nodes.length : null;
    const count = sent !== null && sent > CAPS.values ? sent : expr.graph ? null : expr.size;
    const why = Number.isFinite(count)
      ? t("This graph has {count} values; too many to draw.", { count: number(count) })
      : expr.graph
        ? t("This graph is larger than the page draws.")
        : t("There is no graph to draw.");
    body.append(note(why));
    return root;
  }
  root.dataset.state = "closed";
  const show = async () => {
    if (!root.open || !["closed", "failed"].includes(root.dataset.state)) return;
    root.dataset.state = "loading";
    body.replaceChildren(note(t("Loading the picture…")));
    try {
      const { renderGraph } = await loadGraph();
      renderGraph(body, { name: expr.name, graph: expr.graph, diagnosis: expr.diagnosis ?? [], mistake: expr.mistake ?? null, graded });
      root.dataset.state = "ready";
    } catch (err) {
      console.error("graph picture:", err);
      body.replaceChildren(note(t("The picture could not be shown ({reason}). Close and open it to try again.", { reason: err?.message ?? err })));
      root.dataset.state = "failed";
    }
  };
  root.addEventListener("toggle", show);
  if (root.open) queueMicrotask(show);
  return root;
}
