// Records (server/records/, docs/verification.md "Records"): in a page an LMS launched (config.lti), or
// a course page's with a learner token, each Check that did not pass goes to the server with the token,
// which records it against the learner and judges it itself (a pass goes to verify, which records it).
// Never awaited, so the Check is not slowed; a failure is silent in the page (a note in the console).
// A page with neither token sends nothing.

import { launchFields } from "./lti.js";
import { learnerFields } from "./verify.js";

const KEEPALIVE_BYTES = 60_000; // a browser sends a keepalive body up to 64 kB, even as the page closes

// After a Check: send its code to be recorded, unless it passed, records are off (no url) or no token.
export function recordCheck(url, source, report) {
  if (!url || report.passed === true) return;
  const tokens = { ...learnerFields(), ...launchFields() };
  if (!tokens.learner && !tokens.launch) return;
  const body = JSON.stringify({ source, ...tokens });
  fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body,
    keepalive: body.length < KEEPALIVE_BYTES,
  })
    .then((response) => response.ok || console.info(`This Check was not recorded: HTTP ${response.status}.`))
    .catch((error) => console.info("This Check was not recorded:", error));
}
