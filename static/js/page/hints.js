// Hints revealed one at a time and remembered in this browser; a solution only where the server allows it.

import NAMES from "../shared/names.json" with { type: "json" };
import { number, t, tn } from "../shared/i18n.js";
import { read, write } from "../shared/storage.js";

const HINTS_KEY = NAMES.storage.hints;

export function setupHints(root) {
  const hints = [...root.querySelectorAll("ol > li")];
  const button = root.querySelector("#hint");
  const count = root.querySelector("#hint-count");
  hints.forEach((hint) => (hint.tabIndex = -1)); // focusable from script: a new hint takes the focus
  const show = (shown) => {
    hints.forEach((hint, i) => (hint.hidden = i >= shown));
    button.hidden = shown >= hints.length;
    button.textContent = shown ? t("Show the next hint") : t("Show a hint");
    count.textContent =
      shown === 0
        ? tn("{n} hint, revealed when you ask for it.", "{n} hints, revealed one at a time.", hints.length)
        : shown < hints.length
          ? t("{shown} of {n} shown.", { shown: number(shown), n: number(hints.length) })
          : tn("The hint is shown.", "All {n} hints shown.", hints.length);
  };
  let shown = Math.min(Number.parseInt(read(HINTS_KEY) ?? "0", 10) || 0, hints.length);
  show(shown);
  button.addEventListener("click", () => {
    shown = Math.min(shown + 1, hints.length);
    write(HINTS_KEY, String(shown)); // not remembered where storage is blocked
    show(shown);
    // Screen readers read the new hint once, as it takes the focus; Tab leads back to the button,
    // which after the last hint is gone.
    hints[shown - 1].focus();
  });
}

// The "Show a solution" button exists only when the server is configured to offer one.
export function setupSolution(root, solution, { createViewer, replaceCode }) {
  const button = root.querySelector("#show-solution");
  if (!button || !solution) return;
  const panel = root.querySelector("#solution");
  let viewer = null;
  button.addEventListener("click", () => {
    panel.hidden = !panel.hidden;
    button.textContent = panel.hidden ? t("Show a solution") : t("Hide the solution");
    viewer ??= createViewer(root.querySelector("#solution-code"), solution, t("A solution (read-only)"));
  });
  root.querySelector("#use-solution").addEventListener("click", () =>
    replaceCode(solution, t("Replace your code with this solution?")),
  );
}
