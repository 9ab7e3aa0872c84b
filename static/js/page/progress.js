// The learner's progress, kept in this browser: how many Checks, and when all three expressions first
// passed ("Passed on attempt 4, 2 Dec."). Reset leaves it; "Clear my progress" forgets it.

import { el } from "../shared/dom.js";
import NAMES from "../shared/names.json" with { type: "json" };
import { keyOf, read, remove, write } from "../shared/storage.js";

const KEY = NAMES.storage.progress;
const EMPTY = { attempts: 0, passedAttempt: null, passedAt: null };
const DAY = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short" });
const DAY_YEAR = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", year: "numeric" });

// The stored record when it is one this page wrote; null when there is none (or storage is blocked).
function stored() {
  let p;
  try {
    p = JSON.parse(read(KEY));
  } catch {
    return null;
  }
  const count = (n) => Number.isInteger(n) && n > 0;
  const never = p?.passedAttempt === null && p?.passedAt === null;
  const once = count(p?.passedAttempt) && p.passedAttempt <= p.attempts && !Number.isNaN(Date.parse(p.passedAt));
  return count(p?.attempts) && (never || once) ? { attempts: p.attempts, passedAttempt: p.passedAttempt, passedAt: p.passedAt } : null;
}

const day = (date) => (date.getFullYear() === new Date().getFullYear() ? DAY : DAY_YEAR).format(date);
const checks = (n) => `${n} ${n === 1 ? "Check" : "Checks"}`;

function describe({ attempts, passedAttempt, passedAt }) {
  if (passedAttempt) {
    const date = new Date(passedAt);
    const more = attempts > passedAttempt ? ` ${checks(attempts)} in all.` : "";
    return [`Passed on attempt ${passedAttempt}, `, el("time", { datetime: date.toISOString(), text: day(date) }), `.${more}`];
  }
  return [attempts ? `${checks(attempts)} so far, not passed yet.` : "No Checks yet."];
}

export function setupProgress(root) {
  const text = root.querySelector("#progress-text");
  const clear = root.querySelector("#clear-progress");
  let progress = stored() ?? EMPTY;
  let kept = true; // until a write fails: then counted for this visit only

  const render = (note = "") => {
    const where = kept ? " Kept in this browser." : " Not kept: this browser blocks local storage.";
    text.replaceChildren(note, ...describe(progress), progress.attempts ? where : "");
    root.dataset.attempts = String(progress.attempts);
    root.dataset.passedAttempt = String(progress.passedAttempt ?? "");
    clear.hidden = !progress.attempts;
  };
  render();

  clear.addEventListener("click", () => {
    if (!confirm("Forget your Checks and your pass in this browser? Your code stays.")) return;
    remove(KEY);
    progress = EMPTY;
    render("Progress cleared. ");
    text.focus(); // the button is gone: keep the keyboard's place, and read out what happened
  });
  // Another tab of this playground checked or cleared: show the same.
  window.addEventListener("storage", (e) => {
    if (e.key !== keyOf(KEY) && e.key !== null) return;
    progress = stored() ?? EMPTY;
    render();
  });

  return {
    // Count a Check; the first that passes is remembered with its date. Returns this attempt's number.
    record(report) {
      const before = kept ? (stored() ?? EMPTY) : progress; // another tab may have counted meanwhile
      const attempts = before.attempts + 1;
      const first = report.passed === true && !before.passedAttempt;
      progress = first ? { attempts, passedAttempt: attempts, passedAt: new Date().toISOString() } : { ...before, attempts };
      kept = write(KEY, JSON.stringify(progress));
      render();
      return attempts;
    },
  };
}
