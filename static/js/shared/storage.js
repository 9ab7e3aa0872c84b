// This browser's local storage, which may be blocked (private mode, a sandboxed iframe):
// a blocked read gives null, a blocked write false, and the page works on without them.
//
// In a page a course's LMS launched, the learner's own keys (code, scratch pad, hints, progress, wrapping
// in the editors) are kept under the launch's learner: `<key>@<learner>`, the learner an id the server
// makes that names nobody (config.lti.learner; templates/index.html restores the code and the wrapping
// under the same keys). On a shared browser (a lab machine) the next learner the LMS launches never reads
// them, and once this module loads in a launch for another learner, the other learners' are removed.
//
// Each exercise keeps its own code, scratch pad, hints and progress: `<key>/<id>` (`<key>/<id>@<learner>`
// in a launch), the suffix the server gives (config.storage); the seed's exercise keeps the bare keys, so
// the code a learner saved before there were several exercises stays theirs. Theme, wrapping, language and
// the snapshot are the browser's, for every exercise.

import NAMES from "./names.json" with { type: "json" };

const EXERCISES = [NAMES.storage.code, NAMES.storage.scratch, NAMES.storage.hints, NAMES.storage.progress];
const LEARNERS = [...EXERCISES, NAMES.storage.wrap];

function pageConfig() {
  try {
    return JSON.parse(document.getElementById("config")?.textContent ?? "{}");
  } catch {
    return {};
  }
}

const config = typeof document === "undefined" ? {} : pageConfig();
const learner = typeof config.lti?.learner === "string" && config.lti.learner ? config.lti.learner : null;
let exercise = typeof config.storage === "string" ? config.storage : ""; // "/<id>", or "" (the seed's)

// The page moved to another exercise (page/course-nav.js): its keys from now on, by its config.storage.
export function useExercise(storage) {
  exercise = typeof storage === "string" ? storage : "";
}

// The key a value is kept under in this page: this exercise's own, and the learner's own in a launched page.
export const keyOf = (key) => {
  const own = EXERCISES.includes(key) ? key + exercise : key;
  return learner && LEARNERS.includes(key) ? `${own}@${learner}` : own;
};

// The keys an exercise's page keeps its learner's own state under outside a launch (its code, scratch pad,
// hints and progress), by what they end in (its config.storage): the course map (page/map.js) reads and
// forgets them with read and remove, which take them as they are on a page of no exercise.
export const exerciseKeys = (suffix) => EXERCISES.map((key) => key + suffix);

// A kept key's own name: without its learner and its exercise (`<key>[/<id>][@<learner>]`).
const baseOf = (key) => key.replace(/\/[a-z][a-z0-9-]*$/, "");

export function read(key) {
  try {
    return localStorage.getItem(keyOf(key));
  } catch {
    return null;
  }
}

export function write(key, value) {
  try {
    localStorage.setItem(keyOf(key), value);
    return true;
  } catch {
    return false;
  }
}

export function remove(key) {
  try {
    localStorage.removeItem(keyOf(key));
    return true;
  } catch {
    return false;
  }
}

// Remove what other learners launched in this browser kept (their code, progress...).
function forgetOtherLearners() {
  try {
    const others = [];
    for (let i = 0; i < localStorage.length; i++) {
      const key = localStorage.key(i);
      const at = key.lastIndexOf("@");
      if (at > 0 && LEARNERS.includes(baseOf(key.slice(0, at))) && key.slice(at + 1) !== learner) others.push(key);
    }
    others.forEach((key) => localStorage.removeItem(key));
  } catch {}
}

if (learner) forgetOtherLearners();
