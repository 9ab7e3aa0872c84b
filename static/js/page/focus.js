// Keyboard focus that is never dropped on <body>: when the control that has it is disabled or hidden
// (Check while a check runs, Stop when it ends), it moves to the first usable fallback. Skip links, and
// what a Check brings into sight.

const usable = (el) => el && !el.disabled && !el.hidden && el.getClientRects().length > 0;
const element = (item) => (typeof item === "function" ? item() : item);

// rules: [[control, fallback, ...], ...]; a fallback may be a function giving the element (the editor's changes)
// signal: the page's life, ended when it moves to another exercise (course-nav.js).
export function keepFocus(rules, signal) {
  let last = null; // the element that last had focus: a disabled or hidden one loses it without focusin elsewhere
  document.addEventListener("focusin", (event) => (last = event.target), { signal });
  const observer = new MutationObserver((records) => {
    for (const { target } of records) {
      const rule = rules.find(([control]) => control === target);
      if (!rule || last !== target || usable(target)) continue;
      // Chromium keeps a disabled button as activeElement until its next frame, then drops focus to <body>.
      const active = document.activeElement;
      if (active === target || active === null || active === document.body) rule.slice(1).map(element).find(usable)?.focus();
    }
  });
  for (const [control] of rules) observer.observe(control, { attributes: true, attributeFilter: ["disabled", "hidden"] });
}

// "Skip to the editor" puts the keyboard in the editor itself, not just near it.
export function skipTo(link, focus) {
  link.addEventListener("click", (event) => {
    event.preventDefault();
    focus();
  });
}

// Scroll element into the window where it is not all in it already (nearest: the least movement), smoothly
// unless the learner's system asks for less motion. The focus does not move. Measured in a task of its own,
// once the Check has made all of its changes to the page: measured at once, right after the report was put
// in, it laid the page out one more time in the middle of every Check (docs/speed.md).
export function bringIntoView(element) {
  setTimeout(() => {
    const { top, bottom } = element.getBoundingClientRect();
    if (top >= 0 && bottom <= innerHeight) return;
    const still = matchMedia("(prefers-reduced-motion: reduce)").matches;
    element.scrollIntoView({ block: "nearest", behavior: still ? "instant" : "smooth" });
  });
}
