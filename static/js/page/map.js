// The course map, the front page of a course of several exercises (templates/front.html): each exercise's
// state for this learner in words (not started, tried, passed), read from what its page keeps in this
// browser (page/progress.js's record), the next one to do marked (the first not passed, in the course's
// order; every exercise stays open), and resets, each asked first (page/ask.js): one exercise's, or the
// whole course's, forgetting its code, scratch pad, hints and progress in this browser. The words are the
// server's, in the page's language, on the elements they belong to.

import { $ } from "../shared/dom.js";
import NAMES from "../shared/names.json" with { type: "json" };
import { ask } from "./ask.js";
import { recordOf } from "./progress.js";
import { exerciseKeys, read, remove } from "../shared/storage.js";

const list = document.querySelector(".course-map");
const items = [...list.querySelectorAll("li")];
const course = $("reset-course");
const said = $("map-said");
const next = document.querySelector(".map-next");

const blocked = (() => {
  try {
    return localStorage === null;
  } catch {
    return true;
  }
})();

// An exercise's state: "passed", "tried" (Checked, not passed yet) or "not-started"; whether it keeps anything.
function stateOf(suffix) {
  const record = recordOf(read(NAMES.storage.progress + suffix));
  const state = record?.passedAttempt ? "passed" : record?.attempts ? "tried" : "not-started";
  return { state, kept: exerciseKeys(suffix).some((key) => read(key) !== null) };
}

const WORDS = { "not-started": list.dataset.notStarted, tried: list.dataset.tried, passed: list.dataset.passed };

function render() {
  let first = null;
  let any = false;
  for (const item of items) {
    const { state, kept } = stateOf(item.dataset.storage);
    item.dataset.state = state;
    item.querySelector(".state").textContent = WORDS[state];
    item.querySelector(".reset-one").hidden = !kept;
    any ||= kept;
    if (!first && state !== "passed") first = item;
  }
  for (const item of items) {
    const link = item.querySelector("a");
    item.querySelector(".next-mark").hidden = item !== first;
    if (item === first) link.setAttribute("aria-current", "step");
    else link.removeAttribute("aria-current");
  }
  next.textContent = first ? "" : next.dataset.done;
  next.hidden = Boolean(first);
  course.hidden = !any;
}

const forget = (suffix) => exerciseKeys(suffix).forEach((key) => remove(key));

// What a reset did, read out; the button is gone, so the keyboard's place is here.
function say(text) {
  said.textContent = text;
  said.focus();
}

for (const item of items) {
  const button = item.querySelector(".reset-one");
  button.addEventListener("click", async () => {
    const labels = { yes: course.dataset.yesOne, no: course.dataset.no };
    if (!(await ask(button.dataset.question, labels))) return;
    forget(item.dataset.storage);
    render();
    say(button.dataset.said);
  });
}

course.addEventListener("click", async () => {
  if (!(await ask(course.dataset.question, { yes: course.dataset.yes, no: course.dataset.no }))) return;
  items.forEach((item) => forget(item.dataset.storage));
  render();
  say(course.dataset.said);
});

if (blocked) document.querySelector(".kept").textContent = document.querySelector(".kept").dataset.blocked;
render();
list.dataset.ready = "true"; // the states are this browser's (tests wait on it)
// Another tab checked or reset; or the learner came back to a page the browser kept (back): show what is kept now.
window.addEventListener("storage", render);
window.addEventListener("pageshow", (e) => e.persisted && render());
