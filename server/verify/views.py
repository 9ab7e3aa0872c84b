"""`POST <prefix>/verify`: re-grade a pass in the sandbox, decide here, and sign a receipt; and the JWKS.

The pass is run and judged by server/sandbox/judging.py (as the records' judge runs a Check): nothing the
learner's code prints, patches or forges changes the verdict. Here: who asks (server/learners/who.py),
one verification at a time per learner and the rate limits (server/http/limits.py), a sandbox's slot at
once or in the queue (server/sandbox/holds.py), the receipt (its claims and signature:
server/verify/receipt.py), and the Check recorded (server/records) and its grade sent (server/lti).
"""

import hashlib
import math
import os
import time
from pathlib import Path

from flask import Blueprint, Flask, Response, current_app, jsonify, request, url_for
from flask_babel import format_number, gettext
from werkzeug.exceptions import RequestEntityTooLarge

from engine.errors import MAX_SOURCE, refusal
from exercises.backward.seed import VERDICTS
from server.db.unreachable import UNREACHABLE
from server.http import bounds
from server.http.limits import client, limits
from server.keys.keysets import key_sets
from server.learners.tokens import Learners
from server.learners.who import TokenRefused, Who, learner_of, rule_of
from server.page import i18n
from server.sandbox import box
from server.sandbox.bwrap import PLAIN_SLOT
from server.sandbox.graded import NotServed, exercise_of
from server.sandbox.holds import Holds, Queue
from server.sandbox.judging import judge_passes, run_source
from server.sandbox.sandbox_io import Slots
from server.sandbox.terms import SandboxUnavailable
from server.verify import receipt
from server.verify.receipt import Signer

bp = Blueprint("verify", __name__)
BUSY_RETRY_S = 1  # Retry-After of a 503 when the queue is full or its wait ran out


def refuse(status: int, message: str, retry_after: float | None = None) -> tuple[Response, int]:
    """A JSON error with its status (and Retry-After, in whole seconds)."""
    response = jsonify(error=message)
    if retry_after is not None:
        response.headers["Retry-After"] = str(max(1, math.ceil(retry_after)))
    return response, status


def learner_key(who: Who | None) -> str | None:
    """Whom holds and limits count a request against when the learner is known (None: anonymous, the
    address): the learner, by a hash of its platform (LTI) and sub."""
    if who is None:
        return None
    issuer = who.issuer if who.launch is not None else ""
    return "learner " + hashlib.sha256(f"{issuer}\n{who.sub}".encode()).hexdigest()[:32]


@bp.errorhandler(RequestEntityTooLarge)
def too_large(exc: RequestEntityTooLarge) -> tuple[Response, int]:
    """Refuse a body over the source limit (the JWKS's, over its few kB: as any route,
    server/http/bounds.py)."""
    if request.endpoint != "verify.verify":
        return bounds.too_large(exc)
    return refuse(
        413, gettext("The code is over the limit of %(limit)s characters.", limit=format_number(MAX_SOURCE))
    )


@bp.post("/verify")
def verify() -> tuple[Response, int]:
    """Run the posted source in the sandbox, decide its verdict here, and sign a receipt."""
    state = current_app.extensions["verify"]
    payload = bounds.json_body()  # within the route's limit (server/http/bounds.py); odd JSON is a 400 there
    source = payload.get("source") if isinstance(payload, dict) else None
    if not isinstance(source, str) or not source.strip():
        return refuse(
            400, 'Send JSON {"source": "<your code>"}, with the code as text.'
        )  # to a script's author
    with i18n.speaking():  # the engine's words (engine/words.py) in the page's language
        reason = refusal(source)
    if reason:
        return refuse(413, reason)
    config = current_app.config
    limit, window = config["VERIFY_RATE_LIMIT"], config["VERIFY_RATE_WINDOW_S"]
    try:
        learner = learner_of(payload, state)
    except TokenRefused as exc:  # counted against the address: a flood of forged tokens meets its limit
        if wait := limits().count("verify", limit, window, client()):
            return refuse(429, gettext("Too many verifications from you; try again in a moment."), wait)
        return refuse(400, str(exc))
    sub, launch = (learner.sub, learner.launch) if learner is not None else (None, None)
    try:  # the Check's exercise: the payload's (none: LEGACY), or a launch's, which it must not contradict
        which = exercise_of(payload, launch)
    except NotServed as exc:
        return refuse(400, str(exc))
    who = learner_key(learner) or client()
    # One verification at a time per learner (per address for the anonymous), seen by every process of
    # the instance (and every instance, with Redis); the count; then a slot, at once or in the queue:
    # a full queue, or a wait past its deadline, is a 503, and the count is taken back.
    hold_s = config["VERIFY_TIME_LIMIT_MS"] / 1000 + config["VERIFY_QUEUE_WAIT_S"] + 60
    with limits().hold("verify", who, hold_s, state["holds"]) as mine:
        if not mine:
            return refuse(429, gettext("Your last verification is still running; wait for its answer."), 1)
        if wait := limits().count("verify", limit, window, who):
            return refuse(429, gettext("Too many verifications from you; try again in a moment."), wait)
        with state["queue"].slot(state["slots"]) as slot:
            if slot is None:
                limits().refund("verify", who, window)
                return refuse(503, gettext("Every sandbox is busy; try again in a moment."), BUSY_RETRY_S)
            verdict = which.rule(rule_of(learner))
            start = time.perf_counter()
            cases, outcome, fault = run_source(source, verdict, slot, i18n.catalogue(), which.id)
            if fault:  # the server's, not the learner's code's: said so, and not counted
                current_app.logger.error("a verification could not run: %s", fault)
                limits().refund("verify", who, window)
                return refuse(503, gettext("The server could not run your code; try again in a moment."), 5)
    with i18n.speaking():  # the report's words: the expressions', the errors' caps
        report, passes = judge_passes(cases, outcome, verdict, which.id)
    report["ms"] = round((time.perf_counter() - start) * 1000, 3)
    claims = receipt.claims(
        url_for("page.index", _external=True),
        report,
        source,
        sub,  # the learner the course's token (or the launch) names
        launch["issuer"] if launch is not None else None,  # LTI: sub is this platform's user
        which.id,
        which.version(verdict),
    )
    body = {"report": report, "receipt": state["signer"].sign(claims)}
    try:
        if "records" in current_app.extensions:  # records: this Check of a named learner, judged here
            from server.records.judge import record_judged

            record_judged(learner, source, cases, report, passes, which.id)
        if launch is not None:  # LTI hook: a verified pass goes to the course's gradebook
            from server.lti.grades import record_pass

            body["grade"] = record_pass(launch, report, claims["jti"])
    except UNREACHABLE:  # not recorded, or its grade not queued: a 503 (server/db/unreachable.py), and
        limits().refund("verify", who, window)  # the page sends it again, not counted twice
        raise
    return jsonify(body), 200


@bp.get("/.well-known/jwks.json")
def jwks() -> Response:
    """Publish the public keys that sign receipts, the current one and those retired but kept."""
    response = jsonify(current_app.extensions["verify"]["signer"].jwks())
    response.headers["Cache-Control"] = "no-cache"
    response.headers["Cross-Origin-Resource-Policy"] = "cross-origin"  # course pages may fetch it
    response.headers["Access-Control-Allow-Origin"] = "*"
    return response


def init_app(app: Flask) -> None:
    """Turn verification on: check the sandbox starts (or refuse to start), load the key, the limits."""
    if app.config["VERDICT"] not in VERDICTS:
        choices = ", ".join(VERDICTS)
        raise ValueError(f"PLAYGROUND_VERDICT must be one of {choices}, not {app.config['VERDICT']!r}")
    if not app.config["VERIFY"]:
        return
    try:
        box.check()
    except SandboxUnavailable as exc:
        message = f"PLAYGROUND_VERIFY=1, but no sandbox can start, so no learner code will run here: {exc}"
        raise SandboxUnavailable(message) from None
    instance = Path(app.instance_path)
    key_file = Path(app.config["SIGNING_KEY_FILE"] or instance / "signing-key.pem")
    retired = Path(app.config["SIGNING_RETIRED_KEYS"] or instance / "retired-keys")
    slots = Path(app.config["VERIFY_SLOTS_DIR"] or instance / "sandbox-slots")
    if int(app.config["VERIFY_SLOTS"] or 1) > PLAIN_SLOT:
        raise ValueError(f"PLAYGROUND_VERIFY_SLOTS is at most {PLAIN_SLOT}")
    app.extensions["verify"] = {
        "signer": Signer(key_file, retired),
        "slots": Slots(slots, int(app.config["VERIFY_SLOTS"] or os.cpu_count() or 1)),
        "holds": Holds(slots / "holds"),  # the instance's: its processes share the slots' folder
        "queue": Queue(
            slots / "queue",
            int(app.config["VERIFY_QUEUE_LENGTH"]),
            float(app.config["VERIFY_QUEUE_WAIT_S"]),
            int(app.config["VERIFY_QUEUE_PER_PROCESS"]),
        ),
        "learners": Learners.from_config(app.config, key_sets(app)),
    }
    app.register_blueprint(bp)
