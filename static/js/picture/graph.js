// The picture of one expression's graph: the drawing, a step-through of its _backward calls, the text.
// Loaded on demand (picture.js imports it when a picture is first opened), with dagre.

import { el } from "../shared/dom.js";
import { short } from "../shared/format.js";
import { layoutGraph } from "./graph-layout.js";
import { drawGraph } from "./graph-svg.js";
import { legend, stepText, summary, textAlternative } from "./graph-text.js";
import { zoomable } from "./graph-zoom.js";

// Every grad at every step: [0] before the first call, [k] after call k, and last the final grads
// (the same as after the last call unless the code then changed a grad directly).
function replay(graph) {
  let grads = graph.nodes.map((v) => v.start);
  const states = [grads];
  for (const call of graph.calls) {
    grads = grads.slice();
    for (const change of call.changes) grads[change.node] = change.after;
    states.push(grads);
  }
  states.push(graph.nodes.map((v) => v.grad));
  return states;
}

function notesBy(diagnosis) {
  const notes = new Map();
  for (const { node, message } of diagnosis ?? []) {
    if (node === null || node === undefined) continue;
    if (!notes.has(node)) notes.set(node, []);
    notes.get(node).push(message);
  }
  return (id) => notes.get(id) ?? [];
}

// Keep a box in view inside a zoomed picture, without scrolling the page.
function reveal(scroller, target) {
  const box = target.getBoundingClientRect();
  const view = scroller.getBoundingClientRect();
  if (box.left < view.left) scroller.scrollLeft -= view.left - box.left + 24;
  else if (box.right > view.right) scroller.scrollLeft += box.right - view.right + 24;
  if (box.top < view.top) scroller.scrollTop -= view.top - box.top + 12;
  else if (box.bottom > view.bottom) scroller.scrollTop += box.bottom - view.bottom + 12;
}

// Draw graph into container and show its final grads; return { show(step), step }.
// graded: the graph of a report (with expected grads and verdicts), or a scratch pad's drawing (without).
export function renderGraph(container, { name, graph, diagnosis, graded = true }) {
  const notesOf = notesBy(diagnosis);
  const states = replay(graph);
  const last = states.length - 1;
  const laid = layoutGraph(graph, graded);
  const drawing = drawGraph(laid, graph, notesOf, summary(name, graph, graded), graded);
  const scroller = el("div", { class: "graph-scroll", tabindex: "0", role: "group", "aria-label": `Picture of ${name}` });
  scroller.append(drawing.svg);
  const zoom = zoomable(scroller, drawing.svg, laid, name);
  const readout = el("p", { class: "graph-step", "data-testid": "graph-step", "aria-live": "polite" });
  const button = (text, to) => {
    const b = el("button", { type: "button", text });
    b.addEventListener("click", () => b.getAttribute("aria-disabled") !== "true" && show(to(), true));
    return b;
  };
  const first = button("First", () => 0);
  const previous = button("Previous call", () => Math.max(0, step - 1));
  const next = button("Next call", () => Math.min(last, step + 1));
  const final = button("Last", () => last);
  const controls = el(
    "div",
    { class: "graph-controls", role: "group", "aria-label": `Step through the _backward calls of ${name}` },
    first,
    previous,
    next,
    final,
  );
  const root = el("div", { class: "graph" }, controls, readout, zoom, scroller, legend(graph, notesOf), textAlternative(name, graph, notesOf, states, graded));
  let step = last;

  function show(to, scroll = false) {
    step = to;
    const grads = states[step];
    const call = step >= 1 && step <= graph.calls.length ? graph.calls[step - 1] : null;
    const changed = new Set(call ? call.changes.map((c) => c.node) : []);
    for (const [id, { group, grad }] of drawing.values) {
      grad.textContent = short(grads[id]);
      group.dataset.grad = String(grads[id]);
      group.classList.toggle("active", call?.node === id);
      group.classList.toggle("changed", changed.has(id));
    }
    for (const [id, op] of drawing.ops) op.classList.toggle("active", call?.node === id);
    for (const edge of drawing.edges) {
      const flows = call !== null && Number(edge.dataset.parent) === call.node; // the edges the call runs along
      edge.classList.toggle("flow", flows);
      const end = `url(#${drawing.marker}${flows ? "-flow" : ""})`;
      for (const path of edge.children) path.setAttribute("marker-end", end);
    }
    root.dataset.step = String(step);
    readout.textContent = stepText(graph, step, states, graded);
    for (const b of [first, previous]) b.setAttribute("aria-disabled", String(step === 0));
    for (const b of [next, final]) b.setAttribute("aria-disabled", String(step === last));
    if (scroll && call) reveal(scroller, drawing.values.get(call.node).group);
  }

  show(last);
  container.replaceChildren(root);
  return {
    show,
    get step() {
      return step;
    },
  };
}
