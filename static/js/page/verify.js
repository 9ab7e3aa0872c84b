// Verified by the server: after a pass in this browser, the server re-grades the same code in its
// sandbox, on value sets it draws itself, and signs a receipt (POST verify, docs/verification.md).
// The page says what the server found; the `checked` event carries it and the receipt, for a course
// page to check on its own server. Only with verification on (config.verify), only after a pass.

import { el } from "../shared/dom.js";
import { inLanguage, number, t, tn } from "../shared/i18n.js";
import { launchFields } from "./lti.js"; // LTI hook: a launched page sends its launch token

const unavailable = (message) => ({ verified: null, receipt: null, message });

// The course's token for this learner, when it put one in the page's URL (?learner=...): the receipt
// then names the learner (server/learner.py).
const learner = () => {
  const token = new URLSearchParams(location.search).get("learner");
  return token ? { learner: token } : {};
};

// Ask the server; resolve to { verified: true | false | null (no answer), receipt, message, report }.
export async function askServer(url, source) {
  let response;
  try {
    response = await fetch(inLanguage(url), { // the server's report and refusals in the page's language
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ source, ...learner(), ...launchFields() }), // LTI hook: launchFields
    });
  } catch {
    return unavailable(t("The server could not be reached to verify this pass. It is not kept as a pass; Check again later."));
  }
  const answer = await response.json().catch(() => ({}));
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
// (null when nothing was asked: verification off, or no pass to confirm).
export async function verifyPass(place, url, source, report) {
  if (!url || report.passed !== true) {
    place.hidden = true;
    place.dataset.state = "none";
    return null;
  }
  place.hidden = false;
  place.dataset.state = "checking";
  place.replaceChildren(t("Verifying with the server…"));
  const outcome = await askServer(url, source);
  place.dataset.state = { true: "verified", false: "disagrees", null: "unavailable" }[outcome.verified];
  place.replaceChildren(el("span", { text: outcome.message }));
  return outcome;
}

// What a Check counts for (the progress kept, the checked event): with verification on, a pass only
// when the server confirmed it; the page's own pass is the learner's to fake (docs/verification.md).
export function counted(report, outcome) {
  if (report.passed !== true || outcome === null) return report; // no pass, or verification off
  if (outcome.verified === true) return report;
  return { ...report, passed: false, expressions: outcome.report?.expressions ?? report.expressions };
}
