// LTI 1.3: in a page a course's LMS launched (config.lti, server/lti/), a pass the server verified
// goes to the course's gradebook. The server sends it; this says whether it got there ("Sent to
// <course>." or "Could not reach <course>." with Retry) and sends the launch token with a pass, so
// the receipt names the LMS's learner (the token is signed by the server: the learner cannot change it).

import { el } from "../shared/dom.js";

const config = () => JSON.parse(document.getElementById("config")?.textContent ?? "{}").lti ?? null;

// Fields for POST verify: the launch token, in a launched page.
export function launchFields() {
  const lti = config();
  return lti ? { launch: lti.launch } : {};
}

// The grade line, after the verified line.
function place(after) {
  let line = document.getElementById("lti-grade");
  if (!line) {
    line = el("p", { id: "lti-grade", "data-testid": "lti-grade", "aria-live": "polite" });
    line.dataset.state = "none";
    line.hidden = true;
    after.after(line);
  }
  return line;
}

// Show what the server said of the grade ({ state: sent | pending | none | unchanged, course, message }).
function render(line, grade) {
  if (!grade || grade.state === "unchanged") return; // no pass sent: what the course holds is unchanged
  line.dataset.state = grade.state;
  line.hidden = grade.state === "none";
  if (grade.state !== "pending") {
    line.replaceChildren(grade.message);
    return;
  }
  const retry = el("button", { type: "button", "data-testid": "lti-retry", text: "Retry" });
  retry.addEventListener("click", () => send(line, retry));
  line.replaceChildren(`${grade.message} `, retry);
}

async function send(line, retry) {
  const lti = config();
  retry.disabled = true;
  line.dataset.state = "sending";
  let grade;
  try {
    const response = await fetch(lti.retry, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ launch: lti.launch }),
    });
    grade = await response.json();
    if (!response.ok) grade = { state: "pending", message: grade.error ?? `Could not reach ${lti.course}.` };
  } catch {
    grade = { state: "pending", message: `Could not reach ${lti.course}.` };
  }
  render(line, grade);
}

// After a Check's verification (verify.js's outcome, or null): show the grade's way to the course.
export function showGrade(verifiedLine, outcome) {
  const lti = config();
  if (!lti || !lti.grades || !outcome) return;
  render(place(verifiedLine), outcome.grade);
}
