"""`POST <prefix>/verify`: re-grade a pass in the sandbox, decide here, and sign a receipt.

The learner's source runs in a fresh sandbox (server/sandbox.py; what it is given and what is read
back: server/sandbox_io.py) on the page's value sets and on fresh ones drawn for this request; the
sandbox hands back only the gradients it got. This process judges them against the reference's
(engine/judge.py, the page's grader's own judging) and builds the report, so nothing the learner's code
prints, patches or forges changes the verdict; it can only spoil its own report. The receipt's claims
and its signature: server/receipt.py.
"""

import hashlib
import math
import os
import random
import time
from dataclasses import dataclass
from pathlib import Path

from flask import Blueprint, Flask, Response, current_app, jsonify, request, url_for
from flask_babel import format_number, gettext
from werkzeug.exceptions import RequestEntityTooLarge

from engine.errors import MAX_SOURCE, refusal
from engine.judge import Judging
from exercises.backward.seed import LEAVES, SEED, VERDICTS, exercise
from server import bounds, graphs, i18n, receipt, sandbox
from server.assets import graded_cases
from server.db.unreachable import UNREACHABLE
from server.holds import Holds, Queue
from server.keysets import key_sets
from server.learner import MAX_SUB, Learners, LearnerTokenError
from server.limits import client, limits
from server.receipt import Signer
from server.reference import expected
from server.sandbox_io import Slots, numbers, printed, read_result, sandbox_error, sandbox_files, server_fault

bp = Blueprint("verify", __name__)
BUSY_RETRY_S = 1  # Retry-After of a 503 when the queue is full or its wait ran out


def counted(verdict: str) -> tuple[str, ...]:
    """The expressions a verdict counts: the seed's three, and the teacher's choice of extras."""
    return (*SEED, *VERDICTS[verdict])


def fresh_values(rng: random.Random, expr: str) -> tuple[list[float], list[float]]:
    """One value set no page has shown, and its expected gradients: each leaf uniform in [-2, 2], to
    three decimals, not 0, drawn again until every leaf's gradient is at least graphs.SHARE (a long
    chain with a small w has gradients that round to 0: code that does nothing would pass it)."""
    for _ in range(graphs.ATTEMPTS):
        values = [graphs.leaf_value(rng) for _ in LEAVES[expr]]
        grads = expected(expr, values)
        if min(abs(g) for g in grads) >= graphs.SHARE:
            break
    return values, grads


def value_sets(verdict: str, fresh: int, rng: random.Random, graphs_drawn: int = 0) -> list[dict]:
    """The counted expressions' value sets: the page's, then `fresh` new ones each, with expected grads.

    Under strict, `graphs_drawn` random graphs too, each with a value set of its own (server/graphs.py).
    """
    cases = []
    for name in counted(verdict):
        page = [dict(c, fresh=False) for c in graded_cases(verdict) if c["group"] == name]
        cases += [{k: v for k, v in c.items() if k != "data"} for c in page]
        for _ in range(fresh):
            values, grads = fresh_values(rng, name)
            cases.append(
                {
                    "group": name,
                    "leaves": list(LEAVES[name]),
                    "inputs": {"values": values},
                    "expected": grads,
                    "example": False,
                    "extra": False,
                    "fresh": True,
                }
            )
    for _ in range(graphs_drawn if VERDICTS[verdict] else 0):
        rows, values = graphs.draw(rng)
        cases.append(
            {
                "group": "random",
                "leaves": list(LEAVES["random"]),
                "inputs": {"values": values, "graph": rows},
                "expected": expected("random", values, rows),
                "example": False,
                "extra": False,
                "fresh": True,
            }
        )
    return cases


def judge(cases: list[dict], outcome: sandbox.Outcome, verdict: str) -> dict:
    """Decide from the numbers the sandbox returned, here: the report, in the browser's shape."""
    return judge_passes(cases, outcome, verdict)[0]


def judge_passes(cases: list[dict], outcome: sandbox.Outcome, verdict: str) -> tuple[dict, list]:
    """judge's report, and each value set's pass as the sandbox sent it back (the seed's plugin's data,
    exercises/backward/plugin/trace.py's plain pass, unchecked: whoever diagnoses it checks it,
    server/records/judge.py)."""
    data, err = read_result(outcome)
    got = data["got"] if data else []
    judging = Judging(exercise())
    for i, case in enumerate(cases):
        judging.add(case, numbers(got[i], len(case["leaves"])) if i < len(got) else None)
    judged = judging.report(err or (sandbox_error(data) if data else None), verdict)
    judged["output"] = printed(data.get("output") if data else None)
    passes = data.get("data") if data else None
    return judged, passes if isinstance(passes, list) else []


def run_source(
    source: str, verdict: str, slot: int, catalogue: dict | None
) -> tuple[list, sandbox.Outcome | None, str | None]:
    """Run source in a fresh sandbox in slot on the counted value sets, fresh ones drawn now: the cases,
    the outcome, and the server's fault when the sandbox could not run it (for the log; None: it ran)."""
    config = current_app.config
    cases = value_sets(
        verdict, config["VERIFY_FRESH_SETS"], random.SystemRandom(), config["VERIFY_FRESH_GRAPHS"]
    )
    try:
        outcome = sandbox.run(
            sandbox_files(source, cases, catalogue),
            "driver.py",
            limits_of(config),
            sandbox.sandbox_uid(slot, config["SANDBOX_UID"]),
        )
    except OSError as exc:  # bwrap or prlimit missing, no file descriptor left
        return cases, None, str(exc)
    return cases, outcome, server_fault(outcome)


def refuse(status: int, message: str, retry_after: float | None = None) -> tuple[Response, int]:
    """A JSON error with its status (and Retry-After, in whole seconds)."""
    response = jsonify(error=message)
    if retry_after is not None:
        response.headers["Retry-After"] = str(max(1, math.ceil(retry_after)))
    return response, status


class TokenRefused(Exception):
    """A learner or launch token did not check out (the message says so, to the learner)."""


@dataclass(frozen=True)
class Who:
    """The learner a request's token names, and where: the LTI platform, course (context) and activity
    (resource link) of a launch; a course page's learner token: its issuer and course claims ("" when it
    has none) and no activity ("")."""

    sub: str
    issuer: str
    course: str
    activity: str
    launch: dict | None = None


def claim_text(value: object) -> str:
    """A token's claim as a name records keep: short text, or "" for anything else."""
    return value if isinstance(value, str) and len(value) <= MAX_SUB and bounds.keepable(value) else ""


def learner_of(payload: dict, state: dict) -> Who | None:
    """The learner (and LTI launch) the request's tokens name, or None; TokenRefused when one is refused,
    or when the course configured learner tokens and neither names a learner."""
    token = payload.get("learner")
    who = None
    if token is not None and state["learners"] is not None:  # without a course's keys, no learner is known
        if not isinstance(token, str):
            raise TokenRefused(gettext("The learner token must be text."))
        try:
            claims = state["learners"].claims(token)
        except LearnerTokenError as exc:
            refused = gettext(
                "The learner token was refused (%(reason)s); reload the course's page.", reason=exc
            )
            raise TokenRefused(refused) from exc
        who = Who(claims["sub"], claim_text(claims.get("iss")), claim_text(claims.get("course")), "")
    # LTI hook (server/lti): a launched page's token names the learner, the course and the activity
    if payload.get("launch") is not None and "lti" in current_app.extensions:
        from server.lti.grades import launch_from_token

        launch = launch_from_token(payload["launch"])
        if launch is None:
            raise TokenRefused(launch_over())
        context = launch.get("context_id") or ""
        who = Who(launch["sub"], launch["issuer"], context, launch["resource_link_id"], launch)
    if who is None and state["learners"] is not None:  # a course that names its learners: no anonymous pass
        raise TokenRefused(
            gettext(
                "This course names its learners, and this page came without your learner token: "
                "open the exercise from your course's page again."
            )
        )
    return who


def launch_over() -> str:
    """What a launched page is told when its launch token no longer acts for its learner."""
    return gettext(
        "This page's launch is no longer valid: it expired, or was altered, or your records or your "
        "course's registration were deleted since it opened. Open the exercise from the course again."
    )


def rule_of(who: Who | None) -> str:
    """The verdict a learner's Check is judged by: their LTI activity's (its teacher's choice, kept with
    the launch: server/lti/activity.py), else the server's PLAYGROUND_VERDICT."""
    rule = who.launch.get("rule") if who is not None and who.launch is not None else None
    return rule or current_app.config["VERDICT"]


def learner_key(who: Who | None) -> str | None:
    """Whom holds and limits count a request against when the learner is known (None: anonymous, the
    address): the learner, by a hash of its platform (LTI) and sub."""
    if who is None:
        return None
    issuer = who.issuer if who.launch is not None else ""
    return "learner " + hashlib.sha256(f"{issuer}\n{who.sub}".encode()).hexdigest()[:32]


def limits_of(config) -> sandbox.Limits:
    """The sandbox's limits from the app's settings."""
    seconds = config["VERIFY_TIME_LIMIT_MS"] / 1000
    return sandbox.Limits(wall_s=seconds, cpu_s=max(1, math.ceil(seconds)))


@bp.errorhandler(RequestEntityTooLarge)
def too_large(exc: RequestEntityTooLarge) -> tuple[Response, int]:
    """Refuse a body over the source limit (the JWKS's, over its few kB: as any route, server/bounds.py)."""
    if request.endpoint != "verify.verify":
        return bounds.too_large(exc)
    return refuse(
        413, gettext("The code is over the limit of %(limit)s characters.", limit=format_number(MAX_SOURCE))
    )


@bp.post("/verify")
def verify() -> tuple[Response, int]:
    """Run the posted source in the sandbox, decide its verdict here, and sign a receipt."""
    state = current_app.extensions["verify"]
    payload = bounds.json_body()  # within the route's limit (server/bounds.py); odd JSON is a 400 there
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
            verdict = rule_of(learner)
            start = time.perf_counter()
            cases, outcome, fault = run_source(source, verdict, slot, i18n.catalogue())
            if fault:  # the server's, not the learner's code's: said so, and not counted
                current_app.logger.error("a verification could not run: %s", fault)
                limits().refund("verify", who, window)
                return refuse(503, gettext("The server could not run your code; try again in a moment."), 5)
    with i18n.speaking():  # the report's words: the expressions', the errors' caps
        report, passes = judge_passes(cases, outcome, verdict)
    report["ms"] = round((time.perf_counter() - start) * 1000, 3)
    claims = receipt.claims(
        url_for("page.index", _external=True),
        report,
        source,
        sub,  # the learner the course's token (or the launch) names
        launch["issuer"] if launch is not None else None,  # LTI: sub is this platform's user
    )
    body = {"report": report, "receipt": state["signer"].sign(claims)}
    try:
        if "records" in current_app.extensions:  # records: this Check of a named learner, judged here
            from server.records.judge import record_judged

            record_judged(learner, source, cases, report, passes)
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
        sandbox.check()
    except sandbox.SandboxUnavailable as exc:
        message = f"PLAYGROUND_VERIFY=1, but no sandbox can start, so no learner code will run here: {exc}"
        raise sandbox.SandboxUnavailable(message) from None
    instance = Path(app.instance_path)
    key_file = Path(app.config["SIGNING_KEY_FILE"] or instance / "signing-key.pem")
    retired = Path(app.config["SIGNING_RETIRED_KEYS"] or instance / "retired-keys")
    slots = Path(app.config["VERIFY_SLOTS_DIR"] or instance / "sandbox-slots")
    if int(app.config["VERIFY_SLOTS"] or 1) > sandbox.PLAIN_SLOT:
        raise ValueError(f"PLAYGROUND_VERIFY_SLOTS is at most {sandbox.PLAIN_SLOT}")
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
