// LTI 1.3: in a page a course's LMS launched (config.lti, server/lti/), a pass the server verified
// goes to the course's gradebook. The server's sender sends it in the background; this line says
// where it is ("Sending to <course>…", then "Sent to <course>.", "<course> already has a newer grade…",
// "Could not reach <course>." with Retry, or, final, "<course> refused this grade…"), asking lti/grade
// every second while it is on its way. The server says it in the page's language (?lang=: inLanguage).
// It also sends the launch token with a pass, so the receipt names the LMS's learner (the token is
// signed by the server: the learner cannot change it).

import { el } from "../shared/dom.js";
import { inLanguage, t } from "../shared/i18n.js";

const config = () => JSON.parse(document.getElementById("config")?.textContent ?? "{}").lti ?? null;
const POLL_MS = 1000;
const MAX_POLLS = 120; // the sender's try ends well within this (its requests time out after 10 s)

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

let asking = 0; // the poll under way; a newer one (another pass, a Retry) ends it

// Show what the server said of the grade ({ state: sending | sent | kept | pending | failed | none |
// unchanged, course, message }); while it is sending, ask again in a moment.
function render(line, grade, polls = 0) {
  if (!grade || grade.state === "unchanged") return; // no pass sent: what the course holds is unchanged
  line.dataset.state = grade.state;
  line.hidden = grade.state === "none";
  if (grade.state === "pending") {
    const retry = el("button", { type: "button", "data-testid": "lti-retry", text: t("Retry") });
    retry.addEventListener("click", () => ask(line, true));
    line.replaceChildren(`${grade.message} `, retry);
    return;
  }
  line.replaceChildren(grade.message);
  if (grade.state === "sending" && polls < MAX_POLLS) {
    const mine = ++asking;
    setTimeout(() => mine === asking && ask(line, false, polls + 1), POLL_MS);
  }
}

// Ask lti/grade where the grade is (with retry: have it sent again now), and show the answer.
async function ask(line, retry, polls = 0) {
  const lti = config();
  if (retry) {
    asking++;
    line.querySelector("button")?.setAttribute("disabled", "");
  }
  let grade;
  try {
    const response = await fetch(inLanguage(lti.retry), {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ launch: lti.launch, retry }),
    });
    grade = await response.json();
    const retryAfter = Number(response.headers.get("Retry-After"));
    if ([429, 503].includes(response.status) && retryAfter > 0 && grade.error) {
      // the server cannot say now (its database unreachable, or asked too often): it says why, and
      // the page asks again after the wait (a Retry asked for stays asked for)
      const mine = ++asking;
      line.hidden = false;
      line.dataset.state = "waiting";
      line.replaceChildren(grade.error);
      setTimeout(() => mine === asking && ask(line, retry, polls), Math.min(retryAfter, 60) * 1000);
      return;
    }
    if (!response.ok) grade = { state: "pending", message: grade.error ?? t("Could not reach {course}.", { course: lti.course }) };
  } catch {
    grade = { state: "pending", message: t("Could not reach {course}.", { course: lti.course }) };
  }
  render(line, grade, polls);
}

// After a Check's verification (verify.js's outcome, or null): show the grade's way to the course.
export function showGrade(verifiedLine, outcome) {
  const lti = config();
  if (!lti || !lti.grades || !outcome) return;
  render(place(verifiedLine), outcome.grade);
}
