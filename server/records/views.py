"""`POST <prefix>/record`: keep a Check that did not pass, and queue it for the judge; answer at once.

The page sends it after each Check that did not pass, with its launch or learner token, and never waits
for the answer. The tokens are checked as /verify checks them (server/learners/who.py's learner_of); the row
is written and the task queued (bounded per learner and in all: over the bound the Check is recorded,
`skipped`, never judged), and the answer is a 202: judging comes after (judge.py). What one learner
keeps, in Checks and bytes of code, per window and in all, is bounded across the instance's processes
(quota.py): past a bound, a 429 with Retry-After, or a skipped Check's row kept without its code.
"""

from flask import Blueprint, Response, current_app, jsonify
from flask_babel import gettext

from engine.errors import refusal
from server.db import database
from server.http import bounds
from server.http.limits import client, limits
from server.learners.who import TokenRefused, launch_over, learner_of, rule_of
from server.records import of_the_class, quota, store
from server.records.pseudonyms import pseudonym
from server.sandbox.graded import NotServed, exercise_of

bp = Blueprint("records", __name__)


def answer(status: int, **fields: object) -> tuple[Response, int]:
    """A JSON answer; one with `retry` (whole seconds) says it in Retry-After too."""
    response = jsonify(fields)
    if "retry" in fields:
        response.headers["Retry-After"] = str(fields["retry"])
    return response, status


@bp.post("/record")
def record() -> tuple[Response, int]:
    """Record the posted Check against the learner its token names, and queue it for the judge."""
    config = current_app.config
    payload = bounds.json_body()  # within the route's limit (server/http/bounds.py); odd JSON is a 400 there
    source = payload.get("source") if isinstance(payload, dict) else None
    if not isinstance(source, str) or not source.strip() or refusal(source):
        return answer(400, error='Send JSON {"source": "<code>", "launch" or "learner": "<token>"}.')
    limit, window = config["RECORD_RATE_LIMIT"], config["RECORD_RATE_WINDOW_S"]
    try:
        who = learner_of(payload, current_app.extensions["verify"])
    except TokenRefused as exc:  # counted against the address: a flood of forged tokens meets its limit
        if wait := limits().count("record", limit, window, client()):
            return answer(
                429, error=gettext("Asked too often; try again in a moment."), retry=quota.wait(wait)
            )
        return answer(400, error=str(exc))
    if who is None:
        return answer(400, error="No launch or learner token: nothing is recorded.")
    try:  # the Check's exercise: the payload's (none: LEGACY), or the launch's, which it must not contradict
        which = exercise_of(payload, who.launch)
    except NotServed as exc:
        return answer(400, error=str(exc))
    if not of_the_class(who):
        return answer(204)  # a teacher trying the exercise: not one of the class's Checks
    rules = quota.Bounds.of(config)
    source_bytes = quota.size(source)
    with database().connect() as conn:
        if conn.dialect.name == "postgresql":  # the commit waits for no disk sync (SQLite's: server/db)
            conn.exec_driver_sql("SET LOCAL synchronous_commit TO OFF")
        kept, now = quota.learner_now(conn, rules, who.issuer, who.sub)  # this learner's, one at a time
        mine, waiting = store.queued(conn, who.issuer, who.sub)
        within = kept.bytes + source_bytes <= rules.bytes  # its code can be kept, so judged
        judged = within and mine < config["RECORDS_QUEUED_PER_LEARNER"] and waiting < config["RECORDS_QUEUED"]
        keep_code = judged or quota.keeps_code(
            rules,
            kept,
            source_bytes,
            quota.identical(conn, who.issuer, who.course, who.activity, who.sub, store.source_sha256(source)),
            passed=False,
        )
        if refused := quota.refused(rules, kept, source_bytes if keep_code else 0, now):
            wait, in_all = refused
            if in_all:
                error = gettext("The server keeps no more of your Checks until your oldest ones expire.")
            else:
                error = gettext("Asked too often; try again in a moment.")
            return answer(429, error=error, retry=wait)
        if who.launch is None:  # a course page's learner: known from their first Check
            learner = pseudonym(who.issuer, who.course, who.sub)  # in this course
            store.opened(conn, who.issuer, who.course, who.activity, who.sub, learner, None)
        state = "queued" if judged else "skipped"
        rule = which.rule(rule_of(who))
        attempt_id = store.add_attempt(
            conn, who.issuer, who.course, who.activity, who.sub, source, rule, state, keep_code, which.id
        )
    if attempt_id is None:  # the learner's records were deleted as this arrived: it goes with them
        return answer(400, error=launch_over())
    if judged:
        current_app.extensions["records"]["judge"](attempt_id)
    return answer(202, attempt=attempt_id, state=state)
