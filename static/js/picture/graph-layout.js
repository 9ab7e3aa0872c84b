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

// dagre routes an edge through a placeholder node on every rank between its ends. A value used all along
// a deep graph (one weight in every step of a chain) makes tens of thousands of them and seconds of the
// page's time; past MOST_PLACEHOLDERS, the values whose edges make the most are laid out apart (bridge).
const MOST_PLACEHOLDERS = 1000;
const MARGIN = 10; // px around the graph (dagre's marginx and marginy)
const BRIDGE = { gap: 24, first: 16, each: 6 }; // px: the apart row above the graph; the arcs above it

// The values to lay out apart: a set of ids, empty for any graph dagre lays out quickly. Leaves only (an
// input, a weight): a value with an operation stays where its operation's edge reaches it.
function apart(graph) {
  const ranks = new Map(); // a value's rank: 0 for a leaf, two past its operation's inputs' highest
  const rankOf = (id) => {
    if (!ranks.has(id)) {
      const { children } = graph.nodes[id];
      ranks.set(id, children.length ? 2 + Math.max(...children.map(rankOf)) : 0);
    }
    return ranks.get(id);
  };
  const made = new Map(); // a value's placeholders: one per rank between it and each operation it feeds
  for (const node of graph.nodes) {
    const op = rankOf(node.id) - 1;
    for (const child of new Set(node.children)) made.set(child, (made.get(child) ?? 0) + op - rankOf(child) - 1);
  }
  let total = [...made.values()].reduce((sum, n) => sum + n, 0);
  const chosen = new Set();
  const leaves = [...made].filter(([id]) => !graph.nodes[id].children.length);
  for (const [id, n] of leaves.sort((a, b) => b[1] - a[1])) {
    if (total <= MOST_PLACEHOLDERS) break;
    chosen.add(id);
    total -= n;
  }
  return chosen;
}

// Put the values laid out apart in a row above the graph, at its left, and join each to the operations
// it feeds by an arc: up from the value's top, over, and down onto the operation; the shortest arc the
// lowest and leaving furthest right, so arcs from one value nest. Then move everything below the highest
// arc; returns the graph's width and height.
function bridge(apartIds, arcs, { values, ops, edges }) {
  const boxes = [...values].filter(([id]) => !apartIds.has(id)).map(([, b]) => b);
  const top = Math.min(...[...boxes, ...ops.values()].map((b) => b.y - b.height / 2));
  let left = MARGIN;
  for (const id of apartIds) {
    const b = values.get(id);
    [b.x, b.y] = [left + b.width / 2, top - BRIDGE.gap - b.height / 2];
    left += b.width + BRIDGE.gap;
  }
  arcs.sort((a, b) => a.to.x - a.from.x - (b.to.x - b.from.x));
  const counts = new Map(); // each value's arcs: how many, and how many placed so far
  for (const { child } of arcs) counts.set(child, { all: (counts.get(child)?.all ?? 0) + 1, placed: 0 });
  arcs.forEach(({ from, to, ...edge }, i) => {
    const count = counts.get(edge.child);
    const x = from.x + from.width / 2 - (++count.placed * from.width) / (count.all + 1);
    const level = from.y - from.height / 2 - BRIDGE.first - i * BRIDGE.each;
    const points = [{ x, y: from.y - from.height / 2 }, { x, y: level }, { x: to.x, y: level }, { x: to.x, y: to.y - to.height / 2 }];
    edges.push({ ...edge, points });
  });
  const all = [...values.values(), ...ops.values()];
  const ys = [...all.flatMap((b) => [b.y - b.height / 2, b.y + b.height / 2]), ...edges.flatMap((e) => e.points.map((p) => p.y))];
  const down = MARGIN - Math.min(...ys);
  for (const b of all) b.y += down;
  for (const edge of edges) edge.points = edge.points.map(({ x, y }) => ({ x, y: y + down }));
  const xs = [...all.map((b) => b.x + b.width / 2), ...edges.flatMap((e) => e.points.map((p) => p.x))];
  return { width: Math.max(...xs) + MARGIN, height: Math.max(...ys) + down + MARGIN };
}

// Lay the graph out left to right; return the boxes, the operation ellipses and the edges. graded:
// the values have expected grads (a report's graph), shown as a fourth line; a drawing has none.
export function layoutGraph(graph, graded = true) {
  const arced = apart(graph);
  const g = new graphlib.Graph();
  g.setGraph({ rankdir: "LR", nodesep: 16, ranksep: 30, edgesep: 8, marginx: MARGIN, marginy: MARGIN });
  g.setDefaultEdgeLabel(() => ({}));
  const numbers = numbersOf(graph);
  const height = 2 * PAD.y + (graded ? 4 : 3) * LINE;
  for (const node of graph.nodes) {
    g.setNode(`v${node.id}`, { width: boxWidth(node, numbers[node.id]), height });
    if (!node.children.length) continue;
    const [w, h] = OP[node.op] ?? [Math.max(34, node.op.length * CHAR + 16), 24];
    g.setNode(`o${node.id}`, { width: w, height: h });
    g.setEdge(`o${node.id}`, `v${node.id}`);
    for (const child of new Set(node.children)) if (!arced.has(child)) g.setEdge(`v${child}`, `o${node.id}`);
  }
  layout(g);
  const box = (name) => {
    const { x, y, width, height: h } = g.node(name);
    return { x, y, width, height: h };
  };
  const values = new Map(graph.nodes.map((n) => [n.id, box(`v${n.id}`)]));
  const ops = new Map(graph.nodes.filter((n) => n.children.length).map((n) => [n.id, box(`o${n.id}`)]));
  const edges = [];
  const arcs = [];
  for (const node of graph.nodes) {
    if (!node.children.length) continue;
    const op = ops.get(node.id);
    const out = g.edge(`o${node.id}`, `v${node.id}`).points;
    edges.push({ parent: node.id, child: null, count: 1, points: [toEllipse(op, out[1] ?? out[0]), ...out.slice(1)] });
    for (const child of new Set(node.children)) {
      const count = node.children.filter((c) => c === child).length;
      if (arced.has(child)) {
        arcs.push({ parent: node.id, child, count, from: values.get(child), to: op }); // drawn by bridge()
        continue;
      }
      const points = g.edge(`v${child}`, `o${node.id}`).points;
      const last = points.length - 1;
      edges.push({ parent: node.id, child, count, points: [...points.slice(0, last), toEllipse(op, points[last - 1] ?? points[last])] });
    }
  }
  const size = arced.size ? bridge(arced, arcs, { values, ops, edges }) : g.graph();
  return { width: Math.ceil(size.width), height: Math.ceil(size.height), values, ops, edges };
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
