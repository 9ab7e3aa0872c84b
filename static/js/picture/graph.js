// The picture of one expression's graph: the drawing, a step-through of its _backward calls, the text.
// Loaded on demand (picture.js imports it when a picture is first opened), with dagre.

import { el } from "../shared/dom.js";
import { short } from "../shared/format.js";
import { t } from "../shared/i18n.js";
import { layoutGraph } from "./graph-layout.js";
import { drawGraph, valueName, valueText } from "./graph-svg.js";
import { legend, stepText, summary, textAlternative } from "./graph-text.js";
import { centredScroll, focusOf, neighbour } from "./graph-view.js";
import { zoomable } from "./graph-zoom.js";

let notes = 0; // numbers each picture's note, so ids stay unique on the page

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

// Draw graph into container and show its final grads, in view around the value that matters (focusOf);
// return { show(step), step }. graded: the graph of a report (with expected grads and verdicts), or a
// scratch pad's drawing (without). mistake, diagnosis: the report's, for the notes and where to look.
export function renderGraph(container, { name, graph, diagnosis, mistake = null, graded = true }) {
  const notesOf = notesBy(diagnosis);
  const states = replay(graph);
  const last = states.length - 1;
  const laid = layoutGraph(graph, graded);
  const drawing = drawGraph(laid, graph, notesOf, summary(name, graph, graded), graded);
  const scroller = el("div", { class: "graph-scroll", tabindex: "0", role: "group", "aria-label": t("Picture of {name}", { name }) });
  scroller.append(drawing.svg);
  const zoom = zoomable(scroller, drawing.svg, laid, name);
  // The note of the value last focused or tapped: its name in words, then what the diagnosis says of it
  // (the focused value's accessible description).
  const noteId = `graph-note-${++notes}`;
  const noteValue = el("strong", { class: "graph-note-value" });
  const noteText = el("span", { class: "graph-note-text", id: noteId });
  const note = el("p", { class: "graph-note", "data-testid": "graph-note" }, noteValue, noteText);
  const centres = new Map([...laid.values].map(([id, { x, y }]) => [id, { x, y }]));
  let selected = focusOf(graph, { mistake, diagnosis });
  const readout = el("p", { class: "graph-step", "data-testid": "graph-step", "aria-live": "polite" });
  const button = (text, to) => {
    const b = el("button", { type: "button", text });
    b.addEventListener("click", () => b.getAttribute("aria-disabled") !== "true" && show(to(), true));
    return b;
  };
  const first = button(t("First"), () => 0);
  const previous = button(t("Previous call"), () => Math.max(0, step - 1));
  const next = button(t("Next call"), () => Math.min(last, step + 1));
  const final = button(t("Last"), () => last);
  const controls = el(
    "div",
    { class: "graph-controls", role: "group", "aria-label": t("Step through the _backward calls of {name}", { name }) },
    first,
    previous,
    next,
    final,
  );
  const root = el(
    "div",
    { class: "graph" },
    controls,
    readout,
    zoom.controls,
    scroller,
    note,
    legend(graph, notesOf),
    textAlternative(name, graph, notesOf, states, graded),
  );
  let step = last;

  // Make id the value in the Tab order and show its note; with focus, move the focus there too.
  function select(id, focus = false) {
    selected = id;
    for (const [other, { group }] of drawing.values) {
      group.setAttribute("tabindex", other === id ? "0" : "-1");
      group.classList.toggle("selected", other === id);
    }
    const node = graph.nodes[id];
    noteValue.textContent = valueText(node, states[step][id], step === last);
    noteText.textContent = notesOf(id).length ? ` ${notesOf(id).join(" ")}` : "";
    const { group } = drawing.values.get(id);
    if (focus && document.activeElement !== group) group.focus({ preventScroll: true });
    if (focus) reveal(scroller, group);
  }

  for (const [id, { group }] of drawing.values) {
    group.setAttribute("aria-describedby", noteId);
    group.addEventListener("focus", () => selected !== id && select(id));
    group.addEventListener("click", () => select(id, true)); // a tap, a click, or Enter and Space
    group.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === " ") {
        event.preventDefault();
        select(id, true);
        return;
      }
      const next = neighbour(centres, id, event.key);
      if (next === null || event.ctrlKey || event.metaKey || event.altKey) return;
      event.preventDefault();
      select(next, true);
    });
  }

  function show(to, scroll = false) {
    step = to;
    const grads = states[step];
    const call = step >= 1 && step <= graph.calls.length ? graph.calls[step - 1] : null;
    const changed = new Set(call ? call.changes.map((c) => c.node) : []);
    for (const [id, { group, grad }] of drawing.values) {
      grad.textContent = short(grads[id]);
      group.setAttribute("aria-label", valueName(graph.nodes[id], grads[id], step === last, graded));
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
    select(selected);
  }

  show(last);
  container.replaceChildren(root);
  const { left, top } = centredScroll(laid.values.get(selected), laid, zoom.scale(), { width: scroller.clientWidth, height: scroller.clientHeight });
  scroller.scrollLeft = left;
  scroller.scrollTop = top;
  return {
    show,
    get step() {
      return step;
    },
  };
}
