// Verified by the server: after a pass in this browser, the server re-grades the same code in its
// sandbox, on value sets it draws itself, and signs a receipt (POST verify, docs/verification.md).
// The page says what the server found; the `checked` event carries it and the receipt, for a course
// page to check on its own server. Only with verification on (config.verify), only after a pass.

import { el } from "../shared/dom.js";
import { inLanguage, number, t, tn } from "../shared/i18n.js";
import { launchFields } from "./lti.js"; // LTI hook: a launched page sends its launch token

const unavailable = (message) => ({ verified: null, receipt: null, message });

// A pass the server could not take now (every sandbox busy, the learner's last verification still
// running, over the limit: a 503 or 429 with Retry-After; its database unreachable, which says why
// with `retry`; or no network) is kept and sent again by itself after `again` seconds: its line says
// it waits (and why, when the server said); Check and the editor work meanwhile.
const NO_NETWORK_AGAIN_S = 5;
const MAX_AGAIN_S = 60;
const waiting = (seconds, why) => ({
  verified: null,
  receipt: null,
  again: Math.min(Math.max(seconds, 1), MAX_AGAIN_S),
  message: why
    ? t("{why} Your pass is kept in this page and sent again by itself.", { why })
    : t("Waiting for the server to verify your pass…"),
});
let kept = null; // the pass waiting to be sent again: a newer pass takes its place
export const passKept = () => kept !== null; // the page does not move to another exercise meanwhile

// The course's token for this learner, when it put one in the page's URL (?learner=...): the receipt
// then names the learner (server/learners/tokens.py).
export const learnerFields = () => {
  const token = new URLSearchParams(location.search).get("learner");
  return token ? { learner: token } : {};
};

// The page's exercise (config.exercise): /verify and POST /record grade the code as a Check of it (in a
// launched page, the launch's exercise, which the server holds it to).
export const exerciseFields = () => {
  const exercise = JSON.parse(document.getElementById("config")?.textContent ?? "{}").exercise;
  return typeof exercise === "string" ? { exercise } : {};
};

// Ask the server; resolve to { verified: true | false | null (no answer), receipt, message, report }, and
// `again`, the seconds after which to ask again, when the server could not take the pass now.
export async function askServer(url, source) {
  let response;
  try {
    response = await fetch(inLanguage(url), { // the server's report and refusals in the page's language
      method: "POST",
      headers: { "Content-Type": "application/json" },
      // the page's exercise, the course's learner token, the launch's (LTI hook: launchFields)
      body: JSON.stringify({ source, ...exerciseFields(), ...learnerFields(), ...launchFields() }),
    });
  } catch {
    return waiting(NO_NETWORK_AGAIN_S);
  }
  const answer = await response.json().catch(() => ({}));
  const retryAfter = Number(response.headers.get("Retry-After"));
  if ([429, 503].includes(response.status) && retryAfter > 0) {
    return waiting(retryAfter, answer.retry && typeof answer.error === "string" ? answer.error : null);
  }
  if (!response.ok || !answer.report) {
    const why = String(answer.error ?? `HTTP ${response.status}`).replace(/\.?$/, ".");
    return unavailable(t("The server could not verify this pass now: {why} It is not kept as a pass; Check again later.", { why }));
  }
  const { report, receipt, grade } = answer; // grade: LTI hook (lti.js shows it)
  if (report.passed === true) return { verified: true, receipt, report, grade, message: t("Verified by the server.") };
  const message = t("The server did not confirm this pass: {why} It is not kept as a pass.", { why: disagreement(report) });
  return { verified: false, receipt, report, grade, message };
}

// What the server's report says went wrong, in one sentence.
function disagreement(report) {
  if (report.error) return report.error.message;
  const wrong = report.expressions.filter((e) => !e.passed);
  const said = wrong.map((e) => {
    const fresh = e.cases.filter((c) => !c.passed && c.fresh).length;
    const shown = e.cases.filter((c) => !c.passed && !c.fresh).length;
    const counts = { expression: e.name, wrong: number(fresh), shown: number(shown), fresh: number(fresh) };
    if (e.cases.every((c) => c.fresh) && e.role === "order") {
      return tn("{wrong} of the {n} random graph it drew is wrong", "{wrong} of the {n} random graphs it drew are wrong", e.cases.length, counts);
    }
    if (shown && fresh) return t("{expression} is wrong on {shown} of the page's value sets and {fresh} it drew itself", counts);
    if (shown) return t("{expression} is wrong on {shown} of the page's value sets", counts);
    return tn("{expression} is wrong on {n} value set it drew itself", "{expression} is wrong on {n} value sets it drew itself", fresh, counts);
  });
  return `${said.join("; ")}.`;
}

// After a Check: verify a pass when verification is on, showing it in place; resolve to the outcome
// (null when nothing was asked: verification off, or no pass to confirm). A pass the server could not
// take now is sent again by itself; settle(outcome) is called with the server's answer when it comes.
export async function verifyPass(place, url, source, report, settle = () => {}) {
  if (!url || report.passed !== true) {
    if (!kept) {
      place.hidden = true;
      place.dataset.state = "none";
    }
    return null; // a kept pass still waits for the server: its line stays
  }
  kept = null;
  place.hidden = false;
  place.dataset.state = "checking";
  place.replaceChildren(t("Verifying with the server…"));
  const outcome = await askServer(url, source);
  show(place, outcome);
  if (outcome.again) keep(place, url, source, settle, outcome.again);
  return outcome;
}

function show(place, outcome) {
  const states = { true: "verified", false: "disagrees", null: outcome.again ? "waiting" : "unavailable" };
  place.hidden = false;
  place.dataset.state = states[outcome.verified];
  place.replaceChildren(el("span", { text: outcome.message }));
}

// Send the pass again after `seconds`, and again while the server cannot take it; never dropped but
// for a newer pass, which takes its place.
function keep(place, url, source, settle, seconds) {
  const pass = {};
  kept = pass;
  setTimeout(async () => {
    if (kept !== pass) return;
    const outcome = await askServer(url, source);
    if (kept !== pass) return;
    show(place, outcome);
    if (outcome.again) return keep(place, url, source, settle, outcome.again);
    kept = null;
    settle(outcome);
  }, seconds * 1000);
}

// What a Check counts for (the progress kept, the checked event): with verification on, a pass only
// when the server confirmed it; the page's own pass is the learner's to fake (docs/verification.md).
export function counted(report, outcome) {
  if (report.passed !== true || outcome === null) return report; // no pass, or verification off
  if (outcome.verified === true) return report;
  return { ...report, passed: false, expressions: outcome.report?.expressions ?? report.expressions };
}
