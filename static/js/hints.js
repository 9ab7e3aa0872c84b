// Hints revealed one at a time and remembered in this browser; a solution only where the server allows it.

const HINTS_KEY = "backprop-playground:hints";

function stored() {
  try {
    return Number.parseInt(localStorage.getItem(HINTS_KEY) ?? "0", 10) || 0;
  } catch {
    return 0; // storage blocked: the hints still work, just not remembered
  }
}

function remember(count) {
  try {
    localStorage.setItem(HINTS_KEY, String(count));
  } catch {
    // storage blocked: nothing to do
  }
}

export function setupHints(root) {
  const hints = [...root.querySelectorAll("ol > li")];
  const button = root.querySelector("#hint");
  const count = root.querySelector("#hint-count");
  const show = (shown) => {
    hints.forEach((hint, i) => (hint.hidden = i >= shown));
    button.hidden = shown >= hints.length;
    button.textContent = shown ? "Show the next hint" : "Show a hint";
    count.textContent =
      shown === 0
        ? `${hints.length} hints, revealed one at a time.`
        : shown < hints.length
          ? `${shown} of ${hints.length} shown.`
          : `All ${hints.length} hints shown.`;
  };
  let shown = Math.min(stored(), hints.length);
  show(shown);
  button.addEventListener("click", () => {
    shown = Math.min(shown + 1, hints.length);
    remember(shown);
    show(shown);
    hints[shown - 1].focus?.();
  });
}

// The "Show a solution" button exists only when the server is configured to offer one.
export function setupSolution(root, solution, { createViewer, editor }) {
  const button = root.querySelector("#show-solution");
  if (!button || !solution) return;
  const panel = root.querySelector("#solution");
  let viewer = null;
  button.addEventListener("click", () => {
    panel.hidden = !panel.hidden;
    button.textContent = panel.hidden ? "Show a solution" : "Hide the solution";
    viewer ??= createViewer(root.querySelector("#solution-code"), solution);
  });
  root.querySelector("#use-solution").addEventListener("click", () => {
    if (!confirm("Replace your code with this solution? Your current code will be lost.")) return;
    editor.setCode(solution);
    editor.markLine(null);
  });
}
