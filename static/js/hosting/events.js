// What the page tells a course page that embeds it: ready, each Check's result, its own height.
// Messages go to the parent with postMessage only when the page is framed, and only to the origins
// allowed to frame it (config.parents, which the server takes from frame-ancestors), never to "*".
// The same messages fire as DOM CustomEvents on window, for automation. None carries the learner's
// code, values or gradients: only what passed, how often, and how many hints were shown.

import NAMES from "../shared/names.json" with { type: "json" };

export const VERSION = 1;
const PREFIX = NAMES.events;
const COALESCE_MS = 50; // one resize message for a burst of layout changes

// exercise: the page's exercise's id (config.exercise), which every message that is about it names.
export const readyMessage = (exercise) => ({ type: `${PREFIX}ready`, version: VERSION, exercise });

export const checkedMessage = (report, attempt, hintsShown, verification = null, exercise = report.exercise) => ({
  type: `${PREFIX}checked`,
  version: VERSION,
  exercise: String(exercise),
  passed: report.passed === true,
  attempt,
  expressions: report.expressions.map((e) => ({ name: String(e.name), passed: e.passed === true, extra: e.extra === true })),
  error: report.error ? String(report.error.kind) : null,
  hintsShown,
  // what the graphs that tell orders apart show: "right", "wrong", "error", or null (none graded)
  order: ["right", "wrong", "error"].includes(report.order) ? report.order : null,
  verified: verification?.verified ?? null, // the server's word on a pass (verify.js); null: not asked or no answer
  receipt: verification?.receipt ?? null,
});

export const resizeMessage = (height) => ({ type: `${PREFIX}resize`, version: VERSION, height });

// The origins to post to. Where the browser names the parent's origin (location.ancestorOrigins,
// Chromium and Safari), that one if it is allowed, else none; elsewhere every allowed origin, and the
// browser delivers only to the one the parent has. An opaque origin ("null") is never a target.
export function targetOrigins(parents, ownOrigin, ancestorOrigins) {
  const allowed = [...(parents.self ? [ownOrigin] : []), ...parents.origins].filter((o) => o && o !== "null");
  if (ancestorOrigins?.length) return allowed.includes(ancestorOrigins[0]) ? [ancestorOrigins[0]] : [];
  return [...new Set(allowed)];
}

const hintsShown = () => document.querySelectorAll("[data-testid=hints] ol > li:not([hidden])").length;

// The page's height: its content's, not the iframe's (which may be taller), so it can shrink too.
const pageHeight = () => Math.ceil(document.documentElement.getBoundingClientRect().height);

export function startEvents(parents, exercise) {
  const framed = window.parent !== window;
  const targets = framed ? targetOrigins(parents, location.origin, location.ancestorOrigins) : [];
  const send = (message) => {
    for (const origin of targets) window.parent.postMessage(message, origin);
    window.dispatchEvent(new CustomEvent(message.type, { detail: message }));
  };

  let sentHeight = 0;
  let timer = null;
  const sendHeight = (always = false) => {
    timer = null;
    const height = pageHeight();
    if (height !== sentHeight || always) send(resizeMessage((sentHeight = height)));
  };
  new ResizeObserver(() => (timer ??= setTimeout(sendHeight, COALESCE_MS))).observe(document.documentElement);

  return {
    // With the height again: a course page whose listener came late has it by now.
    ready: () => (send(readyMessage(exercise)), sendHeight(true)),
    checked: (report, attempt, verification) => send(checkedMessage(report, attempt, hintsShown(), verification, exercise)),
  };
}
