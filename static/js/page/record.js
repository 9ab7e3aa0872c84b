// Records (server/records/, docs/verification.md "Records"): in a page an LMS launched (config.lti), or
// a course page's with a learner token, each Check that did not pass goes to the server with the token,
// which records it against the learner and judges it itself (a pass goes to verify, which records it).
// Never awaited, so the Check is not slowed; a failure is silent in the page (a note in the console).
// One the server could not take now (a 503 or 429 with Retry-After: its database unreachable, or
// asked too often) is kept in the page and sent again after the wait, oldest first, until it is taken
// (at most KEPT Checks: a newer one pushes out the oldest). A page with neither token sends nothing.

import { launchFields } from "./lti.js";
import { exerciseFields, learnerFields } from "./verify.js";

const KEEPALIVE_BYTES = 60_000; // a browser sends a keepalive body up to 64 kB, even as the page closes
const KEPT = 20; // Checks kept to be sent again, at most
const MAX_AGAIN_S = 60;
const kept = []; // bodies the server could not take now, oldest first
let resending = null; // the timer that sends them again

// After a Check: send its code to be recorded, unless it passed, records are off (no url) or no token.
export function recordCheck(url, source, report) {
  if (!url || report.passed === true) return;
  const tokens = { ...learnerFields(), ...launchFields() };
  if (!tokens.learner && !tokens.launch) return;
  const body = JSON.stringify({ source, ...exerciseFields(), ...tokens });
  if (resending) return keep(url, body); // the server said "later": this one waits its turn too
  send(url, body).then((again) => again && keep(url, body, again));
}

// Post one Check; resolve to the seconds to wait before sending it again (0: done with it).
async function send(url, body) {
  try {
    const response = await fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body,
      keepalive: body.length < KEEPALIVE_BYTES,
    });
    const retryAfter = Number(response.headers.get("Retry-After"));
    if ([429, 503].includes(response.status) && retryAfter > 0) return Math.min(retryAfter, MAX_AGAIN_S);
    if (!response.ok) console.info(`This Check was not recorded: HTTP ${response.status}.`);
  } catch (error) {
    console.info("This Check was not recorded:", error);
  }
  return 0;
}

function keep(url, body, seconds = 0) {
  kept.push(body);
  if (kept.length > KEPT) kept.shift();
  document.documentElement.dataset.recordsKept = String(kept.length);
  if (!resending) schedule(url, seconds || 1);
}

// Send the kept Checks again after `seconds`, oldest first; stop at the first the server cannot take.
function schedule(url, seconds) {
  resending = setTimeout(async () => {
    while (kept.length) {
      const again = await send(url, kept[0]);
      if (again) return schedule(url, again);
      kept.shift();
      document.documentElement.dataset.recordsKept = String(kept.length);
    }
    resending = null;
  }, seconds * 1000);
}
