// Where a picture looks and how big it shows: pure functions of the layout, no DOM, so they are tested
// on their own (tests/test_picture_view.py). The sizes they need are handed in.

// The zoom levels, as multiples of the readable size (where the drawing's text is as big as the page's
// body text). A picture never shows smaller than 1: its text would be smaller than the page's.
export const ZOOMS = [1, 1.5, 2];

// The drawing's scale at which text of `font` px (the drawing's own units) shows as big as `bodyPx`.
export function readableScale(bodyPx, font) {
  return bodyPx > 0 && font > 0 ? bodyPx / font : 1;
}

// The value a picture opens on: the one the mistake names, else the first value the diagnosis names,
// else the wrong value made last (the nearest the output, where wrong grads start), else the output.
export function focusOf(graph, { mistake = null, diagnosis = [] } = {}) {
  const known = (id) => Number.isInteger(id) && id >= 0 && id < graph.nodes.length;
  if (known(mistake?.node)) return mistake.node;
  const named = (diagnosis ?? []).find((d) => known(d?.node));
  if (named) return named.node;
  const wrong = graph.nodes.filter((v) => v.wrong).map((v) => v.id).filter(known);
  return wrong.length ? Math.max(...wrong) : graph.out;
}

// The scroll position that puts `box` (its centre x, y and its width, height, in drawing units) in the
// middle of a view of `view` px, when the drawing is `size` units and shown at `scale`; a box wider or
// taller than the view shows from its left or top edge (where its name is), `margin` px in. Clamped to
// what can be scrolled to.
export function centredScroll({ x, y, width = 0, height = 0 }, size, scale, view, margin = 12) {
  const clamp = (at, most) => Math.max(0, Math.min(Math.round(at), Math.max(0, Math.round(most))));
  const start = (centre, extent, seen) =>
    extent * scale > seen - 2 * margin ? (centre - extent / 2) * scale - margin : centre * scale - seen / 2;
  return {
    left: clamp(start(x, width, view.width), size.width * scale - view.width),
    top: clamp(start(y, height, view.height), size.height * scale - view.height),
  };
}

const DIRECTIONS = { ArrowRight: [1, 0], ArrowLeft: [-1, 0], ArrowDown: [0, 1], ArrowUp: [0, -1] };

// The value an arrow key moves to from `from`: the nearest centre in that direction, counting a step
// sideways twice; null where there is none. centres: Map id -> { x, y }.
export function neighbour(centres, from, key) {
  const direction = DIRECTIONS[key];
  const start = centres.get(from);
  if (!direction || !start) return null;
  const [dx, dy] = direction;
  let best = null;
  let bestCost = Infinity;
  for (const [id, { x, y }] of centres) {
    const ahead = (x - start.x) * dx + (y - start.y) * dy; // along the key's direction
    const aside = Math.abs((x - start.x) * dy + (y - start.y) * dx);
    if (id === from || ahead <= 0.5) continue;
    const cost = ahead + 2 * aside;
    if (cost < bestCost) [best, bestCost] = [id, cost];
  }
  return best;
}
