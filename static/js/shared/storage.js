// This browser's local storage, which may be blocked (private mode, a sandboxed iframe):
// a blocked read gives null, a blocked write false, and the page works on without them.
//
// In a page a course's LMS launched, the learner's own keys (code, scratch pad, hints, progress, wrapping
// in the editors) are kept under the launch's learner: `<key>@<learner>`, the learner an id the server
// makes that names nobody (config.lti.learner; templates/index.html restores the code and the wrapping
// under the same keys). On a shared browser (a lab machine) the next learner the LMS launches never reads
// them, and once this module loads in a launch for another learner, the other learners' are removed.

import NAMES from "./names.json" with { type: "json" };

const LEARNERS = [NAMES.storage.code, NAMES.storage.scratch, NAMES.storage.hints, NAMES.storage.progress, NAMES.storage.wrap];

function launchedLearner() {
  try {
    const learner = JSON.parse(document.getElementById("config")?.textContent ?? "{}").lti?.learner;
    return typeof learner === "string" && learner ? learner : null;
  } catch {
    return null;
  }
}

const learner = typeof document === "undefined" ? null : launchedLearner();

// The key a value is kept under in this page: the learner's own, in a launched page.
export const keyOf = (key) => (learner && LEARNERS.includes(key) ? `${key}@${learner}` : key);

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
      if (at > 0 && LEARNERS.includes(key.slice(0, at)) && key.slice(at + 1) !== learner) others.push(key);
    }
    others.forEach((key) => localStorage.removeItem(key));
  } catch {}
}

if (learner) forgetOtherLearners();
