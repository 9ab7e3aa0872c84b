// Draw a laid-out graph as SVG, micrograd's draw_dot style: a box per value, an ellipse per operation.

import { short } from "../shared/format.js";
import { t } from "../shared/i18n.js";
import { CHAR, FONT, LINE, PAD, badgeText, boxLabel } from "./graph-layout.js";

const NS = "http://www.w3.org/2000/svg";
let drawn = 0; // numbers each picture's arrowhead marker, so ids stay unique on the page

function svg(tag, attrs = {}, text) {
  const node = document.createElementNS(NS, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  if (text !== undefined) node.textContent = text;
  return node;
}

// A smooth path through dagre's points: straight to the first midpoint, then curves via each point.
function pathOf(points, shift = 0) {
  const p = points.map(({ x, y }) => ({ x, y: y + shift }));
  if (p.length < 3) return `M${p[0].x},${p[0].y} L${p.at(-1).x},${p.at(-1).y}`;
  let d = `M${p[0].x},${p[0].y}`;
  for (let i = 1; i < p.length - 1; i++) {
    const mx = (p[i].x + p[i + 1].x) / 2;
    const my = (p[i].y + p[i + 1].y) / 2;
    d += ` Q${p[i].x},${p[i].y} ${i === p.length - 2 ? `${p.at(-1).x},${p.at(-1).y}` : `${mx},${my}`}`;
  }
  return d;
}

function drawEdge(edge, marker) {
  const group = svg("g", { class: "edge", "data-parent": edge.parent, "data-child": edge.child ?? "out", "aria-hidden": "true" });
  // An input used twice (a·a) gets two lines side by side, as it is passed on twice.
  for (let i = 0; i < edge.count; i++) {
    const shift = (i - (edge.count - 1) / 2) * 5;
    group.append(svg("path", { d: pathOf(edge.points, shift), "marker-end": `url(#${marker})` }));
  }
  return group;
}

function drawOp(node, { x, y, width, height }) {
  // Hidden from screen readers: each value's name gives its formula.
  const group = svg("g", { class: "op", "data-op-of": node.id, "aria-hidden": "true" });
  group.append(svg("ellipse", { cx: x, cy: y, rx: width / 2, ry: height / 2 }), svg("text", { x, y: y + 4, "text-anchor": "middle" }, node.op));
  return group;
}

// One value's box; returns its group and the text that shows its grad, to change per step. The box
// is a button (graph.js moves the focus between them, one in the Tab order): focused or tapped, it
// shows its note under the picture; its name is valueName's, which graph.js keeps to the step shown.
function drawValue(node, { x, y, width, height }, notes, graded) {
  const left = x - width / 2;
  const top = y - height / 2;
  const group = svg("g", {
    class: "value",
    "data-node": node.id,
    "data-wrong": String(Boolean(node.wrong)),
    "data-flagged": String(notes.length > 0),
    role: "button",
    tabindex: "-1",
  });
  if (notes.length) {
    group.append(svg("rect", { class: "flag", x: left - 4, y: top - 4, width: width + 8, height: height + 8, rx: 7 }));
  }
  group.append(svg("rect", { class: "box", x: left, y: top, width, height, rx: 4 }));
  const line = (i) => top + PAD.y + LINE * i + 11;
  // A wrong value's cross is drawn, not a character: no font needed (the layout keeps 2 characters for it).
  if (node.wrong) {
    const [x0, y0, size] = [left + PAD.x + 1, line(0) - 9, 8];
    group.append(svg("path", { class: "mark", d: `M${x0} ${y0}l${size} ${size}M${x0 + size} ${y0}l${-size} ${size}` }));
  }
  const label = svg("text", { class: "label", x: left + PAD.x + (node.wrong ? 2 * CHAR : 0), y: line(0) });
  label.append(svg("tspan", {}, boxLabel(node)));
  group.append(label, " "); // a space between the texts (not drawn), so the box's words read apart
  const badge = badgeText(node);
  if (badge) {
    const w = badge.length * CHAR + 8;
    const kind = !node.calls.length ? "never" : node.calls.length > 1 ? "repeated" : "once";
    const pill = svg("g", { class: `badge ${kind}` });
    pill.append(
      svg("rect", { x: left + width - PAD.x - w + 4, y: line(0) - 11, width: w, height: 14, rx: 7 }),
      svg("text", { x: left + width - PAD.x - w / 2 + 4, y: line(0), "text-anchor": "middle" }, badge),
    );
    group.append(pill, " ");
  }
  // A row's key is its text's own (muted) and its number a tspan ending at the box's right edge, like
  // the badge: every row and the badge then reach the same right edge, so a box partly panned out of
  // view to the left keeps the words of its rows with their numbers (its name, valueName, has both).
  const row = (i, key, value, cls) => {
    const text = svg("text", { class: `row ${cls}`, x: left + PAD.x, y: line(i) }, key);
    const number = svg("tspan", { class: "number", x: left + width - PAD.x, "text-anchor": "end" }, value);
    text.append(" ", number);
    group.append(text, " ");
    return number;
  };
  row(1, "data", short(node.data), "data");
  const grad = row(2, "grad", short(node.grad), "grad");
  if (graded) row(3, t("expected"), short(node.expected), "expected");
  return { group, grad };
}

// A value's accessible name: its box's text as shown (label, call badge, the rounded numbers), so a
// learner who speaks what they see reaches it, then in words whether its grad is right (at the last
// step, final) and what it is (its formula, or its whole label where the box cuts it).
export function valueName(node, grad, final, graded = true) {
  const shown = [boxLabel(node), badgeText(node), `data ${short(node.data)}`, `grad ${short(grad)}`];
  if (graded) shown.push(`${t("expected")} ${short(node.expected)}`);
  const verdict = !final ? t("grad at this step") : node.expected === null ? "" : node.wrong ? t("wrong") : t("right");
  const whole = node.formula && node.formula !== node.label ? whatItIs(node) : boxLabel(node) !== node.label ? node.label : "";
  return shown.filter(Boolean).join(", ") + (verdict ? `: ${verdict}` : "") + (whole ? `; ${whole}` : "");
}

// What a value is: "label = formula", or its label where it has no other formula.
const whatItIs = (node) => (node.formula && node.formula !== node.label ? `${node.label} = ${node.formula}` : node.label);

// A value in words, with its grad at the step shown; at the last step (final), whether it is right.
export function valueText(node, grad, final) {
  const said = { what: whatItIs(node), data: node.data, grad, expected: node.expected };
  if (!final) return t("{what}: data {data}, grad {grad} at this step", said);
  if (node.expected === null) return t("{what}: data {data}, grad {grad}", said);
  return node.wrong ? t("{what}: data {data}, grad {grad}, wrong: expected {expected}", said) : t("{what}: data {data}, grad {grad}, right", said);
}

// Draw the graph; return the SVG and the parts each step changes.
export function drawGraph(laid, graph, notesOf, label, graded = true) {
  const marker = `graph-arrow-${++drawn}`;
  const root = svg("svg", {
    class: "graph-svg",
    viewBox: `0 0 ${laid.width} ${laid.height}`,
    "font-size": FONT,
    role: "group",
    "aria-label": label,
  });
  const defs = svg("defs");
  for (const [id, cls] of [[marker, "arrowhead"], [`${marker}-flow`, "arrowhead flow"]]) {
    const attrs = { id, viewBox: "0 0 10 10", refX: 9, refY: 5, markerWidth: 9, markerHeight: 9 };
    const arrow = svg("marker", { ...attrs, markerUnits: "userSpaceOnUse", orient: "auto" });
    arrow.append(svg("path", { d: "M0,0 L10,5 L0,10 z", class: cls }));
    defs.append(arrow);
  }
  root.append(defs);
  const edges = laid.edges.map((e) => drawEdge(e, marker));
  root.append(...edges);
  for (const node of graph.nodes) if (node.children.length) root.append(drawOp(node, laid.ops.get(node.id)));
  const values = new Map();
  for (const node of graph.nodes) {
    const drawnValue = drawValue(node, laid.values.get(node.id), notesOf(node.id), graded);
    root.append(drawnValue.group);
    values.set(node.id, drawnValue);
  }
  const ops = new Map([...root.querySelectorAll("g.op")].map((g) => [Number(g.dataset.opOf), g]));
  return { svg: root, values, ops, edges, marker };
}
