// The learner's progress, kept in this browser: how many Checks, when all three expressions first
// passed ("Passed on attempt 4, 2 Dec."), and on which attempt a pass first came with the order right on
// the graphs that tell orders apart. Reset leaves it; "Clear my progress" forgets it.

import { el } from "../shared/dom.js";
import { ask } from "./ask.js";
import NAMES from "../shared/names.json" with { type: "json" };
import { language, number, t, tn } from "../shared/i18n.js";
import { keyOf, read, remove, write } from "../shared/storage.js";

const KEY = NAMES.storage.progress;
const EMPTY = { attempts: 0, passedAttempt: null, passedAt: null, orderAttempt: null };
// The day as the learner's language writes it: "2 Dec" in English (British order), "2. Dez." in German.
const locale = language === "en" ? "en-GB" : language;
const DAY = new Intl.DateTimeFormat(locale, { day: "numeric", month: "short" });
const DAY_YEAR = new Intl.DateTimeFormat(locale, { day: "numeric", month: "short", year: "numeric" });

// A kept record (its text) when it is one an exercise's page wrote; null when it is none (or no text).
// The course map (page/map.js) reads each exercise's with it.
export function recordOf(text) {
  let p;
  try {
    p = JSON.parse(text);
  } catch {
    return null;
  }
  const count = (n) => Number.isInteger(n) && n > 0;
  const never = p?.passedAttempt === null && p?.passedAt === null;
  const once = count(p?.passedAttempt) && p.passedAttempt <= p.attempts && !Number.isNaN(Date.parse(p.passedAt));
  const orderAttempt = p?.orderAttempt ?? null; // absent in records kept before it was counted
  const order = orderAttempt === null || (once && count(orderAttempt) && orderAttempt >= p.passedAttempt && orderAttempt <= p.attempts);
  if (!(count(p?.attempts) && (never || once) && order)) return null;
  return { attempts: p.attempts, passedAttempt: p.passedAttempt, passedAt: p.passedAt, orderAttempt };
}

// This page's record; null when there is none (or storage is blocked).
const stored = () => recordOf(read(KEY));

const day = (date) => (date.getFullYear() === new Date().getFullYear() ? DAY : DAY_YEAR).format(date);

// A message with an element in the place of its {date}: the text before it, the element, the text after.
const around = (message, element) => {
  const [before, after = ""] = message.split("{date}");
  return [before, element, after];
};

// Under the seed's rule a pass is the three expressions; whether the order was right then is said beside it
// (ordered: the exercise has graphs that tell orders apart; another exercise's pass is just that).
function passSaid(passedAttempt, orderAttempt, ordered) {
  const params = { attempt: number(passedAttempt), order: number(orderAttempt ?? 0) };
  if (!ordered) return t("Passed on attempt {attempt}, {date}.", params);
  if (orderAttempt === passedAttempt) return t("Passed on attempt {attempt}, {date}, with the order right.", params);
  if (orderAttempt) return t("Passed on attempt {attempt}, {date}; the order right on attempt {order}.", params);
  return t("Passed on attempt {attempt}, {date}, but the order is not yet right on every graph.", params);
}

function describe({ attempts, passedAttempt, passedAt, orderAttempt }, ordered) {
  if (passedAttempt) {
    const date = new Date(passedAt);
    const time = el("time", { datetime: date.toISOString(), text: day(date) });
    const said = around(passSaid(passedAttempt, orderAttempt, ordered), time);
    return attempts > passedAttempt ? [...said, " ", tn("{n} Check in all.", "{n} Checks in all.", attempts)] : said;
  }
  return [attempts ? tn("{n} Check so far, not passed yet.", "{n} Checks so far, not passed yet.", attempts) : t("No Checks yet.")];
}

// ordered: whether the exercise has graphs that tell orders apart (the seed's), whose progress says so.
export function setupProgress(root, { ordered = true, signal } = {}) {
  const text = root.querySelector("#progress-text");
  const clear = root.querySelector("#clear-progress");
  let progress = stored() ?? EMPTY;
  let kept = true; // until a write fails: then counted for this visit only

  const render = (note = "") => {
    const where = kept ? t("Kept in this browser.") : t("Not kept: this browser blocks local storage.");
    text.replaceChildren(note ? `${note} ` : "", ...describe(progress, ordered), progress.attempts ? ` ${where}` : "");
    root.dataset.attempts = String(progress.attempts);
    root.dataset.passedAttempt = String(progress.passedAttempt ?? "");
    root.dataset.orderAttempt = String(progress.orderAttempt ?? "");
    clear.hidden = !progress.attempts;
  };
  render();

  clear.addEventListener("click", async () => {
    const question = t("Forget your Checks and your pass in this browser? Your code stays.");
    if (!(await ask(question, { yes: t("Forget my progress"), no: t("Keep it") }))) return;
    remove(KEY);
    progress = EMPTY;
    render(t("Progress cleared."));
    text.focus(); // the button is gone: keep the keyboard's place, and read out what happened
  });
  // Another tab of this playground checked or cleared: show the same.
  window.addEventListener("storage", (e) => {
    if (e.key !== keyOf(KEY) && e.key !== null) return;
    progress = stored() ?? EMPTY;
    render();
  }, { signal }); // signal: the page's life, ended when it moves to another exercise (course-nav.js)

  return {
    // Count a Check; the first that passes is remembered with its date, and the first pass with the
    // order right. Returns this attempt's number.
    record(report) {
      const before = kept ? (stored() ?? EMPTY) : progress; // another tab may have counted meanwhile
      const attempts = before.attempts + 1;
      const first = report.passed === true && !before.passedAttempt;
      progress = first ? { ...before, attempts, passedAttempt: attempts, passedAt: new Date().toISOString() } : { ...before, attempts };
      if (report.passed === true && report.order === "right" && !before.orderAttempt) progress.orderAttempt = attempts;
      kept = write(KEY, JSON.stringify(progress));
      render();
      return attempts;
    },
  };
}
