// Where each box, operation and edge of a graph goes: sizes from the text, positions from dagre.

import { graphlib, layout } from "@dagrejs/dagre";
import { short } from "../shared/format.js";
import { t } from "../shared/i18n.js";

export const FONT = 12; // px: the size of every text in a drawing, in its own units (graph-zoom.js scales it)
export const CHAR = 7.3; // px: the width of one character of that monospace text
export const LINE = 15; // px between the lines of a box
export const PAD = { x: 8, y: 6 };
// characters: the widest key with its space before a row's number ("data" and "grad" are the Value's
// attributes, as code names them; "expected" is in the learner's language)
export const KEY = Math.max("data".length, "grad".length, t("expected").length) + 1;
const OP = { "+": [34, 24], "*": [34, 24], tanh: [46, 24] }; // ellipse sizes (width, height)
const MAX_LABEL = 16; // characters shown in a box; the table and the value's note give the whole label

export function boxLabel(node) {
  return node.label.length > MAX_LABEL ? `${node.label.slice(0, MAX_LABEL - 1)}…` : node.label;
}

// The text of a value's call badge: "#3", "#2 #5", "never" for a value whose _backward never ran.
export function badgeText(node) {
  if (!node.children.length) return "";
  return node.calls.length ? node.calls.map((n) => `#${n}`).join(" ") : t("never");
}

// Width of a value's box: wide enough for its label and badge, and every grad it shows in any step.
function boxWidth(node, numbers) {
  const mark = node.wrong ? 2 : 0; // the cross (graph-svg.js) before the label, two characters wide
  const badge = badgeText(node).length;
  const header = (mark + boxLabel(node).length) * CHAR + (badge ? badge * CHAR + 14 : 0);
  const longest = Math.max(...numbers.map((x) => short(x).length));
  return Math.ceil(2 * PAD.x + Math.max(header, (KEY + longest) * CHAR, 70));
}

// Every number a value shows: its data, expected grad and its grad at every step.
function numbersOf(graph) {
  const numbers = graph.nodes.map((n) => [n.data, n.expected, n.start, n.grad]);
  for (const call of graph.calls) {
    for (const change of call.changes) numbers[change.node].push(change.before, change.after);
  }
  return numbers;
}

// Lay the graph out left to right; return the boxes, the operation ellipses and the edges. graded:
// the values have expected grads (a report's graph), shown as a fourth line; a drawing has none.
export function layoutGraph(graph, graded = true) {
  const g = new graphlib.Graph();
  g.setGraph({ rankdir: "LR", nodesep: 16, ranksep: 30, edgesep: 8, marginx: 10, marginy: 10 });
  g.setDefaultEdgeLabel(() => ({}));
  const numbers = numbersOf(graph);
  const height = 2 * PAD.y + (graded ? 4 : 3) * LINE;
  for (const node of graph.nodes) {
    g.setNode(`v${node.id}`, { width: boxWidth(node, numbers[node.id]), height });
    if (!node.children.length) continue;
    const [w, h] = OP[node.op] ?? [Math.max(34, node.op.length * CHAR + 16), 24];
    g.setNode(`o${node.id}`, { width: w, height: h });
    g.setEdge(`o${node.id}`, `v${node.id}`);
    for (const child of new Set(node.children)) g.setEdge(`v${child}`, `o${node.id}`);
  }
  layout(g);
  const box = (name) => {
    const { x, y, width, height: h } = g.node(name);
    return { x, y, width, height: h };
  };
  const values = new Map(graph.nodes.map((n) => [n.id, box(`v${n.id}`)]));
  const ops = new Map(graph.nodes.filter((n) => n.children.length).map((n) => [n.id, box(`o${n.id}`)]));
  const edges = [];
  for (const node of graph.nodes) {
    if (!node.children.length) continue;
    const op = ops.get(node.id);
    const out = g.edge(`o${node.id}`, `v${node.id}`).points;
    edges.push({ parent: node.id, child: null, count: 1, points: [toEllipse(op, out[1] ?? out[0]), ...out.slice(1)] });
    for (const child of new Set(node.children)) {
      const points = g.edge(`v${child}`, `o${node.id}`).points;
      const count = node.children.filter((c) => c === child).length;
      const last = points.length - 1;
      edges.push({ parent: node.id, child, count, points: [...points.slice(0, last), toEllipse(op, points[last - 1] ?? points[last])] });
    }
  }
  const { width, height: total } = g.graph();
  return { width: Math.ceil(width), height: Math.ceil(total), values, ops, edges };
}

// The point where the line from an ellipse's centre towards `towards` meets its outline.
function toEllipse({ x, y, width, height }, towards) {
  const dx = towards.x - x;
  const dy = towards.y - y;
  const rx = width / 2;
  const ry = height / 2;
  const t = 1 / Math.sqrt((dx * dx) / (rx * rx) + (dy * dy) / (ry * ry) || 1);
  return { x: x + dx * t, y: y + dy * t };
}
